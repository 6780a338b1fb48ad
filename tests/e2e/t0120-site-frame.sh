#!/bin/sh
# The site's frame: publish the bundled history; the root page exists (a
# link into the published version) and says what it must; every HTML page
# but the redirects reaches the root, its language's index, the audit and
# the other language in one click; hreflang links come in pairs; a link
# checker finds no dead link in the whole publication; every kind of page
# passes xmllint --html, has a meta description and a print stylesheet,
# and loads nothing from another host; Dutch header words are nl.xlf's.
. "$(dirname "$0")/lib.sh"

P=$TMP/public
BASE=https://models.example.org/site/

bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$P" --base-url "$BASE"

# the root page
check "DIR/index.html is a symbolic link" test -L "$P/index.html"
check_eq "it leads into the published version" "$(readlink "$P/index.html")" ".modelcat/current/index.html"
check "the published version lists it in its MANIFEST" grep -q " index.html\$" "$P/.modelcat/current/MANIFEST"
# expected values from the sources: the newest snapshot's date from the
# store's file names, the language names and link words from the catalogues
python3 - "$SNAP" "$TOP/translations" "$P/index.html" >"$TMP/root" <<'EOF'
import glob, html.parser, os, re, sys
snap, xlf, root = sys.argv[1:4]
newest = max(re.sub(r"\.csv(\.gz)?$", "", os.path.basename(f))
             for f in glob.glob(os.path.join(snap, "*", "*.csv*")))
def words(lang):
    text = open(os.path.join(xlf, lang + ".xlf"), encoding="utf-8").read()
    out = {}
    for m in re.finditer(r'<trans-unit id="([^"]+)">(.*?)</trans-unit>', text, re.S):
        t = re.search(r"<target>(.*?)</target>", m.group(2), re.S) or \
            re.search(r"<source>(.*?)</source>", m.group(2), re.S)
        out[m.group(1)] = t.group(1).replace("&amp;", "&")
    return out
class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.links = []; self.href = None; self.text = ""; self.data = []
    def handle_starttag(self, tag, a):
        if tag == "a": self.href = dict(a).get("href"); self.text = ""
    def handle_data(self, d):
        self.data.append(d)
        if self.href is not None: self.text += d
    def handle_endtag(self, tag):
        if tag == "a" and self.href is not None:
            self.links.append((self.href, self.text.strip())); self.href = None
p = Links(); p.feed(open(root, encoding="utf-8").read())
text = " ".join(p.data)
for lang in ("en", "nl"):
    w = words(lang)
    print("name", lang, w["site.language"] in text)
    print("about", lang, w["site.about"].replace("'", "'") in text)
    print("index", lang, ("pages/%s/index.html" % lang, w["nav.index"]) in p.links)
    print("audit", lang, ("audit/index.html" if lang == "en" else "audit/%s/index.html" % lang, w["nav.audit"]) in p.links)
print("date", newest in text)
print("hardware", all(("pages/%s/hardware/index.html" % lang, words(lang)["nav.hardware"]) in p.links and
                      os.path.exists(os.path.join(os.path.dirname(root), "pages/%s/hardware/index.html" % lang))
                      for lang in ("en", "nl")))
EOF
for lang in en nl; do
	check_grep "the root page names the language $lang" "^name $lang True" "$TMP/root"
	check_grep "it says what the site is, in $lang" "^about $lang True" "$TMP/root"
	check_grep "it links the $lang index with the catalogue's words" "^index $lang True" "$TMP/root"
	check_grep "it links the audit with the $lang catalogue's words" "^audit $lang True" "$TMP/root"
done
check_grep "it says when it was last published (the newest snapshot's date)" "^date True" "$TMP/root"
check_grep "it links each language's hardware index, which exists" "^hardware True" "$TMP/root"

# every page of the publication, parsed
find -L "$P" -path "$P/.modelcat" -prune -o -name '*.html' -print | sort >"$TMP/pages"
python3 - "$P" "$BASE" "$TOP/translations/nl.xlf" "$TMP/pages" >"$TMP/frame" <<'EOF'
import html.parser, os, re, sys, urllib.parse
root, base, nl_xlf, listing = sys.argv[1:5]
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.lang = None; self.links = []; self.alternates = []; self.description = None
        self.refresh = False; self.loads = []; self.style = ""; self.in_style = False
        self.header = []; self.in_header = 0; self.href = None; self.text = ""
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "html": self.lang = a.get("lang")
        if tag == "div" and (self.in_header or a.get("role") == "banner"): self.in_header += 1
        if tag == "a" and "href" in a:
            self.links.append(a["href"]); self.href = a["href"]; self.text = ""
        if tag == "meta" and a.get("name") == "description": self.description = a.get("content")
        if tag == "meta" and a.get("http-equiv") == "refresh": self.refresh = True
        if tag == "link" and a.get("rel") == "alternate" and a.get("hreflang"):
            self.alternates.append((a["hreflang"], a["href"]))
        elif tag == "link" and a.get("rel") not in ("alternate", "canonical"):
            self.loads.append(a.get("href", ""))
        if "src" in a: self.loads.append(a["src"])
        if tag == "style": self.in_style = True
    def handle_endtag(self, tag):
        if tag == "style": self.in_style = False
        if tag == "div" and self.in_header: self.in_header -= 1
        if tag == "a" and self.href is not None:
            if self.in_header: self.header.append(self.text.strip())
            self.href = None
    def handle_data(self, d):
        if self.in_style: self.style += d
        if self.href is not None: self.text += d
def rel(path):
    return os.path.relpath(path, root)
def resolve(page, href):
    href = href.split("#", 1)[0]
    if href.startswith(base): return href[len(base):]
    if urllib.parse.urlsplit(href).scheme: return None
    return os.path.normpath(os.path.join(os.path.dirname(page), urllib.parse.unquote(href)))
pages = {}
for line in open(listing):
    path = rel(line.rstrip("\n"))
    p = Page(); p.feed(open(os.path.join(root, path), encoding="utf-8").read())
    pages[path] = p
framed = {k: v for k, v in pages.items() if not v.refresh}
print("pages", len(pages), "framed", len(framed), "redirects", len(pages) - len(framed))
kinds = {"model_en": 0, "model_nl": 0}
bad = {"root": [], "index": [], "audit": [], "other": [], "description": [], "print": [],
       "remote": [], "hreflang": [], "words": []}
nl_words = {}
text = open(nl_xlf, encoding="utf-8").read()
for k in ("site.name", "nav.index", "nav.hardware", "nav.audit"):
    m = re.search(r'<trans-unit id="%s">.*?<target>(.*?)</target>' % re.escape(k), text, re.S)
    nl_words[k] = m.group(1)
for path, p in framed.items():
    lang = p.lang
    other = "nl" if lang == "en" else "en"
    targets = {resolve(path, h) for h in p.links}
    if "index.html" not in targets: bad["root"].append(path)
    if "pages/%s/index.html" % lang not in targets: bad["index"].append(path)
    if ("audit/index.html" if lang == "en" else "audit/%s/index.html" % lang) not in targets: bad["audit"].append(path)
    m = re.match(r"pages/(en|nl)/(.*)$", path)
    want = "pages/%s/%s" % (other, m.group(2)) if m else "pages/%s/index.html" % other
    if want not in targets or not os.path.exists(os.path.join(root, want)): bad["other"].append(path)
    if m and not m.group(2).startswith("index.") and not m.group(2).startswith("hardware/"):
        kinds["model_" + lang] += 1
    if not (p.description or "").strip(): bad["description"].append(path)
    if "@media print" not in p.style: bad["print"].append(path)
    if any(urllib.parse.urlsplit(h).scheme not in ("", "data") for h in p.loads) or \
       re.search(r"url\(|@import", p.style): bad["remote"].append(path)
    for hl, href in p.alternates:
        target = resolve(path, href)
        q = pages.get(target)
        if not href.startswith(base) or q is None or q.lang != hl or \
           (lang, base + path) not in q.alternates:
            bad["hreflang"].append(path + " -> " + href)
    if m and lang == "nl" and p.header[:4] != [nl_words["site.name"], nl_words["nav.index"],
                                              nl_words["nav.hardware"], nl_words["nav.audit"]]:
        bad["words"].append(path)
    if m and not p.alternates: bad["hreflang"].append(path + ": none")
print("models", kinds["model_en"], kinds["model_nl"])
for k, v in bad.items():
    print("bad", k, len(v), " ".join(v[:3]))
EOF
sed 's/^/# /' "$TMP/frame"
read -r _ npages _ nframed _ nredirects <"$TMP/frame"
nindex=$(python3 -c '
import html.parser, sys
class P(html.parser.HTMLParser):
    n = 0; depth = 0   # divs open inside the table (an ARIA table of divs)
    def handle_starttag(self, tag, a):
        if tag == "div" and (self.depth or ("role", "table") in a): self.depth += 1
        if tag == "a" and self.depth: self.n += 1
    def handle_endtag(self, tag):
        if tag == "div" and self.depth: self.depth -= 1
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read()); print(p.n)' "$P/pages/en/index.all.html")
check "the table of every model lists over 2,000 models" test "$nindex" -gt 2000
check_grep "every model it lists has a framed page in each language" "^models $nindex $nindex\$" "$TMP/frame"
check "every page but the redirects is framed: model pages, 2 indexes and their tables of every model, audits, audit index, site.html, the root" \
	test "$nframed" -ge $((2 * nindex + 4 + 7 + 3))
check_grep "every page links the root page" "^bad root 0" "$TMP/frame"
check_grep "every page links its language's index" "^bad index 0" "$TMP/frame"
check_grep "every page links the audit" "^bad audit 0" "$TMP/frame"
check_grep "every page links the same page in the other language (the index where there is none)" \
	"^bad other 0" "$TMP/frame"
check_grep "every page has a meta description" "^bad description 0" "$TMP/frame"
check_grep "every page has a print stylesheet" "^bad print 0" "$TMP/frame"
check_grep "no page loads anything from another host" "^bad remote 0" "$TMP/frame"
check_grep "hreflang links are absolute and come in pairs, each to a page of that language" \
	"^bad hreflang 0" "$TMP/frame"
check_grep "Dutch pages' header words are nl.xlf's" "^bad words 0" "$TMP/frame"

# previous and next audit
first=$(cd "$P/audit" && ls [0-9]*.html | sort | head -1)
second=$(cd "$P/audit" && ls [0-9]*.html | sort | sed -n 2p)
check_grep "an audit links the next one" "rel=\"next\" href=\"$second\"" "$P/audit/$first"
check_grep "and the next the one before" "rel=\"prev\" href=\"$first\"" "$P/audit/$second"

# no dead link anywhere (the feed's too)
check "the link checker finds no dead link in the whole publication" \
	sh -c "python3 '$TOP/tests/e2e/linkcheck.py' '$P' '$BASE' \$(cat '$TMP/pages') '$P/audit/feed.atom' >'$TMP/links' 2>&1"
sed 's/^/# /' "$TMP/links" | tail -3

# xmllint on a sample of every kind of page (HTML 4's parser: the audit's
# folds, <details> and <summary>, are HTML 5 and unknown to it, and only they)
model=$(grep -m1 '/pages/en/gpt-4-[0-9a-f]*\.html$' "$TMP/pages")
redirect=$(grep -l 'http-equiv="refresh"' "$P"/pages/nl/*.html | head -1)
set -- "$P/index.html" "$P/pages/en/index.html" "$P/pages/nl/index.html" "$model" \
	"$P/pages/nl/$(basename "$model")" "$P/audit/$first" "$P/audit/$second" \
	"$P/audit/index.html" "$P/audit/site.html"
[ -z "$redirect" ] || set -- "$@" "$redirect"
check "the sample ($# pages: root, indexes, model pages, audits, audit index, site changes, a redirect) passes xmllint --html" \
	html_lint_clean "$@"

# text pages carry no frame; a page rendered on its own neither
mc render GPT-4 --format text --lang nl >"$TMP/alone.txt"
check "a published text page is the page as render prints it: no frame" \
	cmp -s "$TMP/alone.txt" "$P/pages/nl/$(basename "$model" .html).txt"
mc render GPT-4 --format html >"$TMP/alone.html"
check "a page rendered on its own has no site header (its links would lead nowhere)" \
	sh -c "! grep -q 'class=\"site\"' '$TMP/alone.html'"
check_grep "but a meta description" '<meta name="description" content="GPT-4: ' "$TMP/alone.html"

# a root page of the user's own is kept
rm "$P/index.html"
echo "mine" >"$P/index.html"
check_status "publish again with a DIR/index.html of the user's exits 0" 0 mc publish --out "$P"
check_eq "the user's index.html is kept" "$(cat "$P/index.html")" "mine"
check_grep "the log says so" "index.html is a file of yours: kept" "$TMP/err"
rm "$P/index.html"
ln -s pages/en/index.html "$P/index.html"
check_status "publish again with a DIR/index.html link of the user's exits 0" 0 mc publish --out "$P"
check_eq "the user's link is kept" "$(readlink "$P/index.html")" "pages/en/index.html"
check_grep "the log says so" "index.html is a file of yours: kept" "$TMP/err"
done_testing
