#!/usr/bin/env python3
"""linkcheck.py ROOT BASE_URL FILE...: follow every href of the HTML files
and every link of the Atom feeds (files ending in .atom) among FILE to a
file that exists. A relative href is resolved against its file's folder; a
feed's absolute link that starts with BASE_URL is mapped back onto ROOT
(BASE_URL "" : none). Links to other sites (http:, https:, mailto:) of
HTML pages are not followed. Prints one line per broken link and, last,
"checked N links, M broken"; exits 1 when a link is broken."""
import html.parser
import os
import sys
import urllib.parse
import xml.etree.ElementTree as ET


class Hrefs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src") and v is not None:
                self.hrefs.append(v)


def target(root, base, path, href, feed):
    """The file href leads to, or None when it leaves the site."""
    href = href.split("#", 1)[0]
    if base and href.startswith(base):
        return os.path.join(root, urllib.parse.unquote(href[len(base):]))
    scheme = urllib.parse.urlsplit(href).scheme
    if scheme:
        return "" if feed else None  # a feed links only into the site
    if href.startswith("/"):
        return ""
    if not href:
        return path
    return os.path.normpath(os.path.join(os.path.dirname(path), urllib.parse.unquote(href)))


def main():
    root, base, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    if base and not base.endswith("/"):
        base += "/"
    checked = broken = 0
    for path in files:
        feed = path.endswith(".atom")
        if feed:
            tree = ET.parse(path)
            hrefs = [e.get("href") for e in tree.iter("{http://www.w3.org/2005/Atom}link")]
        else:
            p = Hrefs()
            with open(path, encoding="utf-8") as f:
                p.feed(f.read())
            hrefs = p.hrefs
        for href in hrefs:
            t = target(root, base, path, href, feed)
            if t is None:
                continue
            checked += 1
            if not t or not os.path.isfile(t):
                broken += 1
                print("%s: broken link %s" % (path, href))
    print("checked %d links, %d broken" % (checked, broken))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
