#!/bin/sh
# Issue 15's invariant, on the real history: the six notable snapshots,
# then the spreadsheet re-save as a seventh night, each fetched by `run`
# from a loopback server on its own night (the clock of the run set to
# that night with libfaketime: the store and the catalogue date the
# snapshot by the fetch, as they would in production). After every night:
# each page file the publication changed is explained by that night's
# audit (tests/e2e/explained.py), every changed model page says "Last
# updated" that night, and no site-wide change was needed. Then new page
# texts (translate) change every model page: one site-wide change states
# it, naming every model; a run with nothing new changes nothing; a site
# published by another modelcat version is published again.
. "$(dirname "$0")/lib.sh"

why=
if ! command -v faketime >/dev/null 2>&1; then
	why="faketime (libfaketime) is not installed: a run cannot be dated to a past night"
elif [ -n "$WRAP" ]; then
	why="MODELCAT_WRAP is set: the runs go through libfaketime, not through $WRAP"
elif [ "$(faketime -m '2025-02-24 03:00:00' date -u +%F 2>/dev/null)" != 2025-02-24 ]; then
	why="faketime does not set the clock here"
fi
nights="2024-07-06 2024-07-16 2024-12-24 2025-02-24 2025-04-18 2025-05-06 2025-05-07"
if [ -n "$why" ]; then
	for n in $nights; do
		skip_checks "$why" "night $n: run exits as expected" \
			"night $n: every changed page file is explained by its audit" \
			"night $n: every changed model page was last updated that night"
	done
	skip_checks "$why" "new page texts: one site-wide change names every model" \
		"and explains every changed page" "nothing new: no file changes" \
		"another version's site is published again" "its pages unchanged"
	done_testing
	exit 0
fi
# a sanitized program starts after libfaketime (it is preloaded)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
export MODELCAT_RETRY_BASE_MS=10
DB=$TMP/c.db
P=$TMP/public
WWW=$TMP/www
mkdir -p "$WWW" "$TMP/site.none"
start_server "$WWW" 3600
# run NIGHT [ARGS]: the nightly job on that night, 03:00 UTC
night_run() {
	day=$1
	shift
	faketime -m "$day 03:00:00" "$BIN/modelcat" --db "$DB" run --snapshots "$TMP/store" \
		--out "$P" --source "notable_ai_models=$URL/data/notable_ai_models.csv" "$@"
}
# keep the published version as it is now
keep() { rm -rf "$TMP/site.$1" && cp -RL "$P/.modelcat/current" "$TMP/site.$1"; }

prev=none
for n in $nights; do
	if [ "$n" = 2025-05-07 ]; then
		src=$DATA/dirty/notable_ai_models-spreadsheet-resave.csv.gz
		want=1 accept="--accept notable_ai_models"
	else
		src=$SNAP/notable_ai_models/$n.csv.gz
		want=0 accept=
	fi
	gzip -dc "$src" >"$WWW/notable_ai_models.csv"
	# shellcheck disable=SC2086
	check_status "night $n: run exits $want" "$want" night_run "$n" $accept
	sed -n '/summary:/s/^/# /p' "$TMP/err"
	keep "$n"
	python3 "$TOP/tests/e2e/explained.py" "$TMP/site.$prev" "$TMP/site.$n" "$n" >"$TMP/expl.$n"
	sed -n '/^unexplained\|^last updated/{s/^/# /;p}' "$TMP/expl.$n" | head -10
	sed -n '$s/^/# /p' "$TMP/expl.$n"
	check "night $n: every changed page file is explained by its audit (and there were changes)" \
		grep -q "^changed [1-9][0-9]* unexplained 0 " "$TMP/expl.$n"
	check "night $n: every changed model page was last updated that night" \
		grep -q " wrong_updated 0 site_changes 0 " "$TMP/expl.$n"
	prev=$n
done
check_grep "the re-save night: Mistral OCR kept and held" '"Mistral OCR"' "$P/audit/2025-05-07.json"
check "and its page is still published" sh -c "grep -l '^Mistral OCR\$' '$P'/pages/en/*.txt"

# new page texts: the English heading of the specification band
cp -R "$TOP/translations" "$TMP/tr"
python3 - "$TMP/tr/en.xlf" <<'PY'
import sys
p = sys.argv[1]
s = open(p, encoding="utf-8").read()
assert s.count("<source>On record</source>") == 1
open(p, "w", encoding="utf-8").write(s.replace("<source>On record</source>", "<source>In the record</source>"))
PY
"$BIN/modelcat" --db "$DB" translate --catalogues "$TMP/tr" >/dev/null 2>&1
check_status "new page texts: the run publishes them (nothing new upstream)" 0 \
	night_run 2025-05-08 --catalogues "$TMP/tr"
keep texts
python3 "$TOP/tests/e2e/explained.py" "$TMP/site.$prev" "$TMP/site.texts" - >"$TMP/expl.texts"
sed -n '$s/^/# /p' "$TMP/expl.texts"
on_record=$(grep -c '^- ' "$P/pages/en/index.txt")
check "one site-wide change names every model on record ($on_record)" \
	grep -q " site_changes 1 site_models $on_record\$" "$TMP/expl.texts"
check "and explains every changed page" grep -q " unexplained 0 " "$TMP/expl.texts"
check_grep "its reason: the page texts" '"reason": "the page texts changed' "$P/audit/site.json"
check_grep "the run's log says so" "site-wide change: the page texts changed" "$TMP/err"
check_grep "the audit index links it" 'href="site.html"' "$P/audit/index.html"

check_status "nothing new: the run exits 0" 0 night_run 2025-05-09 --catalogues "$TMP/tr"
check_grep "and says so" "nothing new upstream: no change" "$TMP/err"
keep same
check_eq "and no file changed" "$(cat "$TMP/site.same/MANIFEST")" "$(cat "$TMP/site.texts/MANIFEST")"

# a site published by another modelcat version (its render.tsv says so)
sed -i 's/^version\t.*/version\t0.0.1-old/' "$P/.modelcat/current/render.tsv"
check_status "another version's site: the run exits 0" 0 night_run 2025-05-10 --catalogues "$TMP/tr"
check_grep "another version's site is published again" "publishing it again" "$TMP/err"
keep again
check_eq "its pages unchanged (the same renderer)" \
	"$(grep '  pages/' "$TMP/site.again/MANIFEST")" "$(grep '  pages/' "$TMP/site.same/MANIFEST")"
check "and no site-wide change recorded for it" \
	test "$(grep -c . "$TMP/site.again/changes.tsv")" = 1
check_grep "render.tsv names this version again" "^version	$("$BIN/modelcat" --version | sed 's/.* //')\$" \
	"$P/.modelcat/current/render.tsv"
done_testing
