#!/usr/bin/env python3
"""Check the pages `modelcat render --all` wrote against the source exports.

An independent reading of the bundled snapshots (Python's csv module;
storeref.py: a bundle's members are exports): the
models on record are the rows of each export's latest snapshot (a name
repeated within an export is NAME#2, NAME#3, ...). For every one of them,
OUT/LANG/STEM.txt and OUT/LANG/STEM.html must exist in every language,
with STEM as docs/pages.md defines it, and nothing else but the index
and its charts (two SVG files, the page of their data).
Then, for a sample of models of the latest notable export (every STEP-th
row that has parameters, training compute and a publication date), the
English text page must show those three figures as the page rules write
them: 530B, 3.9 × 10²⁴ FLOP, 23 February 2024.

usage: check_pages.py SNAPSHOTS OUT LANG... [--step N]
Prints one line per problem, then a summary; exit 0 when there is none.
"""
import csv, datetime, hashlib, io, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csvref import canonical  # noqa: E402
from storeref import files as store_files, text as store_text  # noqa: E402

SUPERSCRIPT = str.maketrans('0123456789-', '⁰¹²³⁴⁵⁶⁷⁸⁹⁻')


def read_rows(f):
    """The records of a store file (storeref.files(): a bundle's member too)."""
    return list(csv.DictReader(io.StringIO(store_text(f).lstrip('\ufeff'), newline='')))


def latest_snapshots(snapshots):
    """(export, file) of each export's latest file, a bundle's members each
    an export of its own."""
    latest = {}
    for f in store_files(snapshots):
        latest[f[1]] = f
    for export in sorted(latest):
        yield export, latest[export]


def name_of(row):
    return canonical(row.get('Model') if 'Model' in row else row.get('System', '')).strip()


def stem(name):
    """docs/pages.md: the name's bytes, ASCII letters lower-cased and digits
    kept, every other run one '-', at most 60 bytes, no '-' at the ends;
    then '-' and ten hex digits of its SHA-256."""
    slug = ''
    for byte in name.encode():
        if len(slug) == 60:
            break
        c = chr(byte).lower() if byte < 128 else ''
        if c and (c.isdigit() or 'a' <= c <= 'z'):
            slug += c
        elif slug and slug[-1] != '-':
            slug += '-'
    return (slug.rstrip('-') or 'model') + '-' + hashlib.sha256(name.encode()).hexdigest()[:10]


def trim(text):
    return text.rstrip('0').rstrip('.') if '.' in text else text


def count(value):
    rounded = float('%.2e' % value)
    for scale, suffix in ((1e12, 'T'), (1e9, 'B'), (1e6, 'M')):
        if rounded >= scale:
            x = rounded / scale
            return trim('%.*f' % (0 if x >= 100 else 1 if x >= 10 else 2, x)) + suffix
    return '{:,}'.format(round(value))


def power_of_ten(value):
    mantissa, exponent = ('%.2e' % value).split('e')
    return '%s × 10%s FLOP' % (trim(mantissa), str(int(exponent)).translate(SUPERSCRIPT))


def long_date(iso):
    d = datetime.date.fromisoformat(iso)
    return '%d %s %d' % (d.day, d.strftime('%B'), d.year)


def pairs(path):
    """label -> value of a text page's '- label' / '- value' lines."""
    lines = open(path, encoding='utf-8').read().split('\n')
    out, i = {}, 0
    while i + 1 < len(lines):
        if lines[i].startswith('- ') and lines[i + 1].startswith('- '):
            out.setdefault(lines[i][2:], lines[i + 1][2:])
            i += 2
        else:
            i += 1
    return out


def main():
    args = sys.argv[1:]
    step = 50
    if '--step' in args:
        k = args.index('--step')
        step = int(args[k + 1])
        del args[k:k + 2]
    snapshots, out, langs = args[0], args[1], args[2:]
    problems = []
    names = set()
    for export, path in latest_snapshots(snapshots):
        seen = {}
        for row in read_rows(path):
            name = name_of(row)
            if not name:
                continue
            seen[name] = seen.get(name, 0) + 1
            names.add(name if seen[name] == 1 else '%s#%d' % (name, seen[name]))
    expected = {stem(n) for n in names}
    for lang in langs:
        files = set(os.listdir(os.path.join(out, lang)))
        want = {s + ext for s in expected for ext in ('.txt', '.html')} | {'index.txt', 'index.html', 'index.compute.svg', 'index.parameters.svg',
                                                                             'index.all.html', 'index.rows.js',
                                                                             'index.charts.txt', 'index.charts.html'} | \
               {'index.%s.%s' % (c, e) for c in ('compute', 'parameters') for e in ('all.svg', 'csv', 'js')}
        files.discard('hardware')   # the hardware pages' folder (t0123 checks it)
        # each year's chart and ranking (t0160 checks them; t0081 counts them)
        files = {f for f in files if not re.fullmatch(r'index\.compute-[0-9]+\.(svg|csv)', f)}
        for f in sorted(want - files)[:10]:
            problems.append('%s: missing %s' % (lang, f))
        extra = []
        for f in sorted(files - want):
            # a renamed model's former name: a redirect to a page that is there
            path = os.path.join(out, lang, f)
            text = open(path, encoding='utf-8').read()
            target = re.search(r'url=([a-z0-9-]+\.html)"' if f.endswith('.html')
                               else r': ([a-z0-9-]+\.txt)\n$', text)
            if not target or target.group(1) not in want or len(text.splitlines()) > 20:
                extra.append(f)
        for f in extra[:10]:
            problems.append('%s: unexpected %s' % (lang, f))
        index = open(os.path.join(out, lang, 'index.txt'), encoding='utf-8').read()
        listed = sum(1 for line in index.split('\n') if line.startswith('- '))
        if listed != len(names):
            problems.append('%s: the index lists %d models, not %d' % (lang, listed, len(names)))

    notable = dict(latest_snapshots(snapshots))['notable_ai_models']
    rows = read_rows(notable)
    repeated = {n for n in (name_of(r) for r in rows) if sum(1 for r in rows if name_of(r) == n) > 1}
    sample = [r for r in rows if r['Parameters'] and r['Training compute (FLOP)'] and
              r['Publication date'] and name_of(r) not in repeated][::step]
    for row in sample:
        name = name_of(row)
        page = pairs(os.path.join(out, 'en', stem(name) + '.txt'))
        want = {'Parameters': count(float(row['Parameters'])),
                'Training compute': power_of_ten(float(row['Training compute (FLOP)'])),
                'Published': long_date(row['Publication date'])}
        for label, value in want.items():
            if page.get(label) != value:
                problems.append('%s: %s is %r on the page, %r in the source' % (
                    name, label, page.get(label), value))
    for p in problems:
        print(p)
    print('%d models, %d languages, %d sampled models checked (%s)' % (
        len(names), len(langs), len(sample), ', '.join(name_of(r) for r in sample[:4]) + ', ...'))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
