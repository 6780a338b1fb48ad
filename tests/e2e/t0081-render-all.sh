#!/bin/sh
# render --all over the bundled history: a text and an HTML page for every
# model on record, in every language, and an index per language; the
# figures on the pages agree with an independent reading of the source
# CSVs; file names are safe; every HTML page passes xmllint.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "render --all exits 0" 0 mc render --all --out "$TMP/site"
# 2 files per model and language, the indexes, their two chart files and
# the page of the charts' data (.txt and .html),
# and the redirects of renamed models' former names (.html and .txt;
# check_pages.py checks them)
redirects=$(grep -l 'http-equiv="refresh"' "$TMP"/site/*/*.html | wc -l)
# the pages stand as of the store's latest date (the hardware export's,
# whose records have no model page)
latest=$(python3 "$TOP/tests/e2e/storeref.py" "$SNAP" dates | tr ' ' '\n' | tail -1)
# the models on record then, from the CSVs (a bundle's members are exports)
ref() { python3 "$TOP/tests/e2e/pagesref.py" "$SNAP" "$TOP/pipelines/columns.tsv" "$@"; }
nmodels=$(ref count)
# the years with a model of known compute and date: each has a chart and a
# ranking per language (index.compute-YEAR.svg and .csv)
nyears=$(ref years)
# per model 2 files in 2 languages; per language the index (2), the table
# of every model and the rows the index loads (2) and its charts (10: per
# chart its picture, the picture of every year, its CSV and its points,
# and the page of their data, text and HTML), and 2 per year
check_grep "it reports what it wrote ($nmodels models, $redirects redirects, $nyears years)" \
	"^$nmodels models as of $latest in 2 languages: $((nmodels * 4 + 28 + nyears * 4 + redirects * 2)) files written to" "$TMP/out"

if python3 "$TOP/tests/e2e/check_pages.py" "$SNAP" "$TMP/site" en nl --step 1 >"$TMP/check.out" 2>&1; then
	ok "every model has its pages in both languages, and the sampled figures match the CSV ($(tail -1 "$TMP/check.out"))"
else
	not_ok "the pages disagree with the source"
	head -10 "$TMP/check.out" | sed 's/^/#   /'
fi

check_eq "nothing but LANG folders at the top" "$(ls "$TMP/site" | tr '\n' ' ')" "en nl "
# (a card's complete list of the models that fit, as CSV: STEM-models.csv)
check_eq "file names hold only a-z, 0-9, '-' and one '.'" \
	"$(ls "$TMP/site/en" "$TMP/site/nl" "$TMP/site/en/hardware" | grep -v '^$' | grep -v ':$' | grep -v '^hardware$' |
	grep -v '^index\.\(compute\.svg\|parameters\.svg\|charts\.txt\|charts\.html\|all\.html\|rows\.js\)$' |
	grep -v '^index\.\(compute\|parameters\)\.\(all\.svg\|csv\|js\)$' |
	grep -v '^index\.compute-[0-9]*\.\(svg\|csv\)$' |
	grep -v '^index\.\(memory\|flops16\)\.\(svg\|csv\)$' |
	grep -v '^[a-z0-9-]*-models\.csv$' |
	grep -cv '^[a-z0-9-]*\.\(txt\|html\)$')" 0
check_eq "no temporary file is left behind" "$(find "$TMP/site" -name '*.tmp*' | wc -l)" 0
check "the table of every model links to the pages" grep -q '<div role="rowheader"><a href="llama-2-70b-[0-9a-f]*\.html">Llama 2-70B</a></div>' \
	"$TMP/site/en/index.all.html"
# the date and count as the Dutch pages print them (day, Dutch month name,
# year; "." between groups of digits: docs/pages.md, "How values are written")
latest_text=$(python3 -c 'import datetime,sys; d=datetime.date.fromisoformat(sys.argv[1]); print("%d %s %d" % (d.day, ["januari","februari","maart","april","mei","juni","juli","augustus","september","oktober","november","december"][d.month-1], d.year))' "$latest")
nmodels_text=$(python3 -c 'import sys; print("{:,}".format(int(sys.argv[1])).replace(",", "."))' "$nmodels")
check_grep "the Dutch index is in Dutch" "^$nmodels_text modellen vastgelegd op $latest_text" "$TMP/site/nl/index.txt"
repeated=$(ref repeated)
check "a repeated name's second row has its own page ($repeated)" grep -qxF -- "- $repeated" "$TMP/site/en/index.txt"
check "every HTML page passes xmllint --html without a message (History's fold, <details>, aside)" \
	html_lint_clean "$TMP"/site/en/*.html "$TMP"/site/nl/*.html

# an open-weights model with a parameter count gets a memory estimate
page=$(ls "$TMP"/site/en/llama-2-70b-*.txt)
check_eq "Llama 2-70B: the hardware block estimates memory at 4 bit" "$(sed -n 2p "$page")" "About 35 GB at 4-bit"
check_grep "and at 8 and 16 bit" "about 70 GB at 8-bit and about 140 GB at full 16-bit precision" "$page"
check_grep "its weights are open, with the licence kind" "^- Open — restricted-use licence$" "$page"
check_grep "the Dutch page estimates in Dutch" "^Ongeveer 35 GB bij 4-bit$" "$(ls "$TMP"/site/nl/llama-2-70b-*.txt)"
# a model with almost nothing on record keeps its sections and says so
bare=$(ref bare)
page="$TMP/site/en/$(echo "$bare" | cut -f1).txt"
check_eq "an empty section keeps heading and intro and says it is empty ($(echo "$bare" | cut -f2))" \
	"$(grep -A2 '^Origin$' "$page")" "Origin
Who built this model, where, and when it was published.
Nothing is on record here for this model yet."
check "a field with no value is left out (no Parameters pair)" sh -c "! grep -q '^- Parameters$' '$page'"

check_status "render --all as of an earlier date exits 0" 0 mc render --all --out "$TMP/old" --as-of 2024-07-06
check_grep "it renders the models on record then" "^[0-9]* models as of 2024-07-06 in 2 languages" "$TMP/out"
n=$(gzip -dc "$SNAP/notable_ai_models/2024-07-06.csv.gz" | python3 -c '
import csv, sys
print(len({(r.get("System") or r.get("Model") or "").strip() for r in csv.DictReader(sys.stdin)} - {""}))')
check_eq "as many pages as the 2024-07-06 export has models" "$(ls "$TMP"/old/en/*.txt | grep -vc '/index\(\.charts\)\?\.txt$')" "$n"
done_testing
