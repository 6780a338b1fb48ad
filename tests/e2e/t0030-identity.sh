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
done_testing
