#!/usr/bin/env python3
"""filled: a page field is empty only where no export holds a value.

    filled.py PAGES_DIR FILE...

PAGES_DIR holds the English text pages of one date (`render --all`); each
FILE is an export as it stood on that date (.csv, .csv.gz, or ZIP/MEMBER).
The files are read here with Python's csv module, not by modelcat, and
each page label is looked for under every header Epoch has given its
field (HEADERS below, read off the exports in snapshots/). For every model
whose name is on one row of each file it is in, and every label: the page
shows a value exactly when some file holds a non-empty cell for it.
Prints one line per exception (at most 20) and "N checked, N exceptions";
exits 1 on any exception.
"""
import csv
import glob
import gzip
import io
import os
import sys
import zipfile

# page label -> every header the field has had in Epoch's exports
HEADERS = {
    "Organisation": ["Organization"],
    "Organisation type": ["Organization categorization",
                          "Organization categorization (from Organization)"],
    "Country": ["Country (of organization)", "Country (from Organization)"],
    "Published": ["Publication date"],
    "Authors": ["Authors"],
    "Domain": ["Domain"],
    "Task": ["Task"],
    "Approach": ["Approach"],
    "Parameters": ["Parameters"],
    "Training data": ["Training dataset size (total)", "Training dataset size (datapoints)",
                      "Training dataset size (gradients)",
                      "(DEPRECATED) Training dataset size (datapoints)"],
    "Training compute": ["Training compute (FLOP)"],
    "How it was established": ["Training compute estimation method"],
    "Training hardware": ["Training hardware"],
    "Chips used": ["Hardware quantity"],
    "Wall-clock time": ["Training time (hours)"],
    "Hardware utilisation": ["Hardware utilization (MFU)", "Hardware utilization"],
    "Power draw": ["Training power draw (W)"],
    "Compute cost": ["Training compute cost (2023 USD)"],
    "Data centre": ["Training data center"],
    "Model access": ["Model accessibility"],
    "Training code": ["Training code accessibility"],
    "Why it is tracked": ["Notability criteria"],
    "Record confidence": ["Confidence"],
    "Citations": ["Citations"],
    "Reference": ["Reference", "Link"],
}
# the unit a dataset size line shows alone when there is no size (the seed)
BARE_UNITS = {"tokens", "datapoints", "images", "words", "examples", "sentences",
              "hours", "frames", "sequences", "pairs", "episodes", "steps"}
# what a page says where no value is recorded (issue 47: said, not a bare unit)
NOT_RECORDED = {"not recorded", "niet vastgelegd"}


def open_rows(spec):
    if ".zip/" in spec:
        archive, member = spec.split(".zip/", 1)
        raw = zipfile.ZipFile(archive + ".zip").read(member)
        text = raw.decode("utf-8-sig")
    elif spec.endswith(".gz"):
        text = gzip.open(spec, "rb").read().decode("utf-8-sig")
    else:
        text = open(spec, "rb").read().decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def cell(row, header):
    """The row's value for header, as a page can show it: a Link stands in
    for a missing Reference only when its first word is a web address."""
    value = (row.get(header) or "").strip()
    if header == "Link":
        words = value.split()
        return words[0] if words and words[0].startswith(("http://", "https://")) else ""
    return value


def pairs(path):
    """The page's name and {label: value} from its "- label" / "- value" lines."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i = {}, 1
    while i < len(lines):
        if lines[i].startswith("- ") and i + 1 < len(lines) and lines[i + 1].startswith("- "):
            out.setdefault(lines[i][2:], lines[i + 1][2:])
            i += 2
        else:
            i += 1
    return lines[0], out


def main():
    pages_dir, files = sys.argv[1], sys.argv[2:]
    holds = {}       # name -> label -> True
    repeated = set()
    for spec in files:
        seen = set()
        for row in open_rows(spec):
            name = (row.get("Model") or row.get("System") or "").strip()
            if not name:
                continue
            if name in seen:
                repeated.add(name)
            seen.add(name)
            entry = holds.setdefault(name, {})
            for label, headers in HEADERS.items():
                if any(cell(row, h) for h in headers):
                    entry[label] = True
    checked, exceptions = 0, []
    pages = 0
    for path in sorted(glob.glob(os.path.join(pages_dir, "*.txt"))):
        name, shown = pairs(path)
        if name not in holds or name in repeated:
            continue
        pages += 1
        for label in HEADERS:
            value = shown.get(label)
            has = bool(value) and value not in BARE_UNITS and value not in NOT_RECORDED
            want = holds[name].get(label, False)
            checked += 1
            if has != want:
                exceptions.append("%s: %s: page shows %r, the exports %s" %
                                  (name, label, value, "hold a value" if want else "hold none"))
    if pages < len(holds) // 2:
        exceptions.append("only %d pages of %d models found in %s" % (pages, len(holds), pages_dir))
    for e in exceptions[:20]:
        print(e)
    print("%d checked, %d exceptions" % (checked, len(exceptions)))
    return 1 if exceptions else 0


if __name__ == "__main__":
    sys.exit(main())
