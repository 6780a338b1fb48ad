"""Facts about the pages of the bundled history, read from the store with
Python's csv module (storeref.py, check_pages.py), for t0081:

  python3 pagesref.py SNAPSHOTS COLUMNS count     models on record at the end
  python3 pagesref.py SNAPSHOTS COLUMNS repeated  a name repeated in the latest all_ai_models, as NAME#2
  python3 pagesref.py SNAPSHOTS COLUMNS bare      STEM<TAB>NAME of a model with no origin field and no parameters
  python3 pagesref.py SNAPSHOTS COLUMNS years     the years in which some model has a training compute and a publication date
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_pages import latest_snapshots, name_of, read_rows, stem  # noqa: E402
from csvref import column_map  # noqa: E402

ORIGIN = ['Organization', 'Organization categorization', 'Country (of organization)',
          'Publication date', 'Authors', 'Parameters']


def compute_year(row, canon):
    """The year of the row's publication date when it has a training
    compute above 0 too: a set of none or one."""
    v = {canon.get(h.strip(), h.strip()): (x or '').strip() for h, x in row.items() if h}
    try:
        compute = float(v.get('Training compute (FLOP)', ''))
    except ValueError:
        return set()
    date = v.get('Publication date', '')
    if not (compute > 0 and compute != float('inf')) or len(date) < 4 or not date[:4].isdigit():
        return set()
    return {int(date[:4])}


def main():
    snapshots, columns, what = sys.argv[1:4]
    canon, _ = column_map(columns)
    latest = [(e, read_rows(f)) for e, f in latest_snapshots(snapshots)]
    names, values, years = set(), {}, set()
    for export, rows in latest:
        seen = {}
        for row in rows:
            name = name_of(row)
            if not name:
                continue
            seen[name] = seen.get(name, 0) + 1
            names.add(name if seen[name] == 1 else '%s#%d' % (name, seen[name]))
            if seen[name] == 1:
                years.update(compute_year(row, canon))
                v = values.setdefault(name, set())
                v.update(canon.get(h.strip(), h.strip()) for h, x in row.items()
                         if h and x and x.strip())
    if what == 'count':
        print(len(names))
    elif what == 'repeated':
        rows = dict(latest)['all_ai_models']
        counts = {}
        for r in rows:
            counts[name_of(r)] = counts.get(name_of(r), 0) + 1
        print(sorted(n for n, c in counts.items() if c > 1 and n)[0] + '#2')
    elif what == 'years':
        print(len(years))
    elif what == 'bare':
        name = sorted(n for n in values if not values[n] & set(ORIGIN))[0]
        print('%s\t%s' % (stem(name), name))


if __name__ == '__main__':
    main()
