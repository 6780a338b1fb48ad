#!/bin/sh
# The index as a table: render --all of the newest notable_ai_models
# snapshot in the store (found by listing it, copied into $TMP); the HTML
# index lists every model of that file with the seven columns, newest
# publication first, each row's date, parameters and compute as the CSV
# has them (raw keys in data-v), the words from the catalogues. The page
# holds the first 64 rows and links index.all.html, the table of every
# row without a script; its script loads the rest from index.rows.js.
# Headless
# Chromium runs the filter script: #org=OpenAI leaves exactly the models
# whose organisation list holds OpenAI, #sort=-compute puts the largest
# compute first, and the count is read out. The script is under 20 KB
# and the page passes xmllint --html. The table is an ARIA table of divs,
# its rows in chunks of 16 (the script puts the rows shown back into
# chunks in order). Expected values come from the CSV
# with python, never from modelcat's output.
. "$(dirname "$0")/lib.sh"

chromium=$(command -v chromium || command -v chromium-browser || true)
latest=$(ls "$SNAP"/notable_ai_models/ | grep -E '^[0-9]{4}-[0-9]{2}-[0-9]{2}\.csv(\.gz)?$' | sort | tail -1)
day=${latest%%.*}
mkdir -p "$TMP/in/notable_ai_models"
cp "$SNAP/notable_ai_models/$latest" "$TMP/in/notable_ai_models/"
CSV=$TMP/in/notable_ai_models/$latest

check_status "ingest of notable_ai_models $day exits 0" 0 \
	mc ingest --as-of "$day" notable_ai_models="$CSV"
check_status "translate exits 0" 0 mc translate
check_status "render --all exits 0" 0 mc render --all --out "$TMP/site"

# parse TABLE: one line per body row of the index table in a DOM or page:
# visible (1/0), then each cell's data-v and text, tab-separated; the
# first line is the headers ("head" and each header's key, type and
# aria-sort), the last the live region's text and the form's hidden flag
cat >"$TMP/rows.py" <<'EOF'
import html.parser, sys
# the table is an ARIA table of divs: row groups (the header's, then the
# chunks of rows), rows, column headers, row headers and cells
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.heads, self.cell, self.row, self.where = [], [], None, None, None
        self.status, self.in_status, self.form_hidden = "", 0, None
        self.stack, self.tables, self.chunks = [], 0, []
    def handle_starttag(self, tag, a):
        a = dict(a)
        role = a.get("role") if tag == "div" else None
        if tag == "div": self.stack.append(role)
        if role == "table": self.tables += 1
        if role == "rowgroup": self.where = "head" if a.get("class") == "mh" else "body"
        if role == "rowgroup" and self.where == "body":   # hidden, chunk, rows shown
            self.chunks.append(["hidden" in a, a.get("class") == "c", 0])
        if tag == "form" and a.get("id") == "filters": self.form_hidden = "hidden" in a
        if tag == "p" and a.get("id") == "shown": self.in_status = 1
        if role == "row" and self.where == "body":
            self.row = ["0" if "hidden" in a else "1"]
            self.chunks[-1][2] += "hidden" not in a
        if role == "columnheader" and self.where == "head":
            self.heads.append([a.get("data-key", ""), a.get("data-type", ""), a.get("aria-sort") or "-"])
        if role in ("cell", "rowheader") and self.where == "body":
            self.cell = [a.get("data-v") or "", ""]
    def handle_endtag(self, tag):
        if tag == "p": self.in_status = 0
        if tag != "div" or not self.stack: return
        role = self.stack.pop()
        if role in ("cell", "rowheader") and self.cell is not None:
            self.row += self.cell; self.cell = None
        if role == "row" and self.row is not None:
            self.rows.append(self.row); self.row = None
        if role == "rowgroup": self.where = None
    def handle_data(self, d):
        if self.cell is not None: self.cell[1] += d
        if self.in_status: self.status += d
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
print("\t".join(["head"] + [" ".join(h) for h in p.heads]))
for r in p.rows: print("\t".join(x.replace("\t", " ") for x in r))
print("status\t%s\t%s" % (p.status, p.form_hidden))
# CHUNKS (optional): the groups of rows: one table; the chunks shown, their
# rows shown (the last may hold fewer), the rows shown outside them
if len(sys.argv) > 2:
    shown = [c[2] for c in p.chunks if c[1] and not c[0]]
    print("tables %d chunks %d sizes %s outside %d" % (p.tables, len(shown),
          " ".join(str(x) for x in sorted(set(shown[:-1]))) or "-",
          sum(c[2] for c in p.chunks if c[0] or not c[1])), file=open(sys.argv[2], "w"))
EOF
# the table of every row (what a browser without scripts is linked to),
# and the index page itself
python3 "$TMP/rows.py" "$TMP/site/en/index.all.html" "$TMP/en.chunks" >"$TMP/en.rows"
python3 "$TMP/rows.py" "$TMP/site/en/index.html" "$TMP/page.chunks" >"$TMP/page.rows"

# what the CSV says, and what the page shows of it
python3 - "$CSV" "$TMP/en.rows" "$TOP/translations" "$TMP/page.rows" >"$TMP/static" <<'EOF'
import csv, gzip, io, os, re, sys, unicodedata
path, rows_file, xlf, page_file = sys.argv[1:5]
raw = gzip.open(path, "rb").read() if path.endswith(".gz") else open(path, "rb").read()
# names in their canonical form (docs/normalisation.md, "Names")
def name(s):
    s = unicodedata.normalize("NFC", s)
    for c in "\ufeff\u200b\u200c\u200d\u2060": s = s.replace(c, "")
    return s.replace("\u00a0", " ").replace("\u202f", " ").strip()
src = [r for r in csv.DictReader(io.StringIO(raw.decode("utf-8-sig")))
       if r.get("Model", "").strip()]
for r in src: r["Model"] = name(r["Model"])
lines = open(rows_file, encoding="utf-8").read().rstrip("\n").split("\n")
heads = lines[0].split("\t")[1:]
rows = [l.split("\t") for l in lines[1:-1]]
print("columns", len(heads), " ".join(h.split()[0] for h in heads))
print("cells", sorted(set(len(r) for r in rows)))       # 1 + 2 per cell
names = sorted(re.sub(r"#[0-9]+$", "", r[2]) for r in rows)
print("rows", len(rows), len(src))
print("names", names == sorted(r["Model"].strip() for r in src))
print("every row shown without script", all(r[0] == "1" for r in rows))
dates = [r[5] for r in rows]
known = [d for d in dates if d]
print("newest first", known == sorted(known, reverse=True) and dates == known + [""] * (len(dates) - len(known)))
newest = max(r["Publication date"].strip() for r in src if r["Publication date"].strip())
print("first is newest", dates[0] == newest)
by_name = {}
for r in src: by_name.setdefault(r["Model"].strip(), r)
def num(s):
    try: return float(s)
    except ValueError: return None
bad = []
for r in rows:
    s = by_name[re.sub(r"#[0-9]+$", "", r[2])]
    if s["Publication date"].strip() != r[5]: bad.append(("date", r[2]))
    for field, v in (("Parameters", r[7]), ("Training compute (FLOP)", r[9])):
        want = num(s.get(field, "").strip())
        got = num(v) if v else None
        if (want is None) != (got is None) or (want is not None and abs(want - got) > 1e-9 * abs(want)):
            bad.append((field, r[2], want, got))
print("values", bad[:3] if bad else "ok")
gpt4 = [r for r in rows if r[2] == "GPT-4"]
print("GPT-4 compute text", gpt4[0][10] if gpt4 else "-")
page = open(page_file, encoding="utf-8").read().rstrip("\n").split("\n")
st = page[-1].split("\t")
print("no script: no count, controls hidden", st[1] == "" and st[2] == "True")
print("the page's rows", page[1:-1] == lines[1:65], len(page) - 2)
print("the page's header", page[0] == lines[0])
EOF
check_grep "the table has the seven columns" "^columns 7 name org published params compute weights updated$" "$TMP/static"
check_grep "every row has seven cells" "^cells \[15\]$" "$TMP/static"
n=$(sed -n 's/^rows \([0-9]*\) \([0-9]*\)$/\1 \2/p' "$TMP/static")
check_eq "one row per model of the CSV ($n)" "$(echo "$n" | awk '{print ($1 == $2 && $1 > 500) ? "same" : $0}')" same
check_grep "the rows are the CSV's models" "^names True$" "$TMP/static"
check_grep "without the script every row shows" "^every row shown without script True$" "$TMP/static"
check_grep "newest publication first, undated last" "^newest first True$" "$TMP/static"
check_grep "the first row has the CSV's newest date" "^first is newest True$" "$TMP/static"
check_grep "dates, parameters and compute keys are the CSV's values" "^values ok$" "$TMP/static"
check_grep "compute is written as on the model page" "^GPT-4 compute text 2.1 × 10²⁵ FLOP$" "$TMP/static"
check_grep "without the script the controls are hidden and no count is shown" "^no script: no count, controls hidden True$" "$TMP/static"
check_grep "the index page holds the first 64 rows of that table, the same" "^the page's rows True 64$" "$TMP/static"
check_grep "under the same column headers" "^the page's header True$" "$TMP/static"
check_eq "in 4 chunks of 16" "$(cat "$TMP/page.chunks")" "tables 1 chunks 4 sizes 16 outside 0"
links=$(python3 - "$TMP/site/en/index.html" "$TMP/site/nl/index.html" "$TMP/site/en/index.all.html" "$TOP/translations/nl.xlf" <<'EOF'
import html, re, sys
en, nl, every, xlf = (open(f, encoding="utf-8").read() for f in sys.argv[1:5])
n = len(re.findall(r'<div role="row"[ >]', every)) - 1   # less the header's
want = re.search(r'<trans-unit id="index.all.link">.*?<target>(.*?)</target>', xlf, re.S).group(1)
want = want.replace('<x id="count"/>', format(n, ","))
print("en", '<p class="all"><a href="index.all.html">All %s models in one table</a></p>' % format(n, ",") in en,
      'data-count="%d" data-rows="index.rows.js"' % n in en)
print("nl", '<p class="all"><a href="index.all.html">%s</a></p>' % html.escape(want) in nl)
print("every", "<script" not in every and "<form" not in every and "<noscript" not in every)
EOF
)
check_eq "the page links the table of every row, names the count and the rows' file" \
	"$(echo "$links" | sed -n 's/^en //p')" "True True"
check_eq "in Dutch with nl.xlf's words" "$(echo "$links" | sed -n 's/^nl //p')" "True"
check_eq "the table of every row has no script and no controls" "$(echo "$links" | sed -n 's/^every //p')" "True"
set -- $(sed -n 's/^rows \([0-9]*\) \([0-9]*\)$/\2/p' "$TMP/static")
check_eq "one ARIA table, its rows in chunks of 16 (the CSV's ${1:-?} models)" "$(cat "$TMP/en.chunks")" \
	"tables 1 chunks $(( (${1:-0} + 15) / 16 )) sizes 16 outside 0"

# the words come from the catalogues
python3 - "$TOP/translations/nl.xlf" "$TMP/site/nl/index.html" >"$TMP/words" <<'EOF'
import html, re, sys
xlf, page = sys.argv[1:3]
text = open(xlf, encoding="utf-8").read()
def target(key):
    m = re.search(r'<trans-unit id="%s">.*?<target>(.*?)</target>' % re.escape(key), text, re.S)
    return re.sub(r'<x id="([a-z_]+)"/>', r"{\1}", m.group(1))
page = open(page, encoding="utf-8").read()
print("shown", 'data-shown="%s"' % html.escape(target("index.shown")) in page)
print("labels", all('">%s</label>' % html.escape(target(k)) in page
                    for k in ("label.organisation", "index.search", "index.year", "label.domain")))
print("headers", all(re.search(r'role="columnheader"[^>]*>%s</div>' % re.escape(html.escape(target(k))), page)
                     for k in ("index.column.name", "label.training_compute", "label.last_updated")))
EOF
check_grep "the Dutch count template is nl.xlf's" "^shown True$" "$TMP/words"
check_grep "the Dutch labels of the controls are nl.xlf's" "^labels True$" "$TMP/words"
check_grep "the Dutch column headers are nl.xlf's" "^headers True$" "$TMP/words"

script=$(python3 -c '
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
s = re.findall(r"<script>(.*?)</script>", page, re.S)
print(len(s), max(len(x.encode()) for x in s) if s else 0,
      len(re.findall(r"<script[^>]*src=|<link[^>]*href=\"(?:https?:)?//", page)))' \
	"$TMP/site/en/index.html")
set -- $script
# the charts' script (chartscript.c) and the table's (indexscript.c)
check_eq "the page has two inline scripts, the charts' and the table's" "$1" 2
check "each script is under 20 KB (the larger $2 bytes)" test "$2" -gt 1000 -a "$2" -lt 20480
check_eq "nothing is loaded from a file or host of another" "$3" 0
# (the index folds the chart of every year in a <details>: html_lint_clean)
check "the index and the table of every row pass xmllint --html without a message" \
	html_lint_clean "$TMP/site/en/index.html" "$TMP/site/nl/index.html" \
		"$TMP/site/en/index.all.html" "$TMP/site/nl/index.all.html"

# dump URL: the DOM after Chromium ran the page's script
dump() {
	profile=$(mktemp -d "$TMP/profile.XXXXXX")
	"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --virtual-time-budget=10000 --dump-dom "$1" 2>"$TMP/chromium.err"
}
if [ -z "$chromium" ]; then
	skip_checks "chromium is not installed (apt-get install chromium)" \
		"the script shows the controls" "#org=OpenAI leaves exactly the OpenAI models" \
		"the count is read out" "#sort=-compute puts the largest compute first" \
		"and marks the column sorted" "and filters nothing" "the rows shown fill the first chunks" \
		"the sorted rows fill every chunk" "with no state in the URL the script makes every row" \
		"at 400 px the page does not scroll sideways" "the table scrolls in its own region"
	done_testing
	exit 0
fi
# with scripts and no state in the URL, the script loads the other rows
# from index.rows.js (a file:// page, as a reader opening the site from a
# disk) and makes them rows in short tasks: after it, the table is the
# table of every row, row for row, and the count says all are shown
dump "file://$TMP/site/en/index.html" >"$TMP/plain.html"
python3 "$TMP/rows.py" "$TMP/plain.html" "$TMP/plain.chunks" >"$TMP/plain.rows"
set -- $(sed -n 's/^rows \([0-9]*\) \([0-9]*\)$/\2/p' "$TMP/static")
python3 - "$TMP/plain.rows" "$TMP/en.rows" "${1:-0}" >"$TMP/plain" <<'EOF'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
every = open(sys.argv[2], encoding="utf-8").read().rstrip("\n").split("\n")
n = int(sys.argv[3])
rows = [l.split("\t") for l in lines[1:-1]]
print("made", len(rows) == n and lines[1:-1] == every[1:-1], len(rows), n,
      lines[-1].split("\t")[1] == "%s of %s shown" % (format(n, ","), format(n, ",")))
EOF
check_grep "with no state in the URL the script makes every row, as the table of every row has them, and counts them all" \
	"^made True [0-9]* [0-9]* True$" "$TMP/plain"
check_eq "and the rows are in chunks of 16, in order" "$(cat "$TMP/plain.chunks")" "$(cat "$TMP/en.chunks")"
dump "file://$TMP/site/en/index.html#org=OpenAI" >"$TMP/org.html"
python3 "$TMP/rows.py" "$TMP/org.html" "$TMP/org.chunks" >"$TMP/org.rows"
dump "file://$TMP/site/en/index.html#sort=-compute" >"$TMP/sort.html"
python3 "$TMP/rows.py" "$TMP/sort.html" "$TMP/sort.chunks" >"$TMP/sort.rows"
python3 - "$CSV" "$TMP/org.rows" "$TMP/sort.rows" "$TMP/org.chunks" "$TMP/sort.chunks" \
	>"$TMP/dynamic" <<'EOF'
import csv, gzip, io, re, sys
path, org_file, sort_file, org_chunks, sort_chunks = sys.argv[1:6]
def chunks(n):   # the rows shown, in order, in full chunks of 16 but the last
    return "tables 1 chunks %d sizes %s outside 0" % ((n + 15) // 16, "16" if n > 16 else "-")
raw = gzip.open(path, "rb").read() if path.endswith(".gz") else open(path, "rb").read()
src = [r for r in csv.DictReader(io.StringIO(raw.decode("utf-8-sig")))
       if r.get("Model", "").strip()]
def rows(f):
    lines = open(f, encoding="utf-8").read().rstrip("\n").split("\n")
    return lines[0].split("\t")[1:], [l.split("\t") for l in lines[1:-1]], lines[-1].split("\t")
heads, org, status = rows(org_file)
want = sorted(r["Model"].strip() for r in src
              if "OpenAI" in [o.strip() for o in r.get("Organization", "").split(",")])
shown = sorted(re.sub(r"#[0-9]+$", "", r[2]) for r in org if r[0] == "1")
print("form shown", status[2])
print("openai", len(want) > 10 and shown == want, len(shown), len(want))
print("openai chunks", open(org_chunks).read().strip() == chunks(len(want)))
print("count", status[1] == "%s of %s shown" % (format(len(want), ","), format(len(src), ",")))
heads, srt, status = rows(sort_file)
def num(s):
    try: return float(s)
    except ValueError: return None
computes = [float(r[9]) for r in srt if r[9]]
largest = max(x for x in (num(r.get("Training compute (FLOP)", "").strip()) for r in src) if x is not None)
print("largest first", bool(computes) and computes[0] == largest and
      computes == sorted(computes, reverse=True) and all(r[9] for r in srt[:len(computes)]),
      computes[:1], largest)
print("sorted", [h.split()[2] for h in heads])
print("all shown", all(r[0] == "1" for r in srt) and len(srt) == len(src))
print("sorted chunks", open(sort_chunks).read().strip() == chunks(len(src)))
EOF
# at 400 px the table scrolls in its own region, the page does not
python3 -c '
import html, sys
page = open(sys.argv[1], encoding="utf-8").read()
print("<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"f\" style=\"width:400px;height:900px;border:0\""
      " onload=\"var w=this.contentWindow, t=w.document.querySelector(&quot;.table&quot;); document.body.setAttribute(&quot;data-w&quot;,"
      " w.document.documentElement.scrollWidth + &quot; &quot; + w.innerWidth + &quot; &quot; + t.scrollWidth)\" srcdoc=\""
      + html.escape(page, quote=True) + "\"></iframe></body></html>")' "$TMP/site/en/index.html" >"$TMP/probe.html"
set -- $(dump "file://$TMP/probe.html" | sed -n 's/.*data-w="\([0-9]*\) \([0-9]*\) \([0-9]*\)".*/\1 \2 \3/p')
check "at 400 px the page does not scroll sideways (scrollWidth ${1:-?}, width ${2:-?})" \
	test -n "${2:-}" -a "${2:-999}" -le 400 -a "${1:-999}" -le "${2:-0}"
check "the table scrolls in its own region (${3:-?} px wide)" test "${3:-0}" -gt "${2:-999}"
# the organisation select gets its options the first time it is used: a
# copy of the index whose last script focuses it, as a reader tabbing to
# it would; its options then are every organisation of the CSV, once
sed 's|</body>|<script>setTimeout(function () { document.getElementById("f-org").focus(); }, 50);</script></body>|' \
	"$TMP/site/en/index.html" >"$TMP/site/en/focus.html"
dump "file://$TMP/site/en/focus.html" >"$TMP/focus.html"
python3 - "$CSV" "$TMP/focus.html" "$TMP/site/en/index.html" >"$TMP/options" <<'EOF'
import csv, gzip, html.parser, io, sys
raw = gzip.open(sys.argv[1], "rb").read() if sys.argv[1].endswith(".gz") else open(sys.argv[1], "rb").read()
want = {o.strip() for r in csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))) if r.get("Model", "").strip()
        for o in r.get("Organization", "").split(",") if o.strip()}
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.inside = False; self.options = []; self.text = None
    def handle_starttag(self, tag, a):
        if tag == "select": self.inside = dict(a).get("id") == "f-org"
        if tag == "option" and self.inside: self.text = ""
    def handle_data(self, d):
        if self.text is not None: self.text += d
    def handle_endtag(self, tag):
        if tag == "option" and self.text is not None: self.options.append(self.text); self.text = None
        if tag == "select": self.inside = False
def options(path):
    p = P(); p.feed(open(path, encoding="utf-8").read()); return p.options
before, after = options(sys.argv[3]), options(sys.argv[2])
print("before", len(before))
print("after", len(after) == len(set(after)) and set(after[1:]) == want and after[0] == "All",
      len(after), len(want))
EOF
check_grep "the page as published holds one organisation option, All" "^before 1$" "$TMP/options"
check_grep "focused, the select offers every organisation of the CSV, once each" "^after True " "$TMP/options"
check_grep "the script shows the controls" "^form shown False$" "$TMP/dynamic"
check_grep "#org=OpenAI leaves exactly the models whose organisation list holds OpenAI" \
	"^openai True" "$TMP/dynamic"
check_grep "and those rows fill the first chunks, 16 each, none outside them" \
	"^openai chunks True$" "$TMP/dynamic"
check_grep "the count is read out" "^count True$" "$TMP/dynamic"
check_grep "#sort=-compute puts the largest compute first" "^largest first True " "$TMP/dynamic"
check_grep "and marks that column, and only it, sorted descending" \
	"^sorted \['-', '-', '-', '-', 'descending', '-', '-'\]$" "$TMP/dynamic"
check_grep "and filters nothing" "^all shown True$" "$TMP/dynamic"
check_grep "and the sorted rows fill every chunk, 16 each" "^sorted chunks True$" "$TMP/dynamic"
done_testing
