#!/bin/sh
# Hostile exports: a 100 MB cell, a 100,000-column header, files of nothing
# but quotes, a zip whose member is named ../x.csv, model names with SQL
# and shell metacharacters. Each gives a clear
# one-line error or quarantine naming file, line and field; the good rows
# beside a bad one are loaded; nothing is written outside the catalogue.
. "$(dirname "$0")/lib.sh"

# the longest line on stderr, in bytes
longest() { awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$1"; }

# ---- a 100 MB cell between two good rows ----
python3 - "$TMP/big.csv" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("Model,Parameters,Parameters notes,Publication date\n")
    f.write("Alpha,1.5e9,small,2023-01-02\n")
    f.write('Huge,2e9,"' + "x" * (100 * 1024 * 1024) + '",2023-02-03\n')
    f.write("Gamma,3e9,also small,2023-03-04\n")
EOF
check_status "an export with a 100 MB cell: the row is quarantined, exit 1" 1 \
	mc ingest --as-of 2025-01-01 "hostile=$TMP/big.csv"
check_grep "the quarantine names file, line and field, and the limit" \
	"big.csv:3: .*Parameters notes: the row is longer than the limit of 33554432 bytes" "$TMP/err"
check_eq "every message is one short line" "$(test "$(longest "$TMP/err")" -lt 400 && echo short)" short
check_eq "the good rows beside it are loaded" \
	"$(mc export --source hostile 2>/dev/null | cut -d, -f1 | sort | tr '\n' ' ')" "Alpha Gamma Model "
check_eq "the quarantined row is on record with its line and field" \
	"$(sql "SELECT line, field, name FROM quarantine")" "3|Parameters notes|Huge"
check_eq "it is kept cut at the limit (with its name), not whole" \
	"$(sql "SELECT length(raw) BETWEEN 33000000 AND 33554432 AND raw LIKE 'Huge,2e9,%' FROM quarantine")" 1
rm -f "$TMP/big.csv"

# ---- a header of 100,000 columns ----
python3 - "$TMP/wide.csv" <<'EOF'
import sys
n = 100000
cols = ["Model", "Parameters"] + ["Extra %d" % i for i in range(n - 2)]
with open(sys.argv[1], "w") as f:
    f.write(",".join(cols) + "\n")
    for r in range(3):
        cells = ["Wide %d" % r, "%de9" % (r + 1)]
        cells += ["v%d.%d" % (r, i) if i % 9973 == r else "" for i in range(n - 2)]
        f.write(",".join(cells) + "\n")
EOF
check_status "a 100,000-column export loads (exit 0)" 0 mc ingest --as-of 2025-01-02 "wide=$TMP/wide.csv"
check_eq "the unknown columns are reported in 1 line, not 99,998" "$(grep -c 'column' "$TMP/err")" 1
check_grep "they are counted in it" \
	"wide.csv: 99998 columns not in the column map; kept as text fields" "$TMP/err"
check_eq "the catalogue keeps 21 notices of them, not 99,998" \
	"$(sql "SELECT count(*) FROM notice WHERE message LIKE '%wide.csv: %column%'")" 21
check_eq "the last counts the rest" \
	"$(sql "SELECT count(*) FROM notice WHERE message LIKE '%wide.csv: 99978 more columns are not in the column map (the first 20 are listed)%'")" 1
check_eq "every column is on record" \
	"$(sql "SELECT count(*) FROM export_column ec JOIN snapshot_export se ON se.id = ec.snapshot_export_id WHERE se.export = 'wide'" 2>/dev/null)" 100000
mc export --source wide >"$TMP/wide-back.csv" 2>"$TMP/err"
check "the export gives back every row and non-empty cell" \
	python3 "$TOP/tests/e2e/compare_export.py" "$TOP/pipelines/columns.tsv" "$TMP/wide.csv" "$TMP/wide-back.csv"
rm -f "$TMP/wide.csv" "$TMP/wide-back.csv"

# ---- files of nothing but quotes ----
cp "$MODELCAT_DB" "$TMP/before.db"
python3 -c 'import sys; open(sys.argv[1], "w").write("\"" * 1000000)' "$TMP/even.csv"
python3 -c 'import sys; open(sys.argv[1], "w").write("\"" * 1000001)' "$TMP/odd.csv"
check_status "a file of 1,000,000 quotes is refused, exit 3" 3 mc ingest --as-of 2025-01-03 "q=$TMP/even.csv"
check_grep "it is not an export: no model name column, said on line 1" \
	"even.csv:1: no model name column" "$TMP/err"
check_eq "its messages are short lines (the header cell is quoted in part)" \
	"$(test "$(longest "$TMP/err")" -lt 400 && echo short)" short
check_status "a file of 1,000,001 quotes is refused, exit 3" 3 mc ingest --as-of 2025-01-03 "q=$TMP/odd.csv"
check_grep "its header is an unterminated quote" "odd.csv:1: the header is not valid text (unterminated quote)" "$TMP/err"
check_eq "neither changed the catalogue" \
	"$(sqlite3 "$MODELCAT_DB" 'SELECT count(*) FROM snapshot; SELECT count(*) FROM version' | tr '\n' ' ')" \
	"$(sqlite3 "$TMP/before.db" 'SELECT count(*) FROM snapshot; SELECT count(*) FROM version' | tr '\n' ' ')"

# ---- a zip whose member is named ../x.csv ----
mkdir -p "$TMP/work/in"
python3 - "$TMP/work/in/evil.zip" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("../x.csv", "Model,Parameters\nZipped,7e9\n")
EOF
before=$(cd "$TMP" && find . -path ./catalogue.db -prune -o -print | sort | grep -v 'catalogue.db' | tr '\n' ' ')
(cd "$TMP/work/in" && mc ingest --as-of 2025-01-04 "zipped=evil.zip" >"$TMP/out" 2>"$TMP/err")
check_eq "the zip's member is read (exit 0)" "$?" 0
check_eq "its row is loaded" "$(mc export --source zipped 2>/dev/null | tail -n 1)" "Zipped,7000000000"
after=$(cd "$TMP" && find . -path ./catalogue.db -prune -o -print | sort | grep -v 'catalogue.db' | tr '\n' ' ')
check_eq "nothing is written next to the zip, above it, or anywhere in the test folder" "$after" "$before"
check "no x.csv appears above the zip's folder" test ! -e "$TMP/work/x.csv"

# ---- model names with SQL and shell metacharacters ----
mkdir -p "$TMP/meta"
python3 - "$TMP/meta/names.csv" <<'EOF2'
import csv, sys
names = ["Robert'); DROP TABLE version;--", "x' OR '1'='1", '$(touch pwned)', '`touch pwned2`',
         "; rm -rf ./* #", '" && echo hi > pwned3 "', "%s%n%x", "a\\b\\'c"]
with open(sys.argv[1], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["Model", "Parameters", "Organization"])
    for i, n in enumerate(names):
        w.writerow([n, "%de9" % (i + 1), n])
EOF2
(cd "$TMP/meta" && mc ingest --as-of 2025-01-05 "meta=names.csv" >"$TMP/out" 2>"$TMP/err")
check_eq "names with SQL and shell metacharacters load (exit 0)" "$?" 0
check_eq "the catalogue's tables are all there" \
	"$(sql "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('version', 'record', 'snapshot_row')")" 3
check_eq "each is one record, under its own name" \
	"$(sql "SELECT count(*) FROM record WHERE export = 'meta'")" 8
n=0 bad=0
while IFS= read -r name; do
	n=$((n + 1))
	got=$(cd "$TMP/meta" && mc show "$name" --format json 2>/dev/null |
		python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["name"])' 2>/dev/null)
	[ "$got" = "$name" ] || { bad=$((bad + 1)); echo "# show '$name' gave '$got'"; }
done <<'EOF2'
Robert'); DROP TABLE version;--
x' OR '1'='1
$(touch pwned)
`touch pwned2`
; rm -rf ./* #
" && echo hi > pwned3 "
%s%n%x
a\b\'c
EOF2
check_eq "show finds each by its exact name ($n names)" "$bad" 0
check_eq "nothing was run: no file appeared" "$(ls "$TMP/meta")" "names.csv"
mc export --source meta >"$TMP/meta.out" 2>/dev/null
check "the export gives every name back as written" python3 -c '
import csv, sys
want = sorted(r[0] for r in list(csv.reader(open(sys.argv[1], newline="")))[1:])
got = sorted(r[0] for r in list(csv.reader(open(sys.argv[2], newline="")))[1:])
sys.exit(0 if want == got and len(got) == 8 else 1)' "$TMP/meta/names.csv" "$TMP/meta.out"

done_testing
