#!/bin/sh
# Downloads and citation (issue 18, point 5): publish the bundled history;
# each export's published CSV is `modelcat export` of the published date,
# byte for byte; its JSON parses and holds the same values, cell by cell;
# a model's JSON twin holds its values and is linked from its page; the
# citation blocks of the root page, an index and a model page name the
# snapshot's date and the SHA-256 of each source file (computed here from
# the store's files), with a BibTeX entry that parses: the dataset's title,
# the page's own address under --base-url (the audit index's and
# site.html's: Epoch's), its urldate the snapshot's date, and one note with
# the licence, the snapshot's date and the short hash of the files cited
# (issue 47, point 4: of one file the start of its SHA-256, of several of
# the SHA-256 of their "EXPORT SHA256" lines, computed here with hashlib);
# the Dutch words are nl.xlf's; a republish with nothing new rewrites no
# download.
#
# The store is the bundled history's single-export files (.csv.gz), copied:
# the expected values are computed from exactly those files (a bundle .zip
# added to snapshots/ later changes nothing here).
. "$(dirname "$0")/lib.sh"

S=$TMP/store
P=$TMP/public
BASE=https://models.example.org/site/
for f in "$SNAP"/*/*.csv.gz; do
	e=$(basename "$(dirname "$f")")
	mkdir -p "$S/$e" && cp "$f" "$S/$e/"
done

check_status "reingest of the bundled history exits 0" 0 mc reingest --snapshots "$S"
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$P" --base-url "$BASE"
check "DIR/downloads is a symbolic link into the published version" \
	test "$(readlink "$P/downloads")" = .modelcat/current/downloads

# expected from the store: each export's latest file, its date and the
# SHA-256 of its content (decompressed), the published date (the newest)
python3 - "$S" >"$TMP/expected" <<'EOF'
import gzip, hashlib, os, sys
store = sys.argv[1]
latest = {}
for e in sorted(os.listdir(store)):
    days = sorted(f[:-7] for f in os.listdir(os.path.join(store, e)) if f.endswith(".csv.gz"))
    if days:
        latest[e] = days[-1]
for e, d in latest.items():
    data = gzip.decompress(open(os.path.join(store, e, d + ".csv.gz"), "rb").read())
    print(e, d, hashlib.sha256(data).hexdigest())
EOF
published=$(cut -d' ' -f2 "$TMP/expected" | sort | tail -1)
check "the store has exports to publish" test -s "$TMP/expected"
(cd "$P/downloads" && ls *.csv *.json) >"$TMP/listed"
sed 's/^\([^ ]*\) \([^ ]*\) .*/\1-\2.csv\n\1-\2.json/' "$TMP/expected" | sort >"$TMP/want-listed"
check_eq "downloads/ holds EXPORT-DATE.csv and .json of each export, DATE its latest snapshot" \
	"$(sort "$TMP/listed" | tr '\n' ' ')" "$(tr '\n' ' ' <"$TMP/want-listed")"

# the CSV: modelcat export of the published date, byte for byte
same=0 total=0
while read -r e d _; do
	total=$((total + 1))
	mc export --source "$e" --as-of "$published" >"$TMP/export-$e.csv" 2>/dev/null &&
		cmp -s "$TMP/export-$e.csv" "$P/downloads/$e-$d.csv" && same=$((same + 1))
done <"$TMP/expected"
check_eq "each published CSV is 'modelcat export --as-of $published', byte for byte" "$same" "$total"

# the JSON: parses, same columns, same values cell by cell (numbers of
# number columns as JSON numbers), snapshot date and SHA-256 of the source
# (each export's column types from its family's column map, pipelines/)
python3 - "$P/downloads" "$TMP" "$TOP/pipelines" "$TMP/expected" >"$TMP/json" <<'EOF'
import csv, fnmatch, json, math, os, sys
down, tmp, pipelines, expected = sys.argv[1:5]
families = [l.rstrip("\n").split("\t") for l in open(os.path.join(pipelines, "families.tsv"))
            if l.strip() and not l.startswith("#")]
def column_types(export):
    path = families[0][1]
    for _, mapfile, patterns, *_ in families:
        if any(fnmatch.fnmatch(export, pat) for pat in patterns.split("|")):
            path = mapfile
            break
    out = {}
    for line in open(os.path.join(pipelines, path), encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            parts = line.rstrip("\n").split("\t")
            out[parts[0]] = parts[1]
    return out
for line in open(expected):
    e, d, sha = line.split()
    types = column_types(e)
    rows = list(csv.reader(open("%s/export-%s.csv" % (tmp, e), encoding="utf-8", newline="")))
    j = json.load(open("%s/%s-%s.json" % (down, e, d), encoding="utf-8"))
    bad = 0
    numbers = 0
    if j["columns"] != rows[0] or len(j["rows"]) != len(rows) - 1:
        bad += 1
    for want, got in zip(rows[1:], j["rows"]):
        if len(want) != len(got):
            bad += 1
            continue
        for col, w, g in zip(rows[0], want, got):
            if w == "":
                bad += g is not None
            elif isinstance(g, bool):
                bad += types.get(col) != "bool" or w != ("True" if g else "False")
            elif isinstance(g, (int, float)):
                numbers += 1
                bad += types.get(col) != "number" or not math.isclose(float(w), g, rel_tol=0, abs_tol=0)
            elif isinstance(g, str):
                bad += g != w or (types.get(col) == "number" and w.lstrip("-")[:1].isdigit()) \
                    or (types.get(col) == "bool" and w in ("True", "False"))
            else:
                bad += 1
    print(e, "rows", len(rows) - 1, "bad", bad, "numbers", numbers > 0,
          "snapshot", j["snapshot"] == d, "sha", j["sha256"] == sha,
          "licence", j["licence"] == "CC BY 4.0" and j["source"] == "Epoch AI")
EOF
sed 's/^/# /' "$TMP/json"
check "every JSON download parses and holds the CSV's values, cell by cell" \
	sh -c "test \"\$(grep -c ' bad 0 ' '$TMP/json')\" = $total"
check "number columns are JSON numbers" \
	sh -c "test \"\$(grep -c 'numbers True' '$TMP/json')\" = $total"
check "each names its snapshot's date, the SHA-256 of its source and the licence" \
	sh -c "test \"\$(grep -c 'snapshot True sha True licence True' '$TMP/json')\" = $total"

# GPT-4's JSON twin: linked from its pages, its values those of the CSVs
page=$(grep -l '^GPT-4$' "$P"/pages/en/*.txt | head -1)
stem=$(basename "$page" .txt)
twin=$P/downloads/models/$stem.json
check "GPT-4's page has a JSON twin" test -s "$twin"
check_grep "its HTML page links it in the head" \
	"<link rel=\"alternate\" type=\"application/json\" href=\"../../downloads/models/$stem.json\">" \
	"$P/pages/en/$stem.html"
check_grep "and visibly, with the catalogue's words" \
	"<a href=\"../../downloads/models/$stem.json\" type=\"application/json\">This page as JSON</a>" \
	"$P/pages/en/$stem.html"
nl_label=$(python3 -c 'import re,sys; print(re.search(r"<trans-unit id=\"downloads.page\">.*?<target>(.*?)</target>", open(sys.argv[1], encoding="utf-8").read(), re.S).group(1))' "$TOP/translations/nl.xlf")
check_grep "the Dutch page in Dutch (nl.xlf)" ">$nl_label</a>" "$P/pages/nl/$stem.html"
python3 - "$twin" "$TMP" "$S" "$BASE" "$stem" >"$TMP/twin" <<'EOF'
import csv, gzip, hashlib, json, os, sys
twin, tmp, store, base, stem = sys.argv[1:6]
t = json.load(open(twin, encoding="utf-8"))
print("name", t["name"] == "GPT-4")
print("url", t["url"] == base + "pages/en/%s.html" % stem,
      t["pages"].get("nl") == base + "pages/nl/%s.html" % stem)
bad = checked = 0
holding = set()
for e in os.listdir(store):
    path = "%s/export-%s.csv" % (tmp, e)
    if not os.path.exists(path):
        continue
    for row in csv.DictReader(open(path, encoding="utf-8", newline="")):
        key = row.get("Model", row.get("Hardware name"))
        if key != "GPT-4":
            continue
        holding.add(e)
        for field, src in t["sources"].items():
            if src["export"] == e:
                checked += 1
                # numbers and booleans as JSON's, the rest as text
                v = t["values"][field]
                if isinstance(v, bool):
                    bad += row.get(field) != ("True" if v else "False")
                elif isinstance(v, (int, float)):
                    bad += float(row.get(field)) != v
                else:
                    bad += row.get(field) != v
        break
print("values", checked, "bad", bad, "all", len(t["values"]) == len(t["sources"]) == checked)
print("exports", set(t["exports"]) == holding)
files = t["citation"]["files"]
ok = all(f["sha256"] == hashlib.sha256(gzip.decompress(open(
    os.path.join(store, f["export"], f["snapshot"] + ".csv.gz"), "rb").read())).hexdigest()
    for f in files)
print("citation", bool(files) and ok, t["citation"]["snapshot"] == max(f["snapshot"] for f in files))
EOF
sed 's/^/# /' "$TMP/twin"
check_grep "the twin names the model" "^name True" "$TMP/twin"
check_grep "and its pages' URLs (under --base-url)" "^url True True" "$TMP/twin"
check_grep "every value of the twin is the CSV's of its export" "^values [1-9][0-9]* bad 0 all True" "$TMP/twin"
check_grep "it lists the exports that hold the model" "^exports True" "$TMP/twin"
check_grep "it cites source files with their SHA-256 (sha256 of the store's files)" \
	"^citation True True" "$TMP/twin"

# the citation blocks: root page, index, model page
python3 - "$P" "$stem" "$TMP/expected" "$S" "$TOP/translations" "$BASE" >"$TMP/cite" <<'EOF'
import gzip, hashlib, html, os, re, sys
root, stem, expected, store, xlf, base = sys.argv[1:7]
EPOCH = "https://epoch.ai/data/ai-models"
latest = {l.split()[0]: (l.split()[1], l.split()[2]) for l in open(expected)}
newest = max(d for d, _ in latest.values())
def words(lang):
    text = open(os.path.join(xlf, lang + ".xlf"), encoding="utf-8").read()
    out = {}
    for m in re.finditer(r'<trans-unit id="([^"]+)">(.*?)</trans-unit>', text, re.S):
        t = re.search(r"<target>(.*?)</target>", m.group(2), re.S) or \
            re.search(r"<source>(.*?)</source>", m.group(2), re.S)
        out[m.group(1)] = t.group(1)
    return out
def bibtex(entry):
    """(fields, balanced) of one @misc{key, name = {value}, ...} entry."""
    depth = 0
    for i, c in enumerate(entry):
        if c == "\\":
            continue
        if c == "{" and (i == 0 or entry[i - 1] != "\\"):
            depth += 1
        elif c == "}" and entry[i - 1] != "\\":
            depth -= 1
            if depth < 0:
                return {}, False
    fields = dict(re.findall(r"^\s*(\w+) = \{(.*)\},?$", entry, re.M))
    return fields, depth == 0 and entry.startswith("@misc{")
def block(path):
    page = open(path, encoding="utf-8").read()
    m = re.search(r'<div class="cite">(.*?)</div>', page, re.S)
    return page, m.group(1) if m else ""
def short_hash(listed):
    """12 hex digits: of one file, its SHA-256's; of several, the SHA-256's
    of their "EXPORT SHA256" lines, in the order the sources list gives."""
    if len(listed) == 1:
        return listed[0][2][:12]
    lines = "".join("%s %s\n" % (html.unescape(e), s) for e, _, s in listed)
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()[:12]
def check(name, path, url, lang, want_files):
    page, b = block(path)
    w = words(lang)
    listed = re.findall(r"<li>([^<,]+), (\d{4}-\d\d-\d\d): <code>([0-9a-f]{64})</code></li>", b)
    sha_ok = all(s == hashlib.sha256(gzip.decompress(open(os.path.join(
        store, e, d + ".csv.gz"), "rb").read())).hexdigest() for e, d, s in listed)
    day = max(d for _, d, _ in listed) if listed else ""
    bib = html.unescape(re.search(r'<pre class="bibtex">(.*?)</pre>', b, re.S).group(1))
    fields, balanced = bibtex(bib)
    required = all(k in fields for k in ("title", "author", "year", "url", "note", "urldate"))
    print(name, "files", (want_files is None and bool(listed)) or
          set((e, d, s) for e, d, s in listed) == want_files, "sha", sha_ok,
          "date", w["cite.snapshot"].replace('<x id="date"/>', day) in html.unescape(b),
          "licence", 'href="https://creativecommons.org/licenses/by/4.0/"' in b and
          html.unescape(w["cite.data"]) in html.unescape(b),
          "heading", html.unescape(w["cite.heading"]) in html.unescape(b),
          "bibtex", balanced and required, fields.get("urldate") == day,
          fields.get("year") == day[:4], fields.get("author") == "{Epoch AI}",
          bool(listed) and fields.get("note") ==
          "CC BY 4.0. Snapshot of %s, SHA-256 %s" % (day, short_hash(listed)),
          fields.get("title") == "{Data on AI Models}", fields.get("url") == url)
every = set((e, d, s) for e, (d, s) in latest.items())
def at(page, url=None):   # (the file, its address: the page's own, or url)
    return os.path.join(root, page), url or base + page
check("root_en", *at("index.html"), lang="en", want_files=every)
check("index_en", *at("pages/en/index.html"), lang="en", want_files=every)
check("index_nl", *at("pages/nl/index.html"), lang="nl", want_files=every)
check("model_en", *at("pages/en/%s.html" % stem), lang="en", want_files=None)
check("model_nl", *at("pages/nl/%s.html" % stem), lang="nl", want_files=None)
check("charts_en", *at("pages/en/index.charts.html"), lang="en", want_files=every)
check("charts_nl", *at("pages/nl/index.charts.html"), lang="nl", want_files=every)
# the newest audit cites the data as it stood on its day: every latest file
check("audit", *at("audit/%s.html" % newest), lang="en", want_files=every)
check("audits", *at("audit/index.html", EPOCH), lang="en", want_files=every)
check("site_changes", *at("audit/site.html", EPOCH), lang="en", want_files=every)
# the Dutch part of the root page has its own block, in Dutch
page = open(os.path.join(root, "index.html"), encoding="utf-8").read()
part = page[page.find('<div class="language" lang="nl">'):]
print("root_nl", html.unescape(words("nl")["cite.heading"]) in html.unescape(part),
      html.unescape(words("nl")["downloads.label"]) in html.unescape(part))
print("newest", newest)
EOF
sed 's/^/# /' "$TMP/cite"
for p in root_en index_en index_nl model_en model_nl charts_en charts_nl audit audits site_changes; do
	check_grep "$p: the citation lists the source files with their SHA-256" \
		"^$p files True sha True " "$TMP/cite"
	check_grep "$p: it names the snapshot's date, the credit and the licence (link)" \
		"^$p .* date True licence True heading True " "$TMP/cite"
	check_grep "$p: its BibTeX entry parses, urldate and year the snapshot's, author Epoch AI, one note with the licence, the date and the files' short hash, the dataset's title, the page's url" \
		"^$p .* bibtex True True True True True True True\$" "$TMP/cite"
done
check_grep "the root page's Dutch part: citation and downloads in nl.xlf's words" "^root_nl True True" \
	"$TMP/cite"
check_grep "the root and index cite the newest snapshot ($published)" "^newest $published\$" "$TMP/cite"

# the downloads listed with their sizes on the root page and the indexes
python3 - "$P" >"$TMP/sizes" <<'EOF'
import os, re, sys
root = sys.argv[1]
files = sorted(f for f in os.listdir(os.path.join(root, "downloads")) if f.endswith((".csv", ".json")))
unit = {"KB": 1e3, "MB": 1e6, "GB": 1e9}
for page, prefix in (("index.html", ""), ("pages/en/index.html", "../../"), ("pages/nl/index.html", "../../")):
    text = open(os.path.join(root, page), encoding="utf-8").read()
    good = 0
    for f in files:
        m = re.search(r'<a href="%sdownloads/%s"[^>]*>[A-Z]+</a> ([0-9.,]+) (KB|MB|GB)' %
                      (re.escape(prefix), re.escape(f)), text)
        size = os.path.getsize(os.path.join(root, "downloads", f))
        # (a Dutch page groups with '.' and writes decimals after ',')
        figure = m and (m.group(1).replace(".", "").replace(",", ".") if "/nl/" in page
                        else m.group(1).replace(",", ""))
        good += bool(m) and abs(float(figure) * unit[m.group(2)] - size) <= 0.06 * size
    print(page, good, len(files))
EOF
sed 's/^/# /' "$TMP/sizes"
check "the root page and both indexes list every download with its size" \
	sh -c "test \"\$(awk '\$2 == \$3 && \$3 > 0' '$TMP/sizes' | wc -l)\" = 3"

# a name with TeX's special characters cannot break the BibTeX: the
# title is the dataset's now, so the name reaches the entry only through
# the page's file name (key and url), which keeps [a-z0-9-]; the entry
# parses (braces balanced) and the name's own characters are not in it
special=$(grep -l '^\$\\infty\$-former (SM)$' "$P"/pages/en/*.txt | head -1)
if [ -n "$special" ]; then
	sstem=$(basename "${special%.txt}")
	check "a name with \$ and \\ leaves the BibTeX whole: key and url from its file name, no TeX of its own" \
		python3 - "${special%.txt}.html" "$sstem" "$BASE" <<'PY'
import html, re, sys
path, stem, base = sys.argv[1:4]
page = open(path, encoding="utf-8").read()
bib = html.unescape(re.search(r'<pre class="bibtex">(.*?)</pre>', page, re.S).group(1))
depth, low = 0, 0
for c in bib:
    depth += {"{": 1, "}": -1}.get(c, 0)
    low = min(low, depth)
sys.exit(not (re.fullmatch(r"[a-z0-9-]+", stem) and depth == 0 and low == 0 and
              bib.startswith("@misc{epochai:%s,\n" % stem) and
              "  url = {%spages/en/%s.html},\n" % (base, stem) in bib and
              "  title = {{Data on AI Models}},\n" in bib and
              "-former (SM)" not in bib and "$" not in bib and "\\" not in bib))
PY
else
	skip "a name with \$ and \\ leaves the BibTeX whole: key and url from its file name, no TeX of its own" \
		"no such model in this history"
fi

# publish again, nothing new: no download written again (same inodes)
(cd "$P/downloads/" && find . -type f -exec stat -c '%i %n' {} + | sort -k2) >"$TMP/inodes.before"
check_status "publish again exits 0" 0 mc publish --out "$P" --base-url "$BASE"
(cd "$P/downloads/" && find . -type f -exec stat -c '%i %n' {} + | sort -k2) >"$TMP/inodes.after"
check "republishing with nothing new rewrites no download (every file the same inode)" \
	cmp -s "$TMP/inodes.before" "$TMP/inodes.after"
check_eq "and the MANIFEST lists every download with its SHA-256" \
	"$(cd "$P/.modelcat/current" && grep '  downloads/' MANIFEST | sha256sum -c --quiet 2>&1 | wc -l) $(grep -c '  downloads/' "$P/.modelcat/current/MANIFEST")" \
	"0 $(wc -l <"$TMP/inodes.after")"

# the seed model's text pages are untouched: no citation in text pages
check "text pages carry no citation block (HTML only)" \
	sh -c "! grep -q 'BibTeX\\|SHA-256' '$page'"
done_testing
