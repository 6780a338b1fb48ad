#!/bin/sh
# Finding models: search by name, former name and organisation, case and
# accents aside, best matches first; suggestions when show, history or
# render is given a name not on record; history as JSON with values in
# full and revised versions naming their fields. Expected values come
# from the bundled CSVs, read with Python (tests/e2e/csvref.py).
. "$(dirname "$0")/lib.sh"

bundled_catalogue

# the models on record today, from the latest file of each export, merged
# by precedence: name (NAME#n for a repeat) -> organisation items, date
cat >"$TMP/ref.py" <<'PY'
import csv, glob, io, json, os, sys
sys.path.insert(0, os.environ["TOP"] + "/tests/e2e")
from csvref import read_rows, column_map
from storeref import files as store_files, text as store_text
top, snap = os.environ["TOP"], os.environ["SNAP"]
canon, _ = column_map(top + "/pipelines/columns.tsv")

def models(path):
    """name (NAME#n) -> {canonical field: value} for one file (or a store
    file of storeref.files(): a bundle's member)"""
    rows = read_rows(path) if isinstance(path, str) else \
        list(csv.reader(io.StringIO(store_text(path).lstrip("\ufeff"), newline="")))
    fields = [canon.get(h.strip(), h.strip()) for h in rows[0]]
    out, seen = {}, {}
    for row in rows[1:]:
        rec = {f: c.strip() for f, c in zip(fields, row)}
        name = rec.get("Model", "")
        if not name:
            continue
        seen[name] = seen.get(name, 0) + 1
        out[name if seen[name] == 1 else "%s#%d" % (name, seen[name])] = rec
    return out

def current():
    prec = [l.strip() for l in open(top + "/pipelines/precedence.tsv")
            if l.strip() and not l.startswith("#")]
    latest = {}
    for f in store_files(snap):           # by date: the last is the latest
        latest[f[1]] = f
    exports = sorted(latest, key=lambda e: (prec.index(e) if e in prec else 99, e))
    merged = {}
    for e in exports:
        for name, rec in models(latest[e]).items():
            m = merged.setdefault(name, {})
            for f in ("Organization", "Publication date"):
                if not m.get(f) and rec.get(f):
                    m[f] = rec[f]
    return merged
PY
export TOP SNAP TMP

# the words of a text by the search rules (docs/search.md): folded (NFKD,
# marks removed, case folded), runs of letters and digits
cat >>"$TMP/ref.py" <<'PY'
import unicodedata
def words(s):
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if unicodedata.category(c)[0] != "M")
    s = unicodedata.normalize("NFKC", s.casefold())
    out, w = [], ""
    for c in s + " ":
        if unicodedata.category(c)[0] in "LN": w += c
        elif w: out.append(w); w = ""
    return out
def found(q, text):
    """query word q at the start of a word of text, over its joined words"""
    ws = words(text)
    return any("".join(ws[i:]).startswith(q) for i in range(len(ws)))
PY

# search gpt-4: GPT-4 first, an exact match
mc search gpt-4 >"$TMP/gpt4.txt" 2>"$TMP/gpt4.err"
check_eq "search gpt-4 exits 0" "$?" 0
check_eq "search gpt-4 lists GPT-4 first" "$(head -1 "$TMP/gpt4.txt" | sed 's/  .*//')" GPT-4
mc search gpt-4 --format json --limit 0 >"$TMP/gpt4.json"
check_eq "GPT-4's organisation and date are the CSV's; the models above some words are those with both words gpt and 4" \
	"$(python3 - "$TMP/gpt4.json" <<'PY'
import json, sys
import os
exec(open(os.environ["TMP"] + "/ref.py").read())
d = json.load(open(sys.argv[1]))
m = current()["GPT-4"]
ok = d[0]["name"] == "GPT-4" and d[0]["rank"] == "exact" \
    and d[0]["organizations"] == [o.strip() for o in m["Organization"].split(",")] \
    and d[0]["publication_date"] == m["Publication date"]
def texts(n, m):
    return [n] + [o for o in m.get("Organization", "").split(",")]
want = sorted(n for n, m in current().items() if all(any(found(q, t) for t in texts(n, m)) for q in ("gpt", "4")))
got = sorted(x["name"] for x in d if x["rank"] != "some words")
print("ok" if ok and got == want else "got %s %s, want %s" % (d[0], got, want))
PY
)" ok

# a former name finds the renamed model
check_eq "GPT was renamed GPT-1 between 2024-07-16 and 2024-12-24 (CSVs)" "$(python3 <<'PY'
import os
exec(open(os.environ["TMP"] + "/ref.py").read())
a = models(snap + "/notable_ai_models/2024-07-16.csv.gz")
b = models(snap + "/notable_ai_models/2024-12-24.csv.gz")
print("GPT" in a and "GPT" not in b and "GPT-1" in b and "GPT-1" not in a)
PY
)" True
mc search GPT --format json >"$TMP/gpt.json"
check_eq "search GPT finds GPT-1 first, by its former name" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))[0]; print(d["name"], d["matched"], d["text"], d["rank"])' "$TMP/gpt.json")" \
	"GPT-1 former name GPT exact"
mc search GPT >"$TMP/gpt.txt"
check_grep "the text line says what matched" "^GPT-1 .*formerly GPT (exact)$" "$TMP/gpt.txt"

# an organisation finds its models: every model whose organisation list
# holds Anthropic, found through it
mc search anthropic --format json --limit 0 >"$TMP/org.json"
check_eq "search anthropic finds exactly Anthropic's models (CSV, by precedence)" "$(python3 - "$TMP/org.json" <<'PY'
import json, os, sys
exec(open(os.environ["TMP"] + "/ref.py").read())
d = json.load(open(sys.argv[1]))
# found through the organisation (all words), unless the name holds the word too
want = sorted(n for n, m in current().items() if not found("anthropic", n)
              and "anthropic" in [o.strip().casefold() for o in m.get("Organization", "").split(",")])
got = sorted(x["name"] for x in d if x["matched"] == "organization" and x["rank"] == "all words")
print("ok" if len(want) > 3 and got == want else "got %s want %s" % (got, want))
PY
)" ok

# case and accents: a small export with Café LM
printf 'Model,Organization,Publication date\nCaf\303\251 LM,Acme Labs,2024-01-02\nOther LM,Acme Labs,2024-01-03\n' >"$TMP/cafe.csv"
check_status "a small export with Café LM ingests" 0 mc --db "$TMP/cafe.db" ingest --as-of 2024-01-05 "$TMP/cafe.csv"
check_status "search 'cafe lm' exits 0" 0 mc --db "$TMP/cafe.db" search "cafe lm" --as-of 2024-01-05
check_eq "search 'cafe lm' finds Café LM, an exact match, then Other LM by one word of two" "$(cat "$TMP/out")" \
	"$(printf 'Caf\303\251 LM   Acme Labs  2024-01-02  name (exact)\nOther LM  Acme Labs  2024-01-03  name (some words)')"
check_status "search 'CAFE' + combining acute (NFD) exits 0" 0 \
	mc --db "$TMP/cafe.db" search "$(printf 'CAFE\314\201')" --as-of 2024-01-05 --format json
check_eq "and finds Café LM by prefix" \
	"$(python3 -c 'import json,sys; print([(x["name"], x["rank"]) for x in json.load(open(sys.argv[1]))])' "$TMP/out")" \
	"[('Café LM', 'prefix')]"
check_status "search for nothing on record exits 1" 1 mc --db "$TMP/cafe.db" search zebra --as-of 2024-01-05
check_grep "and says so on stderr" "no model matches 'zebra'" "$TMP/err"
check_status "search without TEXT is a usage error" 2 mc search
check_status "search --limit -1 is a usage error" 2 mc search gpt --limit -1
check_status "search --help exits 0" 0 mc search --help
check_grep "search --help says how it ranks" "(all words)" "$TMP/out"

# suggestions
check_status "show gpt-4 exits 3" 3 mc show gpt-4
check_grep "show gpt-4 suggests GPT-4 first" "modelcat-show: did you mean: GPT-4," "$TMP/err"
check_status "history gtp-4 (a typo) exits 3" 3 mc history gtp-4
check_grep "history gtp-4 suggests GPT-4 first" "modelcat-history: did you mean: GPT-4," "$TMP/err"
check_status "translate for render" 0 mc translate --catalogues "$TOP/translations"
check_status "render 'gpt 4' exits 3" 3 mc render "gpt 4"
check_grep "render 'gpt 4' suggests GPT-4 first" "modelcat-render: did you mean: GPT-4," "$TMP/err"
mc show gpt 2>"$TMP/err"
check_eq "at most five suggestions (show gpt: many models hold gpt)" \
	"$(grep 'did you mean' "$TMP/err" | sed 's/.*did you mean: //' | tr ',' '\n' | wc -l | tr -d ' ')" 5

# history as JSON: a long value in full, a revised version's fields
cat >"$TMP/pick.py" <<'PY'
import os
exec(open(os.environ["TMP"] + "/ref.py").read())
_, types = column_map(top + "/pipelines/columns.tsv")
a = models(snap + "/notable_ai_models/2025-04-18.csv.gz")
b = models(snap + "/notable_ai_models/2025-05-06.csv.gz")
# a text value over 300 bytes that changed on 2025-05-06
for name in sorted(b):
    if name in a and "#" not in name:
        for f, v in sorted(b[name].items()):
            if types.get(f) == "text" and len(v.encode()) > 300 and a[name].get(f, "") != v:
                print(name + "\t" + f); raise SystemExit
PY
pick=$(python3 "$TMP/pick.py")
name=${pick%%	*}
field=${pick#*	}
check "a model with a long text value changed on 2025-05-06 ($name: $field)" test -n "$pick"
check_status "history --format json exits 0" 0 mc history "$name" --format json
check_eq "history JSON parses and holds the CSV's full value of $field" "$(python3 - "$TMP/out" "$name" "$field" <<'PY'
import json, os, sys
exec(open(os.environ["TMP"] + "/ref.py").read())
h = json.load(open(sys.argv[1]))
name, field = sys.argv[2], sys.argv[3]
want = models(snap + "/notable_ai_models/2025-05-06.csv.gz")[name][field].replace("\r\n", "\n").replace("\r", "\n")
rec = [r for r in h["records"] if r["export"] == "notable_ai_models"][0]
got = [f["new"] for v in rec["versions"] if v["valid_from"] == "2025-05-06"
       for f in v["fields"] if f["field"] == field]
print("ok" if got == [want] else "got %r want %r" % (got, want[:80]))
PY
)" ok
mc history "$name" >"$TMP/history.txt"
check_eq "the text history holds the value in full too (line breaks as spaces)" "$(python3 - "$TMP/history.txt" "$name" "$field" <<'PY'
import os, sys
exec(open(os.environ["TMP"] + "/ref.py").read())
name, field = sys.argv[2], sys.argv[3]
want = models(snap + "/notable_ai_models/2025-05-06.csv.gz")[name][field]
for c in "\r\n\t":
    want = want.replace("\r\n", " ").replace(c, " ")
print("ok" if (" -> " + want + "\n") in open(sys.argv[1]).read() else "not found: %r" % want[:80])
PY
)" ok

# a revised version: a model whose 2024-07-16 row equals its 2024-07-06
# row on their common columns and has values in new columns
cat >"$TMP/revised.py" <<'PY'
import os
exec(open(os.environ["TMP"] + "/ref.py").read())
a = models(snap + "/notable_ai_models/2024-07-06.csv.gz")
b = models(snap + "/notable_ai_models/2024-07-16.csv.gz")
fa = set(next(iter(a.values())))
fb = set(next(iter(b.values())))
for name in sorted(b):
    if name in a and "#" not in name and all(a[name][f] == b[name][f] for f in fa & fb):
        new = sorted(f for f in fb - fa if b[name][f])
        if new:
            print(name + "\t" + ",".join(new)); raise SystemExit
PY
pick=$(python3 "$TMP/revised.py")
name=${pick%%	*}
check "a model revised on 2024-07-16 ($pick)" test -n "$pick"
mc history "$name" --format json >"$TMP/revised.json"
check_eq "its revised version names the new columns' fields" "$(python3 - "$TMP/revised.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
rec = [r for r in h["records"] if r["export"] == "notable_ai_models"][0]
v = [v for v in rec["versions"] if v["valid_from"] == "2024-07-16"][0]
print(v["kind"] + "\t" + ",".join(sorted(f["field"] for f in v["fields"] if f["why"] == "new column")))
PY
)" "revised	${pick#*	}"

done_testing
