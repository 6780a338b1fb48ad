#!/bin/sh
# The index and the citation (issue 47, point 4; docs/pages.md, "The
# index", "Downloads and citation"), on the bundled history published
# under a base URL: the title, intro and table come before the downloads;
# "Last updated" is each row's own date, the source's Last modified
# (checked against the 2025-11-01 bundle's all_ai_models.csv, Python's csv
# and zipfile, for the models only that member holds); an unknown weights
# value is said; the BibTeX's title is the dataset's, its url the page's
# own address, and one note with the snapshot's date and a short hash.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
mc translate --catalogues "$TOP/translations" >/dev/null 2>&1
check_status "publish under a base URL: exit 0" 0 mc publish --out "$TMP/site" --base-url https://example.org/mc
P=$TMP/site/pages
check "the index: title, intro, table, then downloads, then the citation" python3 -c '
import sys
s = open(sys.argv[1], encoding="utf-8").read()
at = [s.find(k) for k in ("<h1", "class=\"intro\"", "role=\"table\"", "/downloads/", "class=\"cite\"")]
sys.exit(not (all(a >= 0 for a in at) and at == sorted(at)))' "$P/en/index.html"
cat >"$TMP/rows.py" <<'PY'
import csv, io, re, sys, zipfile, collections
page, bundle, what = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(page, encoding='utf-8').read()
rows = {}
for m in re.finditer(r'<div role="row"[^>]*><div role="rowheader">(?:<a [^>]*>)?(.*?)(?:</a>)?</div>(.*?)</div>\n', s):
    name = m.group(1).replace('&amp;', '&').replace('&lt;', '<').replace('&gt;', '>').replace('&quot;', '"').replace('&#39;', "'")
    cells = re.findall(r'<div role="cell"([^>]*)>(.*?)</div>', m.group(2) + '</div>')
    rows[name] = cells
z = zipfile.ZipFile(bundle)
members = {n[:-4]: list(csv.DictReader(io.StringIO(z.read(n).decode('utf-8'), newline='')))
           for n in z.namelist() if n.endswith('.csv')}
if what == 'updated':
    others = set()
    for e, rs in members.items():
        if e != 'all_ai_models':
            others |= {(r.get('Model') or r.get('System') or '').strip() for r in rs}
    count = collections.Counter((r['Model'] or '').strip() for r in members['all_ai_models'])
    want = {r['Model'].strip(): r['Last modified'][:10] for r in members['all_ai_models']
            if count[r['Model'].strip()] == 1 and r['Model'].strip() not in others and r['Last modified']}
    bad = [(n, d, rows[n][5]) for n, d in want.items() if n in rows and ('data-v="%s"' % d) not in rows[n][5][0]]
    seen = sum(1 for n in want if n in rows)
    print(len(want), seen, bad[:3])
    sys.exit(not (seen > 1000 and not bad))
if what == 'weights':
    empty = [n for n, c in rows.items() if not c[4][1].strip()]
    said = [n for n, c in rows.items() if 'data-u' in c[4][0]]
    print(len(rows), len(empty), len(said), set(c[4][1] for n, c in rows.items() if 'data-u' in c[4][0]))
    sys.exit(not (len(rows) > 3000 and not empty and said and
                  all(rows[n][4][1] == sys.argv[4] for n in said)))
PY
check "Last updated: each row's Last modified from the source" \
	python3 "$TMP/rows.py" "$P/en/index.all.html" "$SNAP/ai_models/2025-11-01.zip" updated
check "no empty weights cell in English: unknown says 'not recorded'" \
	python3 "$TMP/rows.py" "$P/en/index.all.html" "$SNAP/ai_models/2025-11-01.zip" weights "not recorded"
check "nor in Dutch: 'niet vastgelegd'" \
	python3 "$TMP/rows.py" "$P/nl/index.all.html" "$SNAP/ai_models/2025-11-01.zip" weights "niet vastgelegd"

# the BibTeX of a model page: the dataset's title, the page's own address,
# one note with the snapshot's date and a 12-digit hash
page=$(grep -l '<h1>GPT-4</h1>' "$P"/en/*.html | head -1)
check "GPT-4 has a page" test -n "$page"
python3 - "$page" >"$TMP/bib" <<'PY'
import html, re, sys
s = open(sys.argv[1], encoding='utf-8').read()
print(html.unescape(re.search(r'<pre class="bibtex">(.*?)</pre>', s, re.S).group(1)))
PY
check_grep "its BibTeX's title is the dataset's" '^  title = {{Data on AI Models}},$' "$TMP/bib"
check_grep "its url is the page's own address" "^  url = {https://example.org/mc/pages/en/$(basename "$page")},$" "$TMP/bib"
check_grep "one note: the snapshot's date and a 12-digit hash" \
	'^  note = {CC BY 4.0. Snapshot of 20[0-9-]*, SHA-256 [0-9a-f]\{12\}},$' "$TMP/bib"
check "the BibTeX is short (no list of full hashes)" test "$(wc -c <"$TMP/bib")" -lt 400
check_grep "Epoch's own citation text on the page" "Published online at epoch.ai" "$page"
done_testing
