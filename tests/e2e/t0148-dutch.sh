#!/bin/sh
# The model pages of a full publication of the bundled history, read as a
# reader reads them (issue 47): the Dutch pages are Dutch, and no page of
# either language carries the seed pages' slips.
#
# What is scanned, per model page (LANG/STEM.html, not the indexes, the
# hardware pages or the audits): the values of the label/value pairs
# (<dd>) and the History entries (<li data-field>), less the fields whose
# values are the source's own free text (type text or key in
# pipelines/columns.tsv: notes, authors, references, names; Authors,
# Reference and Data centre among the pairs), and the page's sentences
# (every <p> and <h4> but the notes, <p class="note">, which are the
# source's text; a sentence that quotes a note, as the parameters answer
# does, is scanned for ".." without it). On the Dutch pages: no English month name, no "Yes" or
# "No" as a whole value, no number with an English thousands separator
# (a digit, ",", three digits, then no further digit: "12,288"; URLs are
# attributes, not text, so never scanned), no English duration or
# weights words (hours, days, Closed, licence) in a pair's value or a
# History entry's, and no History entry naming its field by the export's
# English column name (the data-field hook), unless nl.xlf gives that
# very name as the Dutch one (its target equal to its source: "Link",
# "Parameters"). On every page: no list joined
# without a space (a lower-case letter, ",", a capital: "ByteDance,Peking"),
# no "sOTA", no ".." that is not part of an ellipsis (the model's own
# name, "LLama 3..2 Typhoon 2 1B" as the source spells it, left aside).
. "$(dirname "$0")/lib.sh"

export MODELCAT_DB="$TMP/full.db"
bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"
python3 - "$TMP/site/.modelcat/current" "$TOP/pipelines/columns.tsv" "$TOP/translations/nl.xlf" >"$TMP/scan" <<'PYEOF'
import glob, html, os, re, sys
import xml.etree.ElementTree as ET
root, columns, nl_xlf = sys.argv[1:4]
ns = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
kept = set()
for unit in ET.parse(nl_xlf).getroot().iter("{%s}trans-unit" % ns["x"]):
    src, tgt = unit.find("x:source", ns), unit.find("x:target", ns)
    if src is not None and tgt is not None and "".join(src.itertext()) == "".join(tgt.itertext()):
        kept.add("".join(src.itertext()))
free = set()
for line in open(columns, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    if len(f) > 1 and f[1] in ("text", "key"):
        free.add(f[0])
free_labels = {"Authors", "Reference", "Data centre", "Auteurs", "Referentie", "Datacenter"}
months = re.compile(r"\b(January|February|March|April|May|June|July|August|September|"
                    r"October|November|December)\b")
grouped_en = re.compile(r"\d,\d{3}(?!\d)")
joined = re.compile(r"[a-z],[A-Z]")
double_stop = re.compile(r"(?<!\.)\.\.(?!\.)")
def text(s):
    return html.unescape(re.sub(r"<[^>]+>", "", s))
counts = {k: 0 for k in ("pages_nl", "pages_en", "values_nl", "sentences", "english_month_nl",
                         "yes_no_nl", "english_group_nl", "english_words_nl", "english_field_nl",
                         "history_nl", "join_no_space", "sota", "double_stop")}
for lang in ("en", "nl"):
    for path in sorted(glob.glob(os.path.join(root, "pages", lang, "*.html"))):
        if os.path.basename(path).startswith("index"):
            continue
        page = open(path, encoding="utf-8").read()
        if '<div class="spec">' not in page:
            continue
        counts["pages_" + lang] += 1
        name = text(re.search(r"<h1>(.*?)</h1>", page, re.S).group(1))
        values = [text(v) for dt, v in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page, re.S)
                  if text(dt) not in free_labels and "<li" not in v]
        for field, entry in re.findall(r'<li data-field="([^"]*)"[^>]*>(.*?)</li>', page, re.S):
            field = html.unescape(field)
            label = text(entry).split(": ", 1)[0]
            if lang == "nl":
                counts["history_nl"] += 1
                if label == field and field not in kept:
                    counts["english_field_nl"] += 1
                    print("# field %s: %s" % (os.path.relpath(path, root), label))
            if field not in free:
                values.append(text(entry))
        sentences = [text(p) for cls, p in re.findall(r"<(?:p|h4)( class=\"[^\"]*\")?>(.*?)</(?:p|h4)>",
                                                      page, re.S) if cls != ' class="note"']
        for s in values + sentences:
            what = "%s: %s" % (os.path.relpath(path, root), s[:100])
            if joined.search(s):
                counts["join_no_space"] += 1; print("# join " + what)
            if "sOTA" in s:
                counts["sota"] += 1; print("# sOTA " + what)
        notes = [text(n) for n in re.findall(r'<p class="note">(.*?)</p>', page, re.S)]
        for s in sentences:
            for n in [name] + notes:
                s = s.replace(n, "")
            if double_stop.search(s):
                counts["double_stop"] += 1; print("# .. " + os.path.relpath(path, root) + ": " + s[:100])
        if lang != "nl":
            continue
        counts["values_nl"] += len(values)
        counts["sentences"] += len(sentences)
        for i, s in enumerate(values):
            what = "%s: %s" % (os.path.relpath(path, root), s[:100])
            if months.search(s):
                counts["english_month_nl"] += 1; print("# month " + what)
            if s.strip() in ("Yes", "No") or re.search(r"(: |→ )(Yes|No)\b", s):
                counts["yes_no_nl"] += 1; print("# yes/no " + what)
            if re.search(r"\b(hours?|days?|Closed|licence)\b", s):
                counts["english_words_nl"] += 1; print("# words " + what)
            if grouped_en.search(s):
                counts["english_group_nl"] += 1; print("# 1,000 " + what)
for k, v in counts.items():
    print(k, v)
PYEOF
grep '^# ' "$TMP/scan" | sort | uniq | head -20 | sed 's/^/#   /'
check "the scan read the Dutch model pages" grep -q '^pages_nl [1-9][0-9][0-9]' "$TMP/scan"
check "the scan read the English model pages" grep -q '^pages_en [1-9][0-9][0-9]' "$TMP/scan"
check "the scan read Dutch values" grep -q '^values_nl [1-9]' "$TMP/scan"
check_grep "no English month name in a Dutch value" '^english_month_nl 0$' "$TMP/scan"
check_grep "no Yes or No as a Dutch value" '^yes_no_nl 0$' "$TMP/scan"
check_grep "no English thousands separator in a Dutch value" '^english_group_nl 0$' "$TMP/scan"
check_grep "no English duration or weights words in a Dutch value" '^english_words_nl 0$' "$TMP/scan"
check "the scan read Dutch History entries" grep -q '^history_nl [1-9][0-9][0-9]' "$TMP/scan"
check_grep "no Dutch History entry names its field by the English column name" '^english_field_nl 0$' "$TMP/scan"
check_grep "no list joined without a space, either language" '^join_no_space 0$' "$TMP/scan"
check_grep "no acronym lower-cased ('sOTA'), either language" '^sota 0$' "$TMP/scan"
check_grep "no doubled full stop in the page's sentences" '^double_stop 0$' "$TMP/scan"
# checked against the source: MegaScale (Production)'s organisations, as
# the bundled export of 2025-11-01 stores them ("ByteDance,Peking
# University"), on its
# Dutch page joined with ", " and in its sentence with "en"
org=$(unzip -p "$SNAP"/ai_models/2025-11-01.zip notable_ai_models.csv | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r.get("Model") == "MegaScale (Production)":
        print(r.get("Organization", "")); break' | tail -1)
page=$(ls "$TMP"/site/.modelcat/current/pages/nl/megascale-production-*.html 2>/dev/null | head -1)
if [ -n "$org" ] && [ -n "$page" ]; then
	pair=$(printf '%s' "$org" | sed 's/,/, /g')
	check_grep "its organisations, as stored, joined with ', ' on the Dutch page" "<dd>$pair</dd>" "$page"
	check_grep "and with 'en' in the sentence" "door $(printf '%s' "$org" | sed 's/,/ en /')" "$page"
else
	skip "the source's organisations on MegaScale's page" "MegaScale (Production) is not in the bundled notable export"
fi
done_testing
