#!/bin/sh
# Issue 46, point 14: the columns of an export file that the column map
# lacks are counted in one line per file on the terminal, each named with
# --verbose (reingest, ingest, run), and every one of them is still kept
# as a notice in the catalogue. The expected columns are worked out here,
# in Python, from the stored files' headers and pipelines/*columns.tsv
# (aliases included), not from the program's output.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/unmapped.py" <<'PY'
"""For each export file of the store: its path as reingest names it, and
the header cells (trimmed) that no column map of its family knows, the
first of each name only (a repeat is another notice)."""
import csv, fnmatch, io, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], 'tests', 'e2e'))
import storeref
top, store = sys.argv[1], sys.argv[2]
pipes = os.path.join(top, 'pipelines')

def column_map(name):
    known = {}
    for line in open(os.path.join(pipes, name), encoding='utf-8'):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        parts = line.split('\t')
        known[parts[0]] = parts[0]
        for alias in (parts[2].split('|') if len(parts) > 2 and parts[2] else []):
            known[alias] = parts[0]
    return known

families = []
for line in open(os.path.join(pipes, 'families.tsv'), encoding='utf-8'):
    if line.startswith('#') or not line.strip():
        continue
    parts = line.rstrip('\n').split('\t')
    families.append((parts[2].split('|'), column_map(parts[1])))

for f in storeref.files(store):
    date, export, path, member = f
    known = next((m for pats, m in families if any(fnmatch.fnmatchcase(export, p) for p in pats)),
                 families[0][1])
    header = next(csv.reader(io.StringIO(storeref.text(f))))
    seen, unmapped = set(), []
    for i, cell in enumerate(header):
        h = (cell.lstrip('\ufeff') if i == 0 else cell).strip()
        if not h:
            continue
        field = known.get(h, h)
        if h not in known and field not in seen:
            unmapped.append(h)
        seen.add(field)
    print('\t'.join([path + ('/' + member if member else ''), str(len(unmapped))] + unmapped))
PY
python3 "$TMP/unmapped.py" "$TOP" "$SNAP" >"$TMP/want" 2>"$TMP/want.err"
check_eq "the store's headers are read" "$?" 0
awk -F'\t' '$2 > 0' "$TMP/want" >"$TMP/want.some"
nsome=$(wc -l <"$TMP/want.some" | tr -d ' ')
check "some file of the bundled history has columns the map lacks ($nsome)" test "$nsome" -gt 0

# the lines of the terminal output about the columns of file $1
count_lines() { grep -F -- "$1: " "$2" | grep -c "columns\{0,1\} not in the column map; kept as text fields"; }
column_named() { grep -F -- "$1: column " "$2" | grep -F -q -- "'$3' is not in the column map"; }

# ---- reingest ----------------------------------------------------------------
check_status "reingest of the bundled history exits 0" 0 mc reingest --snapshots "$SNAP"
cp "$TMP/err" "$TMP/plain.err"
check_status "reingest --verbose exits 0" 0 mc --db "$TMP/verbose.db" reingest --snapshots "$SNAP" --verbose
cp "$TMP/err" "$TMP/verbose.err"
while IFS="$(printf '\t')" read -r file n rest; do
	check_eq "reingest: one count line for $file" "$(count_lines "$file" "$TMP/plain.err")" 1
	check_grep "reingest: it counts its $n columns and points to --verbose" \
		"$n columns\{0,1\} not in the column map; kept as text fields (--verbose lists them)" \
		"$TMP/plain.err"
	check_eq "reingest: no column is listed one by one without --verbose" \
		"$(grep -F -- "$file: column " "$TMP/plain.err" | grep -c "is not in the column map")" 0
	check_eq "reingest --verbose: one count line for $file" \
		"$(count_lines "$file" "$TMP/verbose.err")" 1
	check_eq "reingest --verbose: a line for each of its $n columns" \
		"$(grep -F -- "$file: column " "$TMP/verbose.err" | grep -c "is not in the column map")" "$n"
	missing=
	printf '%s\n' "$rest" | tr '\t' '\n' >"$TMP/names"
	while read -r name; do
		column_named "$file" "$TMP/verbose.err" "$name" || missing="$missing '$name'"
	done <"$TMP/names"
	check_eq "reingest --verbose names each of them" "$missing" ""
	# the catalogue keeps the notices as before: a notice per column (the
	# first 20), and one counting the others
	named=$(sql "SELECT count(*) FROM notice WHERE message LIKE '$file: column %' AND message LIKE '%is not in the column map; kept as a text field'")
	more=$(sql "SELECT coalesce(sum(CAST(substr(message, length('$file: ') + 1) AS INTEGER)), 0) FROM notice WHERE message LIKE '$file: % more columns are not in the column map%'")
	check_eq "the catalogue keeps a notice for each of the $n columns" "$((named + more))" "$n"
done <"$TMP/want.some"
check_eq "reingest: no count line for a file without such columns" \
	"$(grep -c "not in the column map; kept as text fields" "$TMP/plain.err")" "$nsome"
check_eq "the notices kept do not depend on --verbose" \
	"$(sql 'SELECT message FROM notice ORDER BY id' | md5sum)" \
	"$(sqlite3 "$TMP/verbose.db" 'SELECT message FROM notice ORDER BY id' | md5sum)"
lines=$(cat "$TMP/plain.err" | wc -l | tr -d ' ')
vlines=$(cat "$TMP/verbose.err" | wc -l | tr -d ' ')
total=$(awk -F'\t' '{ s += $2 } END { print s }' "$TMP/want.some")
check_eq "--verbose adds a line per column ($lines lines, $vlines with --verbose)" \
	"$((vlines - lines))" "$total"

# ---- ingest: one file -------------------------------------------------------
file=$(head -1 "$TMP/want.some" | cut -f1)
n=$(head -1 "$TMP/want.some" | cut -f2)
case $file in
*.zip/*) export=$(basename "$file" .csv) ;;
*) export=$(basename "$(dirname "$file")") ;;
esac
check_status "ingest of $export exits 0" 0 mc --db "$TMP/ingest.db" ingest "$export=$file"
check_eq "ingest: one count line" "$(count_lines "$file" "$TMP/err")" 1
check_eq "ingest: no column listed" "$(grep -c "' is not in the column map" "$TMP/err")" 0
check_status "ingest --verbose exits 0" 0 mc --db "$TMP/ingest2.db" ingest --verbose "$export=$file"
check_eq "ingest --verbose: a line for each of the $n columns" \
	"$(grep -F -- "$file: column " "$TMP/err" | grep -c "is not in the column map")" "$n"

# ---- run: the log ----------------------------------------------------------
WWW=$TMP/www
mkdir -p "$WWW"
python3 - "$TOP" "$file" >"$WWW/export.csv" <<'PY'
import os, sys, zipfile, gzip
path = sys.argv[2]
if '.zip/' in path:
    archive, member = path.split('.zip/', 1)
    sys.stdout.write(zipfile.ZipFile(archive + '.zip').read(member).decode('utf-8'))
elif path.endswith('.gz'):
    sys.stdout.write(gzip.open(path, 'rt', encoding='utf-8', newline='').read())
else:
    sys.stdout.write(open(path, encoding='utf-8', newline='').read())
PY
start_server "$WWW" 300
for how in plain verbose; do
	flag=
	[ "$how" = verbose ] && flag=--verbose
	check_status "run ($how) exits 0" 0 mc --db "$TMP/run-$how.db" run \
		--snapshots "$TMP/store-$how" --out "$TMP/public-$how" \
		--source "$export=$URL/data/export.csv" $flag
	cp "$TMP/err" "$TMP/run-$how.log"
	check_eq "run ($how): one count line in the log" \
		"$(grep -c "$n columns\{0,1\} not in the column map; kept as text fields" "$TMP/run-$how.log")" 1
done
check_eq "run: no column listed without --verbose" \
	"$(grep -c "' is not in the column map" "$TMP/run-plain.log")" 0
check_eq "run --verbose: a line for each of the $n columns" \
	"$(grep -c "' is not in the column map" "$TMP/run-verbose.log")" "$n"
done_testing
