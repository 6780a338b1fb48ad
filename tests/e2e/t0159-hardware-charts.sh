#!/bin/sh
# The hardware charts (docs/pages.md, "Charts"), on a publication of the
# latest ml_hardware and notable_ai_models snapshots of the store: on
# every card page with a memory chart, in both languages, the dashed rule
# is at 90 % of the card's memory (the memory read from the export file,
# the position from the chart's own tick labels) and labelled with the
# catalogue's words, and the card's bar ends at its memory; at 400 px the
# chart's text renders at 11 px or more (Chromium, when installed); the
# hardware index shows a memory chart and a 16-bit compute chart, each
# with its CSV beside the index holding one row per card with a release
# date and that figure, with the export's values (the tensor FP16/BF16
# figure, else the FP16 one), and an SVG whose description counts them;
# every hardware page stays under page_sizes.py's limits.
. "$(dirname "$0")/lib.sh"

hw=$(ls "$SNAP"/ml_hardware/????-??-??.csv.gz | sort | tail -1)
notable=$(ls "$SNAP"/notable_ai_models/????-??-??.csv.gz | sort | tail -1)
cp "$hw" "$TMP/ml_hardware.csv.gz"
cp "$notable" "$TMP/notable_ai_models.csv.gz"
P=$TMP/public
check_status "ingest of the latest hardware and notable exports exits 0" 0 \
	mc ingest --as-of 2025-12-24 "ml_hardware=$TMP/ml_hardware.csv.gz" \
	"notable_ai_models=$TMP/notable_ai_models.csv.gz"
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$P"
PAGES=$P/.modelcat/current/pages

python3 - "$TMP/ml_hardware.csv.gz" "$PAGES" "$TOP/translations" >"$TMP/result" <<'EOF'
import base64, csv, glob, gzip, html, math, os, re, sys
import xml.etree.ElementTree as ET
source, pages, xlf = sys.argv[1:4]
SVG = "{http://www.w3.org/2000/svg}"

def number(s):
    try:
        x = float(s.strip())
    except ValueError:
        return None
    return x if math.isfinite(x) and x > 0 else None

def norm(name):
    return " ".join(name.replace("\xa0", " ").split())

def words(lang):
    text = open(os.path.join(xlf, lang + ".xlf"), encoding="utf-8").read()
    out = {}
    for m in re.finditer(r'<trans-unit id="([^"]+)">(.*?)</trans-unit>', text, re.S):
        t = re.search(r"<target>(.*?)</target>", m.group(2), re.S) or \
            re.search(r"<source>(.*?)</source>", m.group(2), re.S)
        out[m.group(1)] = html.unescape(t.group(1))
    return out

rows = list(csv.DictReader(gzip.open(source, "rt", encoding="utf-8", newline="")))
memory = {norm(r["Hardware name"]): number(r["Memory (bytes)"]) for r in rows}

# ---- the 90 % line of every card page's chart ----
for lang in ("en", "nl"):
    w = words(lang)
    checked = wrong = 0
    for f in glob.glob(os.path.join(pages, lang, "hardware", "*.html")):
        page = open(f, encoding="utf-8").read()
        m = re.search(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', page)
        if not m:
            continue
        name = norm(html.unescape(re.search(r"<h1>(.*?)</h1>", page).group(1)))
        svg = ET.fromstring(base64.b64decode(m.group(1)))
        ticks = []
        for g in svg.iter(SVG + "g"):
            if g.get("class") == "x-axis":
                for t in g.iter(SVG + "text"):
                    if t.get("class") == "tick":
                        v = t.text.replace(",", ".") if lang == "nl" else t.text.replace(",", "")
                        ticks.append((float(v), float(t.get("x"))))
        (a0, p0), (a1, p1) = ticks[0], ticks[-1]
        x_of = lambda gb: p0 + (gb - a0) * (p1 - p0) / (a1 - a0)
        rule = [g for g in svg.iter(SVG + "g") if g.get("class") == "rule"]
        mem = memory[name] / 1e9
        bar = [g for g in svg.iter(SVG + "g") if g.get("class") == "bars"][0].find(SVG + "rect")
        ok = (len(rule) == 1 and
              abs(float(rule[0].find(SVG + "line").get("x1")) - x_of(0.9 * mem)) < 0.15 and
              rule[0].find(SVG + "text").text == w["hwpage.chart.rule"] and
              abs(float(bar.get("x")) + float(bar.get("width")) - x_of(mem)) < 0.15)
        checked += 1
        if not ok:
            wrong += 1
            if wrong <= 3:
                print("#", lang, name, [ET.tostring(r, encoding="unicode") for r in rule],
                      x_of(0.9 * mem))
    print("rule", lang, checked >= 50 and not wrong, checked, wrong)

# ---- the hardware index's charts ----
FLOPS = ("Tensor-FP16/BF16 performance (FLOP/s)", "FP16 (half precision) performance (FLOP/s)")
want = {"memory": {}, "flops16": {}}
for r in rows:
    date = r["Release date"].strip()
    if not date:
        continue
    if number(r["Memory (bytes)"]):
        want["memory"][norm(r["Hardware name"])] = (date, number(r["Memory (bytes)"]), None)
    for col in FLOPS:
        if number(r[col]):
            want["flops16"][norm(r["Hardware name"])] = (date, number(r[col]), col)
            break

for lang in ("en", "nl"):
    index = open(os.path.join(pages, lang, "hardware", "index.html"), encoding="utf-8").read()
    for kind, column in (("memory", "memory_bytes"), ("flops16", "flops_16bit")):
        got = list(csv.DictReader(open(os.path.join(pages, lang, "hardware", "index.%s.csv" % kind),
                                       encoding="utf-8", newline="")))
        names = [norm(g["hardware"]) for g in got]
        print("rows", lang, kind, sorted(names) == sorted(want[kind]) and len(set(names)) == len(names),
              len(names), len(want[kind]))
        bad = [g["hardware"] for g in got if norm(g["hardware"]) in want[kind] and not (
            g["release_date"] == want[kind][norm(g["hardware"])][0] and
            math.isclose(float(g[column]), want[kind][norm(g["hardware"])][1], rel_tol=1e-12) and
            g.get("column") == want[kind][norm(g["hardware"])][2])]
        print("values", lang, kind, not bad, bad[:3])
        svg = ET.parse(os.path.join(pages, lang, "hardware", "index.%s.svg" % kind)).getroot()
        desc = svg.find(SVG + "desc").text or ""
        print("desc", lang, kind, re.search(r"\b%d\b" % len(want[kind]), desc) is not None, desc)
        print("figure", lang, kind, ('<img src="index.%s.svg"' % kind) in index and
              ('<a href="index.%s.csv">' % kind) in index)
EOF
for lang in en nl; do
	check_grep "$lang: every card page's chart has its rule at 90 % of the export's memory, labelled" "^rule $lang True" "$TMP/result"
	for kind in memory flops16; do
		check_grep "$lang: the index's $kind CSV has a row per card with a release date and that figure" "^rows $lang $kind True" "$TMP/result"
		check_grep "$lang: with the export's values (and column)" "^values $lang $kind True" "$TMP/result"
		check_grep "$lang: the $kind chart's description counts them" "^desc $lang $kind True" "$TMP/result"
		check_grep "$lang: the index shows the $kind chart and links its CSV" "^figure $lang $kind True" "$TMP/result"
	done
done
grep -v True "$TMP/result" | sed 's/^/#   /'

check "the index's charts parse as XML" sh -c "xmllint --noout '$PAGES'/en/hardware/index.*.svg '$PAGES'/nl/hardware/index.*.svg"
check "the hardware index passes xmllint --html without a message" \
	sh -c "xmllint --html --noout '$PAGES'/en/hardware/index.html '$PAGES'/nl/hardware/index.html 2>&1 | (! grep -q .)"
check "every hardware page within 300 KB and 3,000 elements" \
	python3 "$TOP/tests/e2e/page_sizes.py" "$PAGES" 200 "*/hardware/*.html"

# ---- 400 px: the bar chart's text as rendered ----
# the card page as the srcdoc of a frame 400 px wide (headless Chromium's
# window is at least 500 px wide) in its own folder; the frame's onload
# writes the rendered width of the chart's picture
chromium=$(command -v chromium || command -v chromium-browser || true)
card=$(grep -l '<h1>NVIDIA H100 SXM5 80GB</h1>' "$PAGES"/en/hardware/*.html | head -1)
if [ -z "$chromium" ]; then
	skip "the bar chart's text at 400 px is 11 px or more" "chromium is not installed"
else
	python3 -c '
import html, sys
page = open(sys.argv[1], encoding="utf-8").read()
print("<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"width:400px;height:900px;border:0\""
      " onload=\"var i=this.contentWindow.document.querySelector(&quot;.chart-frame img&quot;);"
      " document.body.setAttribute(&quot;data-w&quot;, i.getBoundingClientRect().width)\" srcdoc=\""
      + html.escape(page, quote=True) + "\"></iframe></body></html>")' "$card" >"$(dirname "$card")/probe.html"
	profile=$(mktemp -d "$TMP/profile.XXXXXX")
	rendered=$("$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --window-size=800,1000 --dump-dom \
		"file://$(dirname "$card")/probe.html" 2>"$TMP/chromium.err" |
		sed -n 's/.*data-w="\([0-9.]*\)".*/\1/p')
	rm -f "$(dirname "$card")/probe.html"
	python3 - "$card" "${rendered:-0}" >"$TMP/size" <<'EOF'
import base64, re, sys
import xml.etree.ElementTree as ET
page = open(sys.argv[1], encoding="utf-8").read()
svg = ET.fromstring(base64.b64decode(re.search(r'base64,([A-Za-z0-9+/=]+)"', page).group(1)))
width = float(svg.get("viewBox").split()[2])
# the smallest font size set anywhere in the picture (the root's, or one
# of an element's own)
sizes = [float(e.get("font-size")) for e in svg.iter() if e.get("font-size")]
px = min(sizes) * float(sys.argv[2]) / width
print("size", px >= 11, "%.2f px (font %s in %s units at %s px)" % (px, min(sizes), width, sys.argv[2]))
EOF
	check_grep "the bar chart's text at 400 px is 11 px or more" "^size True" "$TMP/size"
	sed 's/^/#   /' "$TMP/size"
fi
done_testing
