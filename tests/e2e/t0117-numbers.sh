#!/bin/sh
# Numbers round-trip (docs/normalisation.md, "Numbers"): a number is stored
# as the shortest text that reads back as the same double (the first of
# %.15g, %.16g, %.17g that does), and compared at 15 significant digits.
# Expected values are computed here from the source CSVs with Python
# (float(), %-formatting and decimal), never taken from modelcat's output.
. "$(dirname "$0")/lib.sh"

# stored TEXT: the first of %.15g, %.16g, %.17g that reads back as float(TEXT)
cat >"$TMP/numref.py" <<'EOF'
import decimal


def stored(text):
    v = float(text)
    for p in (15, 16, 17):
        t = '%.*g' % (p, v)
        if float(t) == v:
            break
    return '0' if t == '-0' else t


def compared(text):
    """15 significant digits: the shortest decimal rounded half up."""
    ctx = decimal.Context(prec=15, rounding=decimal.ROUND_HALF_UP)
    t = '%.15g' % float(ctx.plus(decimal.Decimal(stored(text))))
    return '0' if t == '-0' else t
EOF
export PYTHONPATH="$TMP:$TOP/tests/e2e"

# ---- 1. SEER's power draw from the real snapshot, 16 significant digits
src=$SNAP/notable_ai_models/2025-04-18.csv.gz
python3 - "$src" >"$TMP/seer" <<'EOF'
import sys
from csvref import read_rows
from numref import stored
rows = read_rows(sys.argv[1])
h = rows[0]
m, p = h.index('Model'), h.index('Training power draw (W)')
cell = [r[p] for r in rows[1:] if r[m].strip() == 'SEER'][0].strip()
digits = cell.replace('.', '').lstrip('0')
print(cell, len(digits), stored(cell))
EOF
read -r seer_cell seer_digits seer_want <"$TMP/seer"
check_eq "SEER's power draw in the snapshot has 16 significant digits ($seer_cell)" "$seer_digits" 16
check_eq "and its shortest round-trip text is itself" "$seer_want" "$seer_cell"
mc ingest --as-of 2025-04-18 "$src" >"$TMP/out" 2>&1
mc export --source notable_ai_models --as-of 2025-04-18 >"$TMP/notable.csv"
got=$(python3 - "$TMP/notable.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding='utf-8', newline='')))
h = rows[0]
print([r for r in rows[1:] if r[h.index('Model')] == 'SEER'][0][h.index('Training power draw (W)')])
EOF
)
check_eq "export gives SEER's power draw back exactly" "$got" "$seer_want"
mc show SEER --as-of 2025-04-18 >"$TMP/show" 2>&1
check_eq "show prints it exactly" \
	"$(sed -n 's/^Training power draw (W)  *\([^ ]*\) .*/\1/p' "$TMP/show")" "$seer_want"
check_eq "show --format json too" "$(mc show SEER --as-of 2025-04-18 --format json | python3 -c '
import json, sys
print([f["value"] for f in json.load(sys.stdin)["fields"] if f["field"] == "Training power draw (W)"][0])')" \
	"$seer_want"

# ---- 2. digests are taken of the compared form (numbers at 15 digits):
# the digest each current version must have, from its stored values
cat >"$TMP/digests.py" <<'EOF'
import hashlib, json, sqlite3, sys
from csvref import column_map
from numref import compared
_, types = column_map(sys.argv[2])
db = sqlite3.connect(sys.argv[1])
bad = longer = 0
for norm, digest in db.execute("SELECT v.norm, v.digest FROM version v"
                               " WHERE v.tombstone = 0 AND v.valid_to IS NULL"):
    text = norm
    for field, value in json.loads(norm).items():
        if types.get(field) in ('number', 'rollup') and ',' not in value and compared(value) != value:
            longer += 1
            key = json.dumps(field, ensure_ascii=False)
            text = text.replace('%s:"%s"' % (key, value), '%s:"%s"' % (key, compared(value)))
    if hashlib.sha256(text.encode()).digest()[:16] != digest:
        bad += 1
print(longer, bad)
EOF
python3 "$TMP/digests.py" "$MODELCAT_DB" "$TOP/pipelines/columns.tsv" >"$TMP/dig"
read -r longer bad <"$TMP/dig"
check "some stored numbers have more than 15 significant digits ($longer)" test "$longer" -gt 10
check_eq "every version's digest is that of its values with numbers at 15 digits" "$bad" 0
# the same through a staging file (digests computed by the load), and for
# the models a later snapshot adds and renames
staged() { MODELCAT_DB=$TMP/staged.db mc "$@"; }
staged parse --out "$TMP/stage.db" "notable_ai_models=$src" >/dev/null 2>&1
staged load --as-of 2025-04-18 "$TMP/stage.db" >/dev/null 2>&1
python3 "$TMP/digests.py" "$TMP/staged.db" "$TOP/pipelines/columns.tsv" >"$TMP/dig"
check_eq "a load from a staging file: the same" "$(cat "$TMP/dig")" "$longer 0"
staged ingest --as-of 2025-05-06 "$SNAP/notable_ai_models/2025-05-06.csv.gz" >"$TMP/out" 2>&1
check_grep "(the next snapshot adds and renames models)" " [1-9][0-9]* added, 0 removed, [1-9] renamed" "$TMP/out"
python3 "$TMP/digests.py" "$TMP/staged.db" "$TOP/pipelines/columns.tsv" >"$TMP/dig"
check_eq "their versions too" "$(cut -d' ' -f2 "$TMP/dig")" 0

# A catalogue made when numbers were stored at 15 digits: the same
# versions with those texts, and digests of them (what it held). Its raw
# digests are dropped, so that every row of the next file is normalised
# and compared. The next file changes one value of one model.
python3 - "$MODELCAT_DB" "$TOP/pipelines/columns.tsv" <<'EOF'
import hashlib, json, sqlite3, sys
from csvref import column_map
from numref import compared
_, types = column_map(sys.argv[2])
db = sqlite3.connect(sys.argv[1])
for vid, norm in db.execute("SELECT id, norm FROM version").fetchall():
    text = norm
    for field, value in json.loads(norm).items():
        if types.get(field) in ('number', 'rollup') and ',' not in value:
            key = json.dumps(field, ensure_ascii=False)
            text = text.replace('%s:"%s"' % (key, value), '%s:"%s"' % (key, compared(value)))
    db.execute("UPDATE version SET norm = ?, digest = ?, raw_digest = NULL WHERE id = ?",
               (text, hashlib.sha256(text.encode()).digest()[:16], vid))
db.commit()
EOF
check_eq "the old catalogue holds SEER's value at 15 digits" \
	"$(sql "SELECT json_extract(v.norm, '\$.\"Training power draw (W)\"') FROM version v
		JOIN record r ON r.id = v.record_id WHERE r.name = 'SEER' AND v.valid_to IS NULL")" \
	"$(python3 -c "from numref import compared; print(compared('$seer_cell'))")"
python3 - "$src" "$TMP/next.csv" <<'EOF'
import csv, sys
from csvref import read_rows
rows = read_rows(sys.argv[1])
h = rows[0]
m, c = h.index('Model'), h.index('Training compute (FLOP)')
for r in rows[1:]:
    if r[m].strip() == 'GPT-3 175B (davinci)':
        r[c] = '3.2e+23' if r[c] != '3.2e+23' else '3.3e+23'
        break
else:
    sys.exit('no GPT-3 row')
with open(sys.argv[2], 'w', encoding='utf-8', newline='') as f:
    csv.writer(f, lineterminator='\n').writerows(rows)
EOF
mc ingest --as-of 2025-04-19 "notable_ai_models=$TMP/next.csv" >"$TMP/out" 2>&1
check_grep "re-reading the file into the old catalogue: only the one real change" " 1 changed," "$TMP/out"
check_eq "and one field change logged" \
	"$(sql "SELECT count(*) || ' ' || min(field) FROM field_change WHERE as_of = '2025-04-19'")" \
	"1 Training compute (FLOP)"

# ---- 3. the largest double, underflow, subnormals
cat >"$TMP/small.csv" <<'EOF'
Model,Parameters,Training power draw (W),Organization
Big,1.7976931348623157e308,342212.3909614999,"A, B"
Tiny,1e-400,5,C
Negative,-1.7976931348623157E+308,-0.1,D
Normal,3.9e+24,0.5,E
Subnormal,100,4.9406564584124654e-324,F
Zero,0e-400,0,G
EOF
check_status "a file with an underflowing value loads the rest and exits 1" 1 \
	mc ingest --as-of 2025-01-01 "small=$TMP/small.csv"
check_grep "1e-400 is quarantined with file, line and field" \
	"^$TMP/small.csv:3: Parameters: '1e-400' is not a valid number: number out of range: not zero but below the smallest normal double" \
	"$TMP/err"
check_grep "a subnormal too" \
	"^$TMP/small.csv:6: Training power draw (W): '4.9406564584124654e-324' is not a valid number: number out of range" \
	"$TMP/err"
check_eq "one line each" "$(wc -l <"$TMP/err" | tr -d ' ')" 2
check_eq "both rows are in the quarantine table, by line" \
	"$(sql "SELECT group_concat(line || ':' || field, ' ') FROM (SELECT line, field FROM quarantine ORDER BY line)")" \
	"3:Parameters 6:Training power draw (W)"
mc export --source small --as-of 2025-01-01 >"$TMP/e1.csv"
python3 - "$TMP/small.csv" "$TMP/e1.csv" >"$TMP/cmp" <<'EOF'
import csv, sys
from numref import stored
src = list(csv.reader(open(sys.argv[1], newline='')))
out = list(csv.reader(open(sys.argv[2], newline='')))
want = {r[0]: r for r in src[1:] if r[0] not in ('Tiny', 'Subnormal')}
got = {r[0]: r for r in out[1:]}
problems = []
if sorted(want) != sorted(got):
    problems.append('rows %s, expected %s' % (sorted(got), sorted(want)))
for name, r in want.items():
    for i in (1, 2):
        g = got.get(name, [''] * 4)[i]
        if g != stored(r[i]) or float(g) != float(r[i]):
            problems.append('%s %s: %r, expected %r' % (name, src[0][i], g, stored(r[i])))
print('; '.join(problems) or 'ok')
EOF
check_eq "export: every loaded number as its shortest round-trip text" "$(cat "$TMP/cmp")" ok
check_grep "the largest double comes back whole" "^Big,1.7976931348623157e+308,342212.3909614999," "$TMP/e1.csv"
check_status "re-ingesting the export: no quarantine" 0 \
	mc ingest --as-of 2025-01-02 "small=$TMP/e1.csv"
check_grep "and no change" "4 rows: 0 added, 0 removed, 0 renamed, 0 changed, 4 unchanged, 0 quarantined" "$TMP/out"
mc export --source small --as-of 2025-01-02 >"$TMP/e2.csv"
check "the second export equals the first" cmp -s "$TMP/e1.csv" "$TMP/e2.csv"

# ---- 4. numbers that differ only beyond the 15th digit are no change
python3 - "$TMP" <<'EOF'
import sys
t = sys.argv[1]
head = 'Model,Parameters,Training power draw (W)\n'
rows = {'a': ('342212.3909614999', '0.30000000000000004'),
        # the 16th and 17th digits differ: the same at 15 digits
        'b': ('342212.3909615001', '0.3'),
        # Parameters the same at 15 digits, the power draw changed
        'c': ('342212.3909615001', '0.4'),
        # the 15th digit of Parameters differs
        'd': ('342212.390961', '0.4')}
for k, (x, y) in rows.items():
    open('%s/%s.csv' % (t, k), 'w').write(head + 'M,%s,%s\nN,7,8\n' % (x, y))
EOF
want=$(python3 -c "from numref import compared as c; print(c('342212.3909614999') == c('342212.3909615001'), c('0.30000000000000004') == c('0.3'), c('342212.3909614999') == c('342212.390961'))")
check_eq "(the reference: equal at 15 digits, but for the 15th digit)" "$want" "True True False"
digits() { MODELCAT_DB=$TMP/digits.db mc "$@"; }
digits ingest --as-of 2025-02-01 "digits=$TMP/a.csv" >/dev/null 2>&1
digits ingest --as-of 2025-02-02 "digits=$TMP/b.csv" >"$TMP/out" 2>&1
check_grep "a file whose numbers differ beyond the 15th digit: no change" " 0 changed, 2 unchanged" "$TMP/out"
check_eq "the version stands: its values as first read" \
	"$(digits export --source digits --as-of 2025-02-02 | sed -n 2p)" "M,342212.3909614999,0.30000000000000004"
digits ingest --as-of 2025-02-03 "digits=$TMP/c.csv" >"$TMP/out" 2>&1
check_grep "another field changed: a new version" " 1 changed, 1 unchanged" "$TMP/out"
check_eq "which holds the new file's texts" \
	"$(digits export --source digits --as-of 2025-02-03 | sed -n 2p)" "M,342212.3909615001,0.4"
check_eq "only the changed field is logged" \
	"$(MODELCAT_DB=$TMP/digits.db sql "SELECT group_concat(field || ':' || old || '>' || new) FROM field_change")" \
	"Training power draw (W):0.30000000000000004>0.4"
digits diff --from 2025-02-01 --to 2025-02-03 --format json >"$TMP/diff" 2>&1
check_eq "diff lists only the changed field, not the one equal at 15 digits" "$(python3 - "$TMP/diff" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k == 'field' and isinstance(v, str):
                yield v
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)
print(' '.join(sorted(set(walk(d)))))
EOF
)" "Training power draw (W)"
digits ingest --as-of 2025-02-04 "digits=$TMP/d.csv" >"$TMP/out" 2>&1
check_grep "a difference in the 15th digit is a change" " 1 changed, 1 unchanged" "$TMP/out"

done_testing
