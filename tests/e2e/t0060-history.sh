#!/bin/sh
# History over the bundled snapshots: diff between consecutive notable
# exports agrees with an independent reading of the two files; each date's
# export equals its file; the spreadsheet re-save on top reports only its
# real edits; the same file twice changes nothing; history follows renames;
# the HTML audit carries the right counts.
. "$(dirname "$0")/lib.sh"

# The model exports of the bundled history (the hardware export, dated
# after them, would make the later ingests of 2025-05-07 and 2025-05-10
# come after it in snapshot order: t0122 covers it)
mkdir -p "$TMP/store"
for e in "$SNAP"/*_ai_models; do cp -R "$e" "$TMP/store/"; done
check_status "reingest of the bundled history exits 0" 0 mc reingest --snapshots "$TMP/store"

dates="2024-07-06 2024-07-16 2024-12-24 2025-02-24 2025-04-18 2025-05-06"
prev=
for d in $dates; do
	f=$SNAP/notable_ai_models/$d.csv.gz
	mc export --source notable_ai_models --as-of "$d" >"$TMP/export.csv"
	if python3 "$TOP/tests/e2e/compare_export.py" "$TOP/pipelines/columns.tsv" "$f" \
		"$TMP/export.csv" >"$TMP/compare.out" 2>&1; then
		ok "export as of $d equals the snapshot cell for cell ($(tail -1 "$TMP/compare.out"))"
	else
		not_ok "export as of $d differs from its snapshot"
		head -5 "$TMP/compare.out" | sed 's/^/#   /'
	fi
	if [ -n "$prev" ]; then
		mc diff --from "$prev" --to "$d" --format json >"$TMP/diff.json"
		if python3 "$TOP/tests/e2e/diff_reference.py" "$TOP/pipelines/columns.tsv" \
			"$SNAP/notable_ai_models/$prev.csv.gz" "$f" "$TMP/diff.json" notable_ai_models \
			>"$TMP/ref.out" 2>&1; then
			ok "diff $prev -> $d agrees with the independent reading ($(tail -1 "$TMP/ref.out"))"
		else
			not_ok "diff $prev -> $d disagrees with the independent reading"
			head -8 "$TMP/ref.out" | sed 's/^/#   /'
		fi
	fi
	prev=$d
done

# known renames between 2024-07-16 and 2024-12-24
mc diff --from 2024-07-16 --to 2024-12-24 >"$TMP/diff.txt"
check_grep "GPT -> GPT-1 is a rename" "notable_ai_models: GPT -> GPT-1" "$TMP/diff.txt"
check_grep "DeLight -> DeLighT is a rename" "notable_ai_models: DeLight -> DeLighT" "$TMP/diff.txt"
check_grep "the System -> Model header is an alias, noted but no column change" \
	"header respelled (same field, not a change)  notable_ai_models: System -> Model" "$TMP/diff.txt"
mc diff --from 2025-04-18 --to 2025-05-06 --format json >"$TMP/alias.json"
check_eq "Country (from Organization) -> Country (of organization) is no column change" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["columns"]; print([x["field"] for x in c["added"]+c["removed"]+c["renamed"]], [x["to"] for x in d["headers_respelled"]["list"]])' "$TMP/alias.json")" \
	"['Training dataset notes', 'Training compute estimation method'] ['Country (of organization)']"
n=$(sed -n 2p "$TMP/diff.txt")
check_eq "the text audit starts with the counts" "$n" \
	"$(mc diff --from 2024-07-16 --to 2024-12-24 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = d["columns"]
print("%d added, %d removed, %d renamed, %d changed, %d quarantined; columns: %d added, %d removed" % (
    len(d["added"]), len(d["removed"]), len(d["renamed"]), len(d["changed"]), len(d["quarantined"]),
    len(c["added"]), len(c["removed"])))')"
check_grep "changes are listed as field: old -> new" "    Citations: 8,983 → 10,079" "$TMP/diff.txt"

# history and time travel
check_status "history GPT-1 exits 0" 0 mc history GPT-1
check_grep "history GPT-1 shows its life as GPT" '2024-07-06  added    notable_ai_models  "GPT"' "$TMP/out"
check_grep "history GPT-1 shows the rename and its evidence" "renamed: GPT -> GPT-1 (same link and publication date)" "$TMP/out"
check_status "history under the old name finds the same record" 0 mc history GPT
check_grep "history GPT lists the record now called GPT-1" 'notable_ai_models: "GPT-1"' "$TMP/out"
check_status "history of an unknown name exits 3" 3 mc history "No Such Model"
check_status "show GPT-1 as of 2024-08-01" 0 mc show GPT-1 --as-of 2024-08-01 --format json
check_eq "it shows the record as it stood then, under its name then" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f={x["field"]:x for x in d["fields"]}; print(d["name"], f["Citations"]["value"], f["Citations"]["snapshot"])' "$TMP/out")" \
	"GPT 8983 2024-07-16"
check_eq "the citations as of 2024-08-01 are the 2024-07-16 file's" "8983" \
	"$(gzip -dc "$SNAP/notable_ai_models/2024-07-16.csv.gz" | python3 -c '
import csv, sys
r = csv.DictReader(sys.stdin)
print([int(float(x["Citations"])) for x in r if x["System"] == "GPT"][0])')"
check_status "show of a name not on record then exits 3" 3 mc show GPT-1 --as-of 2024-01-01

# merged across exports by precedence, each value naming its export
mc show "GPT-4" --as-of 2025-05-06 --format json >"$TMP/show.json"
check_eq "GPT-4 merges the notable, large-scale and all exports, in precedence order" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(",".join(d["exports"]))' "$TMP/show.json")" \
	"notable_ai_models,large_scale_ai_models,all_ai_models"
check_eq "a field only all_ai_models has comes from it" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([x["export"] for x in d["fields"] if x["field"]=="Last modified"][0])' "$TMP/show.json")" \
	"all_ai_models"
check_eq "the model_value view merges the same way" \
	"$(sql "SELECT export FROM model_value WHERE model = 'GPT-4' AND field = 'Citations'")" notable_ai_models

# the same file twice: no change, almost no growth
cp "$MODELCAT_DB" "$TMP/base.db"
size() { sqlite3 "$MODELCAT_DB" 'PRAGMA page_count' ; }
before=$(size); versions=$(sql 'SELECT count(*) FROM version')
check_status "the latest notable file again, the next day" 0 \
	mc ingest --as-of 2025-05-07 "$SNAP/notable_ai_models/2025-05-06.csv.gz"
check_grep "it reports no change" "no change" "$TMP/out"
check_eq "no version written" "$(sql 'SELECT count(*) FROM version')" "$versions"
check_status "and again the same day" 0 mc ingest --as-of 2025-05-07 "$SNAP/notable_ai_models/2025-05-06.csv.gz"
check "the database grew by at most 2 pages" test "$(size)" -le $((before + 2))
mc diff --from 2025-05-06 --to 2025-05-07 --format json >"$TMP/none.json"
check_eq "diff over the re-ingest is empty" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["added"])+len(d["removed"])+len(d["renamed"])+len(d["changed"]))' "$TMP/none.json")" 0

# the spreadsheet re-save on top of 2025-05-06: first as a dry run (with
# --accept, as the ingest below: a guard holds it otherwise, t0112)
cp "$TMP/base.db" "$MODELCAT_DB"
check_status "diff of the files against the catalogue writes nothing" 0 mc diff --accept --to 2025-05-10 \
	--format json "notable_ai_models=$DATA/dirty/notable_ai_models-spreadsheet-resave.csv.gz"
cp "$TMP/out" "$TMP/dry.json"
check "the catalogue is unchanged by the dry run" cmp -s "$MODELCAT_DB" "$TMP/base.db"
# (more than 2 % of its rows are quarantined: held unless accepted, t0112)
check_status "the re-save ingests with exit 1" 1 mc ingest --accept --as-of 2025-05-10 \
	"notable_ai_models=$DATA/dirty/notable_ai_models-spreadsheet-resave.csv.gz"
mc diff --from 2025-05-06 --to 2025-05-10 --format json >"$TMP/dirty.json"
check_eq "only the real edits are changes (GPT-4 and AlphaGo Lee gained a parameter count)" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(";".join(sorted(c["name"]+":"+",".join(f["field"] for f in c["fields"]) for c in d["changed"])))' "$TMP/dirty.json")" \
	"AlphaGo Lee:Parameters;GPT-4:Parameters"
check_eq "the dry run reported the same changes" \
	"$(python3 -c 'import json,sys; print(sorted(c["name"] for c in json.load(open(sys.argv[1]))["changed"]))' "$TMP/dry.json")" \
	"$(python3 -c 'import json,sys; print(sorted(c["name"] for c in json.load(open(sys.argv[1]))["changed"]))' "$TMP/dirty.json")"
check_eq "21 rows quarantined" \
	"$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["quarantined"]))' "$TMP/dirty.json")" 21
check_eq "the dropped column is one column change" \
	"$(python3 -c 'import json,sys; print([c["field"] for c in json.load(open(sys.argv[1]))["columns"]["removed"]])' "$TMP/dirty.json")" \
	"['Notability criteria notes']"
v=$(mc show "Pixtral Large" --as-of 2025-05-10 --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); f={x["field"]:x for x in d["fields"]}; print(f["Publication date"]["value"], f["Publication date"]["snapshot"] <= "2025-05-06")')
check_eq "a quarantined row keeps its 2025-05-06 version" "$v" "2024-11-18 True"
check_eq "and stays in the export as held" \
	"$(sql "SELECT sr.held FROM snapshot_row sr JOIN version v ON v.id = sr.version_id JOIN snapshot_export se ON se.id = sr.snapshot_export_id JOIN snapshot s ON s.id = se.snapshot_id WHERE v.name = 'Pixtral Large' AND s.as_of = '2025-05-10'")" 1

# the HTML audit of that snapshot
mc diff --from 2025-05-06 --to 2025-05-10 --format html >"$TMP/audit.html"
count() { sed -n "s/.*id=\"count-$1\">\([0-9]*\)<.*/\1/p" "$TMP/audit.html"; }
check_eq "HTML audit: changed count" "$(count changed)" 2
check_eq "HTML audit: added count (ELIZA)" "$(count added)" 1
check_eq "HTML audit: quarantined count" "$(count quarantined)" 21
check_grep "HTML audit: changed fields highlighted, as pages show them, stored value in the title" \
	"<ins title=\"40000000000\">40B</ins>" "$TMP/audit.html"
check "HTML audit loads nothing from the network" sh -c "! grep -Eq '(src|href)=\"(https?:)?//' '$TMP/audit.html'"
check_grep "HTML audit escapes the data" "Parallel Networks that Learn to Pronounc" "$TMP/audit.html"
done_testing
