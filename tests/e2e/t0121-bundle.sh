#!/bin/sh
# A zip of several .csv members is a bundle: Epoch's ai_models.zip loads as
# four exports in one snapshot, each coming back from export cell for cell;
# its README's citation is stored and shown on the HTML pages and in the
# audit; EXPORT=FILE.zip of a bundle is a usage error; fetch keeps the zip
# as it came and reingest reads the four exports back.
. "$(dirname "$0")/lib.sh"

BUNDLE=$DATA/bundle/2025-11-01.zip
EXPORTS="notable_ai_models frontier_ai_models large_scale_ai_models all_ai_models"

# the members, read independently: Python's zipfile and csv modules
mkdir "$TMP/members"
python3 - "$BUNDLE" "$TMP/members" <<'PY'
import csv, io, re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
out = sys.argv[2]
for name in z.namelist():
    data = z.read(name)
    open(out + '/' + name, 'wb').write(data)
    if name.endswith('.csv'):
        rows = list(csv.reader(io.StringIO(data.decode('utf-8-sig'), newline='')))
        open(out + '/' + name[:-4] + '.rows', 'w').write('%d\n' % (len(rows) - 1))
readme = z.read('README.md').decode('utf-8')
# the citation: the fenced line under "### Citation"
m = re.search(r'### Citation\s*```\s*\n(.*?)\n```', readme, re.S)
open(out + '/citation', 'w').write(m.group(1).strip() + '\n')
PY
citation=$(cat "$TMP/members/citation")
check "the bundle's README has a citation (python)" test -n "$citation"

mc ingest "$BUNDLE" >"$TMP/ingest.out" 2>"$TMP/ingest.err"
check_eq "ingest of the bundle exits 0" "$?" 0
check_eq "one snapshot, dated by the file's name" \
	"$(sql "SELECT count(*) || ' ' || max(as_of) FROM snapshot")" "1 2025-11-01"
check_eq "four exports in it, named by the members" \
	"$(sql "SELECT group_concat(export, ' ') FROM (SELECT export FROM snapshot_export ORDER BY export)")" \
	"all_ai_models frontier_ai_models large_scale_ai_models notable_ai_models"
for e in $EXPORTS; do
	want=$(cat "$TMP/members/$e.rows")
	check_eq "$e: $want rows (python's csv count)" \
		"$(sql "SELECT rows FROM snapshot_export WHERE export = '$e'")" "$want"
	mc export --source "$e" >"$TMP/$e.export.csv" 2>"$TMP/export.err"
	check_eq "$e: export exits 0" "$?" 0
	if python3 "$TOP/tests/e2e/compare_export.py" "$TOP/pipelines/columns.tsv" \
		"$TMP/members/$e.csv" "$TMP/$e.export.csv" >"$TMP/compare.out" 2>&1; then
		ok "$e: every row and non-empty cell comes back ($(tail -1 "$TMP/compare.out"))"
	else
		not_ok "$e: export differs from the member"
		head -10 "$TMP/compare.out" | sed 's/^/#   /'
	fi
done
check_eq "the counts python reads are the ones Epoch states" \
	"$(cat "$TMP/members/notable_ai_models.rows") $(cat "$TMP/members/all_ai_models.rows") $(cat "$TMP/members/large_scale_ai_models.rows") $(cat "$TMP/members/frontier_ai_models.rows")" \
	"942 3170 471 131"

# the citation: stored with the snapshot, on the HTML pages, in the audit
check_eq "the citation is stored with the snapshot" \
	"$(sql "SELECT citation FROM snapshot_credit")" "$citation"
mc translate >/dev/null 2>&1
name=$(python3 -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1], encoding="utf-8-sig")))["Model"])' \
	"$TMP/members/frontier_ai_models.csv")
mc render "$name" --format html >"$TMP/page.html" 2>"$TMP/render.err"
check_eq "render --format html of '$name' exits 0" "$?" 0
want_html=$(printf '%s' "$citation" | python3 -c 'import html,sys; print(html.escape(sys.stdin.read(), quote=True))')
check "the HTML page's sources section has the citation" \
	python3 - "$TMP/page.html" "$want_html" <<'PY'
import re, sys
page = open(sys.argv[1], encoding='utf-8').read()
sections = re.findall(r'<div class="section">(.*?)</div>', page, re.S)
sys.exit(0 if sections and sys.argv[2] in sections[-1] else 1)
PY
mc render "$name" >"$TMP/page.txt" 2>/dev/null
check "the text page is left as it was (no citation)" sh -c "! grep -q 'Published online at epoch.ai' '$TMP/page.txt'"
mc publish --out "$TMP/site" >"$TMP/publish.out" 2>"$TMP/publish.err"
check_eq "publish exits 0" "$?" 0
check_eq "the text audit says Source: <citation>" \
	"$(grep '^Source: ' "$TMP/site/audit/2025-11-01.txt")" "Source: $citation"
check_eq "the JSON audit has it as source" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["source"])' "$TMP/site/audit/2025-11-01.json")" \
	"$citation"
check "the HTML audit has it" grep -qF "Source: $want_html" "$TMP/site/audit/2025-11-01.html"

# EXPORT=FILE.zip of a bundle: a usage error listing the members
check_status "EXPORT=bundle.zip exits 2" 2 mc --db "$TMP/other.db" ingest ai_models="$BUNDLE"
for e in $EXPORTS; do
	check_grep "the usage error lists $e.csv" "$e.csv" "$TMP/err"
done
check "nothing was written" test ! -s "$TMP/other.db"

# a zip of two CSVs made here is two exports
python3 - "$TMP/members" "$TMP/two.zip" <<'PY'
import sys, zipfile
d = sys.argv[1]
with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as z:
    z.write(d + '/frontier_ai_models.csv', 'first_part.csv')
    z.write(d + '/large_scale_ai_models.csv', 'second_part.csv')
    z.writestr('notes.txt', 'not an export')
PY
check_status "ingest of a zip of two CSVs exits 0" 0 \
	mc --db "$TMP/two.db" ingest --as-of 2025-11-02 "$TMP/two.zip"
check_eq "it is two exports, one snapshot" \
	"$(sqlite3 "$TMP/two.db" "SELECT count(DISTINCT snapshot_id) || ' ' || group_concat(export || '=' || rows, ' ') FROM (SELECT * FROM snapshot_export ORDER BY export)")" \
	"1 first_part=$(cat "$TMP/members/frontier_ai_models.rows") second_part=$(cat "$TMP/members/large_scale_ai_models.rows")"
check_eq "without a README.md it stores no citation" \
	"$(sqlite3 "$TMP/two.db" "SELECT count(*) FROM snapshot_credit")" 0

# fetch of a bundle from a loopback server, then reingest
mkdir "$TMP/served"
cp "$BUNDLE" "$TMP/served/ai_models.zip"
start_server "$TMP/served" 120
printf 'ai_models\t%s/data/ai_models.zip\tbundle\n' "$URL" >"$TMP/sources.tsv"
mc --db "$TMP/fetch.db" fetch --config "$TMP/sources.tsv" --snapshots "$TMP/store" \
	>"$TMP/fetch.out" 2>"$TMP/fetch.err"
check_eq "fetch of the bundle exits 0" "$?" 0
stored=$(ls "$TMP/store/ai_models")
check "the store keeps it as STORE/ai_models/DATE.zip" \
	sh -c "echo '$stored' | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}\.zip$'"
check "the stored file is the zip as served, byte for byte" cmp -s "$BUNDLE" "$TMP/store/ai_models/$stored"
sha=$(python3 -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$BUNDLE")
check_eq "the manifest records the zip's SHA-256 and format bundle" \
	"$(awk -F'\t' '$3 == "stored" { print $9 " " $10 }' "$TMP/store/MANIFEST.tsv")" "$sha bundle"
mc --db "$TMP/fetch.db" fetch --config "$TMP/sources.tsv" --snapshots "$TMP/store" >/dev/null 2>&1
check_eq "fetching it again stores nothing" "$(ls "$TMP/store/ai_models" | wc -l | tr -d ' ')" 1
# the size cap applies to the members' sum, not only to the zip's size
total=$(python3 -c 'import sys,zipfile; print(sum(i.file_size for i in zipfile.ZipFile(sys.argv[1]).infolist() if i.filename.endswith(".csv")))' "$BUNDLE")
size=$(wc -c <"$BUNDLE" | tr -d ' ')
cap=$(( (size + total) / 2 ))
check_status "a bundle whose members inflate past --max-size is refused (exit 3)" 3 \
	mc --db "$TMP/cap.db" fetch --config "$TMP/sources.tsv" --snapshots "$TMP/capstore" --max-size "$cap"
check_grep "the error says the size cap" "size cap" "$TMP/err"
check "and nothing is stored" test ! -e "$TMP/capstore/ai_models"
mc --db "$TMP/re.db" reingest --snapshots "$TMP/store" >"$TMP/re.out" 2>"$TMP/re.err"
check_eq "reingest of the store exits 0" "$?" 0
for e in $EXPORTS; do
	check_eq "reingest reads $e back ($(cat "$TMP/members/$e.rows") rows)" \
		"$(sqlite3 "$TMP/re.db" "SELECT rows FROM snapshot_export WHERE export = '$e'")" \
		"$(cat "$TMP/members/$e.rows")"
done
check_eq "reingest stores the citation too" \
	"$(sqlite3 "$TMP/re.db" "SELECT citation FROM snapshot_credit")" "$citation"
check_status "verify finds the store and the catalogue clean" 0 \
	mc --db "$TMP/re.db" verify --snapshots "$TMP/store"
# run's catch-up: a catalogue without the bundle ingests its four exports
check_status "run catches up on the stored bundle" 0 \
	mc --db "$TMP/run.db" run --snapshots "$TMP/store" --out "$TMP/runsite" --source ai_models="$URL/data/ai_models.zip"
check_eq "the run's catalogue has the four exports" \
	"$(sqlite3 "$TMP/run.db" "SELECT count(*) FROM snapshot_export")" 4
done_testing
