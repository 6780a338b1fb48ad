#!/bin/sh
# Hostile input. Catalogues: an external entity (XXE), an external DTD, an
# entity-expansion bomb, XInclude, an undeclared entity, an oversized file:
# each refused with file and line, nothing of the outside world
# stored, the other catalogues still loaded (the ASan build of the suite
# also checks that no memory leaks). Data: a model whose fields hold
# <script>, "><img onerror=...> and javascript: links, and one with markup
# in every text and list field of the column map, render as inert text,
# and names like ../../etc/passwd make safe file names.
. "$(dirname "$0")/lib.sh"

FIX=$DATA/fixtures/megascale-2026-05-25
CAT=$TMP/catalogues
mkdir -p "$CAT"
cp "$TOP"/translations/*.xlf "$CAT"/
mc ingest --as-of 2026-05-25 notable_ai_models="$FIX/notable_ai_models.csv" \
	all_ai_models="$FIX/all_ai_models.csv" >/dev/null

head='<?xml version="1.0" encoding="UTF-8"?>'
open_xliff() { echo "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\"><file original=\"x\" source-language=\"en\" target-language=\"$1\" datatype=\"plaintext\"><body>"; }
close_xliff='</body></file></xliff>'
{ echo "$head"; echo '<!DOCTYPE xliff [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>'
  open_xliff xa; echo '<trans-unit id="band"><source>On record</source><target>&xxe;</target></trans-unit>'
  echo "$close_xliff"; } >"$CAT/xa.xlf"
{ echo "$head"; echo '<!DOCTYPE xliff SYSTEM "http://127.0.0.1:9/evil.dtd">'
  open_xliff xb; echo '<trans-unit id="band"><source>On record</source><target>x</target></trans-unit>'
  echo "$close_xliff"; } >"$CAT/xb.xlf"
python3 -c '
import sys
lines = [sys.argv[1], "<!DOCTYPE xliff [", "<!ENTITY lol0 \"lol\">"]
for i in range(1, 12):
    lines.append("<!ENTITY lol%d \"%s\">" % (i, ("&lol%d;" % (i - 1)) * 10))
lines += ["]>", sys.argv[2], "<trans-unit id=\"band\"><source>On record</source><target>&lol11;</target></trans-unit>", sys.argv[3]]
print("\n".join(lines))' "$head" "$(open_xliff xc)" "$close_xliff" >"$CAT/xc.xlf"
{ echo "$head"; open_xliff xd
  echo '<trans-unit id="band"><source>On record</source><target><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/></target></trans-unit>'
  echo "$close_xliff"; } >"$CAT/xd.xlf"
{ echo "$head"; open_xliff xe
  echo '<trans-unit id="band"><source>On record</source><target>&passwd;</target></trans-unit>'
  echo "$close_xliff"; } >"$CAT/xe.xlf"
{ echo "$head"; open_xliff xf; echo '<!--'
  head -c 5000000 /dev/zero | tr '\0' 'a'; echo '-->'
  echo '<trans-unit id="band"><source>On record</source><target>x</target></trans-unit>'
  echo "$close_xliff"; } >"$CAT/xf.xlf"

check_status "translate with six hostile catalogues exits 1" 1 "$BIN/modelcat" translate --catalogues "$CAT"
cp "$TMP/err" "$TMP/hostile.err"
check_eq "the entity bomb is never expanded (no 'lollol' printed or stored)" \
	"$(cat "$TMP/out" "$TMP/hostile.err" | grep -c lollol)$(sqlite3 "$MODELCAT_DB" .dump | grep -c lollol)" 00
check_grep "the external entity is refused at its DOCTYPE, with file and line" \
	"^$CAT/xa.xlf:2: a DOCTYPE is not allowed" "$TMP/hostile.err"
check_grep "the external DTD is refused" "^$CAT/xb.xlf:2: a DOCTYPE is not allowed" "$TMP/hostile.err"
check_grep "the entity bomb is refused" "^$CAT/xc.xlf:2: a DOCTYPE is not allowed" "$TMP/hostile.err"
check_grep "XInclude is not processed: the element is refused" "^$CAT/xd.xlf:3: <include> is not supported" "$TMP/hostile.err"
check_grep "an undeclared entity is refused" "^$CAT/xe.xlf:3: Entity 'passwd' not defined" "$TMP/hostile.err"
check_grep "an oversized catalogue is refused" "^$CAT/xf.xlf: larger than the 4194304-byte limit" "$TMP/hostile.err"
check_eq "none of the six is loaded" "$(grep -c '^x[a-f]: not loaded' "$TMP/out")" 6
check_grep "Dutch still loads" "^nl: [0-9]* entries: [0-9]* translated, 0 missing" "$TMP/out"
check_eq "nothing of /etc/passwd reached the catalogue" \
	"$(sqlite3 "$MODELCAT_DB" .dump | grep -c 'root:')" 0
check_eq "no hostile language was stored" "$(sql "SELECT count(*) FROM translation WHERE lang LIKE 'x%'")" 0
mv "$CAT/xa.xlf" "$CAT/en.xlf"
sed -i 's/target-language="xa"//; s|<target>&xxe;</target>||' "$CAT/en.xlf"
check_status "an English base with an external entity exits 3" 3 mc translate --catalogues "$CAT"
check_grep "refused at its DOCTYPE" "en.xlf:2: a DOCTYPE is not allowed" "$TMP/err"

# hostile data, rendered as inert text
mc translate >/dev/null
python3 -c '
import csv, sys
w = csv.writer(open(sys.argv[1], "w", newline=""))
w.writerow(["Model", "Organization", "Publication date", "Domain", "Task", "Link", "Reference",
            "Parameters", "Parameters notes", "Authors", "Model accessibility"])
w.writerow(["<script>document.title=\"pwned\"</script>Evil", "\"><img src=x onerror=\"document.title=1\">",
            "2024-01-02", "Language", "<b>bold</b>", "javascript:alert(1)",
            "<a href=\"javascript:alert(2)\">click</a>", "7000000000",
            "</p><script>alert(3)</script>", "x\" onmouseover=\"alert(4)", "Open weights (unrestricted)"])
w.writerow(["Quoted link", "Org", "2024-01-02", "Vision", "", "https://example.org/\"><script>x</script>",
            "A paper", "", "", "", ""])
w.writerow(["Spaced scheme", "Org", "2024-01-02", "Vision", "", " JaVaScRiPt:alert(5)", "Another", "", "", "", ""])
w.writerow(["../../etc/passwd", "Org", "2024-01-02", "Vision", "", "data:text/html,<script>x</script>", "P", "", "", "", ""])
w.writerow(["..", "Org", "2024-01-02", "Vision", "", "https://example.org/ok", "Fine paper", "", "", "", ""])
' "$TMP/evil.csv"
# one more model with markup in every text and list field of the column map
python3 - "$TMP/evil.csv" "$TOP/pipelines/columns.tsv" <<'EOF2'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
text = [l.split("\t")[0] for l in open(sys.argv[2], encoding="utf-8")
        if not l.startswith("#") and l.count("\t") >= 1 and l.split("\t")[1].strip() in ("text", "list")]
header = rows[0] + [f for f in text if f not in rows[0]]
payload = "<script>alert(9)</script><img src=x onerror=alert(9)>"
out = [header] + [r + [""] * (len(header) - len(r)) for r in rows[1:]]
out.append(["Every field " + payload] + [payload if h in text else "" for h in header[1:]])
out[-1][header.index("Publication date")] = "2024-01-02"
csv.writer(open(sys.argv[1], "w", newline="")).writerows(out)
EOF2
# (its header lacks most of the fixture's columns: a guard would hold it)
check_status "ingest of the hostile rows exits 0" 0 mc ingest --accept --as-of 2026-06-01 notable_ai_models="$TMP/evil.csv"
check_status "render --all of the hostile rows exits 0" 0 mc render --all --out "$TMP/site"
# (the index folds the chart of every year in a <details>: html_lint_clean)
check "every HTML page passes xmllint --html without a message" \
	html_lint_clean "$TMP"/site/*/*.html
check_eq "every file stays inside the output folder, with a safe name" \
	"$(find "$TMP/site" -type f | sed "s|^$TMP/site/||" |
	grep -v '^\(en\|nl\)/index\.\(compute\.svg\|parameters\.svg\|charts\.txt\|charts\.html\|all\.html\|rows\.js\)$' |
	grep -v '^\(en\|nl\)/index\.\(compute\|parameters\)\.\(all\.svg\|csv\|js\)$' |
	grep -v '^\(en\|nl\)/index\.compute-[0-9]*\.\(svg\|csv\)$' |
	grep -v '^\(en\|nl\)/hardware/index\.\(memory\|flops16\)\.\(svg\|csv\)$' |
	grep -cv '^\(en\|nl\)/\(hardware/\)\?[a-z0-9-]*\.\(txt\|html\)$')" 0
check "the name ../../etc/passwd becomes etc-passwd-HASH" sh -c "ls '$TMP'/site/en/etc-passwd-*.html"
check "the name .. becomes model-HASH" sh -c "ls '$TMP'/site/en/model-*.html"
check "the name with <script> becomes script-document-title-pwned-script-evil-HASH" \
	sh -c "ls '$TMP'/site/en/script-document-title-pwned-script-evil-*.html"
if python3 - "$TMP"/site/en/*.html "$TMP"/site/nl/*.html >"$TMP/inert.out" 2>&1 <<'EOF'
import html.parser, re, sys
CHARTS = ("index.compute.svg", "index.parameters.svg", "index.compute.all.svg",
          "index.parameters.all.svg")
class Check(html.parser.HTMLParser):
    def __init__(self, path):
        super().__init__()
        self.path, self.problems, self.text = path, [], []
    def handle_starttag(self, tag, attrs):
        # ours: the charts' pictures, the index's own inline script and filter form
        ours = (tag == "img" and (dict(attrs).get("src") in CHARTS or
                                  re.fullmatch(r"index\.compute-[0-9]+\.svg", dict(attrs).get("src") or ""))) or \
               (tag in ("script", "form") and self.path.endswith("/index.html") and
                not any(n in ("src", "action") for n, _ in attrs))
        if tag in ("script", "img", "iframe", "object", "embed", "svg", "b", "form", "base") and not ours:
            self.problems.append("a <%s> element" % tag)
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append("an %s attribute" % name)
            # links: http(s) URLs, and our own relative paths (pages, the
            # hardware folder, the charts, a year's ranking, a section of a page)
            if name in ("href", "src") and not (re.match(r"https?://[^\s\"'<>]+$", value or "") or
                                                re.match(r"(\.\./)*([a-z0-9-]+/)*[a-z0-9-]+(\.[a-z]+)*\.(html|svg)(#[a-z]+)?$",
                                                         value or "") or
                                                re.match(r"index\.compute-[0-9]+\.(svg|csv)$",
                                                         value or "") or
                                                re.match(r"index\.(compute|parameters)\.csv$",
                                                         value or "")):
                self.problems.append("%s=%r" % (name, value))
    def handle_data(self, data):
        self.text.append(data)
bad = 0
for path in sys.argv[1:]:
    c = Check(path)
    c.feed(open(path, encoding="utf-8").read())
    for p in c.problems:
        print("%s: %s" % (path, p)); bad += 1
# the rows the index's script loads (its file beside each index): each
# chunk's HTML as inert as a page's
import json, os
for index in [p for p in sys.argv[1:] if p.endswith("/index.html")]:
    rows = os.path.join(os.path.dirname(index), "index.rows.js")
    text = open(rows, encoding="utf-8").read()
    m = re.match(r"modelcatRows\((\d+), (.*)\);\n$", text, re.S)
    if not m:
        print("%s: not one call of modelcatRows" % rows); bad += 1; continue
    for height, chunk in json.loads(m.group(2)):
        c = Check(rows)
        c.feed(chunk)
        for p in c.problems:
            print("%s: %s" % (rows, p)); bad += 1
evil = [p for p in sys.argv[1:] if "/en/script-document" in p][0]
c = Check(evil)
c.feed(open(evil, encoding="utf-8").read())
text = "".join(c.text)
for want in ('<script>document.title="pwned"</script>Evil', '"><img src=x onerror="document.title=1">',
             '<a href="javascript:alert(2)">click</a>', '</p><script>alert(3)</script>', '<b>bold</b>'):
    if want not in text:
        print("%s: the text %r is not shown as text" % (evil, want)); bad += 1
print("%d pages checked" % len(sys.argv[1:]))
sys.exit(1 if bad else 0)
EOF
then ok "the hostile values are inert text: no element, event handler or unsafe link ($(tail -1 "$TMP/inert.out"))"
else not_ok "a hostile value became markup"; head -10 "$TMP/inert.out" | sed 's/^/#   /'; fi
every=$(ls "$TMP"/site/en/every-field-*.html)
check "markup in every text field reaches the page as text (at least 20 fields)" \
	test "$(grep -o '&lt;script&gt;alert(9)&lt;/script&gt;' "$every" | wc -l)" -ge 20
evil=$(ls "$TMP"/site/en/script-document-*.html)
check_grep "the javascript: link is plain text" '<dt>Reference</dt><dd>&lt;a href=&quot;javascript:alert(2)&quot;&gt;click&lt;/a&gt;</dd>' "$evil"
check_grep "a link with quotes in it is not a link" '<dt>Reference</dt><dd>A paper</dd>' \
	"$(ls "$TMP"/site/en/quoted-link-*.html)"
check_grep "a safe https link is a link" '<dd><a href="https://example.org/ok" rel="nofollow noopener noreferrer">Fine paper</a></dd>' \
	"$(ls "$TMP"/site/en/model-*.html)"
check_grep "the title is escaped too" '<title>&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;Evil</title>' "$evil"
check_eq "the text page prints the values as they are" \
	"$(mc render '<script>document.title="pwned"</script>Evil' | head -1)" '<script>document.title="pwned"</script>Evil'
cp "$evil" "$TMP/evil.html"
done_testing
