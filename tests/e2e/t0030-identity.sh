#!/bin/sh
# Identity: duplicate names in all_ai_models are all kept (occurrence
# numbers, in file order) and reported; rows with no name are quarantined.
. "$(dirname "$0")/lib.sh"

all=$SNAP/all_ai_models/2025-04-23.csv.gz
check_status "all_ai_models ingests with exit 1 (rows without a name)" 1 \
	mc ingest --as-of 2025-04-23 "$all"
cp "$TMP/err" "$TMP/ingest.err"

for name in AMPLIFY SigLIP; do
	n=$(sql "SELECT group_concat(occurrence) FROM (SELECT occurrence FROM record WHERE name = '$name' ORDER BY occurrence)")
	check_eq "both '$name' rows are kept as occurrences 1 and 2" "$n" "1,2"
	check_grep "the repeat of '$name' is reported" "model name '$name' repeats (occurrence 2)" "$TMP/ingest.err"
done
# the two AMPLIFY rows are different rows of the file, in file order
lines=$(sql "SELECT group_concat(v.line) FROM (SELECT v.line FROM record r JOIN version v ON v.record_id = r.id WHERE r.name = 'AMPLIFY' ORDER BY r.occurrence) v")
want=$(gzip -dc "$all" | python3 -c '
import csv, sys
lines, line = [], 2
r = csv.reader(sys.stdin); next(r)
for row in r:
    if row[0].strip() == "AMPLIFY": lines.append(str(line))
    line += sum(c.count("\n") for c in row) + 1
print(",".join(lines))')
check_eq "AMPLIFY occurrences follow file order (lines $want)" "$lines" "$want"

n=$(sql "SELECT count(*) FROM quarantine WHERE reason LIKE '%no model name%'")
check_eq "the three rows with no name are quarantined" "$n" 3
n=$(grep -c 'the row has no model name (row quarantined)' "$TMP/ingest.err")
check_eq "each is reported on stderr" "$n" 3
n=$(sql "SELECT count(*) FROM record WHERE export = 'all_ai_models'")
check_eq "2228 rows - 3 without a name = 2225 records" "$n" 2225
n=$(sql "SELECT count(*) FROM notice WHERE message LIKE '%repeats%'")
check_eq "the repeats are stored as notices" "$n" 2

# names are trimmed: a padded name is the same model
printf 'Model,Parameters\n  Padded model \t,1e9\n' >"$TMP/padded.csv"
mc ingest --as-of 2025-05-01 "demo=$TMP/padded.csv" >/dev/null 2>&1
check_eq "names are trimmed" "$(sql "SELECT name FROM record WHERE export = 'demo'")" "Padded model"

# Repeats are numbered exactly past the names held in memory (98,304: then
# the counts go to a temporary file): 150,000 names, then the first 1,000
# again and the first 10 a third time, interleaved with new names.
python3 - "$TMP/many.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("Model,Parameters\n")
    for i in range(150000):
        f.write("m%d,%d\n" % (i, i))
    for i in range(1000):
        f.write("m%d,2\nnew%d,1\n" % (i, i))
    for i in range(10):
        f.write("m%d,3\n" % i)
PY
check_status "150,000 names and 1,010 repeats ingest (exit 0)" 0 \
	env TMPDIR="$TMP" "$BIN/modelcat" ingest --as-of 2025-06-01 "many=$TMP/many.csv"
check_eq "every row is a record" \
	"$(sql "SELECT count(*) FROM record WHERE export = 'many'")" 152010
check_eq "the first 1,000 names have an occurrence 2, none other" \
	"$(sql "SELECT count(*), min(CAST(substr(name, 2) AS INT)), max(CAST(substr(name, 2) AS INT)) FROM record WHERE export = 'many' AND occurrence = 2")" \
	"1000|0|999"
check_eq "the first 10 have an occurrence 3" \
	"$(sql "SELECT group_concat(name) FROM (SELECT name FROM record WHERE export = 'many' AND occurrence = 3 ORDER BY CAST(substr(name, 2) AS INT))")" \
	"m0,m1,m2,m3,m4,m5,m6,m7,m8,m9"
check_eq "no name has an occurrence 4, no new name an occurrence 2" \
	"$(sql "SELECT count(*) FROM record WHERE export = 'many' AND (occurrence > 3 OR (occurrence > 1 AND name LIKE 'new%'))")" 0
check_eq "each repeat is reported once" "$(grep -c "repeats (occurrence [23])" "$TMP/err")" 1010
check_eq "the temporary file of names is gone" "$(ls "$TMP" | grep -c modelcat-names)" 0

# The counts need the temporary folder once past memory: an unusable one
# fails the parse, naming the row and the folder, and loads nothing.
check_status "an unusable TMPDIR fails the parse (exit 3)" 3 \
	env TMPDIR="$TMP/none" "$BIN/modelcat" parse "many=$TMP/many.csv"
check_grep "the error names file, line and folder" \
	"many.csv:98306: .*none: cannot make a temporary file to count model names" "$TMP/err"
# and one that fills up (the file size limit: 2 MB are written at the
# first spill) fails it the same way, not with counts started again
(ulimit -f 1000; TMPDIR="$TMP" "$BIN/modelcat" parse "many=$TMP/many.csv") \
	>"$TMP/out" 2>"$TMP/err"
check_eq "a full TMPDIR fails the parse (exit 3)" "$?" 3
check_grep "the error says the write failed" \
	"many.csv:98306: .*: cannot write the temporary file of model names: File too large" "$TMP/err"
done_testing
