#!/bin/sh
# A model page's chart of its year (docs/pages.md, "Charts"), on a
# publication of the latest notable_ai_models snapshot of the store: each
# year's SVG (in both languages) counts in its description the models of
# that year with a training compute, counted here from the export file;
# the year's ranking CSV has one row per such model, and GPT-4's rank in
# it is 1 + the models of its year with more compute, counted from the
# export; GPT-4's page shows its year's file with its mark where its date
# and compute fall on that chart's own axes (read from the SVG's tick
# labels and month lines) and a sentence with its year, and links to the
# ranking; a model without compute gets no chart of its year; the page
# says nothing that counts the other models (so that it changes with its
# own values alone); every model page stays under page_sizes.py's limits.
. "$(dirname "$0")/lib.sh"

notable=$(ls "$SNAP"/notable_ai_models/????-??-??.csv.gz | sort | tail -1)
cp "$notable" "$TMP/notable_ai_models.csv.gz"
P=$TMP/public
check_status "ingest of the latest notable export exits 0" 0 \
	mc ingest --as-of 2025-06-01 "notable_ai_models=$TMP/notable_ai_models.csv.gz"
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$P"
PAGES=$P/.modelcat/current/pages

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

def stem(name):
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower())[:60].strip("-") or "model"
    return slug + "-" + hashlib.sha256(name.encode()).hexdigest()[:10]

def words(lang):
    text = open(os.path.join(xlf, lang + ".xlf"), encoding="utf-8").read()
    out = {}
    for m in re.finditer(r'<trans-unit id="([^"]+)">(.*?)</trans-unit>', text, re.S):
        t = re.search(r"<target>(.*?)</target>", m.group(2), re.S) or \
            re.search(r"<source>(.*?)</source>", m.group(2), re.S)
        out[m.group(1)] = t.group(1)
    return out

rows = list(csv.DictReader(gzip.open(source, "rt", encoding="utf-8", newline="")))
charted = {}
for r in rows:
    c, y = number(r["Training compute (FLOP)"]), year(r["Publication date"])
    if c is not None and y is not None:
        charted[norm(r["Model"])] = (y, c)
by_year = {}
for name, (y, c) in charted.items():
    by_year.setdefault(math.floor(y), []).append((name, c))
no_compute = next(norm(r["Model"]) for r in rows
                  if number(r["Training compute (FLOP)"]) is None and r["Model"].isascii()
                  and re.fullmatch(r"[A-Za-z0-9 -]+", r["Model"]))

# the files of every year with a model on the chart, and no other
for lang in ("en", "nl"):
    files = sorted(int(m.group(1)) for m in (re.fullmatch(r"index\.compute-(\d+)\.svg", f)
                                              for f in os.listdir(os.path.join(pages, lang))) if m)
    print("years", lang, files == sorted(by_year), len(files), len(by_year))

def axes(svg, y0):
    """Date -> x from the month lines (1 February .. 1 December of y0),
    log10(value) -> y from the vertical axis's tick labels."""
    months = [g for g in svg.iter(SVG + "g") if g.get("class") == "months"][0]
    xs = [float(l.get("x1")) for l in months.iter(SVG + "line")]
    ys = []
    sup = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
    for g in svg.iter(SVG + "g"):
        if g.get("class") == "y-axis":
            for t in g.iter(SVG + "text"):
                if t.get("class") == "tick":
                    ys.append((float(t.text[2:].translate(sup)), float(t.get("y"))))
    (b0, q0), (b1, q1) = ys[0], ys[-1]
    a0, a1 = y0 + 1 / 12, y0 + 11 / 12
    return (len(xs) == 11,
            lambda v: xs[0] + (v - a0) * (xs[-1] - xs[0]) / (a1 - a0),
            lambda v: q0 + (math.log10(v) - b0) * (q1 - q0) / (b1 - b0))

y_gpt, c_gpt = charted["GPT-4"]
Y = math.floor(y_gpt)
peers = by_year[Y]
rank = 1 + sum(1 for n, c in peers if c > c_gpt)
ranking = list(csv.DictReader(open(os.path.join(pages, "en", "index.compute-%d.csv" % Y),
                                   encoding="utf-8", newline="")))
print("ranking rows", len(ranking) == len(peers), len(ranking), len(peers))
print("ranking names", sorted(norm(r["model"]) for r in ranking) == sorted(n for n, c in peers))
row = [r for r in ranking if norm(r["model"]) == "GPT-4"][0]
print("rank", int(row["rank"]) == rank, row["rank"], rank)
print("ranking values", all(math.isclose(float(r["training_compute_flop"]), charted[norm(r["model"])][1],
                                         rel_tol=1e-12) for r in ranking))
print("ranking order", all(int(a["rank"]) <= int(b["rank"]) and
                           float(a["training_compute_flop"]) >= float(b["training_compute_flop"])
                           for a, b in zip(ranking, ranking[1:])))

for lang in ("en", "nl"):
    w = words(lang)
    svg = ET.parse(os.path.join(pages, lang, "index.compute-%d.svg" % Y)).getroot()
    desc = svg.find(SVG + "desc").text or ""
    count = "{:,}".format(len(peers)) if lang == "en" else "{:,}".format(len(peers)).replace(",", ".")
    print("desc", lang, (" %s " % count) in desc and str(Y) in desc, desc)
    title = svg.find(SVG + "title").text
    print("title", lang, title == html.unescape(re.sub(r'<x id="year"/>', str(Y), w["chart.peers.title"])))
    ok, x_of, y_of = axes(svg, Y)
    page = open(os.path.join(pages, lang, stem("GPT-4") + ".html"), encoding="utf-8").read()
    fig = re.search(r'<img src="index\.compute-%d\.svg"[^>]*>'
                    r'<span class="chart-mark" style="left:([0-9.]+)%%;top:([0-9.]+)%%"></span>'
                    r'</div>\n<p class="chart-note">(.*?)</p>' % Y, page)
    width, height = float(svg.get("width")), float(svg.get("height"))
    px, py = float(fig.group(1)) * width / 100, float(fig.group(2)) * height / 100
    print("mark", lang, ok and abs(px - x_of(y_gpt)) < 0.3 and abs(py - y_of(c_gpt)) < 0.3,
          px, x_of(y_gpt), py, y_of(c_gpt))
    note = fig.group(3)
    print("sentence", lang, html.unescape(note).startswith("GPT-4 ") and str(Y) in note and
          '<a href="index.compute-%d.csv">' % Y in note, note)
    # nothing on the page counts the year's models: neither their number
    # nor GPT-4's rank (the page changes with GPT-4's own values alone)
    text = re.sub(r"<[^>]+>", " ", note).replace(str(Y), " ")
    text = re.sub(r"[0-9]+([.,][0-9]+)? × 10\S*", " ", text)
    print("own", lang, not re.search(r"\b%d\b" % len(peers), text) and
          not re.search(r"\b%d\b" % rank, text), text)
    other = open(os.path.join(pages, lang, stem(no_compute) + ".html"), encoding="utf-8").read()
    print("none", lang, "index.compute-" not in other, no_compute)
EOF
for lang in en nl; do
	check_grep "$lang: a chart file per year with a charted model (years from the export)" "^years $lang True" "$TMP/result"
done
check_grep "the year's ranking has a row per model of that year with compute" "^ranking rows True" "$TMP/result"
check_grep "exactly those models" "^ranking names True" "$TMP/result"
check_grep "GPT-4's rank is 1 + the models of its year with more compute (from the export)" "^rank True" "$TMP/result"
check_grep "the ranking's values are the export's" "^ranking values True" "$TMP/result"
check_grep "the ranking is by compute, the most first" "^ranking order True" "$TMP/result"
for lang in en nl; do
	check_grep "$lang: the year chart's description counts the year's models" "^desc $lang True" "$TMP/result"
	check_grep "$lang: its title is the catalogue's, with the year" "^title $lang True" "$TMP/result"
	check_grep "$lang: GPT-4's mark sits at its date and compute on the year chart's axes" "^mark $lang True" "$TMP/result"
	check_grep "$lang: its sentence names it and its year and links to the ranking" "^sentence $lang True" "$TMP/result"
	check_grep "$lang: the page carries no count of the other models" "^own $lang True" "$TMP/result"
	check_grep "$lang: a model without compute has no chart of its year" "^none $lang True" "$TMP/result"
done
grep -v True "$TMP/result" | sed 's/^/#   /'

check "the year charts parse as XML" sh -c "xmllint --noout '$PAGES'/en/index.compute-*.svg '$PAGES'/nl/index.compute-*.svg"
check "GPT-4's pages pass xmllint --html without a message" \
	sh -c "xmllint --html --noout '$PAGES'/en/gpt-4-*.html '$PAGES'/nl/gpt-4-*.html 2>&1 | (! grep -q .)"
check "every model page within 300 KB and 3,000 elements" \
	python3 "$TOP/tests/e2e/page_sizes.py" "$PAGES" 100 "*/*.html" index
done_testing
