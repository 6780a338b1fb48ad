#!/bin/sh
# History on model pages (docs/pages.md, "History"). On a catalogue of the
# notable_ai_models snapshots alone (copied into a store of its own, so
# that other exports cannot change the expected values): GPT-4's page
# tells its 2024-07-16 citation change and its 2025-05-06 domain change,
# old and new values read from the CSVs of those dates and of the snapshot
# before each; GPT-1's page tells its rename from GPT on the snapshot
# that made it; a model with one version shows its addition alone, and
# its text page no History; the Dutch page's History is nl.xlf's. Then a
# full publication of the bundled history: every date link of every
# History section resolves to an audit page of that date.
. "$(dirname "$0")/lib.sh"

mkdir -p "$TMP/store/notable_ai_models"
cp "$SNAP"/notable_ai_models/*.csv.gz "$TMP/store/notable_ai_models/"
check_status "reingest of the notable snapshots exits 0" 0 mc reingest --snapshots "$TMP/store"
check_status "translate exits 0" 0 mc translate

# the one-version model: in the newest notable file, in no older one, and
# no older row shares its link (it is no rename either)
python3 - "$TMP/store/notable_ai_models" >"$TMP/single" <<'EOF'
import csv, glob, gzip, os, sys
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.csv.gz")))
def rows(path):
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))
def name(r):
    return (r.get("Model") or r.get("System") or "").strip()
older, links = set(), set()
for path in files[:-1]:
    for r in rows(path):
        older.add(name(r)); links.add((r.get("Link") or "").strip())
newest = [r for r in rows(files[-1]) if name(r) and name(r) not in older
          and (r.get("Link") or "").strip() not in links and "#" not in name(r)]
counts = {}
for r in rows(files[-1]):
    counts[name(r)] = counts.get(name(r), 0) + 1
newest = [r for r in newest if counts[name(r)] == 1]
print(sorted(name(r) for r in newest)[0])
EOF
SINGLE=$(cat "$TMP/single")
check "a model new in the newest snapshot is found" test -n "$SINGLE"

for lang in en nl; do
	mc render GPT-4 --format html --lang $lang >"$TMP/gpt4.$lang.html"
	mc render GPT-4 --lang $lang >"$TMP/gpt4.$lang.txt"
done
check_status "render GPT-1 exits 0" 0 mc render GPT-1 --format html
cp "$TMP/out" "$TMP/gpt1.html"
check_status "render of the one-version model exits 0" 0 mc render "$SINGLE" --format html
cp "$TMP/out" "$TMP/single.html"
mc render "$SINGLE" >"$TMP/single.txt"

python3 - "$TMP/store/notable_ai_models" "$TOP/translations" "$TMP" >"$TMP/checks" <<'EOF'
import csv, glob, gzip, html, os, re, sys
store, xlf, tmp = sys.argv[1:4]
files = sorted(glob.glob(os.path.join(store, "*.csv.gz")))
dates = [os.path.basename(f)[:10] for f in files]
def rows(path):
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))
def name(r):
    return (r.get("Model") or r.get("System") or "").strip()
def row(date, model):
    return next(r for r in rows(files[dates.index(date)]) if name(r) == model)
def before(date):
    return dates[dates.index(date) - 1]
def words(lang):
    text = open(os.path.join(xlf, lang + ".xlf"), encoding="utf-8").read()
    out = {}
    for m in re.finditer(r'<trans-unit id="([^"]+)">(.*?)</trans-unit>', text, re.S):
        t = re.search(r"<target>(.*?)</target>", m.group(2), re.S) or \
            re.search(r"<source>(.*?)</source>", m.group(2), re.S)
        out[m.group(1)] = html.unescape(t.group(1))
    return out
def fill(template, **values):
    # an optional group is left out when a placeholder in it has no value
    template = re.sub(r'<g id="[^"]*" ctype="x-optional">(.*?)</g>',
                      lambda m: m.group(1) if all(k in values for k in re.findall(
                          r'<x id="([a-z_]+)"/>', m.group(1))) else "", template)
    return re.sub(r'<x id="([a-z_]+)"/>', lambda m: values[m.group(1)], template)
def day(w, iso):
    y, m, d = iso.split("-")
    return fill(w["value.date.day"], day=str(int(d)), month_name=w["value.month." + m], year=y)
def history(path):
    """The History section of an HTML page: [(date shown, href, [items])]."""
    page = open(path, encoding="utf-8").read()
    m = re.search(r'<div class="history">\s*<h2>(.*?)</h2>(.*?)</div>', page, re.S)
    if not m:
        return None, []
    # the latest dates' list, then the earlier dates' (folded): oldest first
    dls = re.findall(r'<dl class="history">(.*?)</dl>', m.group(2), re.S)
    out = []
    for dt, dd in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", "".join(dls[1:] + dls[:1]), re.S):
        href = re.search(r'href="([^"]+)"', dt)
        items = [html.unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li[^>]*>(.*?)</li>", dd, re.S)]
        out.append((html.unescape(re.sub(r"<[^>]+>", "", dt)), href and href.group(1), items))
    return html.unescape(m.group(1)), out
def number(text, lang="en"):
    # grouped by threes: ',' in English, '.' in Dutch (docs/pages.md)
    x = float(text)
    out = "{:,}".format(int(x)) if x == int(x) else str(x)
    return out.replace(",", ".") if lang == "nl" else out
def items_of(sections, shown):
    return next((items for d, _, items in sections if d == shown), [])

for lang in ("en", "nl"):
    w = words(lang)
    heading, sections = history(os.path.join(tmp, "gpt4.%s.html" % lang))
    print("heading", lang, heading == w["history.heading"])
    print("added", lang, bool(sections) and sections[0][0] == day(w, dates[0])
          and sections[0][2][:1] == [w["history.added"]])
    # 2024-07-16: the citation count, from the snapshot before it
    old, new = row(before("2024-07-16"), "GPT-4")["Citations"], row("2024-07-16", "GPT-4")["Citations"]
    line = fill(w["history.changed"], field=w["label.citations"], old=number(old, lang),
                new=number(new, lang))
    print("citations", lang, old != new and line in items_of(sections, day(w, "2024-07-16")))
    # 2025-05-06: the domain list, as the page writes lists (items joined with ", ")
    def domain(date):
        seen = []
        for item in row(date, "GPT-4")["Domain"].split(","):
            if item.strip() and item.strip() not in seen:
                seen.append(item.strip())
        return ", ".join(seen)
    old, new = domain(before("2025-05-06")), domain("2025-05-06")
    line = fill(w["history.changed"], field=w["label.domain"], old=old, new=new)
    print("domain", lang, old != new and line in items_of(sections, day(w, "2025-05-06")))
    print("no links", lang, all(href is None for _, href, _ in sections))
    text = open(os.path.join(tmp, "gpt4.%s.txt" % lang), encoding="utf-8").read().split("\n")
    print("text", lang, w["history.heading"] in text and "- " + line in text)
# no English sentence in the Dutch section
en, nl = words("en"), words("nl")
_, sections = history(os.path.join(tmp, "gpt4.nl.html"))
english = [en[k] for k in en if k.startswith("history.") and k != "history.changed" and en[k] != nl[k]]
print("dutch", all(e.split("<x")[0] not in item for _, _, items in sections for item in items
                   for e in english if e.split("<x")[0]))

# GPT-1: renamed from GPT on the first snapshot holding GPT-1
first = next(d for d in dates if any(name(r) == "GPT-1" for r in rows(files[dates.index(d)])))
prev = rows(files[dates.index(before(first))])
gpt = next((r for r in prev if name(r) == "GPT"), None)
now = row(first, "GPT-1")
print("rename source", gpt is not None and not any(name(r) == "GPT-1" for r in prev)
      and gpt["Link"] == now["Link"] and gpt["Publication date"] == now["Publication date"])
_, sections = history(os.path.join(tmp, "gpt1.html"))
print("renamed", fill(en["history.renamed"], old="GPT", new="GPT-1") in items_of(sections, day(en, first)))

# the one-version model: its addition on the newest date, alone
_, sections = history(os.path.join(tmp, "single.html"))
print("single", [(d, items) for d, _, items in sections] == [(day(en, dates[-1]), [en["history.added"]])])
text = open(os.path.join(tmp, "single.txt"), encoding="utf-8").read().split("\n")
print("single text", en["history.heading"] not in text and en["history.added"] not in text)
EOF
for lang in en nl; do
	check_grep "GPT-4's page ($lang) has a History section in its language" "^heading $lang True" "$TMP/checks"
	check_grep "it starts with the addition on the first snapshot ($lang)" "^added $lang True" "$TMP/checks"
	check_grep "the 2024-07-16 citation change, old and new values from the CSVs ($lang)" \
		"^citations $lang True" "$TMP/checks"
	check_grep "the 2025-05-06 domain change, old and new values from the CSVs ($lang)" \
		"^domain $lang True" "$TMP/checks"
	check_grep "a page on its own links no date ($lang)" "^no links $lang True" "$TMP/checks"
	check_grep "the text page of a changed model has the History too ($lang)" "^text $lang True" "$TMP/checks"
done
check_grep "the Dutch History has no English sentence" "^dutch True" "$TMP/checks"
check_grep "GPT became GPT-1 in the CSVs (same link and date)" "^rename source True" "$TMP/checks"
check_grep "GPT-1's page lists its former name, with the date" "^renamed True" "$TMP/checks"
check_grep "a model with one version shows only its addition" "^single True" "$TMP/checks"
check_grep "and its text page has no History" "^single text True" "$TMP/checks"

# a full publication: every History date links to that date's audit page
export MODELCAT_DB="$TMP/full.db"
bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"
python3 - "$TMP/site/.modelcat/current" >"$TMP/links" <<'EOF'
import glob, os, re, sys
root = sys.argv[1]
links = dead = wrong = 0
for page in glob.glob(os.path.join(root, "pages", "*", "*.html")):
    text = open(page, encoding="utf-8").read()
    m = "".join(re.findall(r'<dl class="history">(.*?)</dl>', text, re.S))
    if not m:
        continue
    for href in re.findall(r'<dt><a href="([^"]+)">', m):
        links += 1
        if not os.path.isfile(os.path.normpath(os.path.join(os.path.dirname(page), href))):
            dead += 1
        if not re.match(r"\.\./\.\./audit/\d{4}-\d\d-\d\d\.html$", href):
            wrong += 1
print("links", links > 0)
print("dead", dead)
print("wrong", wrong)
EOF
# GPT-4 on 2025-11-01: a Citations change logged by more than one export,
# each from its own value before, names its export (a change two exports
# logged alike is told once, naming one of them); values from the CSVs
python3 - "$SNAP" "$TMP/site/.modelcat/current" "$TOP/tests/e2e" >"$TMP/named" <<'EOF'
import csv, glob, html, io, re, sys
snap, root, lib = sys.argv[1:4]
sys.path.insert(0, lib)
import storeref
DAY = "2025-11-01"
def citations(f):
    for r in csv.DictReader(io.StringIO(storeref.text(f), newline="")):
        if (r.get("Model") or r.get("System") or "").strip() == "GPT-4":
            return r.get("Citations", "").strip()
    return None
def number(x):
    return "{:,}".format(int(float(x)))
fs = storeref.files(snap)
want = {}
for f in fs:
    if f[0] != DAY:
        continue
    prev = [g for g in fs if g[1] == f[1] and g[0] < DAY and citations(g)]
    old, new = (citations(prev[-1]) if prev else None), citations(f)
    if old and new and float(old) != float(new):
        want.setdefault((number(old), number(new)), []).append(f[1])
page = open(glob.glob(root + "/pages/en/gpt-4-*.html")[0], encoding="utf-8").read()
dl = "".join(re.findall(r'<dl class="history">(.*?)</dl>', page, re.S))
day = re.search(r'<dt><a href="[^"]*%s\.html">.*?</dt><dd>(.*?)</dd>' % DAY, dl, re.S).group(1)
# (one entry per field per date: the exports' sentences joined by "; ")
shown = [part for i in re.findall(r'<li data-field="Citations">(Citations: .*?)</li>', day)
         for part in html.unescape(i).split("; ")]
told = [re.fullmatch(r"Citations: (\S+) \u2192 (\S+) \(in (\w+)\)", i) for i in shown]
ok = len(want) > 1 and all(told) and len(told) == len(want) and \
    {(m.group(1), m.group(2)) for m in told} == set(want) and \
    all(m.group(3) in want[(m.group(1), m.group(2))] for m in told)
print("named", ok, shown, want)
EOF
check_grep "a change two exports logged from different values names each export (GPT-4, 2025-11-01)" \
	"^named True" "$TMP/named"
check_grep "History sections link their dates" "^links True" "$TMP/links"
check_grep "every History date link resolves" "^dead 0$" "$TMP/links"
check_grep "each leads to an audit page of a date" "^wrong 0$" "$TMP/links"
done_testing
