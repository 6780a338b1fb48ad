#!/bin/sh
# A held night changes only the audit (issue 47, point 5; docs/pages.md,
# "A held night"): a snapshot whose one file a guard holds (10 % of the
# rows removed, no --accept) applies nothing, so every published file
# outside audit/ stays byte for byte as it was, and the pages, indexes,
# downloads and root page keep the date of the last applied snapshot. The
# audit gains the held snapshot's page. Once through publish, once through
# the nightly job (run). Expected values come from the store's files
# (Python's csv) and the catalogue (sqlite3).
. "$(dirname "$0")/lib.sh"

STORE=$TMP/store
mkdir -p "$STORE/notable_ai_models"
cp "$SNAP/notable_ai_models/2025-04-18.csv.gz" "$SNAP/notable_ai_models/2025-05-06.csv.gz" \
	"$STORE/notable_ai_models/"
# the last file less every tenth row, and its model count
python3 - "$STORE/notable_ai_models/2025-05-06.csv.gz" "$TMP/held.csv" >"$TMP/counts" <<'PY'
import csv, gzip, sys
rows = list(csv.reader(gzip.open(sys.argv[1], 'rt', encoding='utf-8', newline='')))
key = rows[0].index('Model')
keep = [rows[0]] + [r for i, r in enumerate(rows[1:]) if i % 10]
with open(sys.argv[2], 'w', encoding='utf-8', newline='') as f:
    csv.writer(f, lineterminator='\n').writerows(keep)
names = lambda rs: {r[key].strip() for r in rs[1:] if r[key].strip()}
print(len(names(rows)), len(names(rows) - names(keep)))
PY
read -r models gone <"$TMP/counts"

mc reingest --snapshots "$STORE" >/dev/null 2>&1
mc translate --catalogues "$TOP/translations" >/dev/null 2>&1
check_status "publish of the applied history: exit 0" 0 mc publish --out "$TMP/site"
# tree SITE OUT: every published file outside audit/ (pages and downloads
# through their links), as a path and its SHA-256, one per line
tree() {
	(cd "$1" && find -L . -path ./.modelcat -prune -o -path ./audit -prune -o -type f -print |
		LC_ALL=C sort | while read -r f; do printf '%s %s\n' "$f" "$(sha256sum <"$f" | cut -c1-64)"; done) >"$2"
}
tree "$TMP/site" "$TMP/before"
check "the published tree has the index pages" grep -q '^./pages/nl/index.html ' "$TMP/before"
check_grep "the English index says the last snapshot's date (6 May 2025)" \
	"$(printf '%s' "$models" | sed 's/\(.\)\(...\)$/\1,\2/') models.* 6 May 2025" "$TMP/site/pages/en/index.txt"

# --- the held night through publish ---------------------------------------
check_status "ingest of the file less 10 % of its rows, no --accept: held, exit 1" 1 \
	mc ingest --as-of 2025-05-07 "notable_ai_models=$TMP/held.csv"
check_grep "it is held: $gone of $models models would be removed" \
	"held for review.*remove $gone of $models models" "$TMP/err"
check_eq "the catalogue records the held export and applies nothing on 2025-05-07" \
	"$(sql "SELECT (SELECT count(*) FROM held_export), (SELECT count(*) FROM snapshot_export e JOIN snapshot s ON s.id = e.snapshot_id WHERE s.as_of = '2025-05-07')")" "1|0"
check_status "publish after the held night: exit 0" 0 mc publish --out "$TMP/site"
tree "$TMP/site" "$TMP/after"
check "every published file outside the audit is byte for byte as before" \
	cmp -s "$TMP/before" "$TMP/after"
diff "$TMP/before" "$TMP/after" | sed -n 's/^[<>] \(\S*\) .*/#   changed: \1/p' | sort -u | head -20
check "the audit has the held snapshot's page" test -s "$TMP/site/audit/2025-05-07.html"
check_grep "which says its file was held" "held" "$TMP/site/audit/2025-05-07.html"

# --- the held night through the nightly job --------------------------------
RUNSTORE=$TMP/runstore
mkdir -p "$RUNSTORE/notable_ai_models"
cp "$STORE/notable_ai_models/"*.csv.gz "$RUNSTORE/notable_ai_models/"
export MODELCAT_DB="$TMP/run.db"
mc reingest --snapshots "$RUNSTORE" >/dev/null 2>&1
mc translate --catalogues "$TOP/translations" >/dev/null 2>&1
check_status "publish of the run's catalogue: exit 0" 0 mc publish --out "$TMP/runsite"
tree "$TMP/runsite" "$TMP/run.before"
mc run --snapshots "$RUNSTORE" --out "$TMP/runsite" --source "notable_ai_models=$TMP/held.csv" \
	>"$TMP/run.out" 2>"$TMP/run.err"
check_eq "run's snapshot has its file held and applies nothing" \
	"$(sql "SELECT (SELECT count(*) FROM held_export), (SELECT count(*) FROM snapshot), (SELECT count(*) FROM snapshot_export)")" \
	"1|3|2"
tree "$TMP/runsite" "$TMP/run.after"
check "after run's held night every published file outside the audit is as before" \
	cmp -s "$TMP/run.before" "$TMP/run.after"
diff "$TMP/run.before" "$TMP/run.after" | sed -n 's/^[<>] \(\S*\) .*/#   changed: \1/p' | sort -u | head -20
check_eq "run published an audit page of each of the three snapshots, the held one too" \
	"$(find "$TMP/runsite/audit/" -maxdepth 1 -name '20??-??-??*.html' | wc -l | tr -d ' ')" 3
check_eq "and a Dutch audit page of each" \
	"$(find "$TMP/runsite/audit/nl/" -maxdepth 1 -name '20??-??-??*.html' | wc -l | tr -d ' ')" 3
done_testing
