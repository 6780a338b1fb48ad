"""An independent reading of a snapshot store (docs/store.md) for the tests:
its export files by date, a bundle (DATE.zip of several .csv members) read
as one export per member, with Python's csv, gzip and zipfile modules.

  python3 storeref.py DIR files            date<TAB>export<TAB>path, oldest first
  python3 storeref.py DIR dates            the snapshot dates, oldest first
  python3 storeref.py DIR count            the number of export files
  python3 storeref.py DIR rows EXPORT [D]  data rows of EXPORT's latest file on or before D
  python3 storeref.py DIR cat EXPORT [D]   that file's CSV text on stdout
"""
import csv, gzip, io, os, re, sys, zipfile

STEM = re.compile(r'^(\d{4}-\d{2}-\d{2})(T\d{6}Z-[0-9a-f]{12})?\.(csv|csv\.gz|zip)$')


def files(store):
    """(date, export, path, member) for the day's latest file of each folder."""
    out = []
    for folder in sorted(os.listdir(store)):
        d = os.path.join(store, folder)
        if folder.startswith('.') or not os.path.isdir(d):
            continue
        by_date = {}
        for name in sorted(os.listdir(d)):
            m = STEM.match(name)
            if m:
                by_date[m.group(1)] = name          # the last name of a day
        for date, name in sorted(by_date.items()):
            path = os.path.join(d, name)
            members = []
            if name.endswith('.zip'):
                with zipfile.ZipFile(path) as z:
                    members = [n for n in z.namelist() if n.endswith('.csv')]
            if len(members) > 1:
                for mem in members:
                    out.append((date, os.path.basename(mem)[:-4], path, mem))
            else:
                out.append((date, folder, path, members[0] if members else None))
    return sorted(out, key=lambda f: (f[0], f[1]))


def text(f):
    _, _, path, member = f
    if member:
        with zipfile.ZipFile(path) as z:
            return z.read(member).decode('utf-8')
    if path.endswith('.gz'):
        return gzip.open(path, 'rt', encoding='utf-8', newline='').read()
    return open(path, encoding='utf-8', newline='').read()


def latest(store, export, as_of='9999-12-31'):
    fs = [f for f in files(store) if f[1] == export and f[0] <= as_of]
    return fs[-1] if fs else None


def rows(store, export, as_of='9999-12-31'):
    f = latest(store, export, as_of)
    return list(csv.reader(io.StringIO(text(f), newline='')))[1:] if f else []


if __name__ == '__main__':
    store, what = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    if what == 'files':
        for f in files(store):
            print('%s\t%s\t%s%s' % (f[0], f[1], f[2], '/' + f[3] if f[3] else ''))
    elif what == 'dates':
        print(' '.join(sorted({f[0] for f in files(store)})))
    elif what == 'count':
        print(len(files(store)))
    elif what == 'rows':
        print(len(rows(store, *args)))
    elif what == 'cat':
        sys.stdout.write(text(latest(store, *args)))
