#!/bin/sh
# The width check of make check-site (tools/widths.py, issue 47, point 4)
# on a small site made here: pages that fit 400 px (one exactly 400 px
# wide, one whose long word breaks, one whose wide table scrolls in its
# own box, one with a space and a # in its name), pages wider than that
# (a block of 2,000 px, one of 401 px, a 2,000-character word that cannot
# break), a page that cannot be read (a link to no file), and a wide page
# under .modelcat, which is not published. The tool must name exactly the
# wide and the unreadable ones, the widths of the blocks as they are set,
# and count every HTML file; run in batches of two pages too (several
# Chromium runs). Skipped without chromium.
. "$(dirname "$0")/lib.sh"

CHECKS="a site with wide and unreadable pages fails (exit 1)
it names exactly the wide pages and the unreadable one
the blocks' widths are the widths they are given
the word that cannot break is wider than 400 px
its count: every HTML file, the wide and the unreadable
read in batches of two, the same verdicts
batches of two, the same lines
a site whose pages all fit passes (exit 0)
and counts its pages"
CHROMIUM=$(command -v chromium || true)
if [ -z "$CHROMIUM" ]; then
	echo "$CHECKS" | while IFS= read -r what; do skip "$what" "chromium is not installed"; done
	exit 0
fi

SITE=$TMP/site
mkdir -p "$SITE/pages/en" "$SITE/audit" "$SITE/.modelcat/current"
page() {	# FILE BODY: an HTML page of the site (a phone's viewport, no margin)
	printf '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>t</title></head>\n<body style="margin:0">%s</body></html>\n' "$2" >"$SITE/$1"
}
long=$(python3 -c 'print("x" * 2000)')
page index.html '<p>A short page whose words wrap as any text does, in a column of four hundred pixels.</p>'
page pages/en/exact.html '<div style="width:400px;height:10px"></div>'
page pages/en/breaks.html "<p style=\"overflow-wrap:anywhere\">$long</p>"
page pages/en/table.html '<div style="overflow-x:auto"><table><tr><td style="white-space:nowrap">'"$long"'</td></tr></table></div>'
page 'pages/en/with space #1.html' '<p>a name with a space and a hash</p>'
page pages/en/block.html '<div style="width:2000px;height:10px"></div>'
page pages/en/one-more.html '<div style="width:401px;height:10px"></div>'
page audit/word.html "<p>$long</p>"
page .modelcat/current/hidden.html '<div style="width:2000px;height:10px"></div>'
ln -s no-such-file.html "$SITE/audit/gone.html"

widths() { python3 "$TOP/tools/widths.py" "$@"; }
check_status "a site with wide and unreadable pages fails (exit 1)" 1 widths "$CHROMIUM" "$SITE"
cp "$TMP/out" "$TMP/first"
got=$(grep -v '^widths: ' "$TMP/first" | cut -d' ' -f1-2 | sort | tr '\n' ';')
check_eq "it names exactly the wide pages and the unreadable one" "$got" \
	"unreadable audit/gone.html;wide audit/word.html;wide pages/en/block.html;wide pages/en/one-more.html;"
got=$(grep -e '^wide pages/en/block.html ' -e '^wide pages/en/one-more.html ' "$TMP/first" | tr '\n' ';')
check_eq "the blocks' widths are the widths they are given" "$got" \
	"wide pages/en/block.html 2000;wide pages/en/one-more.html 401;"
w=$(sed -n 's/^wide audit\/word.html \([0-9]*\)$/\1/p' "$TMP/first")
check "the word that cannot break is wider than 400 px (${w:-none})" test "${w:-0}" -gt 400
# the HTML files published: every *.html under the site but .modelcat, the
# dangling link too (find -L does not call it a file)
n=$(find "$SITE" -name .modelcat -prune -o -name '*.html' -print | wc -l | tr -d ' ')
check_grep "its count: every HTML file ($n), the wide and the unreadable" \
	"^widths: $n pages at 400 px: 3 wide, 1 unreadable\$" "$TMP/first"

check_status "read in batches of two, the same verdicts" 1 widths --batch 2 "$CHROMIUM" "$SITE"
if ! diff "$TMP/first" "$TMP/out" >"$TMP/diff"; then
	echo "# the batches of two differ:"; sed 's/^/#   /' "$TMP/diff"
	not_ok "batches of two, the same lines"
else
	ok "batches of two, the same lines"
fi

rm "$SITE/audit/gone.html" "$SITE/audit/word.html" "$SITE/pages/en/block.html" "$SITE/pages/en/one-more.html"
check_status "a site whose pages all fit passes (exit 0)" 0 widths "$CHROMIUM" "$SITE"
check_grep "and counts its pages" '^widths: 5 pages at 400 px: 0 wide, 0 unreadable$' "$TMP/out"
done_testing
