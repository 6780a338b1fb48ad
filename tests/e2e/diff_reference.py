#!/usr/bin/env python3
"""An independent reading of what changed between two exports.

Reads both CSV files with Python's csv module, maps the headers through the
column map (pipelines/columns.tsv: configuration, not code under test),
normalises values by their declared type, and works out which models were
added, removed, renamed and changed (field by field, on the fields both
headers have), following the rules in docs/history.md:
  - identity is the trimmed name (the nth row with a name is occurrence n);
  - a name that vanished and a new name are one renamed model when, among
    the unmatched ones, exactly one old and one new model share
    (1) the name folded to lower-case letters and digits, else
    (2) the link and the publication date, else
    (3) the reference and the publication date.
Then compares that with `modelcat diff --format json` for one export.

usage: diff_reference.py COLUMNS_TSV OLD NEW DIFF_JSON EXPORT
Prints the differences; exit 0 when there is none.
"""
import datetime, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csvref import canonical, column_map, read_rows, rollup_numbers  # noqa: E402


def norm(kind, s):
    if kind in ('key', 'list'):
        s = canonical(s)
    s = s.replace('\r\n', '\n').replace('\r', '\n').strip()
    if not s:
        return None
    if kind == 'number':
        return float(s.replace(',', ''))
    if kind == 'rollup':
        numbers = rollup_numbers(s)
        return numbers[0] if len(numbers) == 1 else numbers
    if kind == 'date':
        return datetime.datetime.fromisoformat(s) if len(s) > 10 else s
    if kind == 'list':
        items = [i.strip() for i in s.split(',') if i.strip()]
        return tuple(items) or None
    if kind == 'bool':
        return s.lower() in ('true', 'yes', '1')
    return s


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or abs(a - b) <= 1e-14 * max(abs(a), abs(b))
    return a == b


def load(path, canon, types):
    rows = read_rows(path)
    header = [canon.get(h.strip(), h.strip()) for h in rows[0]]
    fields = {h for h in header if h}
    models, count = {}, {}
    for row in rows[1:]:
        values = {}
        for h, cell in zip(header, row):
            if h:
                v = norm(types.get(h, 'text'), cell)
                if v is not None:
                    values[h] = v
        name = values.get('Model')
        if not name:
            continue
        count[name] = count.get(name, 0) + 1
        models[(name, count[name])] = values
    return fields, models


def fold(name):
    return ''.join(c.lower() if c.isascii() and c.isalnum() else (c if not c.isascii() else '')
                   for c in name)


def rule_key(rule, key, values):
    if rule == 0:
        return fold(key[0])
    a = values.get('Link' if rule == 1 else 'Reference')
    b = values.get('Publication date')
    return (a, b) if a and b else None


def main():
    columns, old_path, new_path, diff_path, export = sys.argv[1:6]
    canon, types = column_map(columns)
    old_fields, old = load(old_path, canon, types)
    new_fields, new = load(new_path, canon, types)
    common = (old_fields & new_fields) - {'Model'}
    added = [k for k in new if k not in old]
    removed = [k for k in old if k not in new]
    renamed = {}
    for rule in range(3):
        pend = [k for k in added if k not in renamed]
        gone = [k for k in removed if k not in renamed.values()]
        pk, gk = {}, {}
        for k in pend:
            key = rule_key(rule, k, new[k])
            if key:
                pk.setdefault(key, []).append(k)
        for k in gone:
            key = rule_key(rule, k, old[k])
            if key:
                gk.setdefault(key, []).append(k)
        for key, ks in pk.items():
            if len(ks) == 1 and len(gk.get(key, [])) == 1:
                renamed[ks[0]] = gk[key][0]
    pairs = [(k, k) for k in new if k in old] + [(v, k) for k, v in renamed.items()]
    changed = {}
    for a, b in pairs:
        fields = sorted(f for f in common if not same(old[a].get(f), new[b].get(f)))
        if fields:
            changed[b[0]] = fields
    want = {
        'added': sorted(k[0] for k in added if k not in renamed),
        'removed': sorted(k[0] for k in removed if k not in renamed.values()),
        'renamed': sorted([v[0], k[0]] for k, v in renamed.items()),
        'changed': changed,
    }
    got_all = json.load(open(diff_path, encoding='utf-8'))
    got = {
        'added': sorted(got_all['by_export'].get(export, {}).get('added', [])),
        'removed': sorted(got_all['by_export'].get(export, {}).get('removed', [])),
        'renamed': sorted([r['from'], r['to']] for r in got_all['renamed'] if r['export'] == export),
        'changed': {c['name']: sorted(f['field'] for f in c['fields'])
                    for c in got_all['changed'] if c['export'] == export},
    }
    # a renamed model's value changes are listed with its rename
    got['changed'].update({r['to']: sorted(f['field'] for f in r['fields'])
                           for r in got_all['renamed'] if r['export'] == export and r.get('fields')})
    problems = 0
    for key in ('added', 'removed', 'renamed'):
        if want[key] != got[key]:
            problems += 1
            print('%s: expected %d, modelcat %d; only expected: %s; only modelcat: %s' % (
                key, len(want[key]), len(got[key]),
                [x for x in want[key] if x not in got[key]][:5],
                [x for x in got[key] if x not in want[key]][:5]))
    for name in sorted(set(want['changed']) | set(got['changed'])):
        if want['changed'].get(name) != got['changed'].get(name):
            problems += 1
            if problems < 15:
                print('changed %r: expected %s, modelcat %s' % (
                    name, want['changed'].get(name), got['changed'].get(name)))
    print('%d added, %d removed, %d renamed, %d changed; %d problems' % (
        len(want['added']), len(want['removed']), len(want['renamed']),
        len(want['changed']), problems))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
