#!/bin/sh
# publish takes a model's files (its pages in every language and its JSON
# twin) from the published version when that made them from the same key
# (keys.tsv: what they are made from, render.h), and makes the others.
# Checked: a site published snapshot after snapshot is the same, byte for
# byte, as one published from nothing each time (keys.tsv included; the
# feed's and published.tsv's time stamps and the record of site-wide
# changes aside), while it makes anew only
# the models whose inputs changed; new page texts, another site URL, a
# keys.tsv gone or damaged, each makes every model anew, and the site is
# still the one published from nothing.
. "$(dirname "$0")/lib.sh"

INC=$TMP/inc
# the published version's files, stamps aside, and the record of the
# site-wide changes (new texts, another URL: changes.tsv, audit/site.*, the
# audit index), which a site published from nothing has not been through
version() {
	(cd "$1/.modelcat/current" && find . -type f ! -name feed.atom ! -name published.tsv \
		! -name MANIFEST ! -name changes.tsv ! -path ./audit/index.html \
		! -path './audit/site.*' -print | LC_ALL=C sort | xargs sha256sum
	 grep -v -e ' audit/feed.atom$' -e ' published.tsv$' -e ' changes.tsv$' \
		-e ' audit/index.html$' -e ' audit/site\.' MANIFEST)
}
# "M N": publish's "... M models (N made anew) ..."
made() { sed -n 's/.* \([0-9]*\) models (\([0-9]*\) made anew).*/\1 \2/p' "$TMP/out"; }
# publish into $INC and from nothing into $TMP/full-$1 (same options)
both() {
	tag=$1
	shift
	mc publish --out "$INC" "$@" >"$TMP/out" 2>"$TMP/err"
	check_eq "$tag: publish exits 0" "$?" 0
	rm -rf "$TMP/full"
	mc publish --out "$TMP/full" "$@" >"$TMP/full.out" 2>"$TMP/err"
	check_eq "$tag: publish from nothing exits 0" "$?" 0
	version "$INC" >"$TMP/inc.sums"
	version "$TMP/full" >"$TMP/full.sums"
	check "$tag: the site is the one published from nothing, byte for byte" \
		cmp -s "$TMP/inc.sums" "$TMP/full.sums"
}

check_status "ingest exits 0" 0 mc ingest --as-of 2024-07-16 \
	"notable_ai_models=$SNAP/notable_ai_models/2024-07-16.csv.gz"
check_status "translate exits 0" 0 mc translate
both "first" --base-url http://example.org/site/
set -- $(made)
check "first: every model is made" test "$1" -gt 100 -a "$1" = "$2"
check "keys.tsv has a key for every model" \
	test "$(grep -cE '^[^	]+	[0-9a-f]{64}$' "$INC/.modelcat/current/keys.tsv")" = "$1"
total=$1

mc publish --out "$INC" --base-url http://example.org/site/ >"$TMP/out" 2>"$TMP/err"
check_eq "nothing new: no model is made anew" "$(made)" "$total 0"

for d in 2024-12-24 2025-02-24; do
	check_status "ingest of $d exits 0" 0 mc ingest --as-of $d \
		"notable_ai_models=$SNAP/notable_ai_models/$d.csv.gz"
	both "$d" --base-url http://example.org/site/
	set -- $(made)
	# the models whose record changed, from the catalogue
	changed=$(sql "SELECT count(DISTINCT record_id) FROM version WHERE valid_from = '$d' AND tombstone = 0")
	check "$d: at least the models with a new version are made anew ($2 of $1; $changed)" \
		test "$2" -ge "$changed" -a "$2" -gt 0
done
set -- $(made)
check "2025-02-24: the others are taken as they were ($2 of $1 made anew)" test "$2" -lt "$1"
total=$1

sql "UPDATE translation SET text = text || ' ' WHERE lang = 'nl' AND key = (SELECT min(key) FROM translation WHERE lang = 'nl')"
both "new page texts" --base-url http://example.org/site/
check_eq "new page texts: every model is made anew" "$(made)" "$total $total"

both "another site URL" --base-url http://example.org/other/
check_eq "another site URL: every model is made anew" "$(made)" "$total $total"

printf 'garbage\n' >"$INC/.modelcat/current/keys.tsv"
both "keys.tsv damaged" --base-url http://example.org/other/
check_eq "keys.tsv damaged: every model is made anew" "$(made)" "$total $total"
rm "$INC/.modelcat/current/keys.tsv"
both "keys.tsv gone" --base-url http://example.org/other/
check_eq "keys.tsv gone: every model is made anew" "$(made)" "$total $total"

# a file the key says is there but the published version lost: made again
page=$(cd "$INC/.modelcat/current" && ls pages/en/*.html | grep -v index | head -1)
rm "$INC/.modelcat/current/$page"
both "a page lost" --base-url http://example.org/other/
check_eq "a page lost: its model alone is made anew" "$(made)" "$total 1"
check "a page lost: it is there again" test -f "$INC/$page"
done_testing
