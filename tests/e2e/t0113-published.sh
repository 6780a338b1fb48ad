#!/bin/sh
# The published side read as a reader reads it: `run` catches up the six
# real notable snapshots from its store and fetches a copy of the last
# with one damaged row. No machine path in any published audit, page or
# feed; every quarantine line names its model; every link of the audits,
# feed and pages leads to a file; the feed is valid Atom (RFC 4287's
# RELAX NG schema) with rel="self", absolute links from --base-url and the
# site's own id; the audit's counts are ingest's; changes sorted by name,
# citation-only changes in a compact section, values as pages show them;
# a model that comes back is "returned"; a renamed model's old page leads
# to its new one, which names its former name; a repeated name's second
# row is NAME#2 in the audit and in history; at 400 px no audit or model
# page scrolls sideways.
. "$(dirname "$0")/lib.sh"

P=$TMP/public
BASE=https://models.example.org/catalogue/
chromium=$(command -v chromium || command -v chromium-browser || true)

# the store holds the six real snapshots (catch-up ingests them in date
# order); the run fetches the last one again with bytes that are no UTF-8
# in GPT-4's row: one row quarantined, as today's snapshot
mkdir -p "$TMP/store/notable_ai_models"
cp "$SNAP"/notable_ai_models/*.csv.gz "$TMP/store/notable_ai_models/"
gzip -dc "$SNAP/notable_ai_models/2025-05-06.csv.gz" >"$TMP/notable_ai_models.csv"
python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
i = data.index(b"\nGPT-4,")
open(sys.argv[2], "wb").write(data[:i + 7] + b"\xff\xfe" + data[i + 7:])' \
	"$TMP/notable_ai_models.csv" "$TMP/damaged.csv"
check_status "run: six snapshots caught up, the damaged copy fetched, one row quarantined (exit 1)" 1 \
	mc run --snapshots "$TMP/store" --out "$P" --base-url "$BASE" \
	--source "notable_ai_models=$TMP/damaged.csv"
cp "$TMP/err" "$TMP/run.log"
# the label of each snapshot the run loaded, with ingest's counts: "DATE COUNTS"
sed -n -e 's/.*notable_ai_models: [0-9]* rows: \([0-9]* added, [0-9]* removed, [0-9]* renamed, [0-9]* changed\),.*/\1/p' \
	-e 's/.*snapshot \([0-9-]*\) loaded into.*/=\1/p' "$TMP/run.log" |
	awk '/^=/ { print substr($0, 2) " " counts; next } { counts = $0 }' >"$TMP/loaded"
check_eq "the run loaded seven snapshots" "$(wc -l <"$TMP/loaded")" 7
D=$(tail -1 "$TMP/loaded" | cut -d' ' -f1)
check_status "a base URL that is no http(s) URL: usage error" 2 \
	mc publish --out "$P" --base-url "ftp://x/"
check_status "so is one with a space" 2 mc run --out "$P" --base-url "https://a b/"
A=$P/audit

# ---- no machine path anywhere published ----
store=$(cd "$TMP" && pwd -P)
n=$(grep -rlF -e "$TMP" -e "$store" -e /tmp/ -e /var/ -e "$HOME/" "$A/" "$P/pages/" | wc -l)
check_eq "no published audit, page or feed holds a path of the machine" "$n" 0

# ---- quarantine lines name their model ----
check_grep "the text audit's quarantine line names GPT-4, export and line" \
	"^  $D notable_ai_models line [0-9]*: GPT-4: " "$A/$D.txt"
check_eq "every quarantine line of the text audit names a model" \
	"$(sed -n '/^Quarantined$/,$p' "$A/$D.txt" | grep -c '^  .* line [0-9]*: [^(]')" \
	"$(sed -n '/^Quarantined$/,$p' "$A/$D.txt" | grep -c '^  ')"
check_eq "the JSON audit names the model of each quarantined row, no file" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([(q["name"], "file" in q) for q in d["quarantined"]])' "$A/$D.json")" \
	"[('GPT-4', False)]"
check_grep "the HTML audit's quarantine row names the model" \
	'<li>snapshot [0-9-]*, line [0-9]*: GPT-4: ' "$A/$D.html"

# ---- one definition of each count: ingest's, the audit's, the feed's ----
while read -r day want; do
	check_grep "$day: the audit counts as ingest did ($want)" "^$want, " "$A/$day.txt"
	check_grep "$day: the feed's entry title has every count" \
		"<title>$day: $want, [01] quarantined, 0 held</title>" "$A/feed.atom"
	check_grep "$day: the audit index shows the counts" "$day.json\">JSON</a>): $want" "$A/index.html"
done <"$TMP/loaded"
check_grep "the damaged night's entry counts the quarantined row" \
	"<title>$D: 0 added, 0 removed, 0 renamed, 0 changed, 1 quarantined, 0 held</title>" "$A/feed.atom"

# ---- the audit reads: sorted by name, values as pages show them ----
sed -n '/^Added$/,/^$/p' "$A/2024-07-16.txt" | sed -n 's/^  [^:]*: //p' >"$TMP/added"
LC_ALL=C sort -f "$TMP/added" >"$TMP/added.sorted"
check "the added models are listed by name" cmp -s "$TMP/added" "$TMP/added.sorted"
# GPT-4's citations on 2024-07-16 from the source file, grouped as pages show them
cit=$(gzip -dc "$SNAP/notable_ai_models/2024-07-16.csv.gz" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r["System"] == "GPT-4": print("{:,}".format(int(float(r["Citations"]))))')
check_grep "a changed count is shown grouped ($cit), as on pages" "    Citations: [0-9,]* → $cit$" "$A/2024-07-16.txt"
# an audit with the pages of its own its long lists are on
cat "$A/2024-07-16.html" "$A"/2024-07-16/*.html >"$TMP/audit-0716.html"
cat "$A/2024-12-24.html" "$A"/2024-12-24/*.html >"$TMP/audit-1224.html"
check_grep "the HTML keeps the stored value in the title" "<ins title=\"[0-9]*\">[0-9,]*</ins>" "$TMP/audit-0716.html"

# ---- citations-only changes: a compact section of their own ----
# Citations is flagged volatile in pipelines/columns.tsv
check_grep "columns.tsv flags Citations volatile" "^Citations	number		volatile\(	\|$\)" "$MODELCAT_TOP/pipelines/columns.tsv"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
only = sorted(c["name"] for c in d["changed"] if [f["field"] for f in c["fields"]] == ["Citations"])
marked = sorted(c["name"] for c in d["changed"] if c.get("volatile_only"))
print(len(only), only == marked)' "$A/2024-07-16.json" >"$TMP/volatile.json.out"
check_eq "2024-07-16: 351 models changed only their citations, marked so in the JSON" \
	"$(cat "$TMP/volatile.json.out")" "351 True"
sed -n '/^Changed only in volatile fields (Citations)$/,/^$/p' "$A/2024-07-16.txt" | grep -c '^  ' >"$TMP/n"
check_eq "the text audit lists them in the compact section, one line each" "$(cat "$TMP/n")" 351
check_eq "and not among the substantive changes" \
	"$(sed -n '/^Changed$/,/^Changed only/p' "$A/2024-07-16.txt" | grep -c '^  notable_ai_models: ')" $((530 - 351))
check "the substantive changes come first" sh -c \
	"grep -n '^Changed\$' '$A/2024-07-16.txt' | cut -d: -f1 | { read a; b=\$(grep -n '^Changed only' '$A/2024-07-16.txt' | cut -d: -f1); test \"\$a\" -lt \"\$b\"; }"
check_grep "the HTML audit has the compact section" '<details id="notable_ai_models-volatile"><summary>Changed only in volatile fields (Citations) (351)</summary>' \
	"$A/2024-07-16.html"
check_grep "and counts the substantive changes apart" '<details id="notable_ai_models-changed"><summary>Changed (179)</summary>' "$A/2024-07-16.html"

# ---- a model that comes back is "returned" ----
# PhraseCond: in the 2024-07-06 file, not in 2024-07-16's, again in 2024-12-24's
rows() { gzip -dc "$SNAP/notable_ai_models/$1.csv.gz" | grep -c '^PhraseCond,'; }
check_eq "the files: PhraseCond is there, gone, back" "$(rows 2024-07-06) $(rows 2024-07-16) $(rows 2024-12-24)" "1 0 1"
check_grep "the text audit says it returned" "^  notable_ai_models: PhraseCond (returned)$" "$A/2024-12-24.txt"
check_grep "the JSON lists it as returned" '"returned": \[{"name": "PhraseCond", "export": "notable_ai_models"}\]' \
	"$A/2024-12-24.json"
check_grep "the HTML marks it" 'PhraseCond</a> <strong class="returned">returned</strong>' "$TMP/audit-1224.html"
check_grep "the feed entry too" "^returned: PhraseCond (notable_ai_models)" "$A/feed.atom"
check_eq "AdaRNN is in no file before 2024-07-16" \
	"$(gzip -dc "$SNAP/notable_ai_models/2024-07-06.csv.gz" | grep -c '^AdaRNN,')" 0
check_grep "a model new to the export is a plain added" "^  notable_ai_models: AdaRNN$" "$A/2024-07-16.txt"

# ---- links ----
check_grep "the HTML audit links the previous audit" 'rel="prev" href="2024-07-06.html"' "$A/2024-07-16.html"
check_grep "and the next" 'rel="next" href="2024-12-24.html"' "$A/2024-07-16.html"
check_grep "a changed model links to its page" 'href="\(\.\./\)\{1,2\}pages/en/[a-z0-9-]*.html">GPT-4</a>' "$TMP/audit-0716.html"
python3 "$MODELCAT_TOP/tests/e2e/linkcheck.py" "$P" "$BASE" "$A"/*.html "$A/feed.atom" \
	"$P"/pages/*/*.html >"$TMP/links" 2>&1
st=$?
check_eq "every link of the audits, the feed and the pages leads to a file ($(tail -1 "$TMP/links"))" "$st" 0
n=$(sed -n 's/^checked \([0-9]*\) links.*/\1/p' "$TMP/links")
check "links were checked ($n)" test "${n:-0}" -gt 1000

# ---- a rename keeps its URL ----
# a real rename of the snapshots, the model still on record under the new name
pair=$(sql "SELECT old_name || '|' || new_name FROM rename WHERE new_name = 'ChatGLM3-6B'")
check_eq "the snapshots rename ChatGLM3 to ChatGLM3-6B" "$pair" "ChatGLM3|ChatGLM3-6B"
# stem NAME: the page's file stem (docs/pages.md), computed here on its own
stem() {
	python3 -c '
import hashlib, re, sys
n = sys.argv[1]
slug = re.sub("-+", "-", re.sub("[^a-z0-9]", "-", n.encode().decode("ascii", "replace").lower()))[:60].strip("-")
print("%s-%s" % (slug or "model", hashlib.sha256(n.encode()).hexdigest()[:10]))' "$1"
}
old=$(stem ChatGLM3)
new=$(stem ChatGLM3-6B)
for lang in en nl; do
	check_grep "$lang: the old name's page refreshes to the new page" \
		"<meta http-equiv=\"refresh\" content=\"0; url=$new.html\">" "$P/pages/$lang/$old.html"
	check_grep "$lang: and names it canonical" "<link rel=\"canonical\" href=\"$new.html\">" \
		"$P/pages/$lang/$old.html"
	check_grep "$lang: with a visible link" "<a href=\"$new.html\">ChatGLM3-6B</a>" "$P/pages/$lang/$old.html"
	check_eq "$lang: the old text page is one line naming the new page" \
		"$(cat "$P/pages/$lang/$old.txt")" "ChatGLM3 → ChatGLM3-6B: $new.txt"
done
check_grep "the new page lists its former name" "^Formerly: ChatGLM3$" "$P/pages/en/$new.txt"
check_grep "in Dutch too" "^Voorheen: ChatGLM3$" "$P/pages/nl/$new.txt"
mc render ChatGLM3-6B >"$TMP/one.txt" 2>&1
check_eq "render of that one page is the published page, former name and all" \
	"$(cat "$TMP/one.txt")" "$(cat "$P/pages/en/$new.txt")"
check_eq "a model never renamed has no such line" \
	"$(grep -c '^Formerly' "$P/pages/en/$(stem GPT-4).txt")" 0

# ---- the feed ----
check "the feed is valid Atom (RFC 4287, RELAX NG)" \
	xmllint --noout --relaxng "$MODELCAT_TOP/tests/data/atom.rng" "$A/feed.atom"
check_grep "the feed names itself (rel=self, absolute)" \
	"<link rel=\"self\" type=\"application/atom+xml\" href=\"${BASE}audit/feed.atom\"/>" "$A/feed.atom"
check_grep "entries link their audit absolutely" "href=\"${BASE}audit/$D.html\"" "$A/feed.atom"
check_grep "the feed id is this site's" "<id>urn:modelcat:$(cat "$P/.modelcat/id" | cut -c1-16):audit</id>" "$A/feed.atom"
mc publish --out "$TMP/public2" >/dev/null 2>&1
check "without a base URL the feed is valid too" \
	xmllint --noout --relaxng "$MODELCAT_TOP/tests/data/atom.rng" "$TMP/public2/audit/feed.atom"
check_grep "and says that links are relative" "no base URL configured" "$TMP/public2/audit/feed.atom"
check_grep "its self link is relative" '<link rel="self" type="application/atom+xml" href="feed.atom"/>' \
	"$TMP/public2/audit/feed.atom"
id1=$(sed -n 's/^ <id>\(.*\)<\/id>/\1/p' "$A/feed.atom")
id2=$(sed -n 's/^ <id>\(.*\)<\/id>/\1/p' "$TMP/public2/audit/feed.atom")
check "another site has another feed id ($id1, $id2)" test -n "$id1" -a "$id1" != "$id2"

# ---- a repeated name carries its occurrence ----
# two rows named Dup, then the second one gone: it is Dup#2 everywhere
printf 'Model,Link,Publication date\nDup,https://a.example/1,2020-01-01\nOther,https://b.example/,2020-01-02\nDup,https://a.example/2,2020-02-01\n' >"$TMP/dup1.csv"
printf 'Model,Link,Publication date\nDup,https://a.example/1,2020-01-01\nOther,https://b.example/,2020-01-02\n' >"$TMP/dup2.csv"
MODELCAT_DB=$TMP/dup.db mc ingest --as-of 2024-01-01 "notable_ai_models=$TMP/dup1.csv" >/dev/null
MODELCAT_DB=$TMP/dup.db mc ingest --as-of 2024-01-02 "notable_ai_models=$TMP/dup2.csv" >/dev/null
MODELCAT_DB=$TMP/dup.db mc diff >"$TMP/dup.txt"
check_grep "the removed second row is Dup#2 in the audit" "^  notable_ai_models: Dup#2$" "$TMP/dup.txt"
check_status "history accepts Dup#2" 0 env MODELCAT_DB="$TMP/dup.db" "$BIN/modelcat" history 'Dup#2'
check_grep "and shows the second row's removal" '2024-01-02  removed  notable_ai_models  "Dup"' "$TMP/out"
check_grep "of the record that was line 4" '"Dup" (line 4)' "$TMP/out"
check_status "Dup#3 was never a model" 3 env MODELCAT_DB="$TMP/dup.db" "$BIN/modelcat" history 'Dup#3'

# ---- 400 px ----
# width FILE: scrollWidth and innerWidth of FILE shown in a 400 px wide
# frame (headless Chromium's window is at least 500 px wide): the page is
# the frame's srcdoc, so that the outer page may read the frame's layout
width() {
	python3 -c '
import html, sys
page = open(sys.argv[1], encoding="utf-8").read()
print("<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"f\" style=\"width:400px;height:900px;border:0\""
      " onload=\"var w=this.contentWindow; document.body.setAttribute(&quot;data-w&quot;,"
      " w.document.documentElement.scrollWidth + &quot; &quot; + w.innerWidth)\" srcdoc=\""
      + html.escape(page, quote=True) + "\"></iframe></body></html>")' "$1" >"$TMP/probe.html"
	profile=$(mktemp -d "$TMP/profile.XXXXXX")
	"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --window-size=800,1000 --dump-dom "file://$TMP/probe.html" \
		2>"$TMP/chromium.err" | sed -n 's/.*data-w="\([0-9]*\) \([0-9]*\)".*/\1 \2/p'
}
if [ -z "$chromium" ]; then
	skip "no horizontal scrolling at 400 px" "chromium is not installed"
else
	big=$(ls -S "$A"/*.html | head -1)
	page=$(grep -l '<h1>GPT-4</h1>' "$P"/pages/en/*.html | head -1)
	for f in "$big" "$page"; do
		set -- $(width "$f")
		check "Chromium laid $(basename "$f") out at 400 px (inner width ${2:-?})" \
			test -n "$2" -a "${2:-999}" -le 400
		check "$(basename "$f"): no horizontal scrolling (scrollWidth ${1:-?} <= 400)" \
			test -n "$1" -a "${1:-999}" -le 400
	done
fi
done_testing
