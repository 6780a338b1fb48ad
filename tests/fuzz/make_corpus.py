#!/usr/bin/env python3
"""Make the fuzzers' seed corpora in tests/fuzz/corpus/ from the real data.

Run from the repository root after `make`: python3 tests/fuzz/make_corpus.py.
The output is deterministic (fixed gzip and zip timestamps, sorted values),
so rerunning it leaves the files as they are. The seeds are small cuts of
the real files, a few hundred kilobytes in all:

  fuzz_csv, fuzz_header  a header plus a few rows of each export in
                         snapshots/ (plain, and some gzip and zip), rows of
                         tests/data/dirty/ (the spreadsheet re-save), the
                         csv-spectrum files and the zip fixtures
  fuzz_normalise         real cells of the typed columns (numbers, dates,
                         booleans, lists, enumerations) plus the notations
                         of docs/normalisation.md
  fuzz_xliff             the page catalogues in translations/, a few units
                         of each, and the hostile catalogues of the safety
                         test (DOCTYPE, entities, XInclude)
  fuzz_manifest          the MANIFEST.tsv of a store filled by real fetches
                         (file:// URLs) of the bundled snapshots, and that
                         manifest with its last line cut short

Inputs that once made a harness fail are kept in the corpus as well
(tests/fuzz/corpus/<harness>/regress-*), and so are inputs the fuzzers
found that reach new code (named by their SHA-1, as libFuzzer names them);
this script leaves both alone.
"""
import csv
import glob
import gzip
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(TOP, "tests", "fuzz", "corpus")
WHEN = (2024, 7, 16, 12, 0, 0)


def clean(name):
    """Empty a harness's corpus folder, keeping regression and found inputs."""
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    for f in os.listdir(folder):
        if not f.startswith("regress-") and not re.fullmatch(r"[0-9a-f]{40}", f):
            os.remove(os.path.join(folder, f))
    return folder


def put(folder, name, data):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def gz(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as f:
        f.write(data)
    return buf.getvalue()


def zipped(data, name="export.csv", method=zipfile.ZIP_DEFLATED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        info = zipfile.ZipInfo(name, date_time=WHEN)
        info.compress_type = method
        info.external_attr = 0o644 << 16
        zf.writestr(info, data)
    return buf.getvalue()


def records(path):
    """The raw records of a CSV file, each as the bytes it was written as."""
    with gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb") as f:
        text = f.read()
    rows = list(csv.reader(io.StringIO(text.decode("utf-8", "surrogateescape"),
                                       newline="")))
    return text, rows


def cut(rows, picks):
    """A header plus the picked rows, written back as CSV (CRLF, as the
    exports are)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(rows[0])
    for i in picks:
        if i < len(rows):
            w.writerow(rows[i])
    return buf.getvalue().encode("utf-8", "surrogateescape")


def csv_seeds():
    csvf = clean("fuzz_csv")
    header = clean("fuzz_header")
    snaps = sorted(glob.glob(os.path.join(TOP, "snapshots", "*", "*.csv.gz")))
    for n, path in enumerate(snaps):
        export = os.path.basename(os.path.dirname(path))
        date = os.path.basename(path)[:10]
        _, rows = records(path)
        small = cut(rows, [1, 2, len(rows) // 2, len(rows) - 1])
        name = "%s-%s" % (export, date)
        put(header, name + ".csv", small)
        if n % 3 == 0:
            put(csvf, name + ".csv", small)
        elif n % 3 == 1:
            put(csvf, name + ".csv.gz", gz(small))
        else:
            put(csvf, name + ".zip", zipped(small))
    # the spreadsheet re-save: the header and the rows that are quarantined
    dirty = os.path.join(TOP, "tests", "data", "dirty",
                         "notable_ai_models-spreadsheet-resave.csv.gz")
    raw, rows = records(dirty)
    with open(os.path.join(TOP, "tests", "data", "dirty", "expected-quarantine.txt"),
              encoding="utf-8") as f:
        broken = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    picks = [i for i, r in enumerate(rows) if i and r and r[0].strip() in broken]
    for k in range(0, len(picks), 4):
        data = cut(rows, picks[k:k + 4] + [1])
        put(header, "dirty-%02d.csv" % k, data)
        put(csvf, "dirty-%02d.csv" % k, data)
    # the re-save's first lines exactly as the spreadsheet wrote them
    lines = raw.split(b"\n")
    put(csvf, "dirty-head.csv", b"\n".join(lines[:4]) + b"\n")
    put(header, "dirty-head.csv.gz", gz(b"\n".join(lines[:4]) + b"\n"))
    for path in sorted(glob.glob(os.path.join(TOP, "tests", "data", "csv-spectrum",
                                              "csvs", "*.csv"))):
        with open(path, "rb") as f:
            data = f.read()
        put(csvf, "spectrum-" + os.path.basename(path), data)
    for path in sorted(glob.glob(os.path.join(TOP, "tests", "data", "csv", "*.zip"))):
        shutil.copy(path, os.path.join(csvf, "fixture-" + os.path.basename(path)))
    put(csvf, "stored.zip", zipped(b"Model,Parameters\r\nGPT-2,1.5e9\r\n", "a.csv",
                                   zipfile.ZIP_STORED))
    put(csvf, "bom-crlf.csv", b"\xef\xbb\xbfModel,Notes\r\n\"a\r\nb\",\"x\"\"y\"\r\n")


def typed_columns():
    kinds = {}
    with open(os.path.join(TOP, "pipelines", "columns.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            names = [parts[0]] + (parts[2].split("|") if len(parts) > 2 and parts[2] else [])
            for n in names:
                kinds[n.strip()] = parts[1]
    return kinds


def normalise_seeds():
    folder = clean("fuzz_normalise")
    kinds = typed_columns()
    values = {}
    for path in sorted(glob.glob(os.path.join(TOP, "snapshots", "*", "*.csv.gz"))):
        _, rows = records(path)
        head = rows[0]
        for row in rows[1:]:
            for i, cell in enumerate(row[:len(head)]):
                kind = kinds.get(head[i].strip())
                if kind in ("number", "date", "bool", "list", "enum") and cell.strip():
                    values.setdefault(kind, set()).add(cell)
    keep = {"number": 90, "date": 60, "bool": 6, "list": 50, "enum": 20}
    n = 0
    for kind in sorted(values):
        # spread the picks over the sorted values: short and long, odd ones
        vals = sorted(values[kind], key=lambda v: (len(v), v))
        step = max(1, len(vals) // keep[kind])
        for v in vals[::step][:keep[kind]]:
            put(folder, "%s-%03d" % (kind, n), v.encode("utf-8", "surrogateescape")[:2000])
            n += 1
    extra = ["3.9 \u00d7 10\u00b2\u2074", "3.9x10^24", "5.0000000000000004e+22",
             "1,234", "-0.5", ".5", "3.9E+024", "2/23/2024", "23 February 2024",
             "February 2024", "2024-02", "2024", "2025-05-25 09:12:44+00:00",
             "2025-05-25T09:12:44Z", "True", "no", " Google DeepMind , OpenAI ,",
             "Industry|Academia,Industry|United States of America,United Kingdom"]
    for i, v in enumerate(extra):
        put(folder, "notation-%02d" % i, v.encode("utf-8"))


def manifest_seeds(bindir):
    folder = clean("fuzz_manifest")
    tmp = tempfile.mkdtemp(prefix="modelcat-corpus.")
    try:
        store = os.path.join(tmp, "store")
        env = dict(os.environ, MODELCAT_DB=os.path.join(tmp, "c.db"))
        snaps = sorted(glob.glob(os.path.join(TOP, "snapshots", "notable_ai_models",
                                              "*.csv.gz")))
        runs = [("notable_ai_models", snaps[0]), ("notable_ai_models", snaps[0]),
                ("large_scale_ai_models",
                 os.path.join(TOP, "snapshots", "large_scale_ai_models", "2024-07-16.csv.gz")),
                ("notable_ai_models", snaps[1]), ("notable_ai_models", snaps[0])]
        for source, path in runs:
            subprocess.run([os.path.join(bindir, "modelcat"), "fetch", "--snapshots", store,
                            "--source", "%s=%s" % (source, path)], env=env, check=True,
                           stdout=subprocess.DEVNULL)
        with open(os.path.join(store, "MANIFEST.tsv"), "rb") as f:
            text = f.read()
        # what changes from run to run: the dates and times of the
        # fetches, the files' times, where the tree is
        text = text.replace(TOP.encode(), b"/srv/modelcat")
        text = re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", b"2025-05-06T12:00:00Z", text)
        text = re.sub(rb"\t(\w+)/\d{4}-\d\d-\d\d(T\d{6}Z-)?", lambda m: b"\t" + m.group(1)
                      + b"/2025-05-06" + (b"T120001Z-" if m.group(2) else b""), text)
        text = re.sub(rb"\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT",
                      b"Tue, 06 May 2025 10:00:00 GMT", text)
        put(folder, "manifest.tsv", text)
        put(folder, "manifest-cut.tsv", text[:-40])
        lines = text.split(b"\n")
        put(folder, "manifest-escaped.tsv", lines[0] + b"\n" + lines[1].replace(
            b"\t\t", b"\t\\t\"x\\\\y\\n\"\t", 1) + b"\n")
    finally:
        shutil.rmtree(tmp)


XLIFF_HEAD = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
              b'<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
              b'<file original="p" source-language="en" target-language="nl" '
              b'datatype="plaintext"><body>\n')
XLIFF_TAIL = b"</body></file></xliff>\n"


def xliff_seeds():
    folder = clean("fuzz_xliff")
    for lang in ("en", "nl"):
        with open(os.path.join(TOP, "translations", lang + ".xlf"), "rb") as f:
            text = f.read()
        put(folder, lang + ".xlf", text)
        units = re.findall(rb"<trans-unit .*?</trans-unit>", text, re.S)
        put(folder, lang + "-few.xlf", XLIFF_HEAD + b"\n".join(units[:4]) + XLIFF_TAIL)
        put(folder, lang + "-cut.xlf", text[:len(text) // 2])
    unit = (b'<trans-unit id="a.b"><source>About <x id="mem4"/> at '
            b'<g ctype="x-optional">4-bit <x id="n"/></g></source>'
            b'<target state="translated">Ongeveer <x id="mem4"/> {{</target></trans-unit>\n'
            b'<group id="g"><trans-unit id="c"><source><![CDATA[a < b]]> &amp; &#233;</source>'
            b'<target state="new">x</target></trans-unit></group>\n')
    put(folder, "inline.xlf", XLIFF_HEAD + unit + XLIFF_TAIL)
    hostile = {
        "xxe.xlf": b'<!DOCTYPE xliff [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n',
        "dtd.xlf": b'<!DOCTYPE xliff SYSTEM "http://127.0.0.1:9/evil.dtd">\n',
        "bomb.xlf": b'<!DOCTYPE xliff [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;">]>\n',
    }
    for fname, doctype in sorted(hostile.items()):
        head = XLIFF_HEAD.split(b"\n", 1)
        put(folder, fname, head[0] + b"\n" + doctype + head[1] + unit + XLIFF_TAIL)
    put(folder, "xinclude.xlf", XLIFF_HEAD + b'<xi:include xmlns:xi="http://www.w3.org/2001/'
        b'XInclude" href="/etc/passwd"/>\n' + unit + XLIFF_TAIL)
    put(folder, "undefined-entity.xlf", XLIFF_HEAD + b'<trans-unit id="e"><source>&passwd;'
        b'</source></trans-unit>\n' + XLIFF_TAIL)


def main():
    bindir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "bin")
    csv_seeds()
    normalise_seeds()
    xliff_seeds()
    manifest_seeds(bindir)


if __name__ == "__main__":
    main()
