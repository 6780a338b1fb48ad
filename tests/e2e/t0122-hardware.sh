#!/bin/sh
# The hardware family: ml_hardware, keyed by "Hardware name", over its three
# bundled dates. ingest, export --as-of, diff, show and history agree with
# an independent reading of the CSVs (Python's csv module and the column
# map pipelines/hardware-columns.tsv, which is configuration); a model and
# a card of the same name in one catalogue never merge.
. "$(dirname "$0")/lib.sh"

HW="$SNAP/ml_hardware"
COLS="$TOP/pipelines/hardware-columns.tsv"
DATES="2025-11-01 2025-12-10 2025-12-24"
H100="NVIDIA H100 SXM5 80GB"

for d in $DATES; do
	mc ingest "$HW/$d.csv.gz" >"$TMP/ingest.out" 2>"$TMP/ingest.err"
	check_eq "ingest ml_hardware $d: exit 0, nothing quarantined" "$?" 0
	want=$(python3 -c "import csv,gzip,sys; r=list(csv.reader(gzip.open(sys.argv[1],'rt',encoding='utf-8',newline=''))); print(len(r)-1)" "$HW/$d.csv.gz")
	check_grep "ingest $d: $want rows read" "^ml_hardware: $want rows:" "$TMP/ingest.out"
done

for d in $DATES; do
	mc export --source ml_hardware --as-of "$d" >"$TMP/export.csv" 2>"$TMP/export.err"
	check_eq "export --as-of $d: exit 0" "$?" 0
	if python3 "$TOP/tests/e2e/compare_export.py" "$COLS" "$HW/$d.csv.gz" "$TMP/export.csv" \
		>"$TMP/compare.out" 2>&1; then
		ok "export --as-of $d round-trips cell for cell ($(tail -1 "$TMP/compare.out"))"
	else
		not_ok "export --as-of $d differs from the source"
		head -10 "$TMP/compare.out" | sed 's/^/#   /'
	fi
done

# diff between consecutive dates: added, removed, and changed fields
cat >"$TMP/diffref.py" <<'PY'
import csv, gzip, json, re, sys
sys.path.insert(0, sys.argv[1])
from csvref import column_map
cols, a_path, b_path, diff_path = sys.argv[2:6]
canon, types = column_map(cols)

def read(path):
    rows = list(csv.reader(gzip.open(path, 'rt', encoding='utf-8', newline='')))
    head = [canon.get(h.strip(), h.strip()) for h in rows[0]]
    key = head.index(next(f for f, t in types.items() if t == 'key'))
    recs = {}
    for r in rows[1:]:
        if r[key].strip():
            recs[r[key].strip()] = dict(zip(head, r))
    return set(head), recs

def norm(field, v):
    v = v.strip()
    if not v:
        return None
    t = types.get(field, 'text')
    if t == 'number':
        return '%.15g' % float(v)
    if t == 'list':
        return [re.sub(r'\s+', ' ', x).strip() for x in v.split(',') if x.strip()]
    return re.sub(r'\s+', ' ', v)

ha, a = read(a_path)
hb, b = read(b_path)
d = json.load(open(diff_path, encoding='utf-8'))
problems = 0
def same(what, want, got):
    global problems
    if want != got:
        problems += 1
        print('%s: want %d, got %d; only wanted: %s; only got: %s' % (
            what, len(want), len(got), sorted(want - got)[:5], sorted(got - want)[:5]))
# renames by the hardware family's evidence (pipelines/families.tsv,
# docs/history.md): the name folded to letters and digits, then datasheet
# link and release date, then maker, date, memory and die size; a key
# counts when exactly one vanished card and one new row share it
def folded(n):
    return ''.join(c for c in n.lower() if c.isalnum() or ord(c) > 127)
rules = [lambda n, r: folded(n),
         lambda n, r: tuple(norm(f, r.get(f, '')) for f in ('Link to datasheet', 'Release date')),
         lambda n, r: tuple(norm(f, r.get(f, '')) for f in
                            ('Manufacturer', 'Release date', 'Memory (bytes)', 'Die Size (mm^2)'))]
gone, new = set(a) - set(b), set(b) - set(a)
renames = set()
for rule in rules:
    keys_old, keys_new = {}, {}
    for n in gone:
        k = rule(n, a[n])
        if k and all(x is not None for x in (k if isinstance(k, tuple) else [k])):
            keys_old.setdefault(k, []).append(n)
    for n in new:
        k = rule(n, b[n])
        if k and all(x is not None for x in (k if isinstance(k, tuple) else [k])):
            keys_new.setdefault(k, []).append(n)
    for k, olds in keys_old.items():
        if len(olds) == 1 and len(keys_new.get(k, [])) == 1:
            renames.add((olds[0], keys_new[k][0]))
    gone -= {o for o, _ in renames}
    new -= {n for _, n in renames}
same('renamed', renames, {(r['from'], r['to']) for r in d['renamed']})
same('added', new, set(d['added']))
same('removed', gone, set(d['removed']))
want = set()
for name in set(a) & set(b):
    for f in (ha & hb) - {'Hardware name'}:
        if norm(f, a[name].get(f, '')) != norm(f, b[name].get(f, '')):
            want.add((name, f))
got = {(m['name'], f['field']) for m in d['changed'] for f in m['fields']}
same('changed fields', want, got)
print('%d added, %d removed, %d renamed, %d changed fields, %d problems' % (
    len(new), len(gone), len(renames), len(want), problems))
sys.exit(1 if problems else 0)
PY
set -- $DATES
while [ $# -ge 2 ]; do
	mc diff --from "$1" --to "$2" --format json >"$TMP/diff.json" 2>"$TMP/diff.err"
	check_eq "diff $1 -> $2: exit 0" "$?" 0
	if python3 "$TMP/diffref.py" "$TOP/tests/e2e" "$COLS" "$HW/$1.csv.gz" "$HW/$2.csv.gz" \
		"$TMP/diff.json" >"$TMP/diffref.out" 2>&1; then
		ok "diff $1 -> $2 agrees with the CSVs ($(tail -1 "$TMP/diffref.out"))"
	else
		not_ok "diff $1 -> $2 disagrees with the CSVs"
		sed 's/^/#   /' "$TMP/diffref.out" | head -10
	fi
	shift
done

# show: the card's values as numbers in the header's unit, checked against
# the CSV of the last date (memory 80 GB as bytes, and every other number)
mc show "$H100" --format json >"$TMP/show.json" 2>"$TMP/show.err"
check_eq "show '$H100': exit 0" "$?" 0
cat >"$TMP/showref.py" <<'PY'
import csv, gzip, json, sys
sys.path.insert(0, sys.argv[1])
from csvref import column_map
cols, path, show_path, name = sys.argv[2:6]
canon, types = column_map(cols)
rows = list(csv.reader(gzip.open(path, 'rt', encoding='utf-8', newline='')))
head = [canon.get(h.strip(), h.strip()) for h in rows[0]]
row = next(dict(zip(head, r)) for r in rows[1:] if r[0].strip() == name)
shown = {f['field']: f for f in json.load(open(show_path, encoding='utf-8'))['fields']}
problems = checked = 0
for f, v in row.items():
    if types.get(f) != 'number' or not v.strip():
        continue
    checked += 1
    got = shown.get(f)
    if not got or float(got['value']) != float(v) or got['export'] != 'ml_hardware':
        problems += 1
        print('%s: want %r, got %r' % (f, v, got))
if float(shown['Memory (bytes)']['value']) != 80e9:
    problems += 1
    print('memory is not 80 GB: %r' % shown['Memory (bytes)'])
print('%d numbers checked, %d problems' % (checked, problems))
sys.exit(1 if problems else 0)
PY
if python3 "$TMP/showref.py" "$TOP/tests/e2e" "$COLS" "$HW/2025-12-24.csv.gz" "$TMP/show.json" "$H100" \
	>"$TMP/showref.out" 2>&1; then
	ok "show '$H100' gives the CSV's numbers, memory 80e9 bytes ($(tail -1 "$TMP/showref.out"))"
else
	not_ok "show '$H100' differs from the CSV"
	sed 's/^/#   /' "$TMP/showref.out" | head -10
fi
check_grep "show names the hardware key field" '"field": "Hardware name"' "$TMP/show.json"

# history: one version per date whose values differ (by the CSVs)
mc history "$H100" --format json >"$TMP/history.json" 2>"$TMP/history.err"
check_eq "history '$H100': exit 0" "$?" 0
want=$(python3 - "$TOP/tests/e2e" "$COLS" "$H100" "$HW" $DATES <<'PY'
import csv, gzip, re, sys
sys.path.insert(0, sys.argv[1])
from csvref import column_map
canon, types = column_map(sys.argv[2])
name, folder, dates = sys.argv[3], sys.argv[4], sys.argv[5:]
def norm(f, v):
    v = v.strip()
    if not v:
        return None
    if types.get(f) == 'number':
        return '%.15g' % float(v)
    if types.get(f) == 'list':
        return [re.sub(r'\s+', ' ', x).strip() for x in v.split(',') if x.strip()]
    return re.sub(r'\s+', ' ', v)
prev, kinds = None, []
for d in dates:
    rows = list(csv.reader(gzip.open('%s/%s.csv.gz' % (folder, d), 'rt', encoding='utf-8', newline='')))
    head = [canon.get(h.strip(), h.strip()) for h in rows[0]]
    row = next(dict(zip(head, r)) for r in rows[1:] if r[0].strip() == name)
    cur = {f: norm(f, v) for f, v in row.items() if norm(f, v) is not None}
    if prev is None:
        kinds.append(d + ' added')
    elif any(cur.get(f) != prev.get(f) for f in set(head) & set(prev_head)):
        kinds.append(d + ' changed')
    prev, prev_head = cur, head
print(' '.join(kinds))
PY
)
got=$(python3 -c "
import json, sys
h = json.load(open(sys.argv[1], encoding='utf-8'))
print(' '.join(v['valid_from'] + ' ' + v['kind'] for r in h['records'] for v in r['versions']))
" "$TMP/history.json")
check_eq "history '$H100': its versions are the dates its values changed" "$got" "$want"

# A model export holding a row of the card's name: the two never merge.
printf 'Model,Parameters,Publication date\n%s,123,2024-01-01\nTiny,5,2024-02-02\n' "$H100" >"$TMP/models.csv"
mc ingest --as-of 2025-12-24 notable_ai_models="$TMP/models.csv" >"$TMP/m.out" 2>"$TMP/m.err"
check_eq "a model export loads beside the hardware (exit 0)" "$?" 0
mc show "$H100" --format json >"$TMP/show2.json" 2>"$TMP/show2.err"
check_eq "show of the shared name without --kind: usage error" "$?" 2
check_grep "the error names the two kinds" "is both a model and a hardware record" "$TMP/show2.err"
mc show "$H100" --kind model --format json >"$TMP/show2.json" 2>&1
check_grep "show --kind model gives the model" '"exports": \["notable_ai_models"\]' "$TMP/show2.json"
check "the model's show has no hardware field" sh -c "! grep -q 'Memory (bytes)\|ml_hardware' '$TMP/show2.json'"
mc show "$H100" --as-of 2025-12-10 --format json >"$TMP/show3.json" 2>&1
check_grep "before the model existed, show gives the card" '"exports": \["ml_hardware"\]' "$TMP/show3.json"
check "the card's show has no model field" sh -c "! grep -q '\"field\": \"Parameters\"\|notable_ai_models' '$TMP/show3.json'"
mc history "$H100" --format json >/dev/null 2>"$TMP/history2.err"
check_eq "history of the shared name without --kind: usage error" "$?" 2
for k in model hardware; do
	mc history "$H100" --kind $k --format json >"$TMP/history2.json" 2>&1
	n=$(python3 -c "
import json, sys
print(' '.join(sorted(r['export'] for r in json.load(open(sys.argv[1]))['records'])))" "$TMP/history2.json")
	check_eq "history --kind $k lists the $k's record alone" "$n" \
		"$([ $k = model ] && echo notable_ai_models || echo ml_hardware)"
done
mc export --source ml_hardware --as-of 2025-12-24 >"$TMP/export.csv" 2>/dev/null
check "the hardware export still round-trips beside the model" \
	python3 "$TOP/tests/e2e/compare_export.py" "$COLS" "$HW/2025-12-24.csv.gz" "$TMP/export.csv"
mc translate >/dev/null 2>&1
mc render --all --out "$TMP/site" >"$TMP/render.out" 2>&1
check_grep "model pages are the model family's only (2 models)" "^2 models as of" "$TMP/render.out"

# Cells that spell their unit are converted to the header's; a unit of
# another kind quarantines the row, naming file, line, field and unit.
printf 'Hardware name,TDP (W),Memory (bytes),Base clock (MHz)\nCard A,700 V,80 GB,1 GHz\nCard B,1.4 kW,80 GiB,2.1 GHz\n' >"$TMP/units.csv"
mc --db "$TMP/units.db" ingest --accept ml_hardware="$TMP/units.csv" >"$TMP/u.out" 2>"$TMP/u.err"
check_eq "a card with a wrong unit is quarantined (exit 1)" "$?" 1
check_grep "the error names file, line, field and unit" \
	"units.csv:2: TDP (W): '700 V' is not a valid number: not a number in W (row quarantined)" "$TMP/u.err"
mc --db "$TMP/units.db" export --source ml_hardware >"$TMP/units-back.csv" 2>/dev/null
check_eq "1.4 kW, 80 GiB and 2.1 GHz are stored in W, bytes and MHz" \
	"$(sed -n 2p "$TMP/units-back.csv")" "Card B,1400,$((80 * 1024 * 1024 * 1024)),2100"
printf 'Model,Parameters\nx,1\n' >"$TMP/wrong.csv"
check_status "a hardware export without its key column is refused (exit 3)" 3 \
	mc --db "$TMP/units.db" ingest ml_hardware="$TMP/wrong.csv"
check_grep "it names the family's key" "wrong.csv:1: no hardware name column (expected 'Hardware name'" "$TMP/err"

# fetch reads a hardware source with the hardware map: stored as an export
mc fetch --snapshots "$TMP/store" --source ml_hardware="$HW/2025-12-24.csv.gz" >"$TMP/f.out" 2>"$TMP/f.err"
check_eq "fetch of an ml_hardware source stores it (exit 0)" "$?" 0
check "it is in the store under ml_hardware" sh -c "ls '$TMP/store/ml_hardware/'*.csv.gz >/dev/null"

done_testing
