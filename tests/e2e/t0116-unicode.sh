#!/bin/sh
# Names compared in Unicode canonical form (docs/normalisation.md, "Names"):
# the same name in NFC and in NFD is one model with one history; a
# byte-order mark inside a file, a zero-width space and a no-break space
# are not part of a name, and each is a notice naming file, line and field;
# a catalogue that stored a name in another form finds it again (one rename
# with its own evidence, then nothing). Expected values are computed with
# Python's unicodedata from the bytes written here and from the real CSVs.
. "$(dirname "$0")/lib.sh"

# py EXPR...: run Python with unicodedata, sqlite3 and json imported
py() { py_code_=$1; shift; python3 -c "import sys, json, sqlite3, unicodedata, csv, gzip, hashlib; $py_code_" "$@"; }
# names DB EXPORT: the export's record names, as Python reprs (the bytes
# show), sorted
names() {
	py 'c = sqlite3.connect(sys.argv[1]); print(sorted(r[0] for r in c.execute("SELECT name FROM record WHERE export = ?", (sys.argv[2],))))' "$@"
}
# want_names NAME...: the reprs the canonical forms of NAMES give (NFC,
# no-break spaces as spaces, zero-width characters and BOMs removed)
want_names() {
	py '
def canon(s):
    s = s.replace("\u00a0", " ").replace("\u202f", " ")
    for ch in "\ufeff\u200b\u200c\u200d\u2060": s = s.replace(ch, "")
    return unicodedata.normalize("NFC", s).strip()
print(sorted(canon(n) for n in sys.argv[1:]))' "$@"
}

NFC=$(printf 'Caf\303\251 LM')
NFD=$(printf 'Cafe\314\201 LM')
check_eq "the two spellings differ in bytes (written here from the code points)" \
	"$(py 'print(sys.argv[1] != sys.argv[2] and unicodedata.normalize("NFC", sys.argv[2]) == sys.argv[1])' "$NFC" "$NFD")" True

# ---- one name in NFC, then in NFD: one model, no change ----
printf 'Model,Organization,Parameters\n%s,Acme,1e9\nOther,Acme,2\n' "$NFC" >"$TMP/nfc.csv"
printf 'Model,Organization,Parameters\n%s,Acme,1e9\nOther,Acme,2\n' "$NFD" >"$TMP/nfd.csv"
check_status "the NFC file ingests (exit 0)" 0 mc ingest --as-of 2025-01-01 "demo=$TMP/nfc.csv"
check_eq "no notice for a name already canonical" "$(grep -c 'normalised' "$TMP/err")" 0
check_status "the NFD file ingests (exit 0)" 0 mc ingest --as-of 2025-02-01 "demo=$TMP/nfd.csv"
check_grep "the NFD name is a notice with file, line and field" \
	"^$TMP/nfd.csv:2: Model: name normalised (NFD to NFC): '$NFC'\$" "$TMP/err"
check_grep "the summary counts it" "^demo: 2 rows: 0 added, 0 removed, 0 renamed, 0 changed, 2 unchanged, 0 quarantined; 1 notice\$" "$TMP/out"
check_eq "one record, under the NFC name" "$(names "$MODELCAT_DB" demo)" "$(want_names "$NFC" Other)"
mc diff --from 2025-01-01 --to 2025-02-01 --format json >"$TMP/diff.json"
check_eq "the diff is empty: nothing added, removed, renamed or changed" \
	"$(py 'd = json.load(open(sys.argv[1])); print([len(d[k]) for k in ("added", "removed", "renamed", "changed")])' "$TMP/diff.json")" \
	"[0, 0, 0, 0]"
check_eq "the model has one version" \
	"$(sql "SELECT count(*) FROM version v JOIN record r ON r.id = v.record_id WHERE r.export = 'demo' AND r.name = '$NFC'")" 1
mc history "$NFC" >"$TMP/history"
check_eq "its history is one entry (added on 2025-01-01)" "$(grep -c '^  20' "$TMP/history")" 1
# a name typed (or pasted) in NFD finds the model
check_status "show of the NFD spelling finds the model (exit 0)" 0 mc show "$NFD"
check_grep "and shows it under its NFC name" "$NFC" "$TMP/out"
check_status "history of the NFD spelling (exit 0)" 0 mc history "$NFD"
check_status "render of the NFD spelling: translate first" 0 mc translate
check_status "render of the NFD spelling (exit 0)" 0 mc render "$NFD"
check_grep "its page is the model's" "^$NFC\$" "$TMP/out"
check_eq "the notice is stored in the catalogue" \
	"$(sql "SELECT count(*) FROM notice WHERE message LIKE '%name normalised (NFD to NFC)%'")" 1
# NFD first, then NFC: the same, from the other side; both in one file:
# one name, so the second is its repeat
printf 'Model,Parameters\n%s,1\n' "$NFD" >"$TMP/d1.csv"
printf 'Model,Parameters\n%s,1\n' "$NFC" >"$TMP/d2.csv"
mc ingest --as-of 2025-01-01 "other=$TMP/d1.csv" >/dev/null 2>&1
check_status "NFD, then NFC ingests (exit 0)" 0 mc ingest --as-of 2025-02-01 "other=$TMP/d2.csv"
check_grep "nothing changes" "^other: 1 rows: 0 added, 0 removed, 0 renamed, 0 changed, 1 unchanged" "$TMP/out"
check_eq "one record, NFC" "$(names "$MODELCAT_DB" other)" "$(want_names "$NFC")"
printf 'Model,Parameters\n%s,1\n%s,2\n' "$NFC" "$NFD" >"$TMP/both.csv"
check_status "NFC and NFD in one file ingest (exit 0)" 0 mc ingest --as-of 2025-01-01 "both=$TMP/both.csv"
check_grep "the second is a repeat of the first" "^$TMP/both.csv:3: model name '$NFC' repeats (occurrence 2)" "$TMP/err"

# a row read again byte for byte (recognised by its raw digest, not
# normalised again) is found under its canonical name, with its notice
printf 'Model,Parameters\nALLaM\302\240X,1\nY,1\n' >"$TMP/k1.csv"
printf 'Model,Parameters\nALLaM\302\240X,1\nY,2\n' >"$TMP/k2.csv"
mc ingest --as-of 2025-01-01 "known=$TMP/k1.csv" >/dev/null 2>&1
check_status "the same row the next day ingests (exit 0)" 0 mc ingest --as-of 2025-02-01 "known=$TMP/k2.csv"
check_grep "it is that model, unchanged" "^known: 2 rows: 0 added, 0 removed, 0 renamed, 1 changed, 1 unchanged, 0 quarantined; 1 notice\$" "$TMP/out"
check_grep "with its notice" "^$TMP/k2.csv:2: Model: name normalised (no-break space): 'ALLaM X'\$" "$TMP/err"

# ---- a byte-order mark inside the file, a zero-width space ----
{
	printf 'Model,Organization,Parameters\n'
	printf 'First,Acme,1\n'
	printf '\357\273\277Second,Acme,2\n'
	printf '\357\273\277"Third, quoted",Acme,3\n'
	printf 'GPT\342\200\213-Z,Acme,\357\273\2774\n'
	printf 'Fifth,"\342\200\213Acme\302\240Labs, \357\273\277Beta ",5\n'
} >"$TMP/joined.csv"
check_status "a file with BOMs inside ingests (exit 0)" 0 mc ingest --as-of 2025-01-01 "joined=$TMP/joined.csv"
check_eq "no name holds a BOM or a zero-width space; the quoted name is one field" \
	"$(names "$MODELCAT_DB" joined)" \
	"$(py 'print(sorted(["First", "Second", "Third, quoted", "GPT-Z", "Fifth"]))')"
check_eq "and no BOM, zero-width or no-break space is stored anywhere in the values" \
	"$(py 'c = sqlite3.connect(sys.argv[1]); print(sum(any(ch in json.loads(n)[k] for k in json.loads(n) for ch in "\ufeff\u200b\u00a0") for (n,) in c.execute("SELECT v.norm FROM version v JOIN record r ON r.id = v.record_id WHERE r.export = ?", ("joined",))))' "$MODELCAT_DB")" 0
check_grep "the BOM before a name: notice with file and line" \
	"^$TMP/joined.csv:3: Model: name normalised (byte-order mark removed): 'Second'\$" "$TMP/err"
check_grep "the BOM before a quoted name: notice" \
	"^$TMP/joined.csv:4: Model: name normalised (byte-order mark removed): 'Third, quoted'\$" "$TMP/err"
check_grep "the zero-width space: notice" \
	"^$TMP/joined.csv:5: Model: name normalised (invisible character removed): 'GPT-Z'\$" "$TMP/err"
check_grep "a BOM before a number is dropped, with a notice" \
	"^$TMP/joined.csv:5: Parameters: byte-order mark at the start of the cell removed\$" "$TMP/err"
check_eq "and the number is read" \
	"$(sql "SELECT json_extract(v.norm, '\$.Parameters') FROM version v JOIN record r ON r.id = v.record_id WHERE r.name = 'GPT-Z'")" 4
check_grep "organisations are names too: list items made canonical" \
	"^$TMP/joined.csv:6: Organization: name normalised (byte-order mark removed, invisible character removed, no-break space): 'Acme Labs,Beta'\$" "$TMP/err"
check_grep "the summary counts the five notices" "^joined: 5 rows: 5 added, .*; 5 notices\$" "$TMP/out"

# ---- the real no-break space: ALLaM adapted 70B (notable, 2025-05-06) ----
real=$SNAP/notable_ai_models/2025-05-06.csv.gz
export MODELCAT_DB="$TMP/real.db"
check_status "the 2025-05-06 export ingests (exit 0)" 0 mc ingest --as-of 2025-05-06 "$real"
py '
rows = csv.reader(gzip.open(sys.argv[1], "rt", encoding="utf-8-sig", newline=""))
head = next(rows); line = 2; key = head.index("Model")
for row in rows:
    if "\u00a0" in row[key] or "\u202f" in row[key]:
        print("%d\t%s" % (line, row[key]))
    line += sum(c.count("\n") for c in row) + 1' "$real" >"$TMP/nbsp.tsv"
check_eq "the CSV has one model name with a no-break space" "$(wc -l <"$TMP/nbsp.tsv")" 1
line=$(cut -f1 "$TMP/nbsp.tsv")
raw=$(cut -f2 "$TMP/nbsp.tsv")
name=$(py 'print(sys.argv[1].replace("\u00a0", " ").strip())' "$raw")
check_grep "its notice names the line ($line)" \
	"^$real:$line: Model: name normalised (no-break space): '$name'\$" "$TMP/err"
check_eq "its record is named with a plain space" \
	"$(py 'c = sqlite3.connect(sys.argv[1]); print([r[0] for r in c.execute("SELECT name FROM record WHERE name LIKE ?", ("ALLaM%adapted%70B",))])' "$MODELCAT_DB")" \
	"$(py 'print([sys.argv[1]])' "$name")"
check_eq "its raw cell keeps the no-break space, as written" \
	"$(py 'c = sqlite3.connect(sys.argv[1]); print(json.loads(c.execute("SELECT v.raw FROM version v JOIN record r ON r.id = v.record_id WHERE r.name = ?", (sys.argv[2],)).fetchone()[0])["Model"] == sys.argv[3])' "$MODELCAT_DB" "$name" "$raw")" True
check_status "show finds it by its name with a plain space" 0 mc show "$name"
mc export --source notable_ai_models >"$TMP/export.csv"
check_eq "export writes the name with a plain space" \
	"$(py 'print([r[0] for r in csv.reader(open(sys.argv[1], encoding="utf-8")) if r[0].startswith("ALLaM") and r[0].endswith("adapted 70B")])' "$TMP/export.csv")" \
	"$(py 'print([sys.argv[1]])' "$name")"
mc translate >/dev/null 2>&1
check_status "render --all exits 0" 0 mc render --all --out "$TMP/site"
stem=$(py '
import re
name = sys.argv[1]
slug = re.sub("[^a-z0-9]+", "-", name.lower()).lstrip("-")[:60].rstrip("-")
print("%s-%s" % (slug, hashlib.sha256(name.encode()).hexdigest()[:10]))' "$name")
check "its page is named from the canonical name ($stem)" test -f "$TMP/site/en/$stem.html"
check_grep "the page's title is the name with a plain space" "<h1>$name</h1>" "$TMP/site/en/$stem.html"
check_eq "no page text holds the name with its no-break space" \
	"$(cat "$TMP/site/en/$stem.txt" "$TMP/site/en/$stem.html" | grep -c "ALLaM$(printf '\302\240')")" 0

# ---- a catalogue that stored names in another form ----
# As a catalogue loaded before names were read canonically holds them: the
# name as the file spelled it (NFD; a no-break space), in record, version
# and the stored values. The next load finds the model under its canonical
# name: one rename with its own evidence, then nothing.
export MODELCAT_DB="$TMP/old.db"
mc ingest --as-of 2025-01-01 "demo=$TMP/nfc.csv" >/dev/null 2>&1
py '
c = sqlite3.connect(sys.argv[1]); nfc, nfd = sys.argv[2], sys.argv[3]
c.execute("UPDATE record SET name = ? WHERE name = ?", (nfd, nfc))
c.execute("UPDATE version SET name = ?, norm = replace(norm, ?, ?) WHERE name = ?", (nfd, nfc, nfd, nfc))
c.commit()' "$MODELCAT_DB" "$NFC" "$NFD"
check_eq "the old catalogue holds the NFD name" "$(names "$MODELCAT_DB" demo)" "$(py 'print(sorted(sys.argv[1:]))' "$NFD" Other)"
printf 'Model,Organization,Parameters\n%s,Acme,1e9\nOther,Acme,3\n' "$NFC" >"$TMP/nfc2.csv"
check_status "the NFC file of the next day ingests (exit 0)" 0 mc ingest --as-of 2025-02-01 "demo=$TMP/nfc2.csv"
check_grep "one rename (and Other's change), nothing added or removed" "^demo: 2 rows: 0 added, 0 removed, 1 renamed, 1 changed, 0 unchanged" "$TMP/out"
check_eq "the rename says why" \
	"$(sql "SELECT evidence FROM rename")" "same name in Unicode canonical form"
check_eq "the record keeps its id and now has the NFC name" \
	"$(py 'c = sqlite3.connect(sys.argv[1]); print(c.execute("SELECT count(DISTINCT record_id) FROM version v JOIN record r ON r.id = v.record_id WHERE r.name = ?", (sys.argv[2],)).fetchone()[0], c.execute("SELECT count(*) FROM record").fetchone()[0])' "$MODELCAT_DB" "$NFC")" "1 2"
check_status "the NFD file of the day after ingests (exit 0)" 0 mc ingest --as-of 2025-03-01 "demo=$TMP/nfd.csv"
check_grep "then it is the same model (Other's value changes back)" \
	"^demo: 2 rows: 0 added, 0 removed, 0 renamed, 1 changed, 1 unchanged" "$TMP/out"

# the real case: a catalogue that stored ALLaM's no-break space, then the
# next export
export MODELCAT_DB="$TMP/old-real.db"
mc ingest --as-of 2025-04-18 "$SNAP/notable_ai_models/2025-04-18.csv.gz" >/dev/null 2>&1
py '
c = sqlite3.connect(sys.argv[1]); name, raw = sys.argv[2], sys.argv[3].strip()
c.execute("UPDATE record SET name = ? WHERE name = ?", (raw, name))
c.execute("UPDATE version SET name = ?, norm = replace(norm, ?, ?) WHERE name = ?", (raw, json.dumps(name)[1:-1], json.dumps(raw, ensure_ascii=False)[1:-1], name))
c.commit()' "$MODELCAT_DB" "$name" "$raw"
check_eq "the old catalogue holds the no-break space" \
	"$(py 'c = sqlite3.connect(sys.argv[1]); print(c.execute("SELECT count(*) FROM record WHERE name = ?", (sys.argv[2].strip(),)).fetchone()[0])' "$MODELCAT_DB" "$raw")" 1
check_status "the 2025-05-06 export ingests (exit 0)" 0 mc ingest --as-of 2025-05-06 "$real"
check_eq "ALLaM is renamed to its canonical name, by that rule, and nothing else is" \
	"$(py 'c = sqlite3.connect(sys.argv[1]); print([(o == sys.argv[3].strip(), n == sys.argv[2]) for o, n in c.execute("SELECT old_name, new_name FROM rename WHERE evidence = ?", ("same name in Unicode canonical form",))])' "$MODELCAT_DB" "$name" "$raw")" \
	"[(True, True)]"

done_testing
