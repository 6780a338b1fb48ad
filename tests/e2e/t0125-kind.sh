#!/bin/sh
# show, history and search find hardware (ml_hardware) by name as they
# find models; --kind model|hardware picks one where a model and a card
# share a name, which is otherwise a usage error naming the two (exit 2).
# Expected values come from the CSV (Python's csv module).
. "$(dirname "$0")/lib.sh"

HW=$(ls "$SNAP"/ml_hardware/*.csv.gz | tail -1)
H100="NVIDIA H100 SXM5 80GB"

mc ingest --as-of 2025-12-24 ml_hardware="$HW" >"$TMP/ingest.out" 2>&1
check_eq "ingest the latest ml_hardware: exit 0" "$?" 0

# a card alone: show and history need no --kind
mc show "$H100" --format json >"$TMP/show.json" 2>"$TMP/show.err"
check_eq "show of a card's name: exit 0 without --kind" "$?" 0
want=$(python3 -c "
import csv, gzip, sys
for r in csv.DictReader(gzip.open(sys.argv[1], 'rt', encoding='utf-8', newline='')):
    if r['Hardware name'].strip() == sys.argv[2]:
        print(r['Manufacturer'].strip())" "$HW" "$H100")
got=$(python3 -c "
import json, sys
print(next(f['value'] for f in json.load(open(sys.argv[1]))['fields'] if f['field'] == 'Manufacturer'))" "$TMP/show.json")
check_eq "show gives the card's Manufacturer as the CSV has it" "$got" "$want"
mc history "$H100" >"$TMP/hist.out" 2>&1
check_eq "history of a card's name: exit 0 without --kind" "$?" 0
mc show "$H100" --kind model >/dev/null 2>"$TMP/nomodel.err"
check_eq "show --kind model of a card's name: not found (exit 3)" "$?" 3
check_grep "the error says which kind was looked for" "no model named '$H100'" "$TMP/nomodel.err"

# a misspelt card's name is suggested
mc show "NVIDIA H100 SXM5 80BG" >/dev/null 2>"$TMP/typo.err"
check_eq "show of a misspelt card: exit 3" "$?" 3
check_grep "the card's name is suggested" "did you mean: .*$H100" "$TMP/typo.err"
mc history "NVIDA H100 SXM5 80GB" --kind hardware >/dev/null 2>"$TMP/typo2.err"
check_eq "history --kind hardware of a misspelt card: exit 3" "$?" 3
check_grep "history suggests the card too" "did you mean: .*$H100" "$TMP/typo2.err"

# search: every card with h100 at the start of a word of its name (or
# over words from one on: docs/search.md), marked as hardware
want=$(python3 -c "
import csv, gzip, re, sys
def found(q, name):
    w = re.findall(r'[a-z0-9]+', name.lower())
    return any(''.join(w[i:]).startswith(q) for i in range(len(w)))
names = sorted({r['Hardware name'].strip() for r in csv.DictReader(gzip.open(sys.argv[1], 'rt', encoding='utf-8', newline=''))
                if found('h100', r['Hardware name'])})
print('|'.join(names))" "$HW")
mc search h100 --format json --limit 0 >"$TMP/search.json" 2>"$TMP/search.err"
check_eq "search h100: exit 0" "$?" 0
got=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print('|'.join(sorted(m['name'] for m in d if m['kind'] == 'hardware')))" "$TMP/search.json")
check_eq "search h100 finds exactly the cards with a word of it (CSV; not GH100)" "$got" "$want"
mc search h100 --limit 0 >"$TMP/search.txt" 2>&1
check_grep "a card's line says [hardware]" "^$H100 .*\[hardware\]$" "$TMP/search.txt"

# a model export holding a row of the card's name
printf 'Model,Parameters,Publication date\n%s,123,2024-01-01\nTiny,5,2024-02-02\n' "$H100" >"$TMP/models.csv"
mc ingest --as-of 2025-12-24 notable_ai_models="$TMP/models.csv" >/dev/null 2>&1
check_eq "a model of the card's name loads (exit 0)" "$?" 0
mc show "$H100" >/dev/null 2>"$TMP/both.err"
check_eq "show of a name that is both: usage error (exit 2)" "$?" 2
check_grep "it names the two kinds and --kind" \
	"'$H100' is both a model and a hardware record: give --kind model or --kind hardware" "$TMP/both.err"
mc show "$H100" --kind hardware --format json >"$TMP/hw.json" 2>&1
check_grep "show --kind hardware gives the card" '"exports": \["ml_hardware"\]' "$TMP/hw.json"
mc show "$H100" --kind model --format json >"$TMP/model.json" 2>&1
check_grep "show --kind model gives the model" '"exports": \["notable_ai_models"\]' "$TMP/model.json"
mc history "$H100" >/dev/null 2>"$TMP/hboth.err"
check_eq "history of a name that is both: usage error (exit 2)" "$?" 2
mc search "$H100" --kind model --format json --limit 0 >"$TMP/sm.json" 2>&1
got=$(python3 -c "
import json, sys
print(' '.join(sorted({m['kind'] for m in json.load(open(sys.argv[1]))})))" "$TMP/sm.json")
check_eq "search --kind model lists models only" "$got" "model"
mc search "$H100" --kind hardware --format json --limit 0 >"$TMP/sh.json" 2>&1
got=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(' '.join(sorted({m['kind'] for m in d})), sum(m['name'] == sys.argv[2] for m in d))" "$TMP/sh.json" "$H100")
check_eq "search --kind hardware lists cards only, the shared name once" "$got" "hardware 1"
mc show "$H100" --kind gpu >/dev/null 2>&1
check_eq "--kind takes model or hardware only (exit 2)" "$?" 2
for c in show history search; do
	mc $c --help >"$TMP/help" 2>&1
	check_grep "$c --help tells of --kind" "--kind" "$TMP/help"
done

# Renames of cards by the hardware family's evidence (pipelines/families.tsv):
# a constructed export whose cards vanish under one name and appear under
# another; the expected rule is worked out here from the rows themselves.
export MODELCAT_DB="$TMP/renames.db"
H='Hardware name,Manufacturer,Release date,Memory (bytes),Die Size (mm^2),Link to datasheet'
printf '%s\n%s\n%s\n%s\n%s\n' "$H" \
	'Card A,Acme,2024-01-10,8e10,800,https://acme.example/a.pdf' \
	'Card B,Acme,2024-02-20,4e10,600,' \
	'Card C,Acme,2024-03-30,2e10,400,https://acme.example/c.pdf' \
	'Card D,Bolt,2024-04-01,1e10,300,' >"$TMP/hw1.csv"
printf '%s\n%s\n%s\n%s\n%s\n' "$H" \
	'Card A Pro,Acme,2024-01-10,9e10,810,https://acme.example/a.pdf' \
	'Card B2,Acme,2024-02-20,4e10,600,' \
	'Card C2,Acme,2024-04-30,2e10,400,https://acme.example/c.pdf' \
	'Card D2,Bolt,2024-04-01,1e10,301,' >"$TMP/hw2.csv"
mc ingest --as-of 2025-01-01 ml_hardware="$TMP/hw1.csv" >/dev/null 2>&1
mc ingest --as-of 2025-02-01 ml_hardware="$TMP/hw2.csv" >"$TMP/hw2.out" 2>&1
check_eq "the second hardware file loads (exit 0)" "$?" 0
want=$(python3 - "$TMP/hw1.csv" "$TMP/hw2.csv" <<'PY'
import csv, sys
rules = [('same link to datasheet and release date', ['Link to datasheet', 'Release date']),
         ('same manufacturer, release date, memory (bytes) and die size (mm^2)',
          ['Manufacturer', 'Release date', 'Memory (bytes)', 'Die Size (mm^2)'])]
old = list(csv.DictReader(open(sys.argv[1])))
new = list(csv.DictReader(open(sys.argv[2])))
def key(r, fields):
    vals = [r[f].strip() for f in fields]
    if not all(vals):
        return None
    # numbers compare as numbers
    return tuple(str(float(v)) if f in ('Memory (bytes)', 'Die Size (mm^2)') else v
                 for f, v in zip(fields, vals))
out, done_old, done_new = [], set(), set()
for why, fields in rules:
    for o in old:
        for n in new:
            if o['Hardware name'] in done_old or n['Hardware name'] in done_new:
                continue
            k = key(o, fields)
            if k and k == key(n, fields):
                out.append('%s -> %s: %s' % (o['Hardware name'], n['Hardware name'], why))
                done_old.add(o['Hardware name']); done_new.add(n['Hardware name'])
print('|'.join(sorted(out)))
PY
)
got=$(sqlite3 -batch -noheader "$MODELCAT_DB" "SELECT old_name || ' -> ' || new_name || ': ' || evidence
	FROM rename WHERE export = 'ml_hardware' ORDER BY old_name" | tr '\n' '|' | sed 's/|$//')
check_eq "renames of cards by datasheet and release date, then by maker, date, memory and die" "$got" "$want"
check_grep "ingest counts them (2 renamed, 2 added, 2 removed)" \
	"^ml_hardware: 4 rows: 2 added, 2 removed, 2 renamed," "$TMP/hw2.out"
mc history "Card A Pro" >"$TMP/hwhist.out" 2>&1
check_grep "history of the renamed card tells the evidence" \
	"Card A -> Card A Pro (same link to datasheet and release date)" "$TMP/hwhist.out"

done_testing
