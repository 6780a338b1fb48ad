"""Scan a published site for values written otherwise than the formatter
writes them (docs/pages.md, "How values are written", "The scan").

usage: scan_values.py SITE PIPELINES TRANSLATIONS

Prints one line per category, "CATEGORY COUNT", then up to three examples
of each category found ("# CATEGORY FILE: TEXT").

Which text is a value rendered from a field, and of which field:
- HTML pages: each History entry is <li data-field="FIELD">LABEL: ...</li>
  (the text after the first ": "); each label/value pair <dt>LABEL</dt>
  <dd>VALUE</dd> outside the History.
- text pages: the "- LABEL" / "- VALUE" pairs before the History heading,
  and the History's "- LABEL: ..." lines.
- the audit: text "    FIELD: OLD → NEW" lines; HTML <td class="field">FIELD
  </td> rows (their <del>/<ins> text, not the stored value in the title).
- the index: its table's cells other than the name.
- JSON twins and downloads: a value of a number field must be a JSON
  number, of a boolean field a JSON boolean.
Fields of type text or key (pipelines/*columns.tsv: the source's free-text
notes, names, references) are left out, as is the key (model names).
"""
import glob
import html
import json
import os
import re
import sys

site, pipelines, translations = sys.argv[1:4]

MONTHS = ("January February March April May June July August September October "
          "November December").split()
CHECKS = {
    "iso_datetime": re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d"),
    "e_notation": re.compile(r"(?<![\w.-])\d+(\.\d+)?[eE][+-]?\d+(?!\w)"),
    "long_decimals": re.compile(r"(?<![\d.,])\d+[.,]\d{5,}(?!\d)"),
    "true_false": re.compile(r"\b(True|False)\b"),
    "ungrouped": re.compile(r"(?<![\w.,-])[1-9]\d{4,}(?![\w])"),
}
DUTCH_MONTHS = re.compile(r"\b(%s)\b" % "|".join(MONTHS))
counts = {k: 0 for k in list(CHECKS) + ["english_month_nl", "history_same", "history_repeat",
                                         "json_number_as_string", "json_bool_as_string"]}
examples = {}


def found(cat, path, text):
    counts[cat] += 1
    if len(examples.setdefault(cat, [])) < 3:
        examples[cat].append("%s: %s" % (os.path.relpath(path, site), text[:150]))


def types():
    out = {}
    for name in glob.glob(os.path.join(pipelines, "*columns.tsv")):
        for line in open(name, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            for header in [cells[0]] + (cells[2].split("|") if len(cells) > 2 and cells[2] else []):
                out[header] = cells[1]
    return out


TYPES = types()


def free_text(field):
    return TYPES.get(field) in ("text", "key")


# a field no map names is kept as text (README, "Bad input"); its value is
# checked only where the whole of it reads as a number, a date-time or a
# boolean, as the formatter reads it (values/value.h)
TYPED = re.compile(r"-?\d+(\.\d+)?([eE][+-]?\d+)?|\d{4}-\d\d-\d\dT[\d:+-]+|True|False")


def untyped(field, value):
    if field in TYPES:
        return False
    return not all(TYPED.fullmatch(re.sub(r" \((new column|column removed|nieuwe kolom|"
                                          r"kolom verwijderd|in \w+)\)$", "", v).strip())
                   for v in value.split(" \u2192 "))


def labels(lang, keys):
    """The labels of the page texts keys in lang (its xlf's target)."""
    text = open(os.path.join(translations, lang + ".xlf"), encoding="utf-8").read()
    out = set()
    for key in keys:
        m = re.search(r'<trans-unit id="%s">(.*?)</trans-unit>' % re.escape(key), text, re.S)
        if m:
            t = re.search(r"<target>(.*?)</target>", m.group(1), re.S) or \
                re.search(r"<source>(.*?)</source>", m.group(1), re.S)
            out.add(html.unescape(t.group(1)))
    return out


# the pairs whose value is a free-text field: Authors, Data centre,
# Reference; a card's Manufacturer and Type
TEXT_KEYS = ["label.authors", "label.data_centre", "label.reference",
             "hwpage.label.manufacturer", "hwpage.label.type"]
TEXT_LABELS = {lang: labels(lang, TEXT_KEYS) for lang in ("en", "nl")}


def field_names(lang):
    """A text page's History names a field the page shows no pair for by
    its field.* text: that name (lang's target, else the source) -> the
    field (the source: the column's name)."""
    text = open(os.path.join(translations, lang + ".xlf"), encoding="utf-8").read()
    out = {}
    for unit in re.findall(r'<trans-unit id="field\.[^"]*">(.*?)</trans-unit>', text, re.S):
        src = re.search(r"<source>(.*?)</source>", unit, re.S)
        tgt = re.search(r"<target>(.*?)</target>", unit, re.S) or src
        out[html.unescape(tgt.group(1))] = html.unescape(src.group(1))
    return out
FIELD_NAMES = {lang: field_names(lang) for lang in ("en", "nl")}


checked = {"values": 0, "history": 0, "json": 0}


def check(path, lang, text):
    checked["values"] += 1
    for cat, rx in CHECKS.items():
        if rx.search(text):
            found(cat, path, text)
    if lang == "nl" and DUTCH_MONTHS.search(text):
        found("english_month_nl", path, text)


def plain(fragment, between=""):
    return html.unescape(re.sub(r"<[^>]+>", between, fragment))


def after_label(line):
    return line.split(": ", 1)[1] if ": " in line else line


def history_entry(path, lang, field, line):
    if free_text(field):
        return
    checked["history"] += 1
    for part in line.split("; "):
        value = after_label(part)
        if untyped(field, value):
            continue
        check(path, lang, value)
        arrow = value.split(" \u2192 ")
        if len(arrow) == 2 and re.sub(r" \(in \w+\)$", "", arrow[1]).strip() == arrow[0].strip():
            found("history_same", path, part)


def html_page(path, lang):
    page = open(path, encoding="utf-8").read()
    # History's lists: the latest dates' and the earlier ones' (folded)
    hist = "".join(re.findall(r'<dl class="history">(.*?)</dl>', page, re.S))
    body = re.sub(r'<dl class="history">.*?</dl>', "", page, flags=re.S)
    if hist:
        for day in re.findall(r"<dd><ul[^>]*>(.*?)</ul></dd>", hist, re.S):
            seen = set()
            for field, li in re.findall(r'<li data-field="([^"]*)">(.*?)</li>', day, re.S):
                field = html.unescape(field)
                if field in seen:
                    found("history_repeat", path, field)
                seen.add(field)
                history_entry(path, lang, field, plain(li))
            # an entry without the hook (today's pages): by its label
            for li in re.findall(r"<li>(.*?)</li>", day, re.S):
                line = plain(li)
                label = line.split(": ", 1)[0]
                if label in seen and ": " in line:
                    found("history_repeat", path, label)
                seen.add(label)
                history_entry(path, lang, label, line)
    for dt, dd in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", body, re.S):
        if plain(dt) not in TEXT_LABELS[lang]:
            check(path, lang, plain(dd))


def text_page(path, lang, history_heading):
    lines = open(path, encoding="utf-8").read().split("\n")
    in_history = False
    for i, line in enumerate(lines):
        if line == history_heading:
            in_history = True
            continue
        if in_history:
            if line.startswith("- ") and ": " in line:
                label = line[2:].split(": ", 1)[0]
                history_entry(path, lang, FIELD_NAMES[lang].get(label, label), line[2:])
            elif not line.startswith("- ") and not re.match(r"\d", line) and i and \
                    not lines[i - 1] == history_heading:
                in_history = False
            continue
    # the pairs: runs of "- " lines before the History, label then value
    run = []
    for line in lines + [""]:
        if line == history_heading:
            break
        if line.startswith("- "):
            run.append(line[2:])
            continue
        for k in range(0, len(run) - 1, 2):
            if run[k] not in TEXT_LABELS[lang]:
                check(path, lang, run[k + 1])
        run = []


def json_values(path, values):
    checked["json"] += 1
    for field, value in values.items():
        t = TYPES.get(field)
        if t == "number" and isinstance(value, str) and re.fullmatch(r"-?[\d.]+(e[+-]?\d+)?", value):
            found("json_number_as_string", path, "%s: %r" % (field, value))
        if t == "bool" and isinstance(value, str):
            found("json_bool_as_string", path, "%s: %r" % (field, value))


root = site
for lang, heading in (("en", "History"), ("nl", "Geschiedenis")):
    for path in glob.glob(os.path.join(root, "pages", lang, "*.html")) + \
            glob.glob(os.path.join(root, "pages", lang, "hardware", "*.html")):
        html_page(path, lang)
    for path in glob.glob(os.path.join(root, "pages", lang, "*.txt")) + \
            glob.glob(os.path.join(root, "pages", lang, "hardware", "*.txt")):
        text_page(path, lang, heading)
    for path in glob.glob(os.path.join(root, "pages", lang, "index*.html")):
        page = open(path, encoding="utf-8").read()
        for cellhtml in re.findall(r'<div role="cell"[^>]*>(.*?)</div>', page, re.S):
            check(path, lang, plain(cellhtml))

for path in glob.glob(os.path.join(root, "audit", "*.txt")):
    for line in open(path, encoding="utf-8"):
        m = re.match(r"    ([^:]+): (.*)$", line.rstrip("\n"))
        if m and not free_text(m.group(1)):
            check(path, "en", m.group(2))
for path in glob.glob(os.path.join(root, "audit", "*.html")):
    page = open(path, encoding="utf-8").read()
    for field, rest in re.findall(r'<td class="field">(.*?)</td>(.*?)</tr>', page, re.S):
        if not free_text(plain(field)):
            check(path, "en", plain(rest, " | "))
# (the feed, audit/feed.atom, names models and fields, no values)

for path in glob.glob(os.path.join(root, "downloads", "models", "*.json")):
    json_values(path, json.load(open(path, encoding="utf-8"))["values"])
for path in glob.glob(os.path.join(root, "downloads", "*.json")):
    d = json.load(open(path, encoding="utf-8"))
    for row in d["rows"]:
        json_values(path, {c: v for c, v in zip(d["columns"], row) if v is not None})

for what, n in checked.items():
    print("checked_%s %d" % (what, n))
for cat in counts:
    print(cat, counts[cat])
for cat, ex in examples.items():
    for e in ex:
        print("# %s %s" % (cat, e))
