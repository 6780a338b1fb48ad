#!/bin/sh
# Catch-up: `run` ingests every stored snapshot the catalogue lacks, oldest
# first, a day at a time, so that after failed runs (ingest failing), a
# partial run (exit 4: one source failed, another stored) and days stored
# by hand, the catalogue equals a `reingest` of the same store: `export`
# of every stored date gives the same CSV. Then DATE.N: two snapshots of
# one day are told apart by diff, export and show.
. "$(dirname "$0")/lib.sh"

N=$SNAP/notable_ai_models
L=$SNAP/large_scale_ai_models/2024-07-16.csv.gz
STORE=$TMP/store
WWW=$TMP/www
mkdir -p "$STORE/notable_ai_models" "$STORE/large_scale_ai_models" "$WWW"

# A copy of the run's programs, so that ingest can be swapped for one that
# fails.
FAST=$TMP/bin
mkdir -p "$FAST"
for p in "$BIN"/modelcat*; do
	cp "$p" "$FAST/"
done
export MODELCAT_DATADIR=$TOP
break_ingest() { mv "$FAST/modelcat-ingest" "$FAST/real-ingest"
	printf '#!/bin/sh\necho "modelcat-ingest: failing on purpose" >&2\nexit 3\n' >"$FAST/modelcat-ingest"
	chmod +x "$FAST/modelcat-ingest"; }
mend_ingest() { mv "$FAST/real-ingest" "$FAST/modelcat-ingest"; }
# shellcheck disable=SC2086
run() { $WRAP "$FAST/modelcat" run --snapshots "$STORE" --out "$TMP/public" "$@"; }

# put EXPORT NAME FILE.gz: store FILE as fetch would have on another day,
# with its manifest line
put() {
	cp "$3" "$STORE/$1/$2"
	sha=$(gzip -dc "$3" | sha256sum | cut -c1-64)
	[ -s "$STORE/MANIFEST.tsv" ] || printf 'fetched_at\tsource\tevent\tfile\turl\tstatus\tetag\tlast_modified\tsha256\tformat\tbytes\tstored_bytes\tdownload_bytes\trows\n' >"$STORE/MANIFEST.tsv"
	printf '%sT06:00:00Z\t%s\tstored\t%s/%s\tfile:///upstream/%s.csv\t0\t\t\t%s\tcsv\t1\t1\t1\t1\n' \
		"$(echo "$2" | cut -c1-10)" "$1" "$1" "$2" "$1" "$sha" >>"$STORE/MANIFEST.tsv"
}
sha12() { gzip -dc "$1" | sha256sum | cut -c1-12; }
upstream() { gzip -dc "$1" >"$WWW/notable_ai_models.csv"; }
SRC="notable_ai_models=file://$WWW/notable_ai_models.csv"

# --- day 1 stored and ingested by a good run --------------------------------
put notable_ai_models 2025-01-01.csv.gz "$N/2024-07-06.csv.gz"
put large_scale_ai_models 2025-01-01.csv.gz "$L"
upstream "$N/2024-07-06.csv.gz"
check_status "a first run ingests day 1 (exit 0)" 0 run --source "$SRC"
check_eq "the catalogue has day 1 with both exports" \
	"$(sql "SELECT count(*) FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id WHERE s.as_of = '2025-01-01'")" 2

# --- two days stored that no run ingested; several contents on day 3 --------
put notable_ai_models 2025-01-02.csv.gz "$N/2024-07-16.csv.gz"
put notable_ai_models 2025-01-03.csv.gz "$N/2024-12-24.csv.gz"
put notable_ai_models "2025-01-03T140000Z-$(sha12 "$N/2025-02-24.csv.gz").csv.gz" "$N/2025-02-24.csv.gz"
python3 - "$L" "$TMP/large-smaller.csv.gz" <<'PY'
import csv, gzip, io, sys
rows = list(csv.reader(io.TextIOWrapper(gzip.open(sys.argv[1]), encoding="utf-8", newline="")))
with gzip.open(sys.argv[2], "wt", encoding="utf-8", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows[:1] + rows[1:120])
PY
put large_scale_ai_models 2025-01-03.csv.gz "$TMP/large-smaller.csv.gz"
snapshots() { sql "SELECT group_concat(as_of || ' ' || export || ' ' || sha256, ', ') FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id"; }
day1=$(snapshots)

# --- a run whose ingest fails: today's new content is stored, not ingested ---
upstream "$N/2025-04-18.csv.gz"
break_ingest
check_status "a run whose ingest fails exits 3" 3 run --source "$SRC"
check_eq "the catalogue's snapshots are as they were" "$(snapshots)" "$day1"
today=$(date -u +%Y-%m-%d)
check "fetch stored today's content" test -f "$STORE/notable_ai_models/$today.csv.gz"

# --- a partial run (exit 4): one source stored a new content, one failed ----
upstream "$N/2025-05-06.csv.gz"
check_status "a run whose fetch is partial exits 4" 4 run --source "$SRC" \
	--source "large_scale_ai_models=file://$WWW/missing.csv"
check_eq "the catalogue's snapshots are still as they were" "$(snapshots)" "$day1"
n=$(ls "$STORE/notable_ai_models" | grep -c "^$today")
check_eq "today has two stored contents" "$n" 2

# --- the next good run catches up -------------------------------------------
mend_ingest
# (day 3's large_scale_ai_models keeps 119 of its rows: it would remove more
# than 5 % of the export's models, so the guard holds it unless accepted)
check_status "the next good run exits 0" 0 run --source "$SRC" --accept large_scale_ai_models
cp "$TMP/err" "$TMP/catchup.log"
check_grep "it ingested the four new files (each export's day a file)" "ingesting 4 new export files" "$TMP/catchup.log"
check_eq "its snapshots: one per stored day, oldest first" \
	"$(sql "SELECT group_concat(as_of, ' ') FROM (SELECT as_of FROM snapshot ORDER BY id)")" \
	"2025-01-01 2025-01-02 2025-01-03 $today"
check_status "a run with nothing new exits 0" 0 run --source "$SRC"
check_grep "and says no change" "nothing new upstream: no change" "$TMP/err"

# --- equal to a reingest of the same store ----------------------------------
# a rebuild of this catalogue (a copy: it keeps what was accepted past a guard)
cp "$MODELCAT_DB" "$TMP/re.db"
check_status "reingest of the same store" 0 "$BIN/modelcat" reingest --db "$TMP/re.db" --snapshots "$STORE"
same=0 total=0
for day in 2025-01-01 2025-01-02 2025-01-03 "$today"; do
	for x in notable_ai_models large_scale_ai_models; do
		total=$((total + 1))
		mc export --source $x --as-of "$day" >"$TMP/a.csv" 2>/dev/null
		mc --db "$TMP/re.db" export --source $x --as-of "$day" >"$TMP/b.csv" 2>/dev/null
		if [ -s "$TMP/a.csv" ] && cmp -s "$TMP/a.csv" "$TMP/b.csv"; then same=$((same + 1))
		else echo "# $x on $day differs"; fi
	done
done
check_eq "export of every stored date and export equals reingest's" "$same" "$total"
check_eq "the day's latest content was used on day 3" \
	"$(sql "SELECT sha256 FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id WHERE s.as_of = '2025-01-03' AND export = 'notable_ai_models'")" \
	"$(gzip -dc "$N/2025-02-24.csv.gz" | sha256sum | cut -c1-64)"

# --- a later content of a day the catalogue has: caught up as DATE.2 --------
upstream "$N/2024-07-06.csv.gz"
break_ingest
check_status "a run storing a third content today fails at ingest (exit 3)" 3 run --source "$SRC"
mend_ingest
check_status "the next run catches it up" 0 run --source "$SRC" --accept notable_ai_models
check_eq "today has two snapshots" "$(sql "SELECT count(*) FROM snapshot WHERE as_of = '$today'")" 2
rm -f "$TMP/re.db"
cp "$MODELCAT_DB" "$TMP/re.db"
"$BIN/modelcat" reingest --db "$TMP/re.db" --snapshots "$STORE" >/dev/null 2>&1
mc export --source notable_ai_models --as-of "$today" >"$TMP/a.csv"
mc --db "$TMP/re.db" export --source notable_ai_models --as-of "$today" >"$TMP/b.csv"
check "export of today equals reingest's" cmp -s "$TMP/a.csv" "$TMP/b.csv"

# --- DATE.N: two ingests on one day ------------------------------------------
export MODELCAT_DB=$TMP/two.db
F1=$N/2025-04-18.csv.gz F2=$N/2025-05-06.csv.gz
mc ingest --as-of 2025-06-01 "notable_ai_models=$F1" >/dev/null 2>&1
mc ingest --as-of 2025-06-01 "notable_ai_models=$F2" >/dev/null 2>&1
check_eq "two snapshots on 2025-06-01" "$(sql "SELECT count(*) FROM snapshot WHERE as_of = '2025-06-01'")" 2
# the same two files on two days, in a catalogue of their own
MODELCAT_DB=$TMP/days.db mc ingest --as-of 2025-05-31 "notable_ai_models=$F1" >/dev/null 2>&1
MODELCAT_DB=$TMP/days.db mc ingest --as-of 2025-06-01 "notable_ai_models=$F2" >/dev/null 2>&1
check_status "diff --from 2025-06-01.1 --to 2025-06-01.2" 0 mc diff --from 2025-06-01.1 --to 2025-06-01.2 --format json
sed 's/2025-06-01\.1/2025-05-31/; s/2025-06-01\.2/2025-06-01/' "$TMP/out" >"$TMP/diff-n.json"
MODELCAT_DB=$TMP/days.db mc diff --from 2025-05-31 --to 2025-06-01 --format json >"$TMP/diff-days.json"
check "it is the change between the two files (as between two days)" cmp -s "$TMP/diff-n.json" "$TMP/diff-days.json"
python3 - "$TMP/diff-n.json" "$F1" "$F2" >"$TMP/py.out" <<'PY'
import csv, gzip, io, json, sys
d = json.load(open(sys.argv[1]))
def names(p):
    return {r["Model"] for r in csv.DictReader(io.TextIOWrapper(gzip.open(p), encoding="utf-8")) if r.get("Model")}
a, b = names(sys.argv[2]), names(sys.argv[3])
added, removed = set(d["added"]), set(d["removed"])
renamed_to = {m["to"] for m in d["renamed"]}
ok = added and added <= b - a and removed <= a - b and (b - a) <= added | renamed_to
print("ok" if ok else "differs: %d added, %d new names in the file" % (len(added), len(b - a)))
PY
check_eq "the added models are the names new in the second file" "$(cat "$TMP/py.out")" ok
MODELCAT_DB=$TMP/first.db mc ingest --as-of 2025-06-01 "notable_ai_models=$F1" >/dev/null 2>&1
MODELCAT_DB=$TMP/first.db mc export --source notable_ai_models >"$TMP/first.csv"
mc export --source notable_ai_models --as-of 2025-06-01.1 >"$TMP/n1.csv"
check "export --as-of 2025-06-01.1 is the first file's content" cmp -s "$TMP/n1.csv" "$TMP/first.csv"
mc export --source notable_ai_models --as-of 2025-06-01 >"$TMP/d.csv"
MODELCAT_DB=$TMP/days.db mc export --source notable_ai_models --as-of 2025-06-01 >"$TMP/second.csv"
check "export --as-of 2025-06-01 is the second's" cmp -s "$TMP/d.csv" "$TMP/second.csv"
check "and differs from the first's" test -s "$TMP/d.csv" -a "$(md5sum <"$TMP/d.csv")" != "$(md5sum <"$TMP/n1.csv")"
mc export --source notable_ai_models --as-of 2025-06-01.2 >"$TMP/n2.csv"
check "2025-06-01.2 is the same as 2025-06-01" cmp -s "$TMP/n2.csv" "$TMP/d.csv"
check_status "an unknown DATE.N is an error (exit 3)" 3 mc diff --from 2025-06-01.1 --to 2025-06-01.3
check_eq "in one line" "$(wc -l <"$TMP/err")" 1
check_grep "naming it" "no snapshot 2025-06-01.3; 2025-06-01 has 2" "$TMP/err"
check_status "export of an unknown DATE.N exits 3" 3 mc export --source notable_ai_models --as-of 2025-06-01.7
check_status "a malformed DATE.N is a usage error (exit 2)" 2 mc diff --from 2025-06-01.0 --to 2025-06-01.2
check_status "show --as-of the day's last by number" 0 mc show GPT-4 --as-of 2025-06-01.2
check_status "show --as-of an earlier one is refused (exit 3)" 3 mc show GPT-4 --as-of 2025-06-01.1
check_grep "saying why" "not the last snapshot of 2025-06-01" "$TMP/err"
check_status "diff --to 2025-06-01.2 compares with 2025-06-01.1" 0 mc diff --to 2025-06-01.2 --format json
sed 's/"from": "2025-06-01"/"from": "2025-06-01.1"/' "$TMP/out" >"$TMP/to-only.json"
mc diff --from 2025-06-01.1 --to 2025-06-01.2 --format json >"$TMP/pair.json"
check "the same comparison" cmp -s "$TMP/to-only.json" "$TMP/pair.json"
for p in diff export show render; do
	"$BIN/modelcat" $p --help >"$TMP/help" 2>&1
	check_grep "$p --help says DATE.N" "DATE\[\.N\]" "$TMP/help"
done

done_testing
