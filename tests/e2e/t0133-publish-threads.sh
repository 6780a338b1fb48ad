#!/bin/sh
# publish makes the index entries and the model pages on several threads
# (MODELCAT_RENDER_THREADS; each reads through a connection of its own)
# and hands every page and download to the new version through one writer,
# which hashes it, links the published version's file when that has the
# same bytes under the same name, and writes it otherwise. Checked: one
# thread and three publish the same site, byte for byte (the feed's and
# published.tsv's time stamps and the site's id aside); publish reports
# as many files as its manifest lists and as "written" exactly the files
# whose bytes the version before did not have under that name (counted
# here from the two manifests): none when nothing changed, some after a
# new snapshot; an unchanged page is the same file (inode) afterwards;
# every file of each manifest is there with its hash.
. "$(dirname "$0")/lib.sh"

A=$SNAP/notable_ai_models/2024-07-16.csv.gz
B=$SNAP/notable_ai_models/2024-12-24.csv.gz
ONE=$TMP/one
THREE=$TMP/three
# the published version's files, stamps aside
version() {
	(cd "$1/.modelcat/current" && find . -type f ! -name feed.atom ! -name published.tsv \
		! -name MANIFEST -print | LC_ALL=C sort | xargs sha256sum
	 grep -v -e ' audit/feed.atom$' -e ' published.tsv$' MANIFEST)
}
# files of manifest $1 that publish counts (pages, audits, entries, downloads)
counted() { grep -E '^[0-9a-f]{64}  (pages|audit|entries|downloads)/' "$1"; }
whole() { (cd "$1/.modelcat/current/" && sha256sum --quiet --strict -c MANIFEST); }
# "F W" from publish's line "... F files (W written) ..."
reported() { sed -n 's/.* \([0-9]*\) files (\([0-9]*\) written).*/\1 \2/p' "$TMP/out"; }

check_status "ingest exits 0" 0 mc ingest --as-of 2024-07-16 "notable_ai_models=$A"
check_status "translate exits 0" 0 mc translate
MODELCAT_RENDER_THREADS=1 mc publish --out "$ONE" >"$TMP/out" 2>"$TMP/err"
check_eq "publish on one thread exits 0" "$?" 0
MODELCAT_RENDER_THREADS=3 mc publish --out "$THREE" >"$TMP/out" 2>"$TMP/err"
check_eq "publish on three threads exits 0" "$?" 0
version "$ONE" >"$TMP/one.sums"
version "$THREE" >"$TMP/three.sums"
check "the model pages are there" test "$(grep -c ' ./pages/en/.*\.html$' "$TMP/three.sums")" -gt 100
check "one thread and three publish the same files, byte for byte" \
	cmp -s "$TMP/one.sums" "$TMP/three.sums"
check "every file of the manifest is there with its hash" whole "$THREE"
n=$(counted "$THREE/.modelcat/current/MANIFEST" | wc -l)
check_eq "publish reports every file of the manifest, all written" "$(reported)" "$n $n"

# a thread count that is not one from 1 to 8 is a usage error, before anything is read
for bad in 0 9 x 2x -1; do
	MODELCAT_RENDER_THREADS=$bad mc publish --out "$TMP/bad" >"$TMP/out" 2>"$TMP/err"
	check_eq "publish with MODELCAT_RENDER_THREADS=$bad exits 2" "$?" 2
	check_grep "naming it" "MODELCAT_RENDER_THREADS=$bad: not a whole number from 1 to 8" "$TMP/err"
done
check "and publishes nothing" test ! -e "$TMP/bad"
MODELCAT_RENDER_THREADS=x mc run --snapshots "$TMP/store" --out "$TMP/bad" \
	--source "notable_ai_models=file://$TMP/none.csv" >"$TMP/out" 2>"$TMP/err"
check_eq "run with MODELCAT_RENDER_THREADS=x exits 2 too" "$?" 2
check "before it fetches anything" test ! -e "$TMP/store"

cp "$THREE/.modelcat/current/MANIFEST" "$TMP/before"
page=$(find "$THREE/pages/en/" -name '*.html' ! -name 'index*' | LC_ALL=C sort | head -1)
inode=$(stat -c %i "$page")
MODELCAT_RENDER_THREADS=3 mc publish --out "$THREE" >"$TMP/out" 2>"$TMP/err"
check_eq "publish again with nothing new exits 0" "$?" 0
check_eq "it writes nothing" "$(reported)" "$n 0"
check_eq "a page is the same file" "$(stat -c %i "$page")" "$inode"

check_status "ingest of a later snapshot exits 0" 0 mc ingest --as-of 2024-12-24 \
	"notable_ai_models=$B"
cp "$THREE/.modelcat/current/MANIFEST" "$TMP/before"
(cd "$THREE/.modelcat/current" && find pages/en -name '*.html' -exec stat -c '%n %i' {} +) |
	LC_ALL=C sort >"$TMP/inodes.before"
MODELCAT_RENDER_THREADS=3 mc publish --out "$THREE" >"$TMP/out" 2>"$TMP/err"
check_eq "publish of the later snapshot exits 0" "$?" 0
counted "$THREE/.modelcat/current/MANIFEST" | LC_ALL=C sort >"$TMP/after.counted"
counted "$TMP/before" | LC_ALL=C sort >"$TMP/before.counted"
n=$(wc -l <"$TMP/after.counted")
new=$(LC_ALL=C comm -23 "$TMP/after.counted" "$TMP/before.counted" | wc -l)
check "some files are new or changed, not all" test "$new" -gt 0 -a "$new" -lt "$n"
check_eq "publish reports as written exactly those" "$(reported)" "$n $new"
check "every file of the new manifest is there with its hash" whole "$THREE"
kept=$(LC_ALL=C comm -12 "$TMP/after.counted" "$TMP/before.counted" |
	sed -n 's/^[0-9a-f]*  \(pages\/en\/.*\.html\)$/\1/p' | head -1)
check "an unchanged page is in both versions" test -n "$kept"
check_eq "and it is the same file (linked, not written)" \
	"$(stat -c %i "$THREE/.modelcat/current/$kept")" \
	"$(sed -n "s|^$kept ||p" "$TMP/inodes.before")"
MODELCAT_RENDER_THREADS=1 mc publish --out "$ONE" >"$TMP/out" 2>"$TMP/err"
check_eq "publish of the later snapshot on one thread exits 0" "$?" 0
version "$ONE" >"$TMP/one.sums"
version "$THREE" >"$TMP/three.sums"
check "and the two sites are the same again" cmp -s "$TMP/one.sums" "$TMP/three.sums"

done_testing
