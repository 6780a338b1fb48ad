#!/bin/sh
# modelcat parse --records-only: the CSV reader alone. On every path the
# CPU has (MODELCAT_CSV_PATH), the records of the latest all_ai_models
# snapshot, and of a file with quoted fields, doubled quotes, CRLF and line
# ends inside quotes at 64-byte block edges, are counted as Python's csv
# module counts them, with the bytes read equal to the file's size; a path
# the CPU lacks falls back to the best it has; --out with it is a usage
# error; a missing file fails naming it.
. "$(dirname "$0")/lib.sh"

latest=$(ls "$SNAP/all_ai_models" | grep -E '^[0-9]{4}-[0-9]{2}-[0-9]{2}\.csv\.gz$' | sort | tail -1)
gzip -dc "$SNAP/all_ai_models/$latest" >"$TMP/all.csv"
# quoted fields with doubled quotes and CR, LF, CRLF placed so that they
# fall on and around 64-byte block edges
python3 - "$TMP/edges.csv" <<'PY'
import sys
rows = []
for i in range(400):
    pad = "p" * (i % 70)
    rows.append('%s,"q""%s\r\n%s","%s\n",%d' % (pad, "x" * (i % 13), "y" * (i % 5),
                                               "z" * (i % 64), i))
with open(sys.argv[1], "w", newline="") as f:
    f.write("a,b,c,d\r\n" + "\r\n".join(rows) + "\r\n")
PY

# records (header included) as Python's csv module reads them
count() {
	python3 -c 'import csv, sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], encoding="utf-8", newline=""))))' "$1"
}

for f in all edges; do
	want=$(count "$TMP/$f.csv")
	size=$(wc -c <"$TMP/$f.csv" | tr -d ' ')
	for path in scalar fields sse2 avx2; do
		MODELCAT_CSV_PATH=$path mc parse --records-only "$TMP/$f.csv" >"$TMP/out" 2>"$TMP/err"
		check_eq "$f.csv, $path: exit 0" "$?" 0
		got=$(sed -n 's/.*: \([0-9]*\) records, \([0-9]*\) bytes.*/\1 \2/p' "$TMP/out")
		check_eq "$f.csv, $path: records and bytes as Python counts them" "$got" "$want $size"
		used=$(sed -n 's/.*(\([a-z0-9]*\) splitter)$/\1/p' "$TMP/out")
		if grep -qw avx2 /proc/cpuinfo || [ "$path" != avx2 ]; then
			check_eq "$f.csv, $path: that path was used" "$used" "$path"
		else
			check "$f.csv, $path: the CPU lacks it, another path was used" \
				test -n "$used" -a "$used" != avx2
		fi
	done
done

check_status "--records-only with --out is a usage error" 2 \
	mc parse --records-only --out "$TMP/s.db" "$TMP/all.csv"
check_status "a missing file fails" 3 mc parse --records-only "$TMP/none.csv"
check_grep "the message names the file" "none.csv" "$TMP/err"
mc parse --help >"$TMP/help"
check_grep "--help describes --records-only" "records-only" "$TMP/help"

done_testing
