#!/usr/bin/env python3
"""Is every page file a publication changed explained by it? (issue 15)

usage: explained.py BEFORE AFTER NIGHT [ALL_MODELS_EXPECTED]

BEFORE and AFTER are copies of two published site versions (the folder
DIR/.modelcat/current resolved: MANIFEST, pages/, audit/); BEFORE may be
an empty folder (the first publication). NIGHT is the date of the
snapshot AFTER published (YYYY-MM-DD), or "-" for a publication that
brought no snapshot.

A page file is changed when its SHA-256 in the two MANIFESTs differs (or
it is in one only). It is explained when the model it belongs to (the
first line of its .txt page: the name; of a redirect "OLD → NEW: FILE",
either name) is named by the audit of a snapshot AFTER publishes and
BEFORE did not (added, removed, returned, renamed from or to, changed,
held, or given or losing a column's value), or by a site-wide change
AFTER records and BEFORE did not (audit/site.json). A model only held
(a quarantined row of it) changes by its History's "held" line while its
record, and so its Last updated, stays. An index page is
explained when it carries the newest snapshot's date.

A card's page (pages/LANG/hardware/STEM.*) shows the first ten items of
each of its long lists, whose complete lists are pages of their own:
STEM-models-16, -8 and -4 (every model that fits at that width) and
STEM-trained (every model trained on it), and one CSV,
pages/en/hardware/STEM-models.csv (a row per width and model). A
complete list's page, and the CSV, is checked line by line: its list of
the models that fit (or were trained on it) may change only as the new
audits' "hardware" entries for that card say (every model a list gained,
lost, or kept with another parameter count, named under that width); any
other line (a heading, the links) only when the card is named by them at
all (as a record: added, removed, renamed, changed; or by a "hardware"
entry). The card's page: each of its lists must be exactly the first ten
items of the complete list (and its heading the complete list's); a
model its list gained must be named as added or have been in the
complete list before (moved up into the first ten), a model it lost
named as removed or still be in the complete list (moved down); its
other lines (its specifications) change only when the card is named. The
CSV holds, per width, exactly the models of the complete list's page. An
HTML page is judged by its text page, or, when only the HTML changed, by
the card being named, or by its citation: a card's page cites the data
of its date (every export), so it may change in its citation block
alone, to cite the newest snapshot.

Prints one line per unexplained file, one per changed model page whose
"Last updated" is not NIGHT, a line "hardware pages: changed N
unexplained N", then a summary line (counting every page):
  changed N unexplained N wrong_updated N site_changes N site_models N
"""
import csv
import datetime
import json
import os
import re
import sys

ARROW = " \u2192 "


DUTCH_MONTHS = ("januari februari maart april mei juni juli augustus september oktober "
                "november december").split()


def written_date(iso, dutch):
    """iso as the pages write a date: "7 May 2025", Dutch "7 mei 2025"
    (docs/pages.md, "How values are written")."""
    d = datetime.date.fromisoformat(iso)
    if dutch:
        return "%d %s %d" % (d.day, DUTCH_MONTHS[d.month - 1], d.year)
    return d.strftime("%-d %B %Y")


def manifest(root):
    path = os.path.join(root, "MANIFEST")
    if not os.path.exists(path):
        return {}
    out = {}
    for line in open(path, encoding="utf-8"):
        sha, rel = line.rstrip("\n").split("  ", 1)
        out[rel] = sha
    return out


def published(root):
    path = os.path.join(root, "published.tsv")
    if not os.path.exists(path):
        return set()
    return {tuple(l.split("\t")[:2]) for l in open(path, encoding="utf-8")}


def site_changes(root):
    path = os.path.join(root, "audit", "site.json")
    if not os.path.exists(path):
        return []
    return json.load(open(path, encoding="utf-8"))["site_changes"]


def audit_names(path):
    a = json.load(open(path, encoding="utf-8"))
    names = set()
    for key in ("added", "removed", "returned"):
        names |= {m["name"] if isinstance(m, dict) else m for m in a[key]}
    for r in a["renamed"]:
        names |= {r["from"], r["to"]}
    names |= {c["name"] for c in a["changed"]}
    for cv in a["column_values"]:
        names |= set(cv["models"])
    held = {h["name"] for h in a["held"] if h.get("name")}
    held |= {q["name"] for q in a["quarantined"] if q.get("name")}
    return names, held - names


def audit_hardware(path, into):
    """The "hardware" entries of an audit, merged into into: card ->
    {"fits": {bits: {"added", "removed", "parameters_changed"}},
     "trained": {"added", "removed"}} (sets of names)."""
    for card in json.load(open(path, encoding="utf-8")).get("hardware", []):
        c = into.setdefault(card["name"], {"fits": {}, "trained": {"added": set(), "removed": set()}})
        for f in card["fits"]:
            w = c["fits"].setdefault(f["bits"], {"added": set(), "removed": set(),
                                                 "parameters_changed": set()})
            for key in w:
                w[key] |= set(f[key])
        for key in ("added", "removed"):
            c["trained"][key] |= set(card["trained"][key])


FIT_ITEM = re.compile(r"^(.*) \([^()]*\)$")
WIDTH = re.compile(r"\b(16|8|4)[- ]bit\b")
# a card's complete lists and CSV beside its page STEM: STEM-models-BITS,
# STEM-trained, STEM-models.csv
OWN_PAGE = re.compile(r"^(.*)-(models-(16|8|4)|trained|models)$")
SHOWN = 10                     # the items of a long list on a card's page
NO_LIST = {"added": set(), "removed": set(), "parameters_changed": set()}


def hardware_page(path, start=2):
    """A card's text page (start 2: its title and specifications come
    first) or one of its complete lists' pages (start 1: its title): (other
    lines, {bits: (heading, [(name, line)])}, [trained names], [the lines
    after the trained list]), or None when there is no such file. Blocks
    start at each line that is not a list item ("- ..."); the lists of
    what fits are those under a heading naming a width, from block start
    on; a list's heading takes with it the line after its items that
    links its complete list (naming the same width; after the trained
    list, any line)."""
    if not os.path.exists(path):
        return None
    blocks = []
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("- ") and blocks:
            blocks[-1][1].append(line[2:])
        else:
            blocks.append((line, []))
    other, fits, trained, more, prev = [], {}, [], [], None
    for i, (head, items) in enumerate(blocks):
        m = WIDTH.search(head) if i >= start else None
        if i < start:
            other += [head] + items
            continue
        bits = int(m.group(1)) if m else 0
        if m and not items and prev == bits and bits in fits:
            fits[bits] = (fits[bits][0] + "\n" + head, fits[bits][1])
            prev = None
        elif m:
            fits[bits] = (head, [((FIT_ITEM.match(x) or [x, x])[1], x) for x in items])
            prev = bits if items else None
        elif prev == "trained" and not items and head:
            more.append(head)
            prev = None
        else:
            other.append(head)
            trained += items
            prev = "trained" if items else None
    while other and not other[-1]:
        other.pop()
    if not trained:
        # the sentence saying no model names the card goes with its list
        other = other[:-1]
    return other, fits, trained, more


def hardware_csv(path):
    """A card's CSV of the models that fit: (header, {bits: [(name,
    parameters)]}), or None when there is no such file."""
    if not os.path.exists(path):
        return None
    rows = list(csv.reader(open(path, encoding="utf-8", newline="")))
    fits = {}
    for r in rows[1:]:
        fits.setdefault(int(r[0]), []).append((r[1], r[2]))
    return rows[0] if rows else None, fits


def complete_lists(root, base):
    """The complete lists of the card whose page is root/base.txt, from
    their pages of their own: ({bits: (heading, [(name, line)])}, [trained
    names]); a width or the trained list whose page is missing is left
    out (None)."""
    fits = {}
    for bits in (16, 8, 4):
        pg = hardware_page(os.path.join(root, "%s-models-%d.txt" % (base, bits)), 1)
        if pg is not None:
            fits[bits] = pg[1].get(bits)
    pg = hardware_page(os.path.join(root, base + "-trained.txt"), 1)
    return fits, (pg[2] if pg is not None else None)


CITE = re.compile(r'<div class="cite">.*?</pre>\s*</div>', re.S)


def cites_newest(before, after, rel_html, newest):
    """Do the HTML pages differ only in their citation block, the new one
    citing the newest snapshot? (A card's page cites the data of the date
    it was made on, every export, as the index does.)"""
    paths = [os.path.join(r, rel_html) for r in (before, after)]
    if not all(os.path.exists(p) for p in paths):
        return False
    old, new = (open(p, encoding="utf-8").read() for p in paths)
    cite = CITE.search(new)
    return bool(cite) and CITE.sub("", old) == CITE.sub("", new) and \
        ("epochai:%s," % newest[:10]) in cite.group(0)


def list_unexplained(bits, ol, nl, w, moved_in, moved_out):
    """Why a list at bits (of (name, figures) pairs, before and after) is
    not explained by the audit's entry w for it: each model gained named
    as added (or in moved_in: it was in the complete list, below the
    first ten), each lost named as removed (or in moved_out: still in the
    complete list), each with other figures named as changed."""
    why = []
    od, nd = dict(ol), dict(nl)
    for n in nd:
        if n not in od and n not in w["added"] and n not in moved_in:
            why.append("%s fits at %d bits, not named" % (n, bits))
        elif n in od and od[n] != nd[n] and n not in w["parameters_changed"]:
            why.append("%s's figures at %d bits, not named" % (n, bits))
    why += ["%s no longer fits at %d bits, not named" % (n, bits)
            for n in od if n not in nd and n not in w["removed"] and n not in moved_out]
    return why


def hardware_unexplained(before, after, rel_txt, name, card_named, hw):
    """Why the change of the card page rel_txt, or of one of its complete
    lists' pages, is not explained, or None. name: the card's name."""
    base, kind = rel_txt[:-4], None
    m = OWN_PAGE.match(base)
    if m:
        base, kind = m.group(1), m.group(2)
    old = hardware_page(os.path.join(before, rel_txt), 1 if kind else 2)
    new = hardware_page(os.path.join(after, rel_txt), 1 if kind else 2)
    entry = hw.get(name)
    named = card_named(name) or entry is not None
    if old is None or new is None or old[0] != new[0]:
        return None if card_named(name) else "%s: the card is not named" % name
    why = []
    full_old = complete_lists(before, base) if not kind else ({}, None)
    full_new = complete_lists(after, base) if not kind else ({}, None)
    for bits in sorted(set(old[1]) | set(new[1])):
        oh, ol = old[1].get(bits, (None, []))
        nh, nl = new[1].get(bits, (None, []))
        w = (entry or {}).get("fits", {}).get(bits, NO_LIST)
        moved_in = moved_out = set()
        if not kind:
            fo, fn = full_old[0].get(bits), full_new[0].get(bits)
            moved_in = {n for n, _ in fo[1]} if fo else set()
            moved_out = {n for n, _ in fn[1]} if fn else set()
        why += list_unexplained(bits, ol, nl, w, moved_in, moved_out)
        if not kind and (not fn or fn[1][:SHOWN] != nl or fn[0] != (nh or "").split("\n")[0]):
            why.append("the list at %d bits is not the first ten of its complete list" % bits)
        if (oh != nh or ol != nl) and not named:
            why.append("the list at %d bits changed, the card is not named" % bits)
    t = (entry or {}).get("trained", {"added": set(), "removed": set()})
    moved_in = moved_out = set()
    if not kind:
        if full_new[1] is None or full_new[1][:SHOWN] != new[2]:
            why.append("its trained list is not the first ten of its complete list")
        moved_in, moved_out = set(full_old[1] or []), set(full_new[1] or [])
    why += ["%s trained on it, not named" % n for n in new[2]
            if n not in old[2] and n not in t["added"] and n not in moved_in]
    why += ["%s no longer trained on it, not named" % n for n in old[2]
            if n not in new[2] and n not in t["removed"] and n not in moved_out]
    if (old[2] != new[2] or old[3] != new[3]) and not named:
        why.append("its trained list changed, the card is not named")
    return "%s: %s" % (name, "; ".join(why)) if why else None


def csv_unexplained(before, after, rel, name, card_named, hw):
    """Why the change of a card's CSV rel is not explained, or None: its
    rows change as its complete lists do, and hold, per width, exactly the
    models of the complete list's page."""
    old = hardware_csv(os.path.join(before, rel))
    new = hardware_csv(os.path.join(after, rel))
    entry = hw.get(name)
    named = card_named(name) or entry is not None
    if old is None or new is None or old[0] != new[0]:
        return None if card_named(name) else "%s: the card is not named" % name
    why = []
    base = rel[:-len("-models.csv")]
    full = complete_lists(after, base)[0]
    for bits in sorted(set(old[1]) | set(new[1]) | {b for b in full if full[b]}):
        ol, nl = old[1].get(bits, []), new[1].get(bits, [])
        if [n for n, _ in nl] != [n for n, _ in (full.get(bits) or (None, []))[1]]:
            why.append("its rows at %d bits are not its complete list's" % bits)
        w = (entry or {}).get("fits", {}).get(bits, NO_LIST)
        why += list_unexplained(bits, ol, nl, w, set(), set())
        if ol != nl and not named:
            why.append("its rows at %d bits changed, the card is not named" % bits)
    return "%s: %s" % (name, "; ".join(why)) if why else None


def card_name(roots, rel):
    """The name of the card a hardware file rel belongs to: the first
    line of its page's text (STEM.txt, for STEM's complete lists and CSV
    too), in the newer version first; "?" when there is none."""
    stem = rel.rsplit(".", 1)[0]
    d, base = os.path.split(stem)
    m = OWN_PAGE.match(base)
    if m:
        base = m.group(1)
    names = page_names(roots, os.path.join(d, base + ".txt"))
    return names[0] if names else "?"


def page_names(roots, rel_txt):
    """The names a page's text gives, in the newer version first."""
    for root in roots:
        path = os.path.join(root, rel_txt)
        if os.path.exists(path):
            first = open(path, encoding="utf-8").readline().rstrip("\n")
            m = re.match("(.*)" + ARROW + "(.*): [^ ]*$", first)
            return [m.group(1), m.group(2)] if m else [first]
    return []


def main():
    before, after, night = sys.argv[1], sys.argv[2], sys.argv[3]
    old, new = manifest(before), manifest(after)
    explained, held, hw = set(), set(), {}
    for label, content in published(after) - published(before):
        named, only_held = audit_names(os.path.join(after, "audit", label + ".json"))
        explained |= named
        held |= only_held
        audit_hardware(os.path.join(after, "audit", label + ".json"), hw)
    held -= explained
    explained |= held
    old_site = {json.dumps(c, sort_keys=True) for c in site_changes(before)}
    fresh = [c for c in site_changes(after) if json.dumps(c, sort_keys=True) not in old_site]
    for c in fresh:
        explained |= set(c["models"])
    newest = sorted(l for l, _ in published(after))[-1]
    changed = sorted(f for f in set(old) | set(new)
                     if f.startswith("pages/") and old.get(f) != new.get(f))
    unexplained = wrong = hw_changed = hw_unexplained = 0
    if night != "-":
        want = datetime.date.fromisoformat(night).strftime("%-d %B %Y").lstrip("0")
    for f in changed:
        stem = f.rsplit(".", 1)[0]
        if "/index." in stem:
            # the index's charts and their data: they change with the index
            if stem.split("/index.")[0] + "/index.html" not in changed:
                unexplained += 1
                print("unexplained: %s (its index did not change)" % f)
            continue
        if stem.endswith("/index"):
            text = open(os.path.join(after, stem + ".txt"), encoding="utf-8").read()
            day = written_date(newest[:10], "/nl/" in stem)
            if day not in text:
                unexplained += 1
                print("unexplained: %s (the index does not carry %s)" % (f, day))
            continue
        if "/hardware/" in stem:
            hw_changed += 1
            txt = stem + ".txt"
            card = card_name([after, before], f)
            if f.endswith(".csv"):
                why = csv_unexplained(before, after, f, card, lambda n: n in explained, hw)
            elif f.endswith(".html") and txt not in changed:
                why = None if cites_newest(before, after, f, newest) or \
                    card in explained or card in hw else \
                    "%s: only its HTML changed, the card is not named" % card
            else:
                why = hardware_unexplained(before, after, txt, card, lambda n: n in explained, hw)
            if why:
                unexplained += 1
                hw_unexplained += 1
                print("unexplained: %s (%s)" % (f, why))
            continue
        names = page_names([after, before], stem + ".txt")
        if not names or not any(n in explained for n in names):
            unexplained += 1
            print("unexplained: %s (%s)" % (f, names[0] if names else "?"))
            continue
        # a model page of AFTER: its Last updated is this night
        path = os.path.join(after, f)
        if night == "-" or not f.endswith(".txt") or not f.startswith("pages/en/") \
                or not os.path.exists(path) or len(names) > 1 or names[0] in held:
            continue
        lines = open(path, encoding="utf-8").read().split("\n")
        got = lines[lines.index("- Last updated") + 1][2:] if "- Last updated" in lines else None
        if got != want:
            wrong += 1
            print("last updated: %s says %s, not %s" % (f, got, want))
    print("hardware pages: changed %d unexplained %d" % (hw_changed, hw_unexplained))
    print("changed %d unexplained %d wrong_updated %d site_changes %d site_models %d"
          % (len(changed), unexplained, wrong, len(fresh), sum(len(c["models"]) for c in fresh)))


main()
