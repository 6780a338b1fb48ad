#!/bin/sh
# Hardware pages: what a card will run, the models it trained, the links
# between model pages and hardware pages, the unmatched names' notice, and
# render --hardware. Expected values come from the CSVs (Python's csv
# module): the latest notable_ai_models and ml_hardware snapshots, chosen
# by listing their folders and loaded as one snapshot.
. "$(dirname "$0")/lib.sh"

NOTABLE=$(ls "$SNAP"/notable_ai_models/*.csv.gz | sort | tail -1)
HW=$(ls "$SNAP"/ml_hardware/*.csv.gz | sort | tail -1)
DAY=$(basename "$HW" .csv.gz)
RTX="NVIDIA GeForce RTX 4090"
H100="NVIDIA H100 SXM5 80GB"

check_status "ingest of notable_ai_models and ml_hardware as one snapshot exits 0" 0 \
	mc ingest --as-of "$DAY" notable_ai_models="$NOTABLE" ml_hardware="$HW"
check_status "translate exits 0" 0 mc translate

# The reference: the open-weights models with a parameter count (the page
# rules of docs/pages.md), the cards' memory, and the fit rule.
cat >"$TMP/ref.py" <<'PY'
import csv, gzip, json, re, sys, unicodedata
notable, hw, aliases = sys.argv[1:4]
CLOSED = {'unreleased', 'api access', 'hosted access (no api)'}
OPEN = {'open source', 'open weights (unrestricted)', 'open weights (non-commercial)',
        'open access (non-commercial)', 'open weights (restricted use)',
        'open access (restricted use)'}
def name_of(s):
    return unicodedata.normalize('NFC', s.replace('\xa0', ' ')).strip()
def rows(path):
    return list(csv.DictReader(gzip.open(path, 'rt', encoding='utf-8', newline='')))
models, seen = {}, {}
hardware_items = []
for r in rows(notable):
    name = name_of(r.get('Model') or '')
    if not name:
        continue
    seen[name] = seen.get(name, 0) + 1
    if seen[name] > 1:
        name += '#%d' % seen[name]
    access = (r.get('Model accessibility') or '').strip().lower()
    flag = (r.get('Open model weights?') or '').strip().lower()
    if access in OPEN:
        open_ = True
    elif access in CLOSED:
        open_ = False
    else:
        open_ = True if flag in ('true', 'yes', '1') else None
    try:
        params = float((r.get('Parameters') or '').strip())
    except ValueError:
        params = None
    models[name] = (open_, params)
    hardware_items += [re.sub(r'\s+', ' ', x).strip()
                       for x in (r.get('Training hardware') or '').split(',') if x.strip()]
cards = {}
for r in rows(hw):
    m = (r.get('Memory (bytes)') or '').strip()
    cards[name_of(r['Hardware name'])] = float(m) if m else None
def fits(params, bits, memory):
    return params * bits / 8 <= 0.9 * memory * (1 + 1e-12)
def key(s, hardware):
    s = ''.join(c.lower() if c.isascii() else c for c in s)
    words = re.split(r'[^a-z0-9\x80-\U0010ffff]+', s)
    words = [w for w in words if w]
    if hardware and len(words) > 1 and words[0] in ('nvidia', 'amd', 'google', 'intel', 'huawei'):
        words = words[1:]
    return ''.join(words)
alias = {}
for line in open(aliases, encoding='utf-8'):
    line = line.rstrip('\n')
    if line and not line.startswith('#'):
        a, b = line.split('\t')
        alias[a] = b
keys = {}
for c in cards:
    keys.setdefault(key(c, True), set()).add(c)
def card_for(item):
    if item in cards:
        return item
    k = keys.get(key(item, True), set())
    if len(k) == 1:
        return next(iter(k))
    return alias.get(item) if alias.get(item) in cards else None
out = {'fits': {}, 'memory': cards,
       'unmatched': sorted({i for i in hardware_items if card_for(i) is None}),
       'linked': sorted({i for i in hardware_items if card_for(i) is not None})}
for card in cards:
    for bits in (16, 8, 4):
        if cards[card] is None:
            continue
        out['fits']['%s|%d' % (card, bits)] = sorted(
            n for n, (o, p) in models.items() if o and p and p > 0 and fits(p, bits, cards[card]))
out['open'] = sorted((p, n) for n, (o, p) in models.items() if o and p and p > 0)
out['params'] = {n: p for n, (o, p) in models.items() if o and p and p > 0}
json.dump(out, open('ref.json', 'w'))
PY
(cd "$TMP" && python3 ref.py "$NOTABLE" "$HW" "$TOP/pipelines/hardware-aliases.tsv")

# The names a page lists under "At BITS-bit" (the ten largest; the rest on
# a page of their own, t0146), and the count its heading gives.
cat >"$TMP/listed.py" <<'PY'
import re, sys
page, bits = sys.argv[1], sys.argv[2]
lines = open(page, encoding='utf-8').read().split('\n')
start = next(i for i, l in enumerate(lines) if l.startswith('At %s-bit: ' % bits))
count = int(re.match(r'At \d+-bit: ([\d,]+) models', lines[start]).group(1).replace(',', ''))
names = []
for l in lines[start + 1:]:
    if not l.startswith('- '):
        break
    names.append(l[2:].rsplit(' (', 1)[0])
print(count, len(names))
for n in sorted(names):
    print(n)
PY
fit_check() { # card bits limit-text
	mc render --hardware "$1" >"$TMP/card.txt" 2>"$TMP/card.err"
	python3 "$TMP/listed.py" "$TMP/card.txt" "$2" >"$TMP/listed.out"
	python3 -c "
import json, sys
ref = json.load(open(sys.argv[1]))
want = ref['fits']['%s|%s' % (sys.argv[2], sys.argv[3])]
top = sorted(want, key=lambda n: (-ref['params'][n], n.encode()))[:10]
print(len(want), len(top))
for n in sorted(top): print(n)" "$TMP/ref.json" "$1" "$2" >"$TMP/want.out"
	if cmp -s "$TMP/listed.out" "$TMP/want.out"; then
		ok "'$1' at $2 bits counts the $(head -1 "$TMP/want.out" | cut -d' ' -f1) open-weights models of at most $3 parameters and lists the ten largest"
	else
		not_ok "'$1' at $2 bits differs from the CSVs"
		diff "$TMP/want.out" "$TMP/listed.out" | head -8 | sed 's/^/#   /'
	fi
}
fit_check "$RTX" 4 43.2B
fit_check "$H100" 16 36B
fit_check "$H100" 4 144B
mc render --hardware "$RTX" >"$TMP/rtx.txt"
check_grep "the RTX 4090's memory is 24 GB" "^- 24 GB$" "$TMP/rtx.txt"
check_grep "the 4-bit heading gives the limit, 43.2B" "^At 4-bit: .* up to 43.2B parameters$" "$TMP/rtx.txt"
check_grep "the page states the fit rule" "parameters × bits ÷ 8 is at most 90% of the card's 24 GB" "$TMP/rtx.txt"
largest=$(python3 -c "
import json, sys
ref = json.load(open(sys.argv[1]))
print([n for p, n in ref['open'] if p * 4 / 8 > 0.9 * 24e9][0])" "$TMP/ref.json")
check "the smallest model over the limit ('$largest') is not listed" \
	sh -c "! grep -qF -- '- $largest (' '$TMP/rtx.txt'"
check "largest first: the 4-bit list of the RTX 4090 is in falling parameter counts" python3 -c "
import re, sys
lines = open(sys.argv[1], encoding='utf-8').read().split('\n')
s = next(i for i, l in enumerate(lines) if l.startswith('At 4-bit'))
units = {'T': 1e12, 'B': 1e9, 'M': 1e6}
vals = []
for l in lines[s + 1:]:
    if not l.startswith('- '): break
    p = l.rsplit(' (', 1)[1].split(',')[0] if l.count(', ') >= 1 else ''
    m = re.match(r'([\d.]+)([TBM])$', p)
    vals.append(float(m.group(1)) * units[m.group(2)] if m else float(p.replace(',', '') or 0))
sys.exit(0 if vals and vals == sorted(vals, reverse=True) else 1)" "$TMP/rtx.txt"

# a card without a memory figure says so
nomem=$(python3 -c "
import json, sys
print(sorted(c for c, m in json.load(open(sys.argv[1]))['memory'].items() if m is None)[0])" "$TMP/ref.json")
mc render --hardware "$nomem" >"$TMP/nomem.txt" 2>&1
check_grep "'$nomem' (no memory on record) says so" "^No memory figure is on record for this card" "$TMP/nomem.txt"
check "and lists no model as fitting" sh -c "! grep -q '^At [0-9]*-bit' '$TMP/nomem.txt'"

# render --hardware: the Dutch page, HTML, and an unknown name
mc render --hardware "$H100" --lang nl >"$TMP/nl.txt" 2>&1
check_grep "the Dutch page is in Dutch" "^Wat erop draait$" "$TMP/nl.txt"
mc render --hardware "$H100" --format html >"$TMP/h100.html" 2>&1
check "the HTML page passes xmllint --html" sh -c "xmllint --html --noout '$TMP/h100.html' 2>&1 | (! grep -q .)"
check_grep "the HTML page links its models' pages" '<li><a href="\.\./llama-3-3-70b-[0-9a-f]*\.html">' "$TMP/h100.html"
hw_sha=$(python3 -c 'import gzip,hashlib,sys; print(hashlib.sha256(gzip.open(sys.argv[1]).read()).hexdigest())' "$HW")
check_grep "the HTML page carries the citation block, naming the hardware file's SHA-256" \
	"ml_hardware, [0-9-]*: <code>$hw_sha</code>" "$TMP/h100.html"
check "the text page has no citation block" sh -c "! grep -q '$hw_sha' '$TMP/nl.txt'"

# the chart of memory against the models that fit: an SVG image in the
# page (a data: URL); its first bar the card's memory, highlighted, then
# the three largest models that fit at 16, 8 and 4 bits (the CSVs' fit
# rule, largest first), each bar as long as its memory on the chart's own
# axis; its table the same rows
mc render --hardware "$RTX" --format html >"$TMP/rtx.html" 2>&1
python3 - "$TMP/ref.json" "$TMP/rtx.html" "$RTX" >"$TMP/chart.out" <<'PY'
import base64, html, json, re, sys
import xml.etree.ElementTree as ET
SVG = "{http://www.w3.org/2000/svg}"
ref, page, card = json.load(open(sys.argv[1])), open(sys.argv[2], encoding="utf-8").read(), sys.argv[3]
memory = ref["memory"][card]
def size(b):   # the pages' way with bytes, for sizes of 10 GB and more
    return "%s GB" % format(round(b / 1e9), ",")
want = [(card, memory, size(memory))]
largest = sorted(ref["open"], key=lambda pn: (-pn[0], pn[1].encode()))
for bits in (16, 8, 4):
    fit = [(n, p) for p, n in largest if p * bits / 8 <= 0.9 * memory * (1 + 1e-12)][:3]
    want += [("%s at %d-bit" % (n, bits), p * bits / 8, size(p * bits / 8)) for n, p in fit]
m = re.search(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)" alt="([^"]*)"', page)
svg = ET.fromstring(base64.b64decode(m.group(1)))
print("title", svg.find(SVG + "title").text == "%s: memory against the largest models that fit" % card
      and html.unescape(m.group(2)) == svg.find(SVG + "title").text)
print("desc", "card's 24 GB of memory" in (svg.find(SVG + "desc").text or ""))
ticks = [(float(t.text.replace(",", "")), float(t.get("x"))) for g in svg.iter(SVG + "g")
         if g.get("class") == "x-axis" for t in g.iter(SVG + "text") if t.get("class") == "tick"]
per_gb = (ticks[-1][1] - ticks[0][1]) / (ticks[-1][0] - ticks[0][0])
bars = [g for g in svg.iter(SVG + "g") if g.get("class") == "bars"][0]
labels = [t.text for t in bars.findall(SVG + "text")]
rects = bars.findall(SVG + "rect")
print("labels", labels == ["%s: %s" % (n, s) for n, _, s in want], len(labels), len(want))
print("lengths", len(rects) == len(want) and all(abs(float(r.get("width")) - b / 1e9 * per_gb) < 0.2
                                                 for r, (_, b, _) in zip(rects, want)))
print("highlight", [r.get("fill") for r in rects].count(rects[0].get("fill")) == 1)
table = re.search(r'<div class="chart-data"><table>.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
rows = [(html.unescape(a), b) for a, b in re.findall(r'<tr><th scope="row">(.*?)</th><td>(.*?)</td></tr>', table)]
print("table", rows == [(n, s) for n, _, s in want])
PY
check_grep "the RTX 4090's chart: an SVG image titled with the card" "^title True$" "$TMP/chart.out"
check_grep "described in words, with the card's memory" "^desc True$" "$TMP/chart.out"
check_grep "its bars: the card's 24 GB, then the three largest models that fit at 16, 8 and 4 bits" \
	"^labels True " "$TMP/chart.out"
check_grep "each bar as long as its memory on the chart's axis" "^lengths True$" "$TMP/chart.out"
check_grep "the card's bar alone highlighted" "^highlight True$" "$TMP/chart.out"
check_grep "the chart's table holds the same rows" "^table True$" "$TMP/chart.out"
check "the page with its chart passes xmllint --html" sh -c "xmllint --html --noout '$TMP/rtx.html' 2>&1 | (! grep -q .)"
check "the text page has no chart" sh -c "! grep -q 'memory against the largest' '$TMP/rtx.txt'"
check_status "render --hardware of an unknown name exits 3" 3 mc render --hardware "NVIDIA H999"
check_grep "it says so in one line" "^modelcat-render: no hardware named 'NVIDIA H999' on $DAY" "$TMP/err"
check_status "--hardware with a model NAME too is a usage error (exit 2)" 2 \
	mc render --hardware "$H100" GPT-4
check_grep "render --help names --hardware" "--hardware NAME" "$(mc render --help >"$TMP/help" 2>&1; echo "$TMP/help")"

# render --all: the hardware pages beside the model pages, every link from
# a model page to a hardware page resolves, the index by memory
check_status "render --all exits 0" 0 mc render --all --out "$TMP/site"
ncards=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['memory']))" "$TMP/ref.json")
# per card 21 files; per language the index (2) and its two charts with
# their CSVs (4)
check_grep "it reports the hardware pages" "^$ncards hardware pages: $((ncards * 21 + 4 + 8)) files written" "$TMP/out"
check "every link from a model page to a hardware page resolves, and there are some" python3 -c "
import glob, os, re, sys
site = sys.argv[1]
n = bad = 0
for page in glob.glob(site + '/*/*.html'):
    for href in re.findall(r'href=\"(hardware/[^\"]*)\"', open(page, encoding='utf-8').read()):
        n += 1
        if not os.path.isfile(os.path.join(os.path.dirname(page), href)):
            bad += 1
            print('dead:', page, href)
print(n, 'links')
sys.exit(1 if bad or n < 100 else 0)" "$TMP/site"
vgg=$(ls "$TMP"/site/en/vgg16-*.html)
check_grep "an alias links (VGG16's 'NVIDIA GTX Titan Black')" \
	'<a href="hardware/nvidia-geforce-gtx-titan-black-[0-9a-f]*\.html">NVIDIA GTX Titan Black</a>' "$vgg"
check_grep "the closing sentence links to the hardware index" \
	'<a href="hardware/index.html">If you already own a card and want to know everything it will run, start from the hardware instead.</a>' "$vgg"
check "the text pages have no link markup" sh -c "! grep -q 'hardware/' '${vgg%.html}.txt'"
check "each linked item of the CSV links from its models' pages" python3 -c "
import glob, html, json, re, sys
ref = json.load(open(sys.argv[1]))
found = set()
for page in glob.glob(sys.argv[2] + '/en/*.html'):
    found |= {html.unescape(t) for t in re.findall(r'<a href=\"hardware/[^\"]*\">([^<]*)</a>', open(page, encoding='utf-8').read())}
found = {t for t in found if not t.endswith('start from the hardware instead.')}
want = set(ref['linked'])
print(sorted(want ^ found)[:5])
sys.exit(0 if want == found else 1)" "$TMP/ref.json" "$TMP/site"
check "the hardware index is sorted by memory, largest first, and lists every card" python3 -c "
import json, sys
ref = json.load(open(sys.argv[1]))['memory']
lines = [l[2:] for l in open(sys.argv[2], encoding='utf-8').read().split('\n') if l.startswith('- ')]
names = [l.rsplit(' \u2014 ', 1)[0] if ' \u2014 ' in l else l for l in lines]
mems = [ref.get(n) if ref.get(n) is not None else -1 for n in names]
sys.exit(0 if sorted(names) == sorted(ref) and mems == sorted(mems, reverse=True) else 1)" \
	"$TMP/ref.json" "$TMP/site/en/hardware/index.txt"
check "every hardware HTML page passes xmllint --html" \
	sh -c "xmllint --html --noout '$TMP'/site/en/hardware/*.html '$TMP'/site/nl/hardware/*.html 2>&1 | (! grep -q .)"

# the unmatched training-hardware names: one notice for the snapshot,
# listing exactly the names the CSVs give no card for
sql "SELECT count(*) FROM notice WHERE message LIKE 'hardware links on %'" >"$TMP/n"
check_eq "one notice of unmatched names for the one snapshot" "$(cat "$TMP/n")" 1
sql "SELECT message FROM notice WHERE message LIKE 'hardware links on %'" >"$TMP/notice"
check "it lists the training-hardware names no card matches, as the CSVs give them" python3 -c "
import json, re, sys
ref = json.load(open(sys.argv[1]))['unmatched']
msg = open(sys.argv[2], encoding='utf-8').read()
m = re.search(r'training hardware matching no hardware record \((\d+)\): (.*?); ML models', msg, re.S)
got = m.group(2).split(', ') if m and m.group(2) else []
print(len(ref), len(got), sorted(set(ref) ^ set(got))[:5])
sys.exit(0 if m and sorted(got) == ref and int(m.group(1)) == len(ref) else 1)" "$TMP/ref.json" "$TMP/notice"
mc ingest --as-of "$DAY" notable_ai_models="$NOTABLE" >/dev/null 2>&1
mc ingest ml_hardware="$(ls "$SNAP"/ml_hardware/*.csv.gz | sort | tail -1)" --as-of 2099-01-01 --allow-future \
	>/dev/null 2>&1
check_eq "a second snapshot gets its own notice, one again" \
	"$(sql "SELECT count(*) FROM notice WHERE message LIKE 'hardware links on %' GROUP BY snapshot_id" | tr '\n' ' ')" "1 1 1 "

done_testing
