#!/usr/bin/env python3
"""Make the zip fixtures read by tests/unit/test_csv.c.

Run from this folder: python3 make_zips.py. The output is deterministic
(fixed timestamps), so rerunning it leaves the files unchanged.
"""
import io
import zipfile

WHEN = (2024, 7, 16, 12, 0, 0)
CSV_A = b'Model,Parameters\r\nGPT-2,1500000000\r\n"BERT, large","340000000"\r\n'
CSV_B = (b'Model,Notes\n"Chinchilla","trained on\nMassiveText"\n'
         b'Gopher,"""big"""\n')


def member(zf, name, data, method):
    info = zipfile.ZipInfo(name, date_time=WHEN)
    info.compress_type = method
    info.external_attr = 0o644 << 16
    zf.writestr(info, data)


class Unseekable(io.RawIOBase):
    """A write-only stream that cannot seek or tell: zipfile then writes a
    data descriptor after each member."""

    def __init__(self):
        self.buf = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.buf += b
        return len(b)


def write(path, members, streamed=False):
    if streamed:
        out = Unseekable()
        with zipfile.ZipFile(out, 'w') as zf:
            for m in members:
                member(zf, *m)
        data = bytes(out.buf)
    else:
        out = io.BytesIO()
        with zipfile.ZipFile(out, 'w') as zf:
            for m in members:
                member(zf, *m)
        data = out.getvalue()
    with open(path, 'wb') as f:
        f.write(data)


S, D = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED
# a non-csv member first, then the csv stored, then another csv deflated
write('sample.zip', [('README.txt', b'not this one\n' * 20, D),
                     ('data.csv', CSV_A, S),
                     ('other.csv', CSV_B, D)])
# a folder entry and a text member first; the csv (upper-case suffix)
# deflated
write('deflated.zip', [('notes.txt', b'notes', S),
                       ('export/', b'', S),
                       ('export/Models.CSV', CSV_B, D)])
# written to a stream: every member has a data descriptor (flag bit 3) and
# zero sizes in its local header
write('streamed.zip', [('a.txt', b'text\n', D),
                       ('data.csv', CSV_B, D)], streamed=True)
write('streamed_stored.zip', [('data.csv', CSV_A, S)], streamed=True)
# no member ends in .csv
write('nocsv.zip', [('data.txt', CSV_A, D), ('data.csv.bak', CSV_A, S)])
# a compression method the reader refuses (bzip2 = 12)
write('bzip2.zip', [('data.csv', CSV_A, zipfile.ZIP_BZIP2)])
