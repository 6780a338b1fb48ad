#!/bin/sh
# Rough edges of the command line (issue 46, points 4, 5 and 12):
# - ingest --accept-export and run --accept of an export that is not there
#   are usage errors (exit 2) naming it and the known ones, before any
#   work: no catalogue made, nothing fetched or published;
# - a guard given twice in pipelines/guards.tsv is an error naming the
#   file, both lines and the guard, nothing loaded;
# - ingest --accept of a file in a user's folder shaped like a store
#   (DIR/EXPORT/DATE.csv.gz) writes no ACCEPTED.tsv there: only the store
#   named by --snapshots records acceptances.
. "$(dirname "$0")/lib.sh"

first=$SNAP/notable_ai_models/2024-07-06.csv.gz

# ---- 4. an unknown export to accept ------------------------------------------
mc ingest --accept-export no_such_export "$first" >"$TMP/out" 2>"$TMP/err"
check_eq "ingest --accept-export no_such_export: exit 2" "$?" 2
check_grep "the error names the unknown export" "accept-export no_such_export" "$TMP/err"
check_grep "and the exports given" "known ones: notable_ai_models" "$TMP/err"
check "no work done: no catalogue made" test ! -e "$MODELCAT_DB"
check "and no summary" test ! -s "$TMP/out"
# a bundle's members are the exports it gives
mc ingest --accept-export no_such_export "$DATA/bundle/2025-11-01.zip" >"$TMP/out" 2>"$TMP/err"
check_eq "the same with a bundle: exit 2" "$?" 2
members=$(python3 -c "import sys, zipfile; print(', '.join(n[:-4] for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.endswith('.csv')))" "$DATA/bundle/2025-11-01.zip")
check_grep "naming the bundle's members ($members)" "known ones: $members" "$TMP/err"
check "still no catalogue" test ! -e "$MODELCAT_DB"
# a known one is taken
check_status "--accept-export notable_ai_models of its file: exit 0" 0 \
	mc ingest --accept-export notable_ai_models "$first"

mkdir -p "$TMP/store"
mc --db "$TMP/run.db" run --snapshots "$TMP/store" --out "$TMP/site" \
	--source "notable_ai_models=file://$first" --accept no_such_export >"$TMP/out" 2>"$TMP/err"
check_eq "run --accept no_such_export: exit 2" "$?" 2
check_grep "the error names the unknown export" "accept no_such_export" "$TMP/err"
check_grep "and the known ones (the sources)" "known ones: .*notable_ai_models" "$TMP/err"
check "nothing fetched" test -z "$(ls "$TMP/store")"
check "no catalogue made" test ! -e "$TMP/run.db"
check "nothing published" test ! -e "$TMP/site"

# ---- 5. a guard given twice ---------------------------------------------------
mkdir -p "$TMP/data"
cp -R "$TOP/pipelines" "$TMP/data/pipelines"
ln -s "$TOP/sql" "$TMP/data/sql"
printf 'remove\t50%%\t1000\n' >>"$TMP/data/pipelines/guards.tsv"
lines=$(grep -n '^remove	' "$TMP/data/pipelines/guards.tsv" | cut -d: -f1 | tr '\n' ' ')
set -- $lines
check_eq "the crafted guards.tsv gives remove twice" "$#" 2
MODELCAT_DATADIR=$TMP/data mc --db "$TMP/g.db" ingest "$first" >"$TMP/out" 2>"$TMP/err"
check_eq "ingest with a guard given twice: exit 3" "$?" 3
check_grep "the error names the file, the guard and both lines" \
	"$TMP/data/pipelines/guards.tsv:$2: the guard 'remove' is given twice (lines $1 and $2)" "$TMP/err"
check "nothing loaded (no summary)" test ! -s "$TMP/out"
check_eq "no snapshot in the catalogue" "$(sqlite3 "$TMP/g.db" 'SELECT count(*) FROM snapshot' 2>/dev/null || echo 0)" 0

# ---- 12. --accept of a file in a folder shaped like a store -------------------
# a user's data folder: DATA/notable_ai_models/DATE.csv.gz, a file with the
# header and no rows (the "no rows" guard holds it)
user=$TMP/user
mkdir -p "$user/notable_ai_models"
gzip -dc "$first" | head -1 | gzip >"$user/notable_ai_models/2024-08-01.csv.gz"
export MODELCAT_DB=$TMP/accept.db
mc ingest "$first" >/dev/null 2>&1
cp "$SNAP/ACCEPTED.tsv" "$TMP/bundled.before"
( cd "$TMP" && mc ingest "$user/notable_ai_models/2024-08-01.csv.gz" ) >"$TMP/out" 2>"$TMP/err"
check_eq "the header-only file is held without --accept (exit 1)" "$?" 1
( cd "$TMP" && mc ingest --accept "$user/notable_ai_models/2024-08-01.csv.gz" ) >"$TMP/out" 2>"$TMP/err"
check_eq "ingest --accept of it: exit 0" "$?" 0
check "no ACCEPTED.tsv written into the user's folder" test ! -e "$user/ACCEPTED.tsv"
check "nor anything else there" test "$(find "$user" -type f | wc -l)" -eq 1
check_grep "stdout says it is accepted in the catalogue only" \
	"^notable_ai_models: accepted in this catalogue only: $user/notable_ai_models/2024-08-01.csv.gz is not a file of the snapshot store" "$TMP/out"
check "the bundled store's ACCEPTED.tsv is unchanged" cmp -s "$SNAP/ACCEPTED.tsv" "$TMP/bundled.before"
check_eq "the catalogue remembers the acceptance" "$(sql 'SELECT count(*) FROM accepted_content')" 1
# named as the store, the same folder records it
export MODELCAT_DB=$TMP/accept2.db
mc ingest "$first" >/dev/null 2>&1
mc ingest --snapshots "$user" --accept "$user/notable_ai_models/2024-08-01.csv.gz" >"$TMP/out" 2>"$TMP/err"
check_eq "with --snapshots naming the folder: exit 0" "$?" 0
check_grep "the acceptance is recorded in that store" \
	"^notable_ai_models: acceptance recorded in $user/ACCEPTED.tsv$" "$TMP/out"
check_eq "ACCEPTED.tsv names the file" "$(tail -n +2 "$user/ACCEPTED.tsv" | cut -f1,3)" \
	"$(printf 'notable_ai_models\tnotable_ai_models/2024-08-01.csv.gz')"
done_testing
