#!/bin/sh
# Guards against damaged input (pipelines/guards.tsv): an export's file
# with a header and no rows, one that would remove more than 5 % of the
# export's models, one that quarantines more than 2 % of its rows, one
# whose header gains more than 10 columns: held, exit 1, nothing of it
# applied, one line naming the guard and the numbers; --accept applies
# it. The spreadsheet re-save swallowed "Mistral OCR" into a broken row:
# the model is kept and reported held. Through run too.
. "$(dirname "$0")/lib.sh"

base=$SNAP/notable_ai_models/2025-04-18.csv.gz
prev=2025-04-18
day=2025-05-06
mkdir -p "$TMP/in"

# current models of notable_ai_models in the catalogue $1
current() {
	sqlite3 -batch -noheader "$1" "SELECT count(*) FROM record r JOIN version v ON v.record_id = r.id
		WHERE r.export = 'notable_ai_models' AND v.valid_to IS NULL AND v.tombstone = 0"
}
# a catalogue holding the notable export of $prev, copied to $1
fresh() {
	if [ ! -f "$TMP/base.db" ]; then
		MODELCAT_DB=$TMP/base.db mc ingest "$base" >/dev/null 2>&1
	fi
	cp "$TMP/base.db" "$1"
}
# rewrite $base through python3's csv module: $1 the output, $2 a python
# expression of (i, row) giving the row to write or None; $3 the header
# rewrite (a python expression of header)
rewrite() {
	python3 - "$base" "$1" "$2" "${3:-header}" <<'EOF'
import csv, gzip, io, sys
src, out, rowexpr, headexpr = sys.argv[1:5]
rows = list(csv.reader(io.TextIOWrapper(gzip.open(src), encoding="utf-8", newline="")))
header = rows[0]
w = csv.writer(open(out, "w", encoding="utf-8", newline=""), lineterminator="\n")
w.writerow(eval(headexpr))
for i, row in enumerate(rows[1:]):
    r = eval(rowexpr)
    if r is not None:
        w.writerow(r)
EOF
}
export_of() { mc export --source notable_ai_models --as-of "$1"; }

# ---- a header and no rows ----
db=$TMP/empty.db
fresh "$db"
export MODELCAT_DB=$db
models=$(current "$db")
check "the base catalogue has models ($models)" test "$models" -gt 900
rewrite "$TMP/in/notable_ai_models.csv" None
before=$(sha256sum <"$db")
mc diff --to $day "notable_ai_models=$TMP/in/notable_ai_models.csv" >"$TMP/dry" 2>&1
check_grep "diff of the file (ingest's dry run) says it would be held" \
	"notable_ai_models: held for review, nothing applied (guard empty): the file has a header and no rows (the export has $models models)" "$TMP/dry"
check_grep "and removes nothing" "^0 added, 0 removed, 0 renamed, 0 changed" "$TMP/dry"
check_eq "and writes nothing" "$(sha256sum <"$db")" "$before"
check_status "a header-only file: exit 1" 1 mc ingest --as-of $day "notable_ai_models=$TMP/in/notable_ai_models.csv"
check_grep "one line names the export and the guard" \
	"^modelcat-ingest: notable_ai_models: held for review: the file has a header and no rows (the export has $models models); ingest --accept to apply it$" "$TMP/err"
check_eq "one line on stderr" "$(wc -l <"$TMP/err")" 1
check_eq "every model still current" "$(current "$db")" "$models"
check_eq "export --as-of $day equals $prev's" "$(export_of $day | sha256sum)" "$(export_of $prev | sha256sum)"
check_eq "the snapshot records the export held" \
	"$(sql "SELECT h.export || ' ' || h.guard FROM held_export h JOIN snapshot s ON s.id = h.snapshot_id WHERE s.as_of = '$day'")" \
	"notable_ai_models empty"
check_eq "and has no export applied" \
	"$(sql "SELECT count(*) FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id WHERE s.as_of = '$day'")" 0
mc diff --from $prev --to $day >"$TMP/diff.txt"
check_grep "diff: a Held for review section" "^Held for review$" "$TMP/diff.txt"
check_grep "diff: the export held and why" "notable_ai_models: held for review, nothing applied (guard empty)" "$TMP/diff.txt"
mc diff --from $prev --to $day --format json >"$TMP/diff.json"
check_eq "JSON: the held export" \
	"$(python3 -c 'import json,sys; print([(h["export"], h["guard"]) for h in json.load(open(sys.argv[1]))["held"]])' "$TMP/diff.json")" \
	"[('notable_ai_models', 'empty')]"
mc diff --from $prev --to $day --format html >"$TMP/diff.html"
check_grep "HTML: a Held for review section" '<h2 id="held">Held for review (1)</h2>' "$TMP/diff.html"
check_status "--accept applies it: exit 0" 0 mc ingest --accept --as-of $day "notable_ai_models=$TMP/in/notable_ai_models.csv"
check_eq "every model removed" "$(current "$db")" 0

# ---- a file missing 10 % of the rows ----
db=$TMP/missing.db
fresh "$db"
export MODELCAT_DB=$db
# every 10th row whose name is the only one of its kind (no NAME#2 to renumber)
python3 - "$base" >"$TMP/drop" <<'EOF'
import csv, gzip, io, sys, collections
rows = list(csv.reader(io.TextIOWrapper(gzip.open(sys.argv[1]), encoding="utf-8", newline="")))[1:]
names = collections.Counter(r[0].strip() for r in rows)
print(" ".join(str(i) for i, r in enumerate(rows) if i % 10 == 0 and names[r[0].strip()] == 1 and r[0].strip()))
EOF
dropped=$(wc -w <"$TMP/drop")
check "about 10 % of the rows are left out ($dropped)" test "$dropped" -gt 80
rewrite "$TMP/in/notable_ai_models.csv" "None if str(i) in set(open('$TMP/drop').read().split()) else row"
check_status "a file missing $dropped rows: exit 1" 1 mc ingest --as-of $day "notable_ai_models=$TMP/in/notable_ai_models.csv"
pct=$(python3 -c "print('%.1f' % (100.0 * $dropped / $models))")
check_grep "the line gives the guard and the numbers" \
	"notable_ai_models: held for review: it would remove $dropped of $models models ($pct %; the guard is 5 % and more than 5); ingest --accept to apply it" "$TMP/err"
check_eq "every model still current" "$(current "$db")" "$models"
check_eq "export --as-of $day equals $prev's" "$(export_of $day | sha256sum)" "$(export_of $prev | sha256sum)"
check_status "--accept applies it" 0 mc ingest --accept --as-of $day "notable_ai_models=$TMP/in/notable_ai_models.csv"
check_eq "the models left out are removed" "$(current "$db")" "$((models - dropped))"
check_eq "and the content is remembered as accepted" "$(sql "SELECT count(*) FROM accepted_content")" 1

# reingest: the accepted content stays applied, a held one stays held
mkdir -p "$TMP/store/notable_ai_models"
cp "$base" "$TMP/store/notable_ai_models/$prev.csv.gz"
gzip -c "$TMP/in/notable_ai_models.csv" >"$TMP/store/notable_ai_models/$day.csv.gz"
check_status "reingest of a store with the accepted file" 0 mc reingest --snapshots "$TMP/store"
check_grep "its summary: nothing held" ", 0 held for review\$" "$TMP/out"
check_eq "reingest applies the content accepted before" "$(current "$db")" "$((models - dropped))"
fresh "$db"
check_status "reingest into a catalogue that never accepted it" 0 mc reingest --snapshots "$TMP/store"
check_eq "the file stays held" "$(current "$db")" "$models"
check_grep "reingest's summary counts it held" ", 1 held for review (a guard held them: ingest --accept applies one)\$" "$TMP/out"
check_eq "and the rebuilt snapshot says so" "$(sql "SELECT guard FROM held_export")" remove

# ---- more than 2 % of the rows quarantined ----
db=$TMP/quarantine.db
fresh "$db"
export MODELCAT_DB=$db
# one cell too many in every 30th row: 3.3 % of the rows cannot be read
rewrite "$TMP/in/notable_ai_models.csv" "row + ['x'] if i % 30 == 0 else row"
rows=$(gzip -dc "$base" | python3 -c 'import csv,sys; print(sum(1 for _ in csv.reader(sys.stdin)) - 1)')
bad=$(python3 -c "print(len(range(0, $rows, 30)))")
check_status "a file with $bad broken rows of $rows: exit 1" 1 mc ingest --as-of $day "notable_ai_models=$TMP/in/notable_ai_models.csv"
check_grep "held: it quarantines $bad of $rows rows" "held for review: it quarantines $bad of $rows rows (.*; the guard is 2 % and more than 5)" "$TMP/err"
check_eq "nothing applied: no quarantined row recorded" "$(sql "SELECT count(*) FROM quarantine")" \
	"$(sqlite3 -batch -noheader "$TMP/base.db" "SELECT count(*) FROM quarantine")"

# ---- a header gaining 11 columns ----
db=$TMP/columns.db
fresh "$db"
export MODELCAT_DB=$db
rewrite "$TMP/in/notable_ai_models.csv" "row + [''] * 11" "header + ['Extra %d' % k for k in range(11)]"
check_status "a header gaining 11 columns: exit 1" 1 mc ingest --as-of $day "notable_ai_models=$TMP/in/notable_ai_models.csv"
check_grep "held: its header gains 11 columns" "held for review: its header gains 11 columns (the guard is more than 10)" "$TMP/err"
rewrite "$TMP/in/notable_ai_models.csv" "row + [''] * 10" "header + ['Extra %d' % k for k in range(10)]"
check_status "10 new columns pass" 0 mc ingest --as-of $day "notable_ai_models=$TMP/in/notable_ai_models.csv"

# ---- the spreadsheet re-save night ----
db=$TMP/resave.db
export MODELCAT_DB=$db
resave=$DATA/dirty/notable_ai_models-spreadsheet-resave.csv.gz
mc ingest "$SNAP/notable_ai_models/2025-05-06.csv.gz" >/dev/null 2>&1
# the broken row that holds "Mistral OCR" in its raw text, and its line
python3 - "$resave" >"$TMP/broken" <<'EOF'
import csv, gzip, io, sys
f = io.TextIOWrapper(gzip.open(sys.argv[1]), encoding="utf-8", newline="")
r = csv.reader(f)
header = next(r)
start = r.line_num + 1
for row in r:
    if len(row) != len(header) and any("Mistral OCR" in c for c in row):
        print(start)
    start = r.line_num + 1
EOF
line=$(cat "$TMP/broken")
check "the re-save has a broken row holding Mistral OCR (line $line)" test -n "$line"
check_status "the re-save (21 rows quarantined) is held" 1 mc ingest --as-of 2025-05-10 "notable_ai_models=$resave"
check_grep "by the quarantine guard" "held for review: it quarantines 21 of" "$TMP/err"
check_status "accepted, it loads (exit 1: rows quarantined)" 1 mc ingest --accept --as-of 2025-05-10 "notable_ai_models=$resave"
check_eq "Mistral OCR stays current" \
	"$(sql "SELECT count(*) FROM record r JOIN version v ON v.record_id = r.id WHERE r.name = 'Mistral OCR' AND v.valid_to IS NULL AND v.tombstone = 0")" 1
mc diff --from 2025-05-06 --to 2025-05-10 --format json >"$TMP/resave.json"
check_eq "the audit does not list it as removed" \
	"$(python3 -c 'import json,sys; print("Mistral OCR" in [m["name"] for m in json.load(open(sys.argv[1]))["removed"]])' "$TMP/resave.json")" False
check_eq "the audit lists it held, with the broken row's line" \
	"$(python3 -c 'import json,sys; print([(h["name"], h["line"]) for h in json.load(open(sys.argv[1]))["held"] if "name" in h])' "$TMP/resave.json")" \
	"[('Mistral OCR', $line)]"
mc diff --from 2025-05-06 --to 2025-05-10 >"$TMP/resave.txt"
check_grep "text: its row is likely inside the broken row at line $line" \
	"Mistral OCR: kept, not removed: its row is likely inside the broken row at line $line" "$TMP/resave.txt"
mc history "Mistral OCR" >"$TMP/hist" 2>&1
check "history: Mistral OCR never removed" sh -c "! grep -Eq '^  [0-9-]+  removed ' '$TMP/hist'"

# a removed column: the notes the re-save lost are changes of their models
TOP=$TOP python3 - "$SNAP/notable_ai_models/2025-05-06.csv.gz" "$resave" "$TMP/resave.json" >"$TMP/notes" <<'EOF'
import csv, gzip, io, json, os, sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "e2e"))
from csvref import canonical
def rows(p):
    rs = list(csv.reader(io.TextIOWrapper(gzip.open(p), encoding="utf-8", newline="")))
    # names as modelcat compares them (docs/normalisation.md, "Names")
    return rs[:1] + [[canonical(r[0])] + r[1:] if r else r for r in rs[1:]]
old, new = rows(sys.argv[1]), rows(sys.argv[2])
col = "Notability criteria notes"
k = old[0].index(col)
# models with a note on 2025-05-06 that the re-save still has: a row of
# their own, or a line of their own inside a broken row
names = {r[0].strip() for r in new[1:]}
broken = ["\n".join(r) for r in new[1:] if len(r) != len(new[0])]
notes = {r[0].strip() for r in old[1:] if len(r) > k and r[k].strip()}
want = sorted(n for n in notes if n in names or any("\n" + n + "," in b for b in broken))
d = json.load(open(sys.argv[3]))
got = sorted(m for c in d["column_values"] if c["field"] == col and c["kind"] == "removed"
             for m in c["models"])
print(len(want), len(got), want == got)
EOF
read -r want got same <"$TMP/notes"
qrnn="4 layer QRNN (h=2500)"
note=$(gzip -dc "$SNAP/notable_ai_models/2025-05-06.csv.gz" | python3 -c '
import csv, sys
print([r["Notability criteria notes"] for r in csv.DictReader(sys.stdin) if r["Model"] == sys.argv[1]][0].split("\n")[0])' "$qrnn")
check "the re-save took a note from many models ($want)" test "$want" -gt 400
check_eq "the audit lists each model that lost its note (as the CSVs say)" "$got $same" "$want True"
check_grep "text audit: Column removed Notability criteria notes: $want models" \
	"^Column removed Notability criteria notes (notable_ai_models): $want models$" "$TMP/resave.txt"
mc history "$qrnn" >"$TMP/hist" 2>&1
check_grep "history $qrnn: the lost note, (column removed)" \
	"Notability criteria notes: $note.* -> (none) (column removed)" "$TMP/hist"

# ---- new columns; Last updated; no wall clock on pages ----
db=$TMP/pages.db
export MODELCAT_DB=$db
for d in 2024-07-06 2024-12-24 2025-02-24; do
	mc ingest "$SNAP/notable_ai_models/$d.csv.gz" >/dev/null 2>&1
done
mc translate >/dev/null 2>&1
mc diff --from 2024-12-24 --to 2025-02-24 --format json >"$TMP/new.json"
python3 - "$SNAP/notable_ai_models/2024-12-24.csv.gz" "$SNAP/notable_ai_models/2025-02-24.csv.gz" "$TMP/new.json" >"$TMP/newcol" <<'EOF'
import csv, gzip, io, json, sys
def rows(p):
    return list(csv.DictReader(io.TextIOWrapper(gzip.open(p), encoding="utf-8", newline="")))
old, new = rows(sys.argv[1]), rows(sys.argv[2])
col = [c for c in new[0] if c not in old[0]][0]
names = {r["Model"].strip() for r in old}
want = {r["Model"].strip() for r in new if r["Model"].strip() in names and r[col].strip()}
d = json.load(open(sys.argv[3]))
got = {m for c in d["column_values"] if c["field"] == col and c["kind"] == "added" for m in c["models"]}
renamed = {r["to"] for r in d["renamed"]}
# the models in both files with a value; a renamed one is the same model under its new name
print(len(want), want <= got and got - want <= renamed)
# Last updated: a model whose only change is a new column's value, and one with no change
common = [c for c in old[0] if c in new[0]]
byname = {r["Model"]: r for r in old}
only_new = [r["Model"] for r in new if r["Model"] in byname and r[col].strip()
            and all(byname[r["Model"]][c] == r[c] for c in common)]
same = [r["Model"] for r in new if r["Model"] in byname and not r[col].strip()
        and all(byname[r["Model"]][c] == r[c] for c in common)]
print(only_new[0])
print(same[0])
EOF
{ read -r nnew subset; read -r only_new; read -r same; } <"$TMP/newcol"
check "the new column gave values to many models ($nnew)" test "$nnew" -gt 250
check_eq "the audit lists every model the CSVs give a value of the new column" "$subset" True
mc diff --from 2024-12-24 --to 2025-02-24 --format html >"$TMP/new.html"
check_grep "HTML audit: New column ...: N models, each named" \
	"<h2>New column Training compute estimation method: [0-9]* models" "$TMP/new.html"
value=$(gzip -dc "$SNAP/notable_ai_models/2025-02-24.csv.gz" | python3 -c '
import csv, sys
print([r["Training compute estimation method"] for r in csv.DictReader(sys.stdin) if r["Model"] == sys.argv[1]][0])' "$only_new")
mc history "$only_new" >"$TMP/hist" 2>&1
check_grep "history $only_new: the new column's value, (new column)" \
	"Training compute estimation method: (none) -> $value (new column)" "$TMP/hist"
updated() { mc render "$1" --as-of "$2" | sed -n '/^- Last updated$/{n;p;}'; }
check_eq "$only_new: Last updated is the day the new column gave it a value" \
	"$(updated "$only_new" 2025-02-24)" "- 24 February 2025"
# the unchanged model's last change: the first of the loaded snapshots from
# which its row is the same as on 2024-12-24 (by the CSVs)
since=$(python3 - "$SNAP/notable_ai_models" "$same" <<'EOF'
import csv, datetime, gzip, io, sys
def row(d):
    rows = list(csv.DictReader(io.TextIOWrapper(gzip.open(sys.argv[1] + "/" + d + ".csv.gz"), encoding="utf-8", newline="")))
    key = list(rows[0])[0]  # Model, or System before 2024-12
    return [r for r in rows if r[key] == sys.argv[2]]
a, b = row("2024-07-06"), row("2024-12-24")
common = [c for c in b[0] if a and c in a[0]]
same = a and all(a[0][c] == b[0][c] for c in common) and set(a[0]) == set(b[0])
print(datetime.date.fromisoformat("2024-07-06" if same else "2024-12-24").strftime("%-d %B %Y"))
EOF
)
check_eq "$same (no shown value changed since): Last updated stays $since" \
	"$(updated "$same" 2025-02-24)" "- $since"

# a sentence comparing the publication date with "now" uses the page's
# Last updated date (docs/pages.md): on every page of 2025-02-24 it is
# there exactly when the model was published twelve months or more before
# that date, whatever day it is today and however old the snapshot
sentence="Capability per parameter has improved considerably since"
mc render --all --as-of 2025-02-24 --out "$TMP/pages-0224" >/dev/null 2>&1
python3 - "$TMP/pages-0224/en" "$sentence" >"$TMP/age" <<'EOF'
import datetime, os, re, sys
months = {datetime.date(2000, m, 1).strftime("%B"): m for m in range(1, 13)}
def after(lines, label):
    i = lines.index(label) if label in lines else -1
    return lines[i + 1][2:] if i >= 0 else None
def ym(text):  # "29 July 2024", "July 2024" or "2024"
    m = re.fullmatch(r"(?:\d+ )?(?:(\w+) )?(\d{4})", text or "")
    return m and (int(m.group(2)), months.get(m.group(1), 1))
have = agree = differ = 0
for f in sorted(os.listdir(sys.argv[1])):
    if not f.endswith(".txt") or f == "index.txt":
        continue
    lines = open(os.path.join(sys.argv[1], f), encoding="utf-8").read().split("\n")
    pub, upd = ym(after(lines, "- Published")), ym(after(lines, "- Last updated"))
    if not pub or not upd:
        continue
    want = (upd[0] - pub[0]) * 12 + upd[1] - pub[1] >= 12
    got = any(sys.argv[2] in l for l in lines)
    have += got
    agree += want == got
    differ += want != ((2025 - pub[0]) * 12 + 2 - pub[1] >= 12)
    if want != got:
        print("disagrees:", f)
print("pages", agree, "sentence", have, "differ", differ)
EOF
sed -n '/^disagrees/p' "$TMP/age" | head -5 | sed 's/^/# /'
check "every page of 2025-02-24 has the sentence exactly when its Last updated is a year or more after its publication" \
	sh -c "! grep -q '^disagrees' '$TMP/age'"
check "(the sentence is on some pages)" sh -c "! grep -q ' sentence 0 ' '$TMP/age'"
check "(and the page's date is not the snapshot's: on some pages the two differ)" \
	sh -c "! grep -q ' differ 0\$' '$TMP/age'"
check "(the pages were read: over 800 of the 895)" \
	test "$(sed -n 's/^pages \([0-9]*\) .*/\1/p' "$TMP/age")" -gt 800

# ---- through run ----
db=$TMP/run.db
export MODELCAT_DB=$db
export MODELCAT_RETRY_BASE_MS=10
WWW=$TMP/www
mkdir -p "$WWW"
gzip -dc "$base" >"$WWW/notable_ai_models.csv"
start_server "$WWW" 300
run() { mc run --snapshots "$TMP/runstore" --out "$TMP/public" --source "notable_ai_models=$URL/data/notable_ai_models.csv" "$@"; }
check_status "a first run publishes" 0 run
models=$(current "$db")
pages_before=$(grep '  pages/' "$TMP/public/.modelcat/current/MANIFEST")
rewrite "$WWW/notable_ai_models.csv" "None if str(i) in set(open('$TMP/drop').read().split()) else row"
check_status "a run fetching a file missing $dropped rows: exit 1" 1 run
check_grep "its log names the export held" "notable_ai_models: held for review: it would remove $dropped of $models models" "$TMP/err"
check_eq "no change applied to the export" "$(current "$db")" "$models"
check_eq "the catalogue has one applied export snapshot" "$(sql "SELECT count(*) FROM snapshot_export")" 1
check_eq "no published page changed (only the audit, saying it is held)" \
	"$(grep '  pages/' "$TMP/public/.modelcat/current/MANIFEST")" "$pages_before"
audit=$(grep -l "Held for review" "$TMP"/public/audit/*.html | head -1)
check "the published audit has the held section" test -n "$audit"
check_grep "naming the guard" "it would remove $dropped of $models models" "${audit:-/dev/null}"
check_grep "the feed's entry title counts it held" ", 1 held</title>" "$TMP/public/audit/feed.atom"
check_status "run --accept notable_ai_models applies it" 0 run --accept notable_ai_models
check_eq "the models left out are removed" "$(current "$db")" "$((models - dropped))"
check "and their pages are gone" test "$(grep -c '  pages/en/.*\.txt$' "$TMP/public/.modelcat/current/MANIFEST")" -lt \
	"$(printf '%s\n' "$pages_before" | grep -c '  pages/en/.*\.txt$')"
done_testing
