#!/bin/sh
# Model pages sized for reading (issue 47, point 1) and History in Dutch
# (point 2). On the site of the bundled history: every model page of both
# languages is at most 300 KB of HTML and 3,000 elements (start tags, by
# Python's html.parser). History is folded after its latest entries
# (docs/pages.md, "History"): for a few models with a long life, the dates
# in view are the latest three of those on which `modelcat history
# --format json` records something (a version, a column removed), the
# folded ones every earlier date, nothing lost or repeated; each field
# that JSON records as changed on a date has an entry on that date; the
# fold's summary counts the entries it holds. A Dutch History entry of a
# known change (Llama 3-70B's "Last modified" of 2025-11-01, old and new
# dates read from all_ai_models's CSVs) names its field in Dutch, the name
# nl.xlf gives field.last_modified, and writes both dates in Dutch.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"
SITE=$TMP/site/.modelcat/current

if python3 "$TOP/tests/e2e/page_sizes.py" "$SITE" 1 'pages/*/*.html' index >"$TMP/sizes.out"; then
	ok "all $(head -1 "$TMP/sizes.out") model pages (both languages) are at most 300 KB and 3,000 elements"
else
	not_ok "model pages over 300 KB or 3,000 elements"
	sed 's/^/#   /' "$TMP/sizes.out"
fi

cat >"$TMP/fold.py" <<'PY'
import glob, html, json, os, re, sys
site, lang, name, ref = sys.argv[1:5]
ref = json.load(open(ref, encoding="utf-8"))
dates, fields = set(), {}
for r in ref["records"]:
    for v in r["versions"]:
        dates.add(v["valid_from"])
        for f in v.get("fields", []):
            if f["field"] != "Model":
                fields.setdefault(v["valid_from"], set()).add(f["field"])
        for c in v.get("columns_removed", []):
            dates.add(c["date"])
            fields.setdefault(c["date"], set()).add(c["field"])
dates = sorted(dates)
page = None
for f in glob.glob(os.path.join(site, "pages", lang, "*.html")):
    p = open(f, encoding="utf-8").read()
    m = re.search(r"<h1>(.*?)</h1>", p, re.S)
    if m and html.unescape(m.group(1)) == name and '<div class="history">' in p:
        page = p
sec = re.search(r'<div class="history">(.*?)</div>', page, re.S).group(1)
dls = re.findall(r'<dl class="history">(.*?)</dl>', sec, re.S)
def parse(dl):
    return [(d, re.findall(r'<li(?: data-field="([^"]*)")?>', dd)) for d, dd in
            re.findall(r'<dt><a href="[^"]*?(\d{4}-\d\d-\d\d)\.html">.*?</dt><dd>(.*?)</dd>', dl, re.S)]
shown = parse(dls[0])
folded = parse(dls[1]) if len(dls) > 1 else []
summary = re.search(r'<details class="history-earlier"><summary>(.*?)</summary>\s*<dl', sec, re.S)
count = re.search(r"\((\d+)\)", html.unescape(summary.group(1))) if summary else None
entries = sum(len(lis) for d, lis in folded)
print("dates", len(dates) > 3 and [d for d, _ in shown] == dates[-3:] and [d for d, _ in folded] == dates[:-3])
print("fields", all(fields.get(d, set()) <= {html.unescape(x) for x in lis if x} for d, lis in shown + folded))
print("summary", bool(count) and int(count.group(1)) == entries > 0)
print("closed", len(dls) == 2 and "<details open" not in sec)
PY
for name in "Llama 3-70B" "GPT-4" "BLOOM-176B"; do
	mc history "$name" --format json >"$TMP/ref.json"
	for lang in en nl; do
		python3 "$TMP/fold.py" "$SITE" "$lang" "$name" "$TMP/ref.json" >"$TMP/fold" 2>&1
		check_grep "$name ($lang): the latest three dates in view, every earlier one folded" '^dates True$' "$TMP/fold"
		check_grep "$name ($lang): each field the history records as changed has an entry on its date" '^fields True$' "$TMP/fold"
		check_grep "$name ($lang): the fold's summary counts the entries it holds" '^summary True$' "$TMP/fold"
		check_grep "$name ($lang): one list in view, one folded (closed)" '^closed True$' "$TMP/fold"
	done
done

# Llama 3-70B's "Last modified" on 2025-11-01: old and new from the CSVs
# (all_ai_models's file before that day, the bundle's; the column is not in
# the notable files before the bundle), the Dutch name from
# nl.xlf, the dates in Dutch month names written here
cat >"$TMP/lastmod.py" <<'PY'
import csv, glob, gzip, html, io, os, re, sys, zipfile
import xml.etree.ElementTree as ET
snap, site, xlf = sys.argv[1:4]
def value(text):
    for r in csv.DictReader(io.StringIO(text, newline="")):
        if (r.get("Model") or r.get("System") or "").strip() == "Llama 3-70B":
            return (r.get("Last modified") or "").strip()
old_f = sorted(glob.glob(os.path.join(snap, "all_ai_models", "*.csv.gz")))[-1]
old = value(gzip.open(old_f, "rt", encoding="utf-8").read())
new = value(zipfile.ZipFile(os.path.join(snap, "ai_models", "2025-11-01.zip"))
            .read("all_ai_models.csv").decode("utf-8"))
ns = "{urn:oasis:names:tc:xliff:document:1.2}"
label = next("".join(u.find(ns + "target").itertext()) for u in ET.parse(xlf).getroot().iter(ns + "trans-unit")
             if u.get("id") == "field.last_modified")
months = ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus",
          "september", "oktober", "november", "december"]
def nl(d):
    y, m, day = d[:10].split("-")
    return "%d %s %s" % (int(day), months[int(m) - 1], y)
page = next(p for p in (open(f, encoding="utf-8").read()
                        for f in glob.glob(os.path.join(site, "pages", "nl", "llama-3-70b-*.html")))
            if "<h1>Llama 3-70B</h1>" in p)
day = re.search(r'2025-11-01\.html">.*?</dt><dd>(.*?)</dd>', page, re.S).group(1)
entry = re.search(r'<li data-field="Last modified">(.*?)</li>', day, re.S)
want = "%s: %s \u2192 %s" % (label, nl(old), nl(new))
print("entry", bool(old and new and old != new and entry) and html.unescape(entry.group(1)) == want,
      label != "Last modified", want)
PY
python3 "$TMP/lastmod.py" "$SNAP" "$SITE" "$TOP/translations/nl.xlf" >"$TMP/lastmod" 2>&1
check_grep "Llama 3-70B's Dutch History names 'Last modified' in Dutch, its dates in Dutch" '^entry True True ' "$TMP/lastmod"
sed 's/^/#   /' "$TMP/lastmod"
done_testing
