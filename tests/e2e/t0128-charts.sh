#!/bin/sh
# The charts (docs/pages.md, "Charts"), on a publication of the latest
# notable_ai_models snapshot of the store (found by listing its folder):
# the compute chart of each language's index has one mark per model with
# a training compute and a publication date (counted in the CSV, not in
# modelcat's output), and its data table (on the page the index links)
# lists exactly those models; the
# SVG files parse as XML and have a title and a description; GPT-4's page
# marks GPT-4 where its date and compute fall on the chart's own axes and
# gives its month and compute in words; a model without compute is not
# marked; text pages carry no chart; every page passes xmllint --html; the
# same catalogue gives the same chart bytes.
. "$(dirname "$0")/lib.sh"

notable=$(ls "$SNAP"/notable_ai_models/????-??-??.csv.gz | sort | tail -1)
cp "$notable" "$TMP/notable_ai_models.csv.gz"
P=$TMP/public
check_status "ingest of the latest notable export exits 0" 0 \
	mc ingest --as-of 2025-06-01 "notable_ai_models=$TMP/notable_ai_models.csv.gz"
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$P"
PAGES=$P/.modelcat/current/pages

for lang in en nl; do
	check "the $lang compute chart parses as XML" xmllint --noout "$PAGES/$lang/index.compute.svg"
	check "the $lang parameters chart parses as XML" xmllint --noout "$PAGES/$lang/index.parameters.svg"
done
# (the index folds the chart of every year in a <details>: html_lint_clean)
check "the index, a model page and the charts' data pass xmllint --html without a message" \
	html_lint_clean "$PAGES"/en/index.html "$PAGES"/nl/index.html \
		"$PAGES"/en/gpt-4-*.html "$PAGES"/nl/gpt-4-*.html "$PAGES"/en/index.charts.html \
		"$PAGES"/nl/index.charts.html

python3 - "$TMP/notable_ai_models.csv.gz" "$PAGES" "$TOP/translations" >"$TMP/result" <<'EOF'
import csv, datetime, gzip, hashlib, html, math, os, re, sys
import xml.etree.ElementTree as ET
source, pages, xlf = sys.argv[1:4]
SVG = "{http://www.w3.org/2000/svg}"

def number(s):
    try:
        x = float(s.strip())
    except ValueError:
        return None
    return x if math.isfinite(x) and x > 0 else None

def year(s):
    s = s.strip()
    for fmt, kind in (("%Y-%m-%d", "d"), ("%Y-%m", "m"), ("%Y", "y")):
        try:
            d = datetime.datetime.strptime(s, fmt).date()
        except ValueError:
            continue
        if kind == "y":
            return d.year + 0.5
        if kind == "m":
            return d.year + (d.month - 0.5) / 12
        days = 366 if (d.year % 4 == 0 and d.year % 100 != 0) or d.year % 400 == 0 else 365
        return d.year + (d.timetuple().tm_yday - 0.5) / days
    return None

def norm(name):
    return " ".join(name.replace("\xa0", " ").split())

rows = list(csv.DictReader(gzip.open(source, "rt", encoding="utf-8", newline="")))
rows_by_name = {norm(r["Model"]): r for r in rows}
charted = {}
for r in rows:
    c, y = number(r["Training compute (FLOP)"]), year(r["Publication date"])
    if c is not None and y is not None:
        charted[norm(r["Model"])] = (y, c)
no_compute = next(norm(r["Model"]) for r in rows
                  if number(r["Training compute (FLOP)"]) is None and r["Model"].isascii()
                  and re.fullmatch(r"[A-Za-z0-9 -]+", r["Model"]))

def words(lang):
    text = open(os.path.join(xlf, lang + ".xlf"), encoding="utf-8").read()
    out = {}
    for m in re.finditer(r'<trans-unit id="([^"]+)">(.*?)</trans-unit>', text, re.S):
        t = re.search(r"<target>(.*?)</target>", m.group(2), re.S) or \
            re.search(r"<source>(.*?)</source>", m.group(2), re.S)
        out[m.group(1)] = t.group(1)
    return out

def stem(name):
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower())[:60].strip("-") or "model"
    return slug + "-" + hashlib.sha256(name.encode()).hexdigest()[:10]

def axes(svg):
    """Year -> x and log10(value) -> y, from the tick labels and positions."""
    xs, ys = [], []
    sup = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
    for g in svg.iter(SVG + "g"):
        for t in g.iter(SVG + "text"):
            if t.get("class") != "tick":
                continue
            if g.get("class") == "x-axis":
                xs.append((float(t.text), float(t.get("x"))))
            elif g.get("class") == "y-axis":
                ys.append((float(t.text[2:].translate(sup)), float(t.get("y"))))
    (a0, p0), (a1, p1) = xs[0], xs[-1]
    (b0, q0), (b1, q1) = ys[0], ys[-1]
    return (lambda v: p0 + (v - a0) * (p1 - p0) / (a1 - a0),
            lambda v: q0 + (math.log10(v) - b0) * (q1 - q0) / (b1 - b0))

for lang in ("en", "nl"):
    w = words(lang)
    # the picture over every year (the index's first one leaves out the
    # oldest 5 %; a model page places its mark on this one)
    svg = ET.parse(os.path.join(pages, lang, "index.compute.all.svg")).getroot()
    marks = [g for g in svg.iter(SVG + "g") if g.get("class") == "marks"][0]
    # the marks: a path per group, each mark its own subpath (a move,
    # then its shape); the rings of frontier models are a path apart
    drawn = re.findall(r"M([0-9.]+) ([0-9.]+)",
                       "".join(p.get("d") for p in marks.findall(SVG + "path")
                               if p.get("class") != "stand-out"))
    print("marks", lang, len(drawn) == len(charted), len(drawn), len(charted))
    print("title", lang, svg.find(SVG + "title").text == html.unescape(w["chart.compute.title"]))
    desc = svg.find(SVG + "desc").text or ""
    print("desc", lang, "{:,}".format(len(charted)) in desc)
    page = open(os.path.join(pages, lang, "index.html"), encoding="utf-8").read()
    data = open(os.path.join(pages, lang, "index.charts.html"), encoding="utf-8").read()
    table = re.search(r'<h2 id="compute">.*?<table>(.*?)</table>', data, re.S).group(1)
    names = [norm(html.unescape(n)) for n in re.findall(r'<tr><th scope="row">(.*?)</th>', table)]
    print("table", lang, sorted(names) == sorted(charted), len(names))
    print("caption", lang, '<h2 id="compute">%s</h2>' % w["chart.compute.title"] in data)
    print("img", lang, '<img src="index.compute.svg"' in page and '<img src="index.parameters.svg"' in page
          and '<a href="index.charts.html#compute">' in page and 'class="chart-data"' not in page)

    x_of, y_of = axes(svg)
    gpt = open(os.path.join(pages, lang, stem("GPT-4") + ".html"), encoding="utf-8").read()
    m = re.search(r'<span class="chart-mark" style="left:([0-9.]+)%;top:([0-9.]+)%">', gpt)
    width, height = float(svg.get("width")), float(svg.get("height"))
    y, c = charted["GPT-4"]
    px, py = float(m.group(1)) * width / 100, float(m.group(2)) * height / 100
    print("mark", lang, abs(px - x_of(y)) < 0.3 and abs(py - y_of(c)) < 0.3,
          px, x_of(y), py, y_of(c))
    note = html.unescape(re.search(r'<p class="chart-note">(.*?)</p>', gpt).group(1))
    mantissa, exponent = ("%.2g" % c).split("e+")
    if lang == "nl":   # Dutch numbers: ',' before the decimals (docs/pages.md)
        mantissa = mantissa.replace(".", ",")
    sup = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    month = html.unescape(w["value.month.%02d" % int(rows_by_name["GPT-4"]["Publication date"][5:7])])
    print("sentence", lang, note.startswith("GPT-4 ") and month in note and
          ("%s × 10%s FLOP" % (mantissa, exponent.lstrip("0").translate(sup))) in note, note)
    other = open(os.path.join(pages, lang, stem(no_compute) + ".html"), encoding="utf-8").read()
    off = html.unescape(re.sub(r"<x[^>]*/>", "", w["chart.model.off"])).strip()
    print("unmarked", lang, 'class="chart-mark"' not in other and off[:-1].split(":")[0].strip() in other,
          no_compute)
    text = open(os.path.join(pages, lang, stem("GPT-4") + ".txt"), encoding="utf-8").read()
    print("text", lang, "chart" not in text and html.unescape(w["chart.compute.title"]) not in text)
EOF
for lang in en nl; do
	check_grep "$lang: one mark per model with compute and a date (CSV count)" "^marks $lang True" "$TMP/result"
	check_grep "$lang: the SVG's title is the catalogue's" "^title $lang True" "$TMP/result"
	check_grep "$lang: its description counts the models" "^desc $lang True" "$TMP/result"
	check_grep "$lang: the data table lists exactly the charted models" "^table $lang True" "$TMP/result"
	check_grep "$lang: the table's heading is the chart's title" "^caption $lang True" "$TMP/result"
	check_grep "$lang: the index shows both chart files and links to their data" "^img $lang True" "$TMP/result"
	check_grep "$lang: GPT-4's mark sits at its date and compute on the chart's axes" "^mark $lang True" "$TMP/result"
	check_grep "$lang: GPT-4's sentence gives its month and compute" "^sentence $lang True" "$TMP/result"
	check_grep "$lang: a model without compute has no mark, and says so" "^unmarked $lang True" "$TMP/result"
	check_grep "$lang: the text page has no chart" "^text $lang True" "$TMP/result"
done
grep -v True "$TMP/result" | sed 's/^/#   /'

check_status "render --all into a second folder exits 0" 0 mc render --all --out "$TMP/a"
check_status "and into a third" 0 mc render --all --out "$TMP/b"
check "the same catalogue gives the same chart bytes" \
	sh -c "cmp -s '$TMP/a/en/index.compute.svg' '$TMP/b/en/index.compute.svg' &&
		cmp -s '$TMP/a/nl/index.parameters.svg' '$TMP/b/nl/index.parameters.svg' &&
		cmp -s '$TMP/a/en/index.html' '$TMP/b/en/index.html'"
check "and the published one is the same chart" cmp -s "$TMP/a/en/index.compute.svg" "$PAGES/en/index.compute.svg"
done_testing
