#!/bin/sh
# The seed pages: after ingesting the MegaScale fixture as the snapshot of
# 2026-05-25 and merging the catalogues, render prints the English and the
# Dutch seed byte for byte (the seeds have no final newline; render ends
# its output with one). Also the render and translate command lines.
. "$(dirname "$0")/lib.sh"

FIX=$DATA/fixtures/megascale-2026-05-25
SEED_EN=$(ls "$DATA"/seeds/000_*.txt)
SEED_NL=$(ls "$DATA"/seeds/001_*.txt)
NAME="MegaScale (Production)"

check_status "ingest of the fixture as 2026-05-25 exits 0" 0 mc ingest --as-of 2026-05-25 \
	notable_ai_models="$FIX/notable_ai_models.csv" all_ai_models="$FIX/all_ai_models.csv"
check_status "render before translate exits 3" 3 mc render "$NAME"
check_grep "it says to run translate" "run modelcat translate" "$TMP/err"

check_status "translate exits 0 with the bundled catalogues" 0 mc translate
check_grep "translate reports English" "^en: [0-9]* entries (the English base)" "$TMP/out"
check_grep "translate reports Dutch fully translated" \
	"^nl: \([0-9]*\) entries: \1 translated, 0 missing, 0 stale, 0 invalid, 0 unknown" "$TMP/out"
check_eq "translate says nothing on stderr" "$(cat "$TMP/err")" ""

# (the seeds after the deviations docs/pages.md documents,
# tests/data/seeds/deviations.tsv: Dutch dates and numbers)
seed_page 000 "$TMP/seed_en.txt"
seed_page 001 "$TMP/seed_nl.txt"
check_status "render --lang en --format text exits 0" 0 mc render "$NAME" --lang en --format text
cp "$TMP/out" "$TMP/en.txt"
if cmp -s "$TMP/en.txt" "$TMP/seed_en.txt"; then ok "the English page is the English seed, byte for byte"
else not_ok "the English page differs from the seed"; diff "$TMP/seed_en.txt" "$TMP/en.txt" | head -10 | sed 's/^/#   /'; fi
check_status "render --lang nl --format text exits 0" 0 mc render "$NAME" --lang nl --format text
cp "$TMP/out" "$TMP/nl.txt"
if cmp -s "$TMP/nl.txt" "$TMP/seed_nl.txt"; then ok "the Dutch page is the Dutch seed, byte for byte"
else not_ok "the Dutch page differs from the seed"; diff "$TMP/seed_nl.txt" "$TMP/nl.txt" | head -10 | sed 's/^/#   /'; fi
check_eq "text and English are the defaults" "$(mc render "$NAME" | cksum)" "$(cksum <"$TMP/en.txt")"
check_eq "the stand-alone program prints the same page" \
	"$("$BIN/modelcat-render" "$NAME" --lang nl | cksum)" "$(cksum <"$TMP/nl.txt")"
check_eq "--as-of the snapshot's date gives the same page" \
	"$(mc render "$NAME" --as-of 2026-05-25 | cksum)" "$(cksum <"$TMP/en.txt")"

# the HTML form: the same content, valid, with the reference as a link
check_status "render --format html exits 0" 0 mc render "$NAME" --format html --lang nl
cp "$TMP/out" "$TMP/nl.html"
check "the HTML page passes xmllint --html without a message" \
	sh -c "xmllint --html --noout '$TMP/nl.html' 2>&1 | (! grep -q .)"
check_grep "it declares its language" '<html lang="nl">' "$TMP/nl.html"
check_grep "the reference links to the paper" \
	'<dd><a href="https://arxiv.org/abs/2402.15627" rel="nofollow noopener noreferrer">MegaScale: Scaling' \
	"$TMP/nl.html"
check_grep "label/value pairs are a definition list" '<dt>Trainingsrekenkracht</dt><dd>3,9 × 10²⁴ FLOP</dd>' \
	"$TMP/nl.html"
check_grep "it has a viewport for phones" 'name="viewport" content="width=device-width' "$TMP/nl.html"
check_grep "values are escaped" 'have &quot;hundreds of billions of parameters&quot;' "$TMP/nl.html"
# (the History section of a model with one version is in the HTML page
# alone, docs/pages.md: its lines are left out here, and checked below)
text_of_html=$(python3 -c '
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.out = []; self.skip = 0; self.line = []; self.divs = 0
    def handle_starttag(self, tag, a):
        if tag in ("style", "title"): self.skip += 1
        # the citation block, the history and the chart are HTML only
        # (docs/pages.md): not of the text page
        if tag == "div" and (self.divs or ("class", "history") in a or ("class", "cite") in a or
                             ("class", "chart") in a):
            self.divs += 1
    def handle_endtag(self, tag):
        if tag == "div" and self.divs: self.divs -= 1
        if self.divs: self.line = []
        elif tag in ("style", "title"): self.skip -= 1
        elif tag in ("h1", "h2", "h3", "h4", "p", "dt", "dd"):
            self.out.append(("- " if tag in ("dt", "dd") else "") + "".join(self.line)); self.line = []
    def handle_data(self, d):
        if not self.skip and d.strip(): self.line.append(d)
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read()); print("\n".join(p.out))
' "$TMP/nl.html")
check_eq "the HTML holds the text page's lines, in order" "$text_of_html" "$(cat "$TMP/seed_nl.txt")"
history=$(python3 -c '
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<div class=\"history\">.*?</dl>", page, re.S)
print(re.sub(r"<[^>]+>", "|", m.group(0)) if m else "")' "$TMP/nl.html")
check_grep "the HTML page has a History section, in Dutch" "<h2>Geschiedenis</h2>" "$TMP/nl.html"
# (the date as the page writes dates: Dutch month names)
check_eq "a model with one version: its addition on the snapshot's date, alone" \
	"$(printf '%s' "$history" | tr -s '|' '\n' | sed -n '/^25 mei 2026$/,$p')" \
	"$(printf '25 mei 2026\nToegevoegd aan de catalogus.\n')"

# command line
check_status "render --help exits 0" 0 mc render --help
check_grep "render --help shows usage" "^usage: modelcat render" "$TMP/out"
check_status "translate --help exits 0" 0 mc translate --help
check_grep "translate --help shows usage" "^usage: modelcat translate" "$TMP/out"
check_status "modelcat-render --version exits 0" 0 "$BIN/modelcat-render" --version
check_status "modelcat-translate --version exits 0" 0 "$BIN/modelcat-translate" --version
check_status "render without a name exits 2" 2 mc render
check_status "render with a bad --format exits 2" 2 mc render "$NAME" --format pdf
check_status "render with a bad --lang exits 2" 2 mc render "$NAME" --lang ../en
check_status "render --all without --out exits 2" 2 mc render --all
check_status "render --all with a name exits 2" 2 mc render --all --out "$TMP/x" "$NAME"
check_status "render with a bad --as-of exits 2" 2 mc render "$NAME" --as-of 2026-13-01
check_status "translate with an argument exits 2" 2 mc translate extra
check_status "render of an unknown model exits 3" 3 mc render "No Such Model"
check_grep "the model is named" "no model named 'No Such Model'" "$TMP/err"
check_status "render in a language with no catalogue exits 3" 3 mc render "$NAME" --lang fr
check_grep "it names the language" "no page texts stored for language 'fr'" "$TMP/err"
check_status "render before the model existed exits 3" 3 mc render "$NAME" --as-of 2025-01-01
check_status "translate of a folder without en.xlf exits 3" 3 mc translate --catalogues "$TMP"
check_grep "it names the missing base" "no en.xlf" "$TMP/err"
check_status "the stored texts survive the failed run" 0 mc render "$NAME" --lang nl
check "and still give the seed" cmp -s "$TMP/out" "$TMP/seed_nl.txt"
done_testing
