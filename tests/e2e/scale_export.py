#!/usr/bin/env python3
"""Write a larger export made of copies of a real one, with unique names.

usage: scale_export.py SOURCE.csv[.gz] COPIES OUT.csv [CHANGE_PERCENT]
Copy k of each row gets the name "NAME (copy k)" (copy 0 keeps its name).
With CHANGE_PERCENT, that share of rows gets its Citations cell changed.
"""
import csv, gzip, io, sys


def main():
    source, copies, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    change = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    data = open(source, 'rb').read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    rows = list(csv.reader(io.StringIO(data.decode('utf-8-sig'), newline='')))
    header, body = rows[0], rows[1:]
    name = header.index('Model') if 'Model' in header else header.index('System')
    cites = header.index('Citations') if 'Citations' in header else None
    every = int(100 / change) if change else 0
    n = 0
    with open(out, 'w', encoding='utf-8', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(header)
        for k in range(copies):
            for row in body:
                row = list(row)
                if k and row[name].strip():
                    row[name] = '%s (copy %d)' % (row[name], k)
                if every and cites is not None and n % every == 0:
                    row[cites] = str(1000000 + n)
                n += 1
                w.writerow(row)


if __name__ == '__main__':
    main()
