#!/bin/sh
# The pages of a full publication of the bundled history that t0148 (model
# pages) and t0152/t0155 (audits) do not read: the hardware pages with
# their complete lists, the indexes, the charts' page, the changes pages
# and the root page (issue 47's acceptance: "the Dutch pages contain no
# English month name, no Yes/No as a field value, no number with an
# English thousands separator; no ',X' list join without a space and no
# 'sOTA' on any page"). Scanned: every text node outside <script> and
# <style>. On the Dutch pages (pages/nl/): no English month name, no
# "Yes" or "No" as a whole text, no number grouped the English way (a
# digit, ",", three digits, no further digit: "12,288"). On every page: no
# lower-case letter, ",", capital ("ByteDance,Peking") and no "sOTA".
# The same scan, run as if the English pages were Dutch, must find
# English months and groupings there: it reads the pages' text.
. "$(dirname "$0")/lib.sh"

export MODELCAT_DB="$TMP/full.db"
bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"

cat >"$TMP/scan.py" <<'PY'
import glob, os, re, sys
from html.parser import HTMLParser
site, as_dutch = sys.argv[1], sys.argv[2]
months = re.compile(r"\b(January|February|March|April|May|June|July|August|September|"
                    r"October|November|December)\b")
checks = [("month", months, True), ("group", re.compile(r"\d,\d{3}(?!\d)"), True),
          ("yesno", re.compile(r"^(Yes|No)$"), True),
          ("join", re.compile(r"[a-z],[A-Z]"), False), ("sota", re.compile(r"sOTA"), False)]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
class Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.texts = [], []
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)
    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass
    def handle_data(self, data):
        if data.strip() and "script" not in self.stack and "style" not in self.stack:
            self.texts.append(data.strip())
def read_by_others(rel):
    # model pages (t0148) and audits (t0152, t0155)
    if rel.startswith("audit/"):
        return True
    parts = rel.split("/")
    return len(parts) == 3 and parts[0] == "pages" and not parts[2].startswith(("index", "changes"))
count = {"en": 0, "nl": 0}
hits = {name: [] for name, _, _ in checks}
for path in sorted(glob.glob(os.path.join(site, "**", "*.html"), recursive=True)):
    rel = os.path.relpath(path, site)
    if rel.startswith(".modelcat") or read_by_others(rel):
        continue
    lang = rel.split("/")[1] if rel.startswith("pages/") else "root"
    if lang in count:
        count[lang] += 1
    dutch = lang == as_dutch
    page = Text()
    page.feed(open(path, encoding="utf-8").read())
    for text in page.texts:
        for name, rx, only_dutch in checks:
            if (dutch or not only_dutch) and rx.search(text):
                hits[name].append("%s: %s" % (rel, text[:80]))
print("pages_en", count["en"])
print("pages_nl", count["nl"])
for name, found in hits.items():
    print(name, len(found))
    for h in found[:5]:
        print("#   " + h)
PY
python3 "$TMP/scan.py" "$TMP/site/.modelcat/current" nl >"$TMP/scan" 2>&1
python3 "$TMP/scan.py" "$TMP/site/.modelcat/current" en >"$TMP/control" 2>&1
grep '^#' "$TMP/scan"
n_en=$(sed -n 's/^pages_en //p' "$TMP/scan")
n_nl=$(sed -n 's/^pages_nl //p' "$TMP/scan")
cards=$(find "$TMP/site/.modelcat/current/pages/nl/hardware" -name '*.html' | wc -l | tr -d ' ')
check "the scan read the Dutch hardware pages and indexes ($n_nl pages, $cards of them hardware)" \
	test "${n_nl:-0}" -gt "$cards" -a "$cards" -gt 100
check_eq "as many English pages as Dutch" "$n_en" "$n_nl"
check_eq "no English month name on a Dutch page" "$(sed -n 's/^month //p' "$TMP/scan")" 0
check_eq "no number grouped the English way on a Dutch page" "$(sed -n 's/^group //p' "$TMP/scan")" 0
check_eq "no Yes or No as a value on a Dutch page" "$(sed -n 's/^yesno //p' "$TMP/scan")" 0
check_eq "no list joined without a space, on any page" "$(sed -n 's/^join //p' "$TMP/scan")" 0
check_eq "no sOTA on any page" "$(sed -n 's/^sota //p' "$TMP/scan")" 0
check "control: read as Dutch, the English pages show English months" \
	test "$(sed -n 's/^month //p' "$TMP/control")" -gt 100
check "control: and English groupings" \
	test "$(sed -n 's/^group //p' "$TMP/control")" -gt 100
done_testing
