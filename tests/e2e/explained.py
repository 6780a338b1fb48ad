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

A card's page (pages/LANG/hardware/STEM.*) is checked line by line: its
lists of the models that fit at 16, 8 and 4 bits and of the models
trained on it may change only as the new audits' "hardware" entries for
that card say (every model a list gained, lost, or kept with another
parameter count, named under that width); any other line (its
specifications, a list's heading) only when the card is named by them at
all (as a record: added, removed, renamed, changed; or by a "hardware"
entry). An HTML page is judged by its text page, or, when only the HTML
changed, by the card being named, or by its citation: a card's page cites
the data of its date (every export), so it may change in its citation
block alone, to cite the newest snapshot.

Prints one line per unexplained file, one per changed model page whose
"Last updated" is not NIGHT, a line "hardware pages: changed N
unexplained N", then a summary line (counting every page):
  changed N unexplained N wrong_updated N site_changes N site_models N
"""
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


def hardware_page(path):
    """A card's text page: (other lines, {bits: (heading, [(name, line)])},
    [trained names]), or None when there is no such file. Blocks start at
    each line that is not a list item ("- ..."); the lists of what fits
    are those under a heading naming a width, after the specifications."""
    if not os.path.exists(path):
        return None
    blocks = []
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("- ") and blocks:
            blocks[-1][1].append(line[2:])
        else:
            blocks.append((line, []))
    other, fits, trained = [], {}, []
    for i, (head, items) in enumerate(blocks):
        m = WIDTH.search(head) if i >= 2 else None
        if m:
            fits[int(m.group(1))] = (head, [((FIT_ITEM.match(x) or [x, x])[1], x) for x in items])
        elif i >= 2:
            other.append(head)
            trained += items
        else:
            other += [head] + items
    while other and not other[-1]:
        other.pop()
    if not trained:
        # the sentence saying no model names the card goes with its list
        other = other[:-1]
    return other, fits, trained


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


def hardware_unexplained(before, after, rel_txt, card_named, hw):
    """Why the card page rel_txt's change is not explained, or None."""
    old = hardware_page(os.path.join(before, rel_txt))
    new = hardware_page(os.path.join(after, rel_txt))
    name = (new or old)[0][0] if (new or old) else "?"
    entry = hw.get(name)
    named = card_named(name) or entry is not None
    if old is None or new is None or old[0] != new[0]:
        return None if card_named(name) else "%s: the card is not named" % name
    why = []
    for bits in sorted(set(old[1]) | set(new[1])):
        oh, ol = old[1].get(bits, (None, []))
        nh, nl = new[1].get(bits, (None, []))
        w = (entry or {}).get("fits", {}).get(bits, {"added": set(), "removed": set(),
                                                      "parameters_changed": set()})
        od, nd = dict(ol), dict(nl)
        for n in nd:
            if n not in od and n not in w["added"]:
                why.append("%s fits at %d bits, not named" % (n, bits))
            elif n in od and od[n] != nd[n] and n not in w["parameters_changed"]:
                why.append("%s's figures at %d bits, not named" % (n, bits))
        why += ["%s no longer fits at %d bits, not named" % (n, bits)
                for n in od if n not in nd and n not in w["removed"]]
        if (oh != nh or ol != nl) and not named:
            why.append("the list at %d bits changed, the card is not named" % bits)
    t = (entry or {}).get("trained", {"added": set(), "removed": set()})
    why += ["%s trained on it, not named" % n for n in new[2] if n not in old[2] and n not in t["added"]]
    why += ["%s no longer trained on it, not named" % n
            for n in old[2] if n not in new[2] and n not in t["removed"]]
    if old[2] != new[2] and not named:
        why.append("its trained list changed, the card is not named")
    return "%s: %s" % (name, "; ".join(why)) if why else None


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
            if f.endswith(".html") and txt not in changed:
                card = page_names([after, before], txt)
                why = None if cites_newest(before, after, f, newest) or \
                    (card and (card[0] in explained or card[0] in hw)) else \
                    "%s: only its HTML changed, the card is not named" % (card[0] if card else "?")
            else:
                why = hardware_unexplained(before, after, txt, lambda n: n in explained, hw)
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
