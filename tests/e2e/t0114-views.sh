#!/bin/sh
# The views for people (docs/sql.md) on the bundled history: the five
# example questions of docs/sql.md, taken from the document, answer what
# tests/sqlref.py works out from the export files alone; numeric columns
# are INTEGER or REAL, lists JSON arrays; `models` has a row for each page
# render --all makes per language, on the latest date and an earlier one;
# the merged values are those of `show`, export and snapshot included;
# records sharing a name are never mixed (SigLIP, SigLIP#2); the example of
# docs/architecture.md lists the notable models of the latest export.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
check_eq "the catalogue has the views" \
	"$(sql "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master
		WHERE type = 'view' AND name IN ('models', 'model_versions', 'model_value') ORDER BY name)")" \
	"model_value model_versions models"

# the five questions, from docs/sql.md, against the reference
if python3 "$TOP/tests/sqlref.py" "$SNAP" "$TOP/pipelines" "$TOP/docs/sql.md" "$MODELCAT_DB" \
	compute-per-year added-since open-weights model-changes as-of >"$TMP/ref.out" 2>&1; then
	ok "the five examples of docs/sql.md agree with the CSVs ($(grep -c ': ok (' "$TMP/ref.out") of 5)"
else
	not_ok "an example of docs/sql.md disagrees with the CSVs"
	head -20 "$TMP/ref.out" | sed 's/^/#   /'
fi
check_eq "every example ran (five 'ok' lines)" "$(grep -c ': ok ([1-9][0-9]* rows)$' "$TMP/ref.out")" 5

# types: every column by its type in the column map, counted in one pass
# over models (one column of counts per field, its name in types.names)
python3 - "$TOP/pipelines/columns.tsv" "$TMP/types.names" >"$TMP/types.sql" <<'EOF'
import sys
names, sums = [], []
for line in open(sys.argv[1], encoding='utf-8'):
    if line.startswith('#') or not line.strip():
        continue
    name, kind = line.rstrip('\n').split('\t')[:2]
    col = '"%s"' % name.replace('"', '""')
    want = {'number': "('integer', 'real')", 'bool': "('integer')"}.get(kind, "('text')")
    cond = ("typeof(%s) NOT IN %s" % (col, want)) + (
        " OR json_type(%s) IS NOT 'array'" % col if kind == 'list' else '') + (
        " OR %s NOT IN (0, 1)" % col if kind == 'bool' else '')
    names.append(name)
    sums.append("count(CASE WHEN %s IS NOT NULL AND (%s) THEN 1 END)" % (col, cond))
open(sys.argv[2], 'w', encoding='utf-8').write(''.join(n + '\n' for n in names))
print("SELECT %s FROM models;" % ",\n\t".join(sums))
EOF
sql <"$TMP/types.sql" | tr '|' '\n' | paste -d '|' "$TMP/types.names" - >"$TMP/types.out"
check_eq "every field's column is typed: numbers integer or real, lists JSON arrays ($(grep -c '|[0-9][0-9]*$' "$TMP/types.out") fields)" \
	"$(grep -v '|0$' "$TMP/types.out")" ""
check "numbers of both kinds are there" test "$(sql "SELECT count(DISTINCT typeof(\"Training compute (FLOP)\"))
	|| count(DISTINCT typeof(\"Parameters\")) FROM models WHERE \"Parameters\" IS NOT NULL")" -ge 2
check_eq "Llama 3-70B: parameters an integer, compute a real, organisations an array" \
	"$(sql "SELECT typeof(\"Parameters\"), \"Parameters\", typeof(\"Training compute (FLOP)\"),
		\"Training compute (FLOP)\" > 6e24, \"Organization\"
		FROM models WHERE \"Model\" = 'Llama 3-70B'")" \
	'integer|70000000000|real|1|["Meta AI"]'

# one row per page
check_status "translate exits 0" 0 mc translate
check_status "render --all exits 0" 0 mc render --all --out "$TMP/site"
pages=$(sed -n 's/^\([0-9]*\) models as of .* in 2 languages:.*/\1/p' "$TMP/out")
check_eq "models has as many rows as render --all makes pages per language" \
	"$(sql 'SELECT count(*) FROM models')" "${pages:-none}"
check_eq "and as many as the English folder holds pages (redirects and index aside)" \
	"$(grep -L 'http-equiv="refresh"' "$TMP"/site/en/*.html | grep -vc '/index\.[a-z.]*html$')" "${pages:-none}"
check_status "render --all as of 2024-12-31 exits 0" 0 mc render --all --out "$TMP/old" --as-of 2024-12-31
pages=$(sed -n 's/^\([0-9]*\) models as of .* in 2 languages:.*/\1/p' "$TMP/out")
check_eq "model_versions as of 2024-12-31 has a row for each page of that day" \
	"$(sql "SELECT count(*) FROM model_versions
		WHERE valid_from <= '2024-12-31' AND (valid_to IS NULL OR valid_to > '2024-12-31')")" \
	"${pages:-none}"
columns=$(sql "SELECT group_concat('\"' || replace(name, '\"', '\"\"') || '\"', ', ') FROM pragma_table_info('models')")
check_eq "models is model_versions where valid_to is NULL, row for row" \
	"$(sql "SELECT (SELECT count(*) FROM (SELECT * FROM models EXCEPT SELECT $columns FROM
		model_versions WHERE valid_to IS NULL)) || ' ' || (SELECT count(*) FROM model_versions
		WHERE valid_to IS NULL)")" "0 $(sql 'SELECT count(*) FROM models')"

# the values are show's, export and snapshot included
python3 - "$BIN/modelcat" "$MODELCAT_DB" >"$TMP/show.out" 2>&1 <<'EOF'
import json, sqlite3, subprocess, sys
binary, db = sys.argv[1:3]
con = sqlite3.connect(db)
names = ['SigLIP', 'SigLIP#2', 'AMPLIFY', 'AMPLIFY#2', 'GPT-4', 'Llama 2-70B', 'AlphaGo Zero']
names += [m for (m,) in con.execute(
    "SELECT \"Model\" FROM models WHERE json_array_length(\"Exports\") > 1 ORDER BY \"Model\" LIMIT 20")]
bad = 0
# each view read once for all the names (a view is worked out anew at
# each query)
marks = ','.join('?' * len(names))
history = {}
for model, start, end, fields, updated, exports in con.execute(
        "SELECT model, valid_from, valid_to, fields, last_updated, exports FROM model_history"
        " WHERE model IN (%s)" % marks, names):
    for day in ('', '2024-12-31'):
        if start <= (day or '9999') and (end is None or end > (day or '9999')):
            history[(model, day)] = (fields, updated, exports)
values = {}
for model, f, e, snap in con.execute(
        "SELECT model, field, export, snapshot FROM model_value WHERE model IN (%s)" % marks, names):
    values.setdefault(model, {})[f] = (e, snap)
for day in ('', '2024-12-31'):
    for name in names:
        args = [binary, 'show', name, '--format', 'json'] + (['--as-of', day] if day else [])
        run = subprocess.run(args, capture_output=True, text=True)
        row = history.get((name, day))
        if run.returncode or not row:
            bad += (run.returncode == 0) != (row is not None)
            continue
        page = json.loads(run.stdout)
        if ({f['field']: f['value'] for f in page['fields']}, page['last_updated'], page['exports']) \
                != (json.loads(row[0]), row[1], json.loads(row[2])):
            print('differs:', name, day)
            bad += 1
        if not day:
            given = values.get(name, {})
            if given != {f['field']: (f['export'], f['snapshot']) for f in page['fields']}:
                print('model_value differs:', name)
                bad += 1
print(len(names), 'models', bad, 'differ')
EOF
check_grep "show and the views agree on values, exports, dates and sources" " 0 differ$" "$TMP/show.out"

# records that share a name stay apart: a name repeated in the latest
# all_ai_models (and in no other export), whose two rows give different
# parameter counts (chosen from the CSVs: storeref.py reads the store)
pick=$(python3 - "$SNAP" "$TOP/tests/e2e" <<'EOF'
import csv, io, sys
sys.path.insert(0, sys.argv[2])
from storeref import files, text
latest = {}
for f in files(sys.argv[1]):
    latest[f[1]] = f
def rows(e):
    return list(csv.DictReader(io.StringIO(text(latest[e]).lstrip('\ufeff'), newline='')))
other = {r.get('Model', '').strip() for e in latest if e not in ('all_ai_models', 'ml_hardware')
         for r in rows(e)}
by = {}
for r in rows('all_ai_models'):
    by.setdefault(r['Model'].strip(), []).append(r['Parameters'].strip())
for name in sorted(by):
    p = by[name]
    if name and name not in other and len(p) == 2 and all(p) and p[0] != p[1]:
        print('%s\t%d|%d' % (name, int(float(p[0])), int(float(p[1]))))
        break
EOF
)
name=$(echo "$pick" | cut -f1)
expected=$(echo "$pick" | cut -f2)
check_eq "$name and $name#2 keep their own parameters in models" \
	"$(sql "SELECT group_concat(coalesce(CAST(\"Parameters\" AS INTEGER), ''), '|') FROM (SELECT \"Parameters\" FROM models
		WHERE \"Model\" IN ('$name', '$name#2') ORDER BY \"Model\")")" "$expected"
check_eq "and in model_value" \
	"$(sql "SELECT group_concat(model || '=' || CAST(value AS INTEGER), ' ') FROM (SELECT model, value FROM model_value
		WHERE model IN ('$name', '$name#2') AND field = 'Parameters' ORDER BY model)")" \
	"$name=${expected%|*} $name#2=${expected#*|}"
check_eq "model_value has one model per page" "$(sql 'SELECT count(DISTINCT model) FROM model_value')" \
	"$(sql 'SELECT count(*) FROM models')"

# docs/architecture.md's example: the models of the latest notable export
query=$(sed -n '/<!-- example: current-export -->/,/^```$/p' "$TOP/docs/architecture.md" | sed '1,2d;$d')
rows=$(python3 "$TOP/tests/e2e/storeref.py" "$SNAP" cat notable_ai_models | python3 -c '
import csv, sys
print(len([r for r in csv.DictReader(sys.stdin) if r["Model"].strip()]))')
check_eq "docs/architecture.md's example lists each model of the latest notable export once" \
	"$(sql "$query" | wc -l) $(sql "$query" | cut -d'|' -f1 | sort -u | wc -l)" "$rows $rows"
done_testing
