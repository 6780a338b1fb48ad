#!/bin/sh
# The Dutch audits wholly Dutch (issue 47, point 2, for the audits): on
# the site of the bundled history no Dutch audit page (its pages of their
# own too) shows a fixed part of an English audit text whose Dutch text
# differs (from translations/en.xlf and nl.xlf), nor an English month name
# or thousands separator outside the values; the navigation's aria-label
# is Dutch; a field a model's history (modelcat history --format json)
# says changed on a date is named on that date's Dutch audit by its Dutch
# field.* text, and no field with such a text keeps its English name.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"
SITE=$TMP/site

cat >"$TMP/texts.py" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
NS = '{urn:oasis:names:tc:xliff:document:1.2}'
def units(path, tag):
    out = {}
    for u in ET.parse(path).iter(NS + 'trans-unit'):
        e = u.find(NS + tag)
        if e is not None:
            # the fixed parts: the text between placeholders
            parts = [e.text or ''] + [c.tail or '' for c in e]
            out[u.get('id')] = [p for p in parts]
    return out
PY

cat >"$TMP/english.py" <<'PY'
import glob, html, os, re, sys
sys.path.insert(0, os.path.dirname(sys.argv[0]))
from texts import units
site, en_xlf, nl_xlf = sys.argv[1:4]
en, nl = units(en_xlf, 'source'), units(nl_xlf, 'target')
# every fixed part of two words or more of an audit text whose Dutch differs
phrases = set()
for k, parts in en.items():
    if not k.startswith('audit.') or k not in nl or parts == nl[k]:
        continue
    for p in parts:
        p = p.strip(' :,.()')
        if ' ' in p and p not in ' '.join(nl[k]):
            phrases.add(p)
months = ('January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
          'September', 'October', 'November', 'December')
bad = []
files = glob.glob(os.path.join(site, 'audit', 'nl', '**', '*.html'), recursive=True)
for f in files:
    text = open(f, encoding='utf-8').read()
    text = re.sub(r'<style>.*?</style>', '', text, flags=re.S)
    labels = ' '.join(re.findall(r'(?:aria-label|alt)="([^"]*)"', text))
    # the source's own words: values (del, ins), names (links); a quarantined
    # row's reason is the parser's sentence as the store recorded it
    # (docs/pages.md, "Audit pages"): its item is left out
    text = re.sub(r'<(del|ins|a)\b[^>]*>.*?</\1>', ' ', text, flags=re.S)
    text = re.sub(r'<li>snapshot [^<]*</li>', ' ', text)
    seen = html.unescape(re.sub(r'<[^>]*>', ' ', text) + ' ' + labels)
    seen = re.sub(r'\s+', ' ', seen)
    rel = os.path.relpath(f, site)
    for p in sorted(phrases):
        if p in seen:
            bad.append('%s: %r' % (rel, p))
    for m in months:
        if re.search(r'\b%s\b' % m, seen):
            bad.append('%s: %s' % (rel, m))
    m = re.search(r'(?<![\d.,])\d{1,3}(,\d{3})+(?!\d)', seen)
    if m:
        bad.append('%s: %s' % (rel, m.group(0)))
    if 'aria-label="Audits"' in open(f, encoding='utf-8').read():
        bad.append('%s: aria-label "Audits"' % rel)
print(len(files), len(phrases))
for b in bad[:10]:
    print(b)
sys.exit(1 if bad or len(files) < 10 or len(phrases) < 10 else 0)
PY
if python3 "$TMP/english.py" "$SITE" "$TOP/translations/en.xlf" "$TOP/translations/nl.xlf" >"$TMP/english.out"; then
	ok "the $(cut -d' ' -f1 "$TMP/english.out" | head -1) Dutch audit pages show none of the $(head -1 "$TMP/english.out" | cut -d' ' -f2) English phrases of the audit texts, no English month, no English thousands separator, no English aria-label"
else
	not_ok "English words on Dutch audit pages"
	sed 's/^/#   /' "$TMP/english.out"
fi

# a field that changed, from the model's history, named in Dutch on its
# date's Dutch audit (the audit or one of its pages of their own)
cat >"$TMP/fields.py" <<'PY'
import glob, html, json, os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(sys.argv[0]))
from texts import units
site, en_xlf, nl_xlf, label = sys.argv[1:5]
mc = sys.argv[5:]
en, nl = units(en_xlf, 'source'), units(nl_xlf, 'target')
def key(field):
    # History's rule: lower case, each run of other characters one "_"
    return 'field.' + re.sub(r'[^a-z0-9]+', '_', field.lower()).strip('_')
dutch = {''.join(en[k]): ''.join(nl[k]) for k in en if k.startswith('field.') and k in nl
         and en[k] != nl[k]}
pages = [os.path.join(site, 'audit', 'nl', label + '.html')] + \
    sorted(glob.glob(os.path.join(site, 'audit', 'nl', label, '*.html')))
text = '\n'.join(open(p, encoding='utf-8').read() for p in pages)
found = None
names = [c['name'] for c in json.load(open(os.path.join(site, 'audit', label + '.json')))['changed']]
for name in names[:60]:
    h = json.loads(subprocess.run(mc + ['history', name, '--format', 'json'], check=True,
                                  capture_output=True, text=True).stdout)
    for r in h['records']:
        for v in r['versions']:
            if v['valid_from'] != label or v['kind'] != 'changed':
                continue
            for f in v['fields']:
                k = key(f['field'])
                if k in en and ''.join(en[k]) == f['field'] and f['field'] in dutch:
                    found = (name, f['field'], dutch[f['field']])
                    break
            if found: break
        if found: break
    if found: break
if not found:
    print('no change of a field with a Dutch field.* text in the first histories')
    sys.exit(1)
name, field, want = found
bad = []
# the model's entry: its link, then a row naming the field in Dutch
m = re.search(r'>%s</a>.*?(?=<li>|$)' % re.escape(html.escape(name, quote=True)), text, flags=re.S)
if not m:
    bad.append('%s not on the Dutch audit %s' % (name, label))
elif not re.search(r'<td class="field"[^>]*>%s</td>' % re.escape(html.escape(want, quote=True)), m.group(0)):
    bad.append('%s: %s not named %r' % (name, field, want))
# no field with a Dutch text keeps its English name on any Dutch audit page
for f in glob.glob(os.path.join(site, 'audit', 'nl', '**', '*.html'), recursive=True):
    for cell in re.findall(r'<td class="field"[^>]*>([^<]*)</td>', open(f, encoding='utf-8').read()):
        if html.unescape(cell) in dutch:
            bad.append('%s: field %r in English' % (os.path.relpath(f, site), html.unescape(cell)))
            break
print('%s: %s -> %s' % found)
for b in bad[:8]:
    print(b)
sys.exit(1 if bad else 0)
PY
if python3 "$TMP/fields.py" "$SITE" "$TOP/translations/en.xlf" "$TOP/translations/nl.xlf" 2025-05-06 \
	"$MODELCAT_BIN/modelcat" --db "$MODELCAT_DB" >"$TMP/fields.out" 2>&1; then
	ok "a field changed on 2025-05-06 by its history is named in Dutch on that Dutch audit ($(head -1 "$TMP/fields.out")), and no field with a Dutch name keeps its English one"
else
	not_ok "field names on the Dutch audits"
	sed 's/^/#   /' "$TMP/fields.out"
fi
check "the English audit keeps the export's column names" \
	grep -qF '<td class="field">Training power draw (W)</td>' "$SITE/audit/2025-05-06.html" "$SITE"/audit/2025-05-06/*.html
# the days of a Dutch audit's title and links as Dutch dates: the title of
# 2025-05-06's audit names the snapshot before it (of any export), read
# from the store's file names
prev=$(find "$SNAP" -name '20??-??-??.csv.gz' | sed 's|.*/||; s/\.csv\.gz$//' | sort -u | awk '$0 < "2025-05-06"' | tail -1)
check "the store has a snapshot before 2025-05-06 ($prev)" test -n "$prev"
months="januari februari maart april mei juni juli augustus september oktober november december"
dutch_day() { set -- $(echo "$1" | tr '-' ' ') ; m=$(echo "$months" | cut -d' ' -f"$(expr "$2" + 0)"); echo "$(expr "$3" + 0) $m $1"; }
check_grep "the Dutch audit's title gives its days as Dutch dates" \
	"<h1>Wijzigingen van $(dutch_day "$prev") tot 6 mei 2025</h1>" "$SITE/audit/nl/2025-05-06.html"
check "no Dutch audit's title or links show a day as YYYY-MM-DD" \
	sh -c "! grep -h -o '<h1>.*</h1>\|<a rel=\"[a-z]*\" href=\"[^\"]*\">[^<]*</a>' '$SITE'/audit/nl/*.html | grep -q '[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]<\|[0-9]\{4\}-[0-9][0-9]-[0-9][0-9] '"
done_testing
