#!/bin/sh
# Acceptances recorded in the snapshot store (docs/store.md, "Acceptances"):
# a store file that a size guard holds, applied with ingest --accept, is
# written to DIR/ACCEPTED.tsv (export, SHA-256, file, when, why); reingest
# and an ingest of that store file read it and apply the file again. On a
# private store: the notable history's last file and the 2025-11-01 bundle.
# Expected values come from the files (Python's csv, zipfile, hashlib).
. "$(dirname "$0")/lib.sh"

STORE=$TMP/store
mkdir -p "$STORE/notable_ai_models" "$STORE/all_ai_models" "$STORE/large_scale_ai_models" \
	"$STORE/ai_models"
last() { ls "$SNAP/$1"/*.csv.gz | sort | tail -1; }
for e in notable_ai_models all_ai_models large_scale_ai_models; do
	cp "$(last $e)" "$STORE/$e/"
done
cp "$DATA/bundle/2025-11-01.zip" "$STORE/ai_models/2025-11-01.zip"
BUNDLE=$STORE/ai_models/2025-11-01.zip

# the exports of the bundle that remove more than 5 % (and more than 5) of
# the previous file's names: those a guard holds (a rename makes the count
# smaller, but on these files not below the guard: checked by the held set)
cat >"$TMP/ref.py" <<'PY'
import csv, gzip, hashlib, io, os, sys, zipfile
store, what = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(os.path.join(store, 'ai_models', '2025-11-01.zip'))
def names(text):
    rows = list(csv.reader(io.StringIO(text, newline='')))
    key = next(i for i, h in enumerate(rows[0]) if h.strip() in ('Model', 'System'))
    return [r[key].strip() for r in rows[1:] if len(r) > key and r[key].strip()]
out = []
for m in sorted(n for n in z.namelist() if n.endswith('.csv')):
    export, data = m[:-4], z.read(m)
    folder = os.path.join(store, export)
    if what == 'rows':
        out.append('%s=%d' % (export, len(list(csv.reader(io.StringIO(data.decode('utf-8'), newline='')))) - 1))
        continue
    if not os.path.isdir(folder):
        continue
    prev = sorted(f for f in os.listdir(folder) if f.endswith('.csv.gz'))[-1]
    old = set(names(gzip.open(os.path.join(folder, prev), 'rt', encoding='utf-8', newline='').read()))
    gone = len(old - set(names(data.decode('utf-8'))))
    if gone > 5 and 100.0 * gone / len(old) > 5:
        if what == 'held':
            out.append(export)
        else:
            out.append('%s %s ai_models/2025-11-01.zip/%s' % (export, hashlib.sha256(data).hexdigest(), m))
print('\n'.join(out))
PY
ref() { python3 "$TMP/ref.py" "$STORE" "$@"; }
want_held=$(ref held | tr '\n' ' ')
check "the bundle trips the guard of some exports ($want_held)" test -n "$want_held"

# without an acceptance, reingest holds them
mc reingest --snapshots "$STORE" >"$TMP/re1.out" 2>"$TMP/re1.err"
got=$(sed -n 's/^modelcat-reingest: \([a-z_]*\): held for review.*/\1/p; s/^  \([a-z_]*\): held for review.*/\1/p' \
	"$TMP/re1.out" "$TMP/re1.err" | sort | tr '\n' ' ')
check_eq "reingest holds exactly those exports" "$got" "$want_held"
check_grep "its summary counts them" "$(echo $want_held | wc -w | tr -d ' ') held for review" "$TMP/re1.out"
check "no ACCEPTED.tsv yet" test ! -e "$STORE/ACCEPTED.tsv"

# ingest --accept of the bundle, a file of the store named by --snapshots:
# the store records it
mc ingest --snapshots "$STORE" --accept "$BUNDLE" >"$TMP/acc.out" 2>"$TMP/acc.err"
check_eq "ingest --accept of the bundle: exit 0" "$?" 0
for e in $want_held; do
	check_grep "it says the acceptance of $e is recorded" \
		"^$e: acceptance recorded in $STORE/ACCEPTED.tsv$" "$TMP/acc.out"
done
got=$(tail -n +2 "$STORE/ACCEPTED.tsv" | cut -f1-3 | tr '\t' ' ' | sort)
check_eq "ACCEPTED.tsv: export, SHA-256 of the member, file in the store" "$got" "$(ref lines | sort)"
check_eq "its header names the five fields" "$(head -1 "$STORE/ACCEPTED.tsv")" \
	"$(printf 'export\tsha256\tfile\taccepted_at\treason')"
check "every line says when (UTC) and why (the guard's sentence)" python3 -c "
import re, sys
lines = open(sys.argv[1]).read().splitlines()[1:]
sys.exit(not lines or not all(re.match(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\tit would remove \d+ of \d+ models', '\t'.join(l.split('\t')[3:])) for l in lines))" "$STORE/ACCEPTED.tsv"
cp "$STORE/ACCEPTED.tsv" "$TMP/accepted.before"
mc ingest --snapshots "$STORE" --accept "$BUNDLE" >/dev/null 2>&1
check "the same acceptance again adds no line" cmp -s "$STORE/ACCEPTED.tsv" "$TMP/accepted.before"

# a catalogue rebuilt from nothing applies them
export MODELCAT_DB=$TMP/fresh.db
mc reingest --snapshots "$STORE" >"$TMP/re2.out" 2>"$TMP/re2.err"
check_eq "reingest of the store with its acceptances: exit 0" "$?" 0
check_grep "nothing is held" " 0 held for review" "$TMP/re2.out"
for e in $want_held; do
	check_grep "$e is applied as accepted" "^  $e: .*accepted although a guard would hold it" "$TMP/re2.out"
done
for pair in $(ref rows); do
	e=${pair%=*} n=${pair#*=}
	rows=$(mc export --source "$e" | python3 -c 'import csv,sys; print(len(list(csv.reader(sys.stdin)))-1)')
	check_eq "$e holds the bundle's $n rows after the rebuild" "$rows" "$n"
done

# an ingest of the store file reads the store's acceptance (run's catch-up
# ingests store files the same way)
export MODELCAT_DB=$TMP/catchup.db
for e in notable_ai_models; do
	mc ingest --snapshots "$STORE" "$(ls "$STORE/$e"/*.csv.gz)" >/dev/null 2>&1
	mc ingest --snapshots "$STORE" "$BUNDLE/$e.csv" >"$TMP/cu.out" 2>"$TMP/cu.err"
	check_eq "ingest of $e's member without --accept: exit 0 (accepted in the store)" "$?" 0
	check_grep "it is applied as accepted" "accepted although a guard would hold it" "$TMP/cu.out"
done
# the same content outside the store is held
export MODELCAT_DB=$TMP/outside.db
mkdir -p "$TMP/elsewhere"
python3 -c "import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read('notable_ai_models.csv'))" \
	"$BUNDLE" >"$TMP/elsewhere/notable_ai_models.csv"
mc ingest --snapshots "$STORE" "$(ls "$STORE/notable_ai_models"/*.csv.gz)" >/dev/null 2>&1
mc ingest --snapshots "$STORE" --as-of 2025-11-01 "$TMP/elsewhere/notable_ai_models.csv" >/dev/null 2>"$TMP/out.err"
check_eq "the same file outside a store is held (exit 1)" "$?" 1
check_grep "with the guard's line" "notable_ai_models: held for review" "$TMP/out.err"

# a damaged ACCEPTED.tsv stops a rebuild, naming file and line
printf 'notable_ai_models\tnot-a-hash\tx\ty\tz\n' >>"$STORE/ACCEPTED.tsv"
bad=$(wc -l <"$STORE/ACCEPTED.tsv" | tr -d ' ')
mc --db "$TMP/bad.db" reingest --snapshots "$STORE" >/dev/null 2>"$TMP/bad.err"
check_eq "reingest with a malformed ACCEPTED.tsv line: exit 3" "$?" 3
check_grep "the error names file and line" "ACCEPTED.tsv:$bad: expected export, sha256" "$TMP/bad.err"
done_testing
