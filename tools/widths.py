#!/usr/bin/env python3
"""widths.py [--width PX] [--batch N] [--jobs N] [--all] CHROMIUM SITE

Whether any HTML page under SITE scrolls sideways on a narrow screen.
Every *.html file under SITE (symbolic links followed, .modelcat left
out) is laid out in headless Chromium in a frame PX wide (400 unless
told), scroll bars hidden as a phone's are, and the width of its
document (the scrolling element's scrollWidth) is read. Many pages are
read per Chromium run: one probe page holds a frame of each, and each
frame's onload writes its widths into an attribute of the probe, which
Chromium prints (--dump-dom) once every frame has loaded. N runs at a
time (--jobs, 2 unless told).

A page is wide when its document is wider than its frame; a page whose
width could not be read (it did not load, it left for another origin,
Chromium failed, its frame was not PX wide) is read once more in a run
of its own, and if still unread counted as a failure, never as a pass.
Prints each wide page ("wide PATH WIDTH") and each unreadable one
("unreadable PATH"), with --all each page read ("page PATH WIDTH"), and
last "widths: N pages at PX px: W wide, U unreadable". Exit status 0 when
no page is wide or unreadable, 1 when some is, 2 on a usage error."""
import argparse
import html
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

# each frame's first onload writes "scrollWidth clientWidth" into its
# data-w, or "? ?" when its document cannot be read (an error page, another
# origin); a later load (a redirect's meta refresh) leaves it as it is
PROBE = '''<!DOCTYPE html><html><head><meta charset="utf-8"><script>
function m(f) {
  if (f.hasAttribute("data-w")) return;
  var v = "? ?";
  try {
    var d = f.contentWindow.document, e = d.scrollingElement || d.documentElement;
    if (d.URL === f.src && e) v = e.scrollWidth + " " + e.clientWidth;
  } catch (x) { v = "? ?"; }
  f.setAttribute("data-w", v);
}
</script></head><body style="margin:0">%s</body></html>
'''
FRAME = ('<iframe data-i="%d" style="display:block;width:%dpx;height:300px;border:0" '
         'onload="m(this)" src="%s"></iframe>\n')
ROW = re.compile(r'<iframe data-i="(\d+)"[^>]*?data-w="([^"]*)"')


def find_pages(site):
    """Every *.html file under site, .modelcat left out, sorted."""
    pages = []
    for top, dirs, files in os.walk(site, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != '.modelcat')
        pages += [os.path.join(top, f) for f in sorted(files) if f.endswith('.html')]
    return pages


def read_widths(chromium, pages, width, work, tag):
    """{index in pages: scrollWidth} of the pages read in one Chromium run;
    a page left out could not be read."""
    probe = os.path.join(work, 'probe-%s.html' % tag)
    urls = [pathlib.Path(p).as_uri() for p in pages]
    with open(probe, 'w', encoding='utf-8') as f:
        f.write(PROBE % ''.join(FRAME % (i, width, html.escape(u, quote=True))
                                for i, u in enumerate(urls)))
    profile = os.path.join(work, 'profile-%s' % tag)
    try:
        out = subprocess.run([chromium, '--headless', '--no-sandbox', '--disable-gpu',
                              '--hide-scrollbars', '--no-first-run',
                              '--disable-background-networking', '--disable-component-update',
                              '--disable-sync', '--disable-extensions',
                              '--allow-file-access-from-files', '--user-data-dir=' + profile,
                              '--window-size=%d,1000' % (width + 100), '--dump-dom',
                              pathlib.Path(probe).as_uri()],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             check=False).stdout.decode('utf-8', 'replace')
    except OSError as e:
        print('widths: %s: %s' % (chromium, e), file=sys.stderr)
        out = ''
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    got = {}
    for i, w in ROW.findall(out):
        parts = w.split()
        # the frame's own width must be the one asked for: else the
        # measure says nothing about a screen that wide
        if len(parts) == 2 and parts[0].isdigit() and parts[1] == str(width):
            got[int(i)] = int(parts[0])
    return got


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split('\n')[0][10:])
    ap.add_argument('--width', type=int, default=400)
    ap.add_argument('--batch', type=int, default=200)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--all', action='store_true')
    ap.add_argument('chromium')
    ap.add_argument('site')
    a = ap.parse_args()
    if a.width < 1 or a.batch < 1 or a.jobs < 1 or not os.path.isdir(a.site):
        ap.error('a width, batch and jobs of at least 1, and a folder SITE')
    site = os.path.abspath(a.site)
    pages = find_pages(site)
    work = tempfile.mkdtemp(prefix='widths.')
    try:
        parts = [pages[k:k + a.batch] for k in range(0, len(pages), a.batch)]
        with ThreadPoolExecutor(a.jobs) as ex:
            runs = list(ex.map(lambda k: read_widths(a.chromium, parts[k], a.width, work, k),
                               range(len(parts))))
        widths = {}
        for k, got in enumerate(runs):
            for i, w in got.items():
                widths[parts[k][i]] = w
        # what a run could not read, read once more in runs of their own
        again = [p for p in pages if p not in widths]
        for k in range(0, len(again), a.batch):
            part = again[k:k + a.batch]
            for i, w in read_widths(a.chromium, part, a.width, work, 'again-%d' % k).items():
                widths[part[i]] = w
    finally:
        shutil.rmtree(work, ignore_errors=True)
    wide = unreadable = 0
    for p in pages:
        rel = os.path.relpath(p, site)
        w = widths.get(p)
        if w is None:
            unreadable += 1
            print('unreadable %s' % rel)
        elif w > a.width:
            wide += 1
            print('wide %s %d' % (rel, w))
        elif a.all:
            print('page %s %d' % (rel, w))
    print('widths: %d pages at %d px: %d wide, %d unreadable' % (len(pages), a.width, wide, unreadable))
    return 1 if wide or unreadable else 0


if __name__ == '__main__':
    sys.exit(main())
