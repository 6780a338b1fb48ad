#!/bin/sh
# A page as a browser shows it: headless Chromium (Debian's chromium,
# installed by .ci/run) loads the HTML page of the seed model and of a
# model whose fields hold markup; the rendered DOM holds the model's name
# and compute figure, and the markup in the data stayed text (no script
# ran, no element was made from it).
. "$(dirname "$0")/lib.sh"

FIX=$DATA/fixtures/megascale-2026-05-25
chromium=$(command -v chromium || command -v chromium-browser || true)

# dump FILE: the DOM of FILE after Chromium has loaded and run it
dump() {
	profile=$(mktemp -d "$TMP/profile.XXXXXX")
	"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --dump-dom "file://$1" 2>"$TMP/chromium.err"
}

# rendered_text: the text of a DOM on stdin (no style or script content),
# one line per block element; then the title and the count of elements
# made from data (script, img) on the last lines
rendered_text() {
	python3 -c '
import html.parser, re, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.lines, self.cur, self.skip, self.made, self.title, self.in_title = [], [], 0, 0, "", 0
    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"): self.skip += 1
        # (the pictures of the compute chart are ours: the one over every
        # year for every page, and the one of its year)
        if tag == "script" or (tag == "img" and not re.fullmatch(
                r"index\.compute(\.all|-[0-9]+)?\.svg", dict(attrs).get("src") or "")):
            self.made += 1
        if tag == "title": self.in_title = 1
        if tag in ("h1", "h2", "h3", "h4", "p", "dt", "dd", "li"): self.cur = []
    def handle_endtag(self, tag):
        if tag in ("style", "script"): self.skip -= 1
        if tag == "title": self.in_title = 0
        if tag in ("h1", "h2", "h3", "h4", "p", "dt", "dd", "li"):
            self.lines.append("".join(self.cur)); self.cur = []
    def handle_data(self, d):
        if self.in_title: self.title += d
        elif not self.skip: self.cur.append(d)
p = P(); p.feed(sys.stdin.read())
print("\n".join(p.lines)); print("title: " + p.title); print("made: %d" % p.made)'
}

if [ -z "$chromium" ]; then
	not_ok "chromium is not installed (apt-get install chromium; .ci/run does)"
	done_testing
	exit 0
fi
mc ingest --as-of 2026-05-25 notable_ai_models="$FIX/notable_ai_models.csv" \
	all_ai_models="$FIX/all_ai_models.csv" >/dev/null
mc translate >/dev/null
mc render "MegaScale (Production)" --format html >"$TMP/page.html"
dump "$TMP/page.html" | rendered_text >"$TMP/page.txt"
check_grep "Chromium rendered the page: the title is the model's name" "^MegaScale (Production)$" "$TMP/page.txt"
check_grep "the rendered page holds the compute figure" "^3.9 × 10²⁴ FLOP$" "$TMP/page.txt"
check_grep "and the answer that uses it" "^Around 3.9 × 10²⁴ FLOP, on NVIDIA A100." "$TMP/page.txt"
check_grep "the document title is the model's name" "^title: MegaScale (Production)$" "$TMP/page.txt"

python3 -c '
import csv, sys
w = csv.writer(open(sys.argv[1], "w", newline=""))
w.writerow(["Model", "Organization", "Link", "Reference", "Training compute (FLOP)"])
w.writerow(["<script>document.title=\"pwned\"</script>Evil", "\"><img src=x onerror=\"document.title=1\">",
            "javascript:document.title=2", "<script>document.title=3</script>", "1e+20"])
' "$TMP/evil.csv"
mc ingest --accept --as-of 2026-06-01 notable_ai_models="$TMP/evil.csv" >/dev/null  # a guard would hold it: few columns
mc render '<script>document.title="pwned"</script>Evil' --format html --lang nl >"$TMP/evil.html"
dump "$TMP/evil.html" | rendered_text >"$TMP/evil.txt"
check_grep "the hostile page rendered, its name shown as text" '^<script>document.title="pwned"</script>Evil$' "$TMP/evil.txt"
check_grep "no script ran: the title is the name as text" '^title: <script>document.title="pwned"</script>Evil$' "$TMP/evil.txt"
check_grep "no element was made from the data" "^made: 0$" "$TMP/evil.txt"
check_grep "the img markup is shown as text" '^"><img src=x onerror="document.title=1">$' "$TMP/evil.txt"
done_testing
