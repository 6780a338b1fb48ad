#!/usr/bin/env python3
"""Compare an export file with what `modelcat export` gave back.

An independent reading of the source (Python's csv module), used by the
round-trip tests: every row of the source that has a model name, and every
non-empty cell of it, must come back, equal after normalisation (numbers
compared as numbers at 15 significant digits, dates as dates, lists item by
item, whitespace folded). Header names are mapped through the column map
(pipelines/columns.tsv), which is configuration, not code under test.

usage: compare_export.py COLUMNS_TSV SOURCE EXPORTED [--skip-names FILE]
(--skip-names: a file of model names, one a line, '#' comments, whose rows
are expected not to come back: the quarantined ones)
Prints one line per difference; exit 0 when there is none.
"""
import csv, datetime, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csvref import column_map, read_rows, rollup_numbers  # noqa: E402


def fold(s):
    return re.sub(r'\s+', ' ', s).strip()


def as_number(s):
    try:
        return float(fold(s).replace(',', ''))
    except ValueError:
        return None


def as_date(s):
    s = fold(s)
    for fmt in ('%Y-%m-%d', '%Y-%m', '%Y'):
        try:
            return datetime.datetime.strptime(s, fmt)
        except ValueError:
            pass
    try:
        return datetime.datetime.fromisoformat(s)
    except ValueError:
        return None


def same(kind, a, b):
    if kind == 'rollup':
        x, y = rollup_numbers(fold(a)), rollup_numbers(fold(b)) if b.strip() else None
        return x is not None and y is not None and len(x) == len(y) and all(
            same('number', repr(p), repr(q)) for p, q in zip(x, y))
    if kind == 'number':
        x, y = as_number(a), as_number(b)
        # equal at 15 significant digits: within one unit of the 15th
        return x is not None and y is not None and (
            x == y or abs(x - y) <= 1e-14 * max(abs(x), abs(y)))
    if kind == 'date':
        x, y = as_date(a), as_date(b)
        return x is not None and x == y
    if kind == 'list':
        split = lambda s: [fold(i) for i in s.split(',') if fold(i)]
        return split(a) == split(b)
    return fold(a) == fold(b)


def main():
    columns, source, exported = sys.argv[1:4]
    skip = set()
    if len(sys.argv) > 5 and sys.argv[4] == '--skip-names':
        skip = {l.strip() for l in open(sys.argv[5], encoding='utf-8')
                if l.strip() and not l.startswith('#')}
    canon, types = column_map(columns)
    src = read_rows(source)
    out = list(csv.reader(open(exported, encoding='utf-8', newline='')))
    header = [canon.get(h.strip(), h.strip()) for h in src[0]]
    kinds = [types.get(h, 'text') for h in header]
    out_header = out[0]
    out_names = set(out_header)
    # position of each field's first column (as header.index would give)
    first = {}
    for i, h in enumerate(header):
        first.setdefault(h, i)
    problems = 0
    for h in header:
        if h and h not in out_names:
            print('column %r missing from the export' % h)
            problems += 1
    # source rows with their starting line numbers
    rows = []
    line = 2
    for row in src[1:]:
        rows.append((line, row))
        line += sum(cell.count('\n') for cell in row) + 1
    # the key column: the field of type key (Model, Hardware name)
    key = header.index(next(f for f, t in types.items() if t == 'key'))
    keep = [(l, r) for l, r in rows if any(c.strip() for c in r)
            and r[key].strip() and r[key].strip() not in skip]
    if len(keep) != len(out) - 1:
        print('source has %d rows with a name, export has %d' % (len(keep), len(out) - 1))
        problems += 1
    index = {h: i for i, h in enumerate(out_header)}
    for (l, row), got in zip(keep, out[1:]):
        for i, cell in enumerate(row):
            if not cell.strip() or not header[i]:
                continue
            j = index.get(header[i])
            back = got[j] if j is not None and j < len(got) else ''
            if not same(kinds[i], cell, back):
                print('line %d, %s: source %r, export %r' % (l, header[i], cell[:60], back[:60]))
                problems += 1
        for j, value in enumerate(got):
            h = out_header[j]
            if value and h in first and not row[first[h]].strip():
                print('line %d, %s: empty in the source, %r in the export' % (l, h, value[:60]))
                problems += 1
    print('%d rows compared, %d problems' % (len(keep), problems))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
