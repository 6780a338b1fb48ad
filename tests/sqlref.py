#!/usr/bin/env python3
"""The answers to the example questions of docs/sql.md, worked out from the
exports themselves, and a check of what the catalogue's views answer.

The reference reads every snapshot file of the store with Python's csv
module, maps headers through the column map (pipelines/columns.tsv) and
merges a model's fields across exports by pipelines/precedence.tsv (both
configuration, not code under test). A model on a date is a name in the
latest file of each export dated on or before that day (the n-th row of a
repeated name is "NAME#n"); a field's value is the one of the first export,
by precedence, whose row has it. Values are compared by type: numbers as
numbers (15 significant digits), lists as lists, dates and text as text.

Each example's SQL is taken from docs/sql.md (the ```sql block after the
line "<!-- example: NAME -->"), run on the catalogue with Python's sqlite3
module and compared with the reference.

usage: sqlref.py SNAPSHOTS PIPELINES DOCS_SQL_MD CATALOGUE NAME...
Prints one line per difference and "NAME: ok (N rows)" per example;
exit 0 when every example agrees.
"""
import csv, io, json, os, re, sqlite3, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'e2e'))
from csvref import canonical, column_map  # noqa: E402
from storeref import files as store_files, text as store_text  # noqa: E402


def norm(kind, cell):
    """A cell's value by its field's type, None when empty."""
    s = cell.replace('\r\n', '\n').replace('\r', '\n').strip()
    if not s:
        return None
    if kind == 'number':
        return float('%.15g' % float(s.replace(',', '')))
    if kind == 'list':
        items = tuple(i.strip() for i in s.split(',') if i.strip())
        return items or None
    if kind == 'bool':
        return s.lower() in ('true', 'yes', '1')
    if kind == 'date' and len(s) > 10:
        return s.replace(' ', 'T', 1)
    return s


class Store:
    """Every snapshot file: {export: [(date, {model: values})]}, oldest first."""

    def __init__(self, snapshots, pipelines):
        canon, self.types = column_map(os.path.join(pipelines, 'columns.tsv'))
        self.rank = [l.strip() for l in open(os.path.join(pipelines, 'precedence.tsv'))
                     if l.strip() and not l.startswith('#')]
        self.files = {}
        # every export file, a bundle's members each an export (storeref.py)
        for date, export, path, member in store_files(snapshots):
            self.files.setdefault(export, []).append(
                (date, self.load((date, export, path, member), canon)))
        self.dates = sorted({d for files in self.files.values() for d, _ in files})

    def load(self, f, canon):
        rows = list(csv.reader(io.StringIO(store_text(f).lstrip('\ufeff'), newline='')))
        header = [canon.get(h.strip(), h.strip()) for h in rows[0]]
        models, seen = {}, {}
        for row in rows[1:]:
            values = {}
            for field, cell in zip(header, row):
                value = norm(self.types.get(field, 'text'), cell)
                if field and value is not None:
                    values[field] = value
            name = canonical(values.get('Model', ''))
            if not name:
                continue  # quarantined: no name
            seen[name] = seen.get(name, 0) + 1
            models[name if seen[name] == 1 else '%s#%d' % (name, seen[name])] = values
        return models

    def order(self):
        known = [e for e in self.rank if e in self.files]
        return known + sorted(e for e in self.files if e not in known)

    def state(self, day):
        """{model: (values, exports)} on day."""
        out = {}
        for export in self.order():
            files = [m for d, m in self.files[export] if d <= day]
            if not files:
                continue
            for model, values in files[-1].items():
                merged, exports = out.setdefault(model, ({}, []))
                exports.append(export)
                for field, value in values.items():
                    merged.setdefault(field, value)
        return out

    def versions(self, model):
        """[(valid_from, valid_to, values, exports)] of model: its states
        on each snapshot date, equal neighbours joined."""
        out = []
        for day in self.dates:
            now = self.state(day).get(model)
            if out and out[-1][1] is None and (now is None or now != out[-1][2:]):
                out[-1] = (out[-1][0], day) + out[-1][2:]
            if now is not None and (not out or out[-1][1] is not None):
                out.append((day, None) + now)
        return out


def as_value(kind, value):
    """A view's value in the reference's terms."""
    if value is None:
        return None
    if kind == 'number':
        return float('%.15g' % value)
    if kind == 'list':
        return tuple(json.loads(value))
    return value


def close(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float)
                      and abs(a - b) <= 1e-12 * max(abs(a), abs(b)))


def example_sql(doc, name):
    text = open(doc, encoding='utf-8').read()
    m = re.search(r'<!-- example: %s -->\s*```sql\n(.*?)```' % re.escape(name), text, re.S)
    if not m:
        sys.exit('%s: no example %s' % (doc, name))
    return m.group(1)


def compute_per_year(store, rows):
    """year, Model, compute: the largest training compute of each year."""
    best = {}
    for model, (values, _) in store.state(store.dates[-1]).items():
        c, d = values.get('Training compute (FLOP)'), values.get('Publication date')
        if c is None or d is None:
            continue
        year = d[:4]
        if year not in best or c > best[year][0]:
            best[year] = (c, {model})
        elif c == best[year][0]:
            best[year][1].add(model)
    problems = []
    got = {r[0]: r for r in rows}
    for year in sorted(set(best) | set(got)):
        if year not in best or year not in got:
            problems.append('year %s: reference %s, view %s' % (year, best.get(year), got.get(year)))
            continue
        _, model, compute = got[year]
        if not close(float(compute), best[year][0]) or model not in best[year][1]:
            problems.append('year %s: reference %s, view %s %s' % (year, best[year], model, compute))
    return problems


def added_since(store, rows, day='2025-01-01'):
    """Model: on record now, never on record before day."""
    before = set()
    for d in store.dates:
        if d < day:
            before |= set(store.state(d))
    want = sorted(set(store.state(store.dates[-1])) - before)
    got = [r[0] for r in rows]
    return [] if got == want else ['reference %d models, view %d; only in reference %s, only in view %s'
                                   % (len(want), len(got), sorted(set(want) - set(got))[:5],
                                      sorted(set(got) - set(want))[:5])]


def open_weights(store, rows):
    """Model, Parameters, Model accessibility: open weights, > 70e9 parameters."""
    want = {}
    for model, (values, _) in store.state(store.dates[-1]).items():
        access, params = values.get('Model accessibility', ''), values.get('Parameters')
        if access.lower().startswith('open ') and params is not None and params > 70e9:
            want[model] = (params, access)
    got = {r[0]: (float(r[1]), r[2]) for r in rows}
    problems = ['%s: reference %s, view %s' % (m, want.get(m), got.get(m))
                for m in sorted(set(want) | set(got))
                if m not in want or m not in got or not close(got[m][0], want[m][0])
                or got[m][1] != want[m][1]]
    if [float(r[1]) for r in rows] != sorted((float(r[1]) for r in rows), reverse=True):
        problems.append('not in descending order of parameters')
    return problems


def model_changes(store, rows, model='GPT-4'):
    """valid_from, valid_to, compute, power draw, Exports of each version."""
    want = [(f, t, v.get('Training compute (FLOP)'), v.get('Training power draw (W)'), e)
            for f, t, v, e in store.versions(model)]
    got = [(r[0], r[1], as_value('number', r[2]), as_value('number', r[3]), json.loads(r[4]))
           for r in rows]
    if len(want) != len(got):
        return ['reference %d versions %s, view %d %s' % (len(want), want, len(got), got)]
    return ['version %d: reference %s, view %s' % (i, w, g) for i, (w, g) in enumerate(zip(want, got))
            if w[:2] != g[:2] or w[4] != g[4] or any(
                (a is None) != (b is None) or (a is not None and not close(a, b))
                for a, b in zip(w[2:4], g[2:4]))]


def as_of(store, rows, day='2024-12-31'):
    """Model, Organization, Publication date of every model on day."""
    want = {m: (v.get('Organization'), v.get('Publication date'))
            for m, (v, _) in store.state(day).items()}
    got = {r[0]: (as_value('list', r[1]), r[2]) for r in rows}
    if len(got) != len(rows):
        return ['a model on more than one row']
    return ['%s: reference %s, view %s' % (m, want.get(m), got.get(m))
            for m in sorted(set(want) | set(got)) if want.get(m) != got.get(m)]


EXAMPLES = {'compute-per-year': compute_per_year, 'added-since': added_since,
            'open-weights': open_weights, 'model-changes': model_changes, 'as-of': as_of}


def main():
    snapshots, pipelines, doc, catalogue = sys.argv[1:5]
    store = Store(snapshots, pipelines)
    con = sqlite3.connect(catalogue)
    failed = 0
    for name in sys.argv[5:]:
        rows = con.execute(example_sql(doc, name)).fetchall()
        problems = EXAMPLES[name](store, rows)
        for p in problems[:20]:
            print('%s: %s' % (name, p))
        print('%s: %s (%d rows)' % (name, 'differs' if problems else 'ok', len(rows)))
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
