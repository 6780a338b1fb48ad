#!/bin/sh
# Audits sized for reading and in Dutch (issue 47, points 1 and 2 for the
# audits): on the site of the bundled history every audit page, its pages
# of their own and the Dutch ones, is at most 300 KB of HTML and 3,000
# elements (Python's html.parser, as t0146); the summary's totals are the
# counts of the audit's JSON (audit/LABEL.json, written apart from the
# HTML) and every model the JSON lists is on the audit or a page it links;
# the Dutch audits have no English month name and no number with an
# English thousands separator; a Dutch audit index exists and the Dutch
# header links to it.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"
SITE=$TMP/site

if python3 "$TOP/tests/e2e/page_sizes.py" "$SITE" 20 'audit/**/*.html' >"$TMP/sizes.out"; then
	ok "all $(head -1 "$TMP/sizes.out") audit pages (both languages, pages of their own) are at most 300 KB and 3,000 elements"
else
	not_ok "audit pages over 300 KB or 3,000 elements"
	sed 's/^/#   /' "$TMP/sizes.out"
fi

# the summary and the lists against the JSON audit, for every snapshot and language
cat >"$TMP/counts.py" <<'PY'
import glob, html, json, os, re, sys
site = sys.argv[1]
bad = []
def number(s):
    return int(s.replace(',', '').replace('.', ''))
def reachable(page):
    """The text of page and of the pages of its own it links (LABEL/...)."""
    text = open(page, encoding='utf-8').read()
    out = [text]
    base = os.path.dirname(page)
    for href in sorted(set(re.findall(r'href="([0-9][^"/]*/[^"]+\.html)"', text))):
        out.append(open(os.path.join(base, href), encoding='utf-8').read())
    return html.unescape('\n'.join(out))
n = 0
for j in sorted(glob.glob(os.path.join(site, 'audit', '*.json'))):
    label = os.path.basename(j)[:-5]
    if label == 'site':
        continue
    a = json.load(open(j, encoding='utf-8'))
    want = {'added': sum(len(e['added']) for e in a['by_export'].values()),
            'removed': sum(len(e['removed']) for e in a['by_export'].values()),
            'renamed': len(a['renamed']), 'changed': len(a['changed']),
            'quarantined': len(a['quarantined'])}
    for lang in ('', 'nl/'):
        page = os.path.join(site, 'audit', lang + label + '.html')
        text = open(page, encoding='utf-8').read()
        for k, v in want.items():
            m = re.search(r'id="count-%s">([0-9.,]+)<' % k, text)
            if not m or number(m.group(1)) != v:
                bad.append('%s%s: %s %s, JSON %d' % (lang, label, k, m and m.group(1), v))
        all_text = reachable(page)
        for k in ('added', 'removed'):
            for e, lists in a['by_export'].items():
                for name in lists[k]:
                    if name not in all_text:
                        bad.append('%s%s: %s %s not reachable' % (lang, label, k, name))
        for c in a['changed'] + a['renamed']:
            name = c.get('name') or c.get('to')
            if name not in all_text:
                bad.append('%s%s: changed %s not reachable' % (lang, label, name))
        n += 1
print(n)
for b in bad[:8]:
    print(b)
sys.exit(1 if bad or n < 10 else 0)
PY
if python3 "$TMP/counts.py" "$SITE" >"$TMP/counts.out"; then
	ok "the summaries of all $(head -1 "$TMP/counts.out") audits equal the JSON's counts, and every model they list is on the audit or a page it links"
else
	not_ok "summary counts or lists differ from the JSON audit"
	sed 's/^/#   /' "$TMP/counts.out"
fi

check "a Dutch audit index exists" test -s "$SITE/audit/nl/index.html"
check_grep "it is in Dutch" 'lang="nl"' "$SITE/audit/nl/index.html"
check "it links every Dutch audit" sh -c "for f in '$SITE'/audit/*.json; do l=\$(basename \$f .json); [ \$l = site ] && continue; grep -q \"href=\\\"\$l.html\\\"\" '$SITE/audit/nl/index.html' && test -s '$SITE/audit/nl/'\$l.html || exit 1; done"
nlpage=$(ls "$SITE"/pages/nl/*.html | grep -v '/index' | head -1)
check_grep "the Dutch header links the Dutch audit index" 'href="../../audit/nl/index.html"' "$nlpage"
check_grep "the Dutch index's header too" 'href="../../audit/nl/index.html"' "$SITE/pages/nl/index.html"
check_grep "the English header links the English one" 'href="../../audit/index.html"' "$SITE/pages/en/index.html"

cat >"$TMP/dutch.py" <<'PY'
import glob, html, os, re, sys
site, columns = sys.argv[1:3]
# the values of text fields (text, list, key; and the extra columns the
# map does not know) are the source's own words, kept as it writes them
typed = {}
for line in open(columns, encoding='utf-8'):
    if line.startswith('#') or not line.strip():
        continue
    f = line.rstrip('\n').split('\t')
    typed[f[0]] = f[1]
def row(m):
    # the column: data-field on a translated audit (its cell names the
    # field in the page's language), else the cell
    field = m.group(1) if m.group(1) is not None else m.group(2)
    return m.group(0) if typed.get(html.unescape(field)) not in (None, 'text', 'list', 'key') else ''
months = ('January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
          'September', 'October', 'November', 'December')
bad = []
files = glob.glob(os.path.join(site, 'audit', 'nl', '**', '*.html'), recursive=True)
for f in files:
    text = open(f, encoding='utf-8').read()
    text = re.sub(r'<style>.*?</style>', '', text, flags=re.S)
    text = re.sub(r'<tr><td class="field"(?: data-field="([^"]*)")?>([^<]*)</td>.*?</tr>', row,
                  text, flags=re.S)
    # what a reader sees: no tags, no attribute (a stored value in a title)
    seen = html.unescape(re.sub(r'<[^>]*>', ' ', text))
    for m in months:
        if re.search(r'\b%s\b' % m, seen):
            bad.append('%s: %s' % (os.path.relpath(f, site), m))
    for m in re.finditer(r'(?<![\d.,])\d{1,3}(,\d{3})+(?![\d])', seen):
        bad.append('%s: %s' % (os.path.relpath(f, site), m.group(0)))
        break
print(len(files))
for b in bad[:8]:
    print(b)
sys.exit(1 if bad or len(files) < 10 else 0)
PY
if python3 "$TMP/dutch.py" "$SITE" "$TOP/pipelines/columns.tsv" >"$TMP/dutch.out"; then
	ok "the $(head -1 "$TMP/dutch.out") Dutch audit pages have no English month name and no English thousands separator"
else
	not_ok "English month names or thousands separators on Dutch audit pages"
	sed 's/^/#   /' "$TMP/dutch.out"
fi
check_grep "the largest Dutch audit is in Dutch" '<h2 id="summary">Samenvatting</h2>' "$SITE/audit/nl/2025-11-01.html"
check_grep "with Dutch numbers" 'id="count-added">1.897<' "$SITE/audit/nl/2025-11-01.html"
check "every audit page is in the site's manifest" sh -c "cd '$SITE' && find audit/ -name '*.html' | while read f; do grep -qF \" \$f\" .modelcat/current/MANIFEST || exit 1; done"
done_testing
