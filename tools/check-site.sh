#!/bin/sh
# make check-site: publish the bundled history (snapshots/) into a private
# folder, serve it on a loopback port the system chooses, and run
# Lighthouse (pinned, from npm, installed under build/lighthouse) with
# Debian's chromium on the root page, both indexes, a model page, a hardware
# page, an audit page, and the largest audit page, the largest dated audit
# and the largest hardware page (chosen by size when it runs), served
# compressed as a web server
# would. Each must score 100 in
# accessibility, best practices and SEO, and at least 95 in performance
# (its best of up to three runs: that score follows the machine's load);
# the scores are printed, and any below fails.
# Before that, every HTML page of the publication is laid out 400 px wide
# in chromium (tools/widths.py): a page wider than that, or one whose width
# cannot be read, fails, and the number of pages read must be the number
# of HTML files published. Then the index's charts are used as a reader
# uses them (tools/charts.js: hover, focus, keys, text size at 400 px).
# CHECK_SITE_OFFLINE=1 skips Lighthouse (not the width check), saying why,
# when npm cannot be reached; otherwise an npm that cannot be reached fails
# it (CI must have it).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
LIGHTHOUSE_VERSION=12.2.3
LH_DIR=$TOP/build/lighthouse
LH=$LH_DIR/node_modules/.bin/lighthouse
BIN=${MODELCAT_BIN:-$TOP/bin}

say() { echo "check-site: $*"; }
fail() { say "FAIL: $*"; exit 1; }

installed_version() {
	node -e 'console.log(require(process.argv[1]).version)' \
		"$LH_DIR/node_modules/lighthouse/package.json" 2>/dev/null || true
}

LH_SKIP=
if [ ! -x "$LH" ] || [ "$(installed_version)" != "$LIGHTHOUSE_VERSION" ]; then
	command -v npm >/dev/null || fail "npm is not installed (apt-get install npm)"
	mkdir -p "$LH_DIR"
	say "installing lighthouse@$LIGHTHOUSE_VERSION into build/lighthouse"
	if ! npm install --prefix "$LH_DIR" --no-audit --no-fund --no-save \
		"lighthouse@$LIGHTHOUSE_VERSION" >"$LH_DIR/npm.log" 2>&1; then
		if [ "${CHECK_SITE_OFFLINE:-}" = 1 ]; then
			LH_SKIP="npm could not install lighthouse@$LIGHTHOUSE_VERSION (CHECK_SITE_OFFLINE=1; see build/lighthouse/npm.log)"
		else
			tail -5 "$LH_DIR/npm.log" | sed 's/^/check-site:   /'
			fail "npm could not install lighthouse@$LIGHTHOUSE_VERSION (is the npm registry reachable?)"
		fi
	fi
fi
CHROME_PATH=${CHROME_PATH:-$(command -v chromium || true)}
[ -n "$CHROME_PATH" ] || fail "chromium is not installed (apt-get install chromium)"
export CHROME_PATH

WORK=$(mktemp -d "${TMPDIR:-/tmp}/modelcat-site.XXXXXX")
SERVER=
cleanup() {
	[ -z "$SERVER" ] || kill "$SERVER" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

SITE=$WORK/site
mkdir -p "$SITE"
# a loopback server on a port the system chooses, written to a file
python3 - "$SITE" "$WORK/port" <<'PY' >"$WORK/server.log" 2>&1 &
# as a web server serves a site: HTML, SVG, JavaScript and text compressed (gzip) for a
# client that accepts it
import functools, gzip, http.server, os, sys
root, port_file = sys.argv[1], sys.argv[2]

class Handler(http.server.SimpleHTTPRequestHandler):
    def send_head(self):
        path = self.translate_path(self.path)
        if (os.path.isfile(path) and path.endswith((".html", ".txt", ".json", ".atom", ".svg", ".js"))
                and "gzip" in self.headers.get("Accept-Encoding", "")):
            with open(path, "rb") as f:
                body = gzip.compress(f.read())
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return None
        return super().send_head()

handler = functools.partial(Handler, directory=root)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
PY
SERVER=$!
i=0
while [ ! -s "$WORK/port" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "the loopback server did not start"
	kill -0 "$SERVER" 2>/dev/null || fail "the loopback server failed: $(cat "$WORK/server.log")"
	sleep 0.1
done
BASE=http://127.0.0.1:$(cat "$WORK/port")/

say "publishing the bundled history"
export MODELCAT_DB=$WORK/modelcat.db
"$BIN/modelcat" reingest --snapshots "$TOP/snapshots" >"$WORK/reingest.log" 2>&1 ||
	[ $? = 1 ] || fail "reingest failed: $(tail -3 "$WORK/reingest.log")"
"$BIN/modelcat" translate >"$WORK/translate.log" 2>&1 || fail "translate failed"
"$BIN/modelcat" publish --out "$SITE" --base-url "$BASE" >"$WORK/publish.log" 2>&1 ||
	fail "publish failed: $(tail -3 "$WORK/publish.log")"

# no page scrolls sideways on a screen 400 px wide: every HTML file of the
# publication (symbolic links followed, .modelcat left out), read in chromium
say "laying out every page 400 px wide"
HTML_FILES=$(find -L "$SITE" -name .modelcat -prune -o -type f -name '*.html' -print | wc -l | tr -d ' ')
[ "$HTML_FILES" -gt 0 ] || fail "the publication has no HTML file"
widths_status=0
python3 "$TOP/tools/widths.py" --width 400 "$CHROME_PATH" "$SITE" >"$WORK/widths.out" 2>&1 ||
	widths_status=$?
# the offenders (the first 40) and the count
grep -v '^widths: ' "$WORK/widths.out" | head -40 | sed 's/^/check-site:   /'
grep '^widths: ' "$WORK/widths.out" | sed 's/^/check-site: /'
[ $widths_status = 0 ] || fail "pages wider than 400 px or unread (above; tools/widths.py)"
checked=$(sed -n 's/^widths: \([0-9]*\) pages at 400 px: 0 wide, 0 unreadable$/\1/p' "$WORK/widths.out")
[ "$checked" = "$HTML_FILES" ] ||
	fail "tools/widths.py read ${checked:-no} pages of $HTML_FILES HTML files"
say "ok: $checked pages of $HTML_FILES fit 400 px"
if [ -n "$LH_SKIP" ]; then
	say "SKIP: Lighthouse and the charts in chromium: $LH_SKIP"
	exit 0
fi

# the index's charts as a reader meets them (tools/charts.js, with the
# puppeteer-core that Lighthouse brings): hover, focus and keys show a
# model and link to its page, every chart's text 11 px or more at 400 px,
# the points and the CSV agree; screenshots into CHECK_SITE_SHOTS when set
say "the charts in chromium"
charts_status=0
node "$TOP/tools/charts.js" "$LH_DIR/node_modules" "$CHROME_PATH" "$BASE" "$SITE" \
	${CHECK_SITE_SHOTS:+"$CHECK_SITE_SHOTS"} >"$WORK/charts.out" 2>&1 || charts_status=$?
grep -v ': ok: ' "$WORK/charts.out" | sed 's/^/check-site: /'
[ $charts_status = 0 ] || fail "the charts (above; tools/charts.js)"

# the pages: the root, both indexes, GPT-4's English page, the RTX
# 4090's hardware page, the newest audit, and the largest audit page, dated
# audit and hardware page of this publication (by their size in bytes)
link_of() {	# INDEX NAME: the href of the link whose text is NAME (or starts "NAME —")
	python3 - "$1" "$2" <<'PY'
import html.parser, sys
name = sys.argv[2]
class P(html.parser.HTMLParser):
    href = None; found = None; text = ""
    def handle_starttag(self, tag, attrs):
        if tag == "a": self.href = dict(attrs).get("href"); self.text = ""
    def handle_data(self, d):
        if self.href is not None: self.text += d
    def handle_endtag(self, tag):
        if tag == "a" and self.href is not None:
            if (self.text == name or self.text.startswith(name + " \u2014")) and not self.found:
                self.found = self.href
            self.href = None
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read()); print(p.found or "")
PY
}
MODEL=$(link_of "$SITE/pages/en/index.all.html" "GPT-4")
[ -n "$MODEL" ] || fail "GPT-4 is not in the English table of every model"
CARD=$(link_of "$SITE/pages/en/hardware/index.html" "NVIDIA GeForce RTX 4090")
[ -n "$CARD" ] || fail "the RTX 4090 is not in the English hardware index"
AUDIT=$(cd "$SITE/audit" && ls [0-9]*.html | sort | tail -1)
largest() {	# FOLDER PATTERN: the largest HTML file under SITE/FOLDER whose path matches PATTERN
	python3 - "$SITE" "$1" "$2" <<'PY'
import fnmatch, os, sys
site, folder, pattern = sys.argv[1:]
best = None
for top, dirs, files in os.walk(os.path.join(site, folder), followlinks=True):
    for f in files:
        p = os.path.join(top, f)
        rel = os.path.relpath(p, site)
        if f.endswith(".html") and fnmatch.fnmatch(rel, pattern):
            key = (os.path.getsize(p), rel)
            best = max(best, key) if best else key
print(best[1] if best else "")
PY
}
BIG_AUDIT=$(largest audit 'audit/*')
[ -n "$BIG_AUDIT" ] || fail "the publication has no audit page"
# the largest dated audit itself too, not only its largest page of a list
BIG_DAY=$(largest audit 'audit/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].html')
[ -n "$BIG_DAY" ] || fail "the publication has no dated audit page"
BIG_CARD=$(largest pages 'pages/*/hardware/*')
[ -n "$BIG_CARD" ] || fail "the publication has no hardware page"
PAGES="index.html pages/en/index.html pages/nl/index.html pages/en/$MODEL pages/en/hardware/$CARD audit/$AUDIT"
for page in $BIG_AUDIT $BIG_DAY $BIG_CARD; do
	case " $PAGES " in *" $page "*) ;; *) PAGES="$PAGES $page" ;; esac
done
say "largest audit page $BIG_AUDIT ($(wc -c <"$SITE/$BIG_AUDIT" | tr -d ' ') bytes)," \
    "largest dated audit $BIG_DAY ($(wc -c <"$SITE/$BIG_DAY" | tr -d ' ') bytes)," \
    "largest hardware page $BIG_CARD ($(wc -c <"$SITE/$BIG_CARD" | tr -d ' ') bytes)"

# Lighthouse's performance score follows the machine's load: a page is
# measured up to three times and passes with its first run that meets the bar
status=0
for page in $PAGES; do
	out=$WORK/lh-$(echo "$page" | tr '/.' '--').json
	run=1
	while :; do
		if ! "$LH" "$BASE$page" --quiet --output=json --output-path="$out" \
			--only-categories=performance,accessibility,best-practices,seo \
			--chrome-flags="--headless=new --no-sandbox" >"$WORK/lh.log" 2>&1; then
			tail -5 "$WORK/lh.log" | sed 's/^/check-site:   /'
			fail "lighthouse could not run on $page"
		fi
		if python3 - "$out" "$page" "$run" <<'PY'; then break; fi
import json, sys
report = json.load(open(sys.argv[1]))
need = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
cats = report["categories"]
scores = {k: round((cats[k]["score"] or 0) * 100) for k in need}
bad = [k for k in need if scores[k] < need[k]]
print("check-site: %-36s run %s: %s%s" % (sys.argv[2], sys.argv[3],
      "  ".join("%s %d" % (k, scores[k]) for k in need), "  BELOW" if bad else ""))
for k in bad:
    for ref in cats[k]["auditRefs"]:
        a = report["audits"][ref["id"]]
        if ref.get("weight") and a.get("score") is not None and a["score"] < 1:
            print("check-site:     %s: %s %s" % (k, ref["id"], a.get("displayValue", "")))
sys.exit(1 if bad else 0)
PY
		run=$((run + 1))
		if [ $run -gt 3 ]; then
			status=1
			break
		fi
	done
done
[ $status = 0 ] || fail "a page scored below the bar (accessibility, best practices, SEO 100; performance 95)"
say "ok: $(echo $PAGES | wc -w | tr -d " ") pages, Lighthouse $LIGHTHOUSE_VERSION"
