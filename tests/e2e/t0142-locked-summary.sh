#!/bin/sh
# An ingest whose commit fails (a sqlite3 shell holds a read transaction on
# the catalogue, so the commit cannot take its lock) prints no summary of
# what it would have loaded: only the error, exit 3, the catalogue as it
# was. Once the reader is gone the same ingest prints its summary. The
# expected row count comes from the file (Python's csv).
. "$(dirname "$0")/lib.sh"

first=$SNAP/notable_ai_models/2024-07-06.csv.gz
next=$(ls "$SNAP"/notable_ai_models/*.csv.gz | sort | sed -n 2p)
rows=$(python3 -c "import csv, gzip, sys; print(sum(1 for _ in csv.reader(gzip.open(sys.argv[1], 'rt', encoding='utf-8', newline=''))) - 1)" "$next")

check_status "the first snapshot loads" 0 mc ingest "$first"
before=$(sql 'SELECT count(*) FROM snapshot')
versions=$(sql 'SELECT count(*) FROM model_versions')

# a reader: BEGIN and a SELECT, kept open until told to end
mkfifo "$TMP/reader.in"
sqlite3 "$MODELCAT_DB" <"$TMP/reader.in" >"$TMP/reader.out" 2>&1 &
reader=$!
exec 4>"$TMP/reader.in"
echo "BEGIN; SELECT count(*) FROM snapshot;" >&4
# the SELECT's answer says the read transaction holds its lock
i=0
while [ ! -s "$TMP/reader.out" ] && [ $i -lt 12000 ]; do
	i=$((i + 1))
	sleep 0.05
done
check_eq "the reader reads inside its transaction" "$(cat "$TMP/reader.out")" "$before"

mc ingest "$next" >"$TMP/out" 2>"$TMP/err"
check_eq "ingest with a reader holding a transaction: exit 3" "$?" 3
check "no summary line on stdout (nothing was loaded)" test ! -s "$TMP/out"
check "no 'N rows: ... added' line anywhere" sh -c "! grep -q 'rows: .* added' '$TMP/out' '$TMP/err'"
check_grep "the error says the catalogue was locked" "database is locked" "$TMP/err"
check_grep "and that nothing was written" "nothing was written to the catalogue" "$TMP/err"

echo "ROLLBACK;" >&4
exec 4>&-
wait "$reader"
check_eq "the catalogue kept its snapshots" "$(sql 'SELECT count(*) FROM snapshot')" "$before"
check_eq "and its versions" "$(sql 'SELECT count(*) FROM model_versions')" "$versions"

# without the reader, the same ingest loads and prints its summary
mc ingest "$next" >"$TMP/out2" 2>"$TMP/err2"
rc=$?
check "the same ingest after the reader ended: exit 0 or 1 (exit $rc)" test "$rc" -le 1
check_grep "its summary counts the file's $rows rows" "^notable_ai_models: $rows rows: " "$TMP/out2"
check_grep "and ends with the snapshot loaded" "^snapshot .* loaded into " "$TMP/out2"
check_eq "one snapshot more" "$(sql 'SELECT count(*) FROM snapshot')" "$((before + 1))"
done_testing
