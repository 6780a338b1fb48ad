#!/bin/sh
# reingest rebuilds the catalogue from every bundled snapshot, oldest
# first, and replaces the old catalogue only when complete.
. "$(dirname "$0")/lib.sh"

check_status "reingest of the bundled store exits 0" 0 mc reingest --snapshots "$SNAP"
cp "$TMP/out" "$TMP/reingest.out"
check_grep "the three rows without a name are counted" "3 quarantined (listed in the quarantine table)" "$TMP/reingest.out"
check_status "with --strict the quarantined rows make it exit 1" 1 \
	mc --db "$TMP/strict.db" reingest --snapshots "$SNAP" --strict
# the store's files and their dates, read from its folders (a bundle's
# members each an export file: tests/e2e/storeref.py)
nfiles=$(python3 "$TOP/tests/e2e/storeref.py" "$SNAP" count)
want_dates="$(python3 "$TOP/tests/e2e/storeref.py" "$SNAP" dates) "
ndates=$(echo $want_dates | wc -w | tr -d ' ')
check_grep "it prints a summary" "rebuilt .* from $ndates snapshots ($nfiles export files)" "$TMP/reingest.out"
dates=$(grep '^snapshot ' "$TMP/reingest.out" | cut -d' ' -f2 | tr '\n' ' ')
check_eq "snapshots load oldest first" "$dates" "$want_dates"
check_eq "one snapshot row per date" "$(sql 'SELECT count(*) FROM snapshot')" "$ndates"
rows=$(mc export --source notable_ai_models --as-of 2025-05-06 | python3 -c 'import csv,sys; print(len(list(csv.reader(sys.stdin)))-1)')
check_eq "the latest notable export has its 954 rows" "$rows" 954
rows=$(mc export --source notable_ai_models --as-of 2024-12-31 | python3 -c 'import csv,sys; print(len(list(csv.reader(sys.stdin)))-1)')
check_eq "notable as of 2024-12-31 has the 2024-12-24 snapshot's 884 rows" "$rows" 884
n=$(sql "SELECT count(*) FROM version WHERE valid_to IS NULL AND tombstone = 0 AND record_id IN (SELECT id FROM record WHERE export = 'notable_ai_models')")
want=$(python3 "$TOP/tests/e2e/storeref.py" "$SNAP" rows notable_ai_models)
check_eq "as many current notable records as the latest notable file has rows ($want)" "$n" "$want"

# a store with a broken file: the old catalogue stays
cp "$MODELCAT_DB" "$TMP/before.db"
mkdir -p "$TMP/store/notable_ai_models"
cp "$SNAP/notable_ai_models/2024-07-06.csv.gz" "$TMP/store/notable_ai_models/"
printf 'garbage' | gzip >"$TMP/store/notable_ai_models/2024-07-16.csv.gz"
check_status "a store with a corrupt export fails (exit 3)" 3 mc reingest --snapshots "$TMP/store"
check_grep "the old catalogue is left as it was" "left as it was" "$TMP/err"
check "the catalogue file is unchanged" cmp -s "$MODELCAT_DB" "$TMP/before.db"
check "no temporary catalogue is left behind" sh -c "! ls '$TMP' | grep -q reingest-"
check_status "an empty store fails (exit 3)" 3 mc reingest --snapshots "$TMP/empty-store-missing"
done_testing
