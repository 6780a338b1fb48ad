"""Reading exports for the tests, independently of modelcat: Python's csv
module for the rows, and the column map (pipelines/columns.tsv, which is
configuration, not code under test) for the header."""
import re
import csv, gzip, io, unicodedata, zipfile


def canonical(text):
    """A name as docs/normalisation.md ("Names") compares it: no-break
    spaces as spaces, byte-order marks and zero-width characters removed,
    then NFC."""
    text = text.replace('\u00a0', ' ').replace('\u202f', ' ')
    for invisible in '\ufeff\u200b\u200c\u200d\u2060':
        text = text.replace(invisible, '')
    return unicodedata.normalize('NFC', text)


def read_rows(path):
    """Every record of a .csv, .csv.gz or .zip (first .csv member) file."""
    data = open(path, 'rb').read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    elif data[:4] == b'PK\x03\x04':
        z = zipfile.ZipFile(io.BytesIO(data))
        data = z.read([n for n in z.namelist() if n.lower().endswith('.csv')][0])
    return list(csv.reader(io.StringIO(data.decode('utf-8-sig'), newline='')))


def column_map(path):
    """(header -> canonical field, canonical field -> type). A number field
    with the flag rollup has the type 'rollup' (rollup_numbers())."""
    canon, types = {}, {}
    for line in open(path, encoding='utf-8'):
        if line.startswith('#') or not line.strip():
            continue
        parts = line.rstrip('\n').split('\t')
        flags = parts[3].split() if len(parts) > 3 else []
        types[parts[0]] = 'rollup' if 'rollup' in flags else parts[1]
        canon[parts[0]] = parts[0]
        for alias in (parts[2].split('|') if len(parts) > 2 else []):
            if alias:  # an empty aliases field before the flags
                canon[alias] = parts[0]
    return canon, types


def rollup_numbers(cell):
    """The numbers of a rollup cell (docs/normalisation.md, "Renamed
    columns"), as a tuple of floats: one number when the cell reads as one
    ("1,234" with thousands separators), else each comma-separated item,
    items equal at 15 significant digits once, in cell order; None when an
    item is not a number."""
    cell = cell.strip()
    if re.fullmatch(r'[-+]?\d{1,3}(,\d{3})+(\.\d*)?', cell):
        return (float(cell.replace(',', '')),)
    items = []
    for item in cell.split(','):
        try:
            value = float(item.strip())
        except ValueError:
            return None
        if not any(v == value or abs(v - value) <= 1e-14 * max(abs(v), abs(value))
                   for v in items):
            items.append(value)
    return tuple(items)
