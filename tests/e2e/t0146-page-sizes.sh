#!/bin/sh
# Pages sized for reading (issue 47, point 1): on the site of the bundled
# history every hardware page is at most 300 KB of HTML and 3,000 elements
# (Python's html.parser); a card's page lists the ten largest models that
# fit at 16, 8 and 4 bits and links to a page of each complete list, and
# the complete lists are also one CSV. The expected models come from the
# published model data (downloads/models/*.json: openness and parameters)
# and the hardware export's CSV (memory), with the fit rule of
# docs/pages.md: parameters x bits / 8 <= 90 % of the memory.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"
SITE=$TMP/site

if python3 "$TOP/tests/e2e/page_sizes.py" "$SITE" 1 'pages/*/hardware/*.html' >"$TMP/sizes.out"; then
	ok "all $(head -1 "$TMP/sizes.out") hardware pages are at most 300 KB and 3,000 elements"
else
	not_ok "hardware pages over 300 KB or 3,000 elements"
	sed 's/^/#   /' "$TMP/sizes.out"
fi

# H100: the reference from the model data and the hardware CSV
cat >"$TMP/ref.py" <<'PY'
import csv, glob, json, os, sys
site, card = sys.argv[1:3]
CLOSED = {'unreleased', 'api access', 'hosted access (no api)'}
OPEN = {'open source', 'open weights (unrestricted)', 'open weights (non-commercial)',
        'open access (non-commercial)', 'open weights (restricted use)',
        'open access (restricted use)'}
hw = sorted(glob.glob(os.path.join(site, 'downloads', 'ml_hardware-*.csv')))[-1]
memory = next(float(r['Memory (bytes)']) for r in csv.DictReader(open(hw, encoding='utf-8'))
              if r['Hardware name'] == card)
models = []
for f in glob.glob(os.path.join(site, 'downloads', 'models', '*.json')):
    m = json.load(open(f, encoding='utf-8'))
    v = m.get('values', {})
    access = str(v.get('Model accessibility') or '').strip().lower()
    flag = str(v.get('Open model weights?') or '').strip().lower()
    open_ = access in OPEN or (access not in CLOSED and flag in ('true', 'yes', '1'))
    p = v.get('Parameters')
    if open_ and isinstance(p, (int, float)) and p > 0:
        models.append((p, m['name']))
out = {}
for bits in (16, 8, 4):
    fit = [(p, n) for p, n in models if p * bits / 8 <= 0.9 * memory * (1 + 1e-12)]
    fit.sort(key=lambda x: (-x[0], x[1].encode()))
    out[bits] = [n for p, n in fit]
json.dump(out, open(sys.argv[3], 'w'))
PY
H100="NVIDIA H100 SXM5 80GB"
python3 "$TMP/ref.py" "$SITE" "$H100" "$TMP/ref.json"
page=$(grep -l "<h1>NVIDIA H100 SXM5 80GB</h1>" "$SITE"/pages/en/hardware/*.html | head -1)
stem=${page%.html}
check "H100's page is found" test -f "$page"

cat >"$TMP/listed.py" <<'PY'
import json, re, sys
from html.parser import HTMLParser
# The items of the list after each "At BITS-bit" heading, and the links after it.
class Lists(HTMLParser):
    def __init__(self):
        super().__init__()
        self.bits, self.inli, self.lists, self.links, self.text = None, False, {}, {}, ''
        self.inh3, self.href = False, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'h3':
            self.inh3, self.text = True, ''
        elif tag == 'h2':
            self.bits = None
        elif tag == 'li' and self.bits:
            self.inli, self.text = True, ''
        elif tag == 'a' and self.bits and not self.inli:
            self.links.setdefault(self.bits, []).append(a.get('href'))
    def handle_endtag(self, tag):
        if tag == 'h3':
            self.inh3 = False
            m = re.match(r'At (\d+)-bit', self.text)
            self.bits = int(m.group(1)) if m else None
        elif tag == 'li' and self.inli:
            self.inli = False
            # a repeated name's page says NAME#2, its data NAME
            name = re.sub(r'#\d+$', '', self.text.rsplit(' (', 1)[0])
            self.lists.setdefault(self.bits, []).append(name)
    def handle_data(self, d):
        if self.inh3 or self.inli:
            self.text += d
p = Lists()
p.feed(open(sys.argv[1], encoding='utf-8').read())
json.dump({'lists': p.lists, 'links': p.links}, open(sys.argv[2], 'w'))
PY
python3 "$TMP/listed.py" "$page" "$TMP/page.json"
for bits in 16 8 4; do
	check "H100's page lists the ten largest models that fit at $bits bits, largest first" python3 -c "
import json, sys
ref = json.load(open(sys.argv[1]))[sys.argv[3]]
got = json.load(open(sys.argv[2]))['lists'].get(sys.argv[3])
sys.exit(0 if len(ref) > 10 and got == ref[:10] else 1)" "$TMP/ref.json" "$TMP/page.json" "$bits"
	link=$(python3 -c "
import json, sys
print((json.load(open(sys.argv[1]))['links'].get(sys.argv[2]) or [''])[0])" "$TMP/page.json" "$bits")
	check_eq "its $bits-bit list links to the complete list's page" "$link" "$(basename "$stem")-models-$bits.html"
	python3 "$TMP/listed.py" "$SITE/pages/en/hardware/$link" "$TMP/all.json" 2>/dev/null
	check "the $bits-bit complete list's page holds every model that fits, in order" python3 -c "
import json, sys
ref = json.load(open(sys.argv[1]))[sys.argv[3]]
got = json.load(open(sys.argv[2]))['lists'].get(sys.argv[3])
sys.exit(0 if got == ref else 1)" "$TMP/ref.json" "$TMP/all.json" "$bits"
	nl=$SITE/pages/nl/hardware/$link
	check "and it is in Dutch too" grep -q 'lang="nl"' "$nl"
done
check "the CSV holds every model that fits at each width, largest first" python3 -c "
import csv, json, re, sys
ref = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2], encoding='utf-8')))
got = {}
for r in rows:
    got.setdefault(r['bits'], []).append(re.sub(r'#\d+$', '', r['model']))
sys.exit(0 if all(got.get(b) == ref[b] for b in ref) and len(got) == 3 else 1)" \
	"$TMP/ref.json" "$stem-models.csv"
done_testing
