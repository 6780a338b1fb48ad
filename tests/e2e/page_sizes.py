#!/usr/bin/env python3
"""page_sizes.py SITE MIN PATTERN [SKIP]: the HTML pages under SITE whose
path matches PATTERN (a glob, ** for any folders), less those whose name
starts with SKIP, each at most 300 KB and 3,000 elements (start tags, as
Python's html.parser reads them). Prints the number of pages, then up to
five over a limit; exits 1 when a page is over or fewer than MIN were
found (the pattern read nothing)."""
import glob
import os
import sys
from html.parser import HTMLParser


class Count(HTMLParser):
    def __init__(self):
        super().__init__()
        self.n = 0

    def handle_starttag(self, tag, attrs):
        self.n += 1

    def handle_startendtag(self, tag, attrs):
        self.n += 1


site, least, pattern = sys.argv[1], int(sys.argv[2]), sys.argv[3]
skip = sys.argv[4] if len(sys.argv) > 4 else None
files = [f for f in glob.glob(os.path.join(site, pattern), recursive=True)
         if not (skip and os.path.basename(f).startswith(skip))]
bad = []
for f in files:
    size = os.path.getsize(f)
    c = Count()
    c.feed(open(f, encoding='utf-8').read())
    if size > 300 * 1024 or c.n > 3000:
        bad.append('%s: %d bytes, %d elements' % (os.path.relpath(f, site), size, c.n))
print(len(files))
for b in bad[:5]:
    print(b)
sys.exit(1 if bad or len(files) < least else 0)
