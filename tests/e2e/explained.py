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

Prints one line per unexplained file, one per changed model page whose
"Last updated" is not NIGHT, then a summary line:
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
    explained, held = set(), set()
    for label, content in published(after) - published(before):
        named, only_held = audit_names(os.path.join(after, "audit", label + ".json"))
        explained |= named
        held |= only_held
    held -= explained
    explained |= held
    old_site = {json.dumps(c, sort_keys=True) for c in site_changes(before)}
    fresh = [c for c in site_changes(after) if json.dumps(c, sort_keys=True) not in old_site]
    for c in fresh:
        explained |= set(c["models"])
    newest = sorted(l for l, _ in published(after))[-1]
    changed = sorted(f for f in set(old) | set(new)
                     if f.startswith("pages/") and old.get(f) != new.get(f))
    unexplained = wrong = 0
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
    print("changed %d unexplained %d wrong_updated %d site_changes %d site_models %d"
          % (len(changed), unexplained, wrong, len(fresh), sum(len(c["models"]) for c in fresh)))


main()
