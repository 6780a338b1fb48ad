#!/bin/sh
# Publish removes only what it made, and one publish into DIR at a time
# (docs/operations.md, "Publish"). A DIR/.modelcat that is a symbolic link
# (to a folder holding build-* and site-* folders), a file, or another
# user's folder is refused with one line naming it, exit 3, nothing
# touched. Under a real DIR/.modelcat, folders named as publish names its
# own (site-*, build-*, old-pages-*) but not marked by it survive publish
# after publish, even one with a MANIFEST listing its files; what a killed
# publish left (marked) is still removed. A site of the layout before
# versions: run removes a DIR/.build-PID only if marked, and leaves a file
# named FILE.tmp-PID (nothing proves a run wrote it), each said. Two catalogues publishing into
# one DIR: while DIR/.modelcat/lock is held (flock(1), as the test holds
# it), a publish exits 75 and changes nothing, one given --wait waits and
# publishes once it is let go; two at once both publish, one after the
# other, and leave one version, no build folder, the site of one of them.
# The catalogues: the first 20 and the first 35 rows of a notable export,
# on two dates; the model counts come from the file (Python's csv).
. "$(dirname "$0")/lib.sh"

src=$SNAP/notable_ai_models/2024-07-16.csv.gz
# cut N OUT: the header and the first N records of src, as CSV
cut_rows() {
	python3 - "$src" "$1" "$2" <<'PY'
import csv, gzip, sys
rows = list(csv.reader(gzip.open(sys.argv[1], 'rt', encoding='utf-8', newline='')))
with open(sys.argv[3], 'w', encoding='utf-8', newline='') as f:
    csv.writer(f, lineterminator='\n').writerows(rows[:1 + int(sys.argv[2])])
PY
}
# models OUT: how many distinct model names the file has
models() {
	python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding='utf-8', newline='')))
key = next(i for i, h in enumerate(rows[0]) if h.strip() in ('Model', 'System'))
print(len({r[key].strip() for r in rows[1:] if len(r) > key and r[key].strip()}))
PY
}
cut_rows 20 "$TMP/notable_ai_models.a.csv"
cut_rows 35 "$TMP/notable_ai_models.b.csv"
A=$TMP/a.db
B=$TMP/b.db
na=$(models "$TMP/notable_ai_models.a.csv")
nb=$(models "$TMP/notable_ai_models.b.csv")
check "the two catalogues differ in their number of models ($na, $nb)" test "$na" -ne "$nb"
check_status "catalogue A: 20 rows on 2024-01-01" 0 \
	mc ingest --db "$A" --as-of 2024-01-01 "notable_ai_models=$TMP/notable_ai_models.a.csv"
check_status "catalogue B: 35 rows on 2024-02-02" 0 \
	mc ingest --db "$B" --as-of 2024-02-02 "notable_ai_models=$TMP/notable_ai_models.b.csv"
check_status "A's page texts" 0 mc translate --db "$A"
check_status "B's page texts" 0 mc translate --db "$B"

# tree DIR: the SHA-256 of every path under DIR with its type and each
# file's SHA-256
tree() { (cd "$1" && find . -printf '%p %y\n' -type f -exec sha256sum {} + | sort | sha256sum); }
# foreign_dirs DIR: folders named as publish names its own, not made by it:
# one with a MANIFEST of its file, a build of a process that is no more,
# the old pages of a process that is no more
foreign_dirs() {
	mkdir -p "$1/site-123-456" "$1/build-2147483646/pages" "$1/old-pages-2147483646/en"
	echo "my thesis" >"$1/site-123-456/thesis.txt"
	(cd "$1/site-123-456" && sha256sum thesis.txt >MANIFEST)
	echo notes >"$1/build-2147483646/pages/notes.txt"
	echo page >"$1/old-pages-2147483646/en/index.html"
}
# site_of OUT: the published site's date and the count its English index gives
site_of() {
	printf '%s %s\n' "$(cut -f1 "$1/.modelcat/current/published.tsv")" \
		"$(sed -n 's/^\([0-9]*\) models on record on .*/\1/p' "$1/pages/en/index.txt")"
}
# versions OUT: the names of the version and build folders publish left
versions() { (cd "$1/.modelcat" && ls -d site-* build-* 2>/dev/null | grep -v -e '^site-123-456$' \
	-e '^site-1-2$' -e '^build-2147483646$' | wc -l); }
whole() { (cd "$1/.modelcat/current/" && sha256sum --quiet --strict -c MANIFEST); }

# ---- a DIR/.modelcat that is a symbolic link to a folder elsewhere ----
O=$TMP/outside
mkdir -p "$TMP/p1"
foreign_dirs "$O"
ln -s "$O" "$TMP/p1/.modelcat"
before=$(tree "$O")
check_status "publish with DIR/.modelcat a symbolic link: refused (exit 3)" 3 \
	mc publish --db "$A" --out "$TMP/p1"
check_grep "one line names it, a symbolic link" \
	"^modelcat-publish: $TMP/p1/.modelcat: a symbolic link (to $O)" "$TMP/err"
check_eq "that one line only" "$(wc -l <"$TMP/err")" 1
check_eq "nothing in the folder it leads to is touched" "$(tree "$O")" "$before"
check_eq "nothing is made in DIR" "$(ls -A "$TMP/p1")" ".modelcat"

# ---- a file, and another user's folder ----
mkdir -p "$TMP/p2"
echo mine >"$TMP/p2/.modelcat"
check_status "publish with DIR/.modelcat a file: refused (exit 3)" 3 mc publish --db "$A" --out "$TMP/p2"
check_grep "the line says it is not a folder" "$TMP/p2/.modelcat: not a folder" "$TMP/err"
check_eq "the file is as it was" "$(cat "$TMP/p2/.modelcat")" mine
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$TMP/p3/.modelcat/site-123-456"
	echo "my thesis" >"$TMP/p3/.modelcat/site-123-456/thesis.txt"
	chown -R 65534 "$TMP/p3/.modelcat"
	before=$(tree "$TMP/p3")
	check_status "publish with another user's DIR/.modelcat: refused (exit 3)" 3 \
		mc publish --db "$A" --out "$TMP/p3"
	check_grep "the line names its owner" "$TMP/p3/.modelcat: owned by uid 65534" "$TMP/err"
	check_eq "nothing in it is touched" "$(tree "$TMP/p3")" "$before"
else
	skip_checks "not root: no folder of another user's can be made" \
		"publish with another user's DIR/.modelcat: refused (exit 3)" \
		"the line names its owner" "nothing in it is touched"
fi

# ---- folders under a real DIR/.modelcat that publish did not make ----
P=$TMP/p4
mkdir -p "$P/.modelcat"
foreign_dirs "$P/.modelcat"
mkdir -p "$P/.modelcat/site-1-2"
echo "draft" >"$P/.modelcat/site-1-2/draft.txt"
mkdir "$P/.modelcat/site-9-9"     # empty: removed, whoever made it
foreign() {
	for d in site-123-456 site-1-2 build-2147483646 old-pages-2147483646; do
		echo "$d $(tree "$P/.modelcat/$d")"
	done
}
check_eq "the folders not made by publish hold files" \
	"$(find "$P/.modelcat" -type f | wc -l)" 5
before=$(foreign)
check_status "a first publish beside them (exit 0)" 0 mc publish --db "$A" --out "$P"
check_eq "it publishes A" "$(site_of "$P")" "2024-01-01 $na"
check_eq "none of them is touched, not even one with a MANIFEST of its files" "$(foreign)" "$before"
check_grep "a log line says one is left in place" "left $P/.modelcat/site-123-456 in place: not made by" "$TMP/err"
check "an empty one is removed" test ! -e "$P/.modelcat/site-9-9"
check_status "a second publish, of B, retires A's version (exit 0)" 0 mc publish --db "$B" --out "$P"
check_eq "it publishes B" "$(site_of "$P")" "2024-02-02 $nb"
check_eq "still none of them is touched" "$(foreign)" "$before"
check_eq "one version of publish's is left, no build" "$(versions "$P")" 1
check "every file of the manifest is there with its hash" whole "$P"
# what a killed publish leaves: folders with publish's mark, removed
made=$P/.modelcat/current/MADE
check "the version carries publish's mark" test -f "$made"
mkdir -p "$P/.modelcat/build-2147483645/pages/en"
echo half >"$P/.modelcat/build-2147483645/pages/en/x.html"
cp "$made" "$P/.modelcat/build-2147483645/"
cp -al "$P/.modelcat/$(readlink "$P/.modelcat/current")" "$P/.modelcat/site-1-1"
# killed between creating its mark and writing it: an empty MADE alone
# (publish's own), and an empty MADE beside a file of the user's (not)
mkdir -p "$P/.modelcat/build-2147483644" "$P/.modelcat/build-2147483643"
: >"$P/.modelcat/build-2147483644/MADE"
: >"$P/.modelcat/build-2147483643/MADE"
echo mine >"$P/.modelcat/build-2147483643/notes.txt"
check_status "a publish after a killed one (exit 0)" 0 mc publish --db "$B" --out "$P"
check "the build it left (marked) is removed" test ! -e "$P/.modelcat/build-2147483645"
check "a build killed before its mark was written (an empty MADE alone) is removed" \
	test ! -e "$P/.modelcat/build-2147483644"
check_eq "an empty MADE beside a file of the user's: left as it was" \
	"$(cat "$P/.modelcat/build-2147483643/notes.txt")" mine
rm -rf "$P/.modelcat/build-2147483643"
check "a version it left (marked) is retired" test ! -e "$P/.modelcat/site-1-1"
check_eq "and still none of the others is touched" "$(foreign)" "$before"

# ---- one publish into DIR at a time ----
P=$TMP/p5
check_status "A published into a new DIR (exit 0)" 0 mc publish --db "$A" --out "$P"
exec 9>"$P/.modelcat/lock"
flock -x 9
check_status "with DIR's lock held, a publish of B exits 75" 75 mc publish --db "$B" --out "$P" 9>&-
check_grep "naming the lock and why" "$P/.modelcat/lock: held by .*another publish into $P" "$TMP/err"
check_eq "the site is A's still" "$(site_of "$P")" "2024-01-01 $na"
check_eq "no other version or build is left" "$(versions "$P")" 1
mc publish --db "$B" --out "$P" --wait 600 >"$TMP/w.out" 2>"$TMP/w.err" 9>&- &
pid=$!
# (no time: until it says it waits, or ends)
while kill -0 "$pid" 2>/dev/null && ! grep -q "waiting up to 600 s" "$TMP/w.err"; do sleep 0.1; done
check_grep "with --wait 600 a publish of B waits for the lock" "lock: held by .*; waiting up to 600 s" "$TMP/w.err"
check_eq "and has published nothing meanwhile" "$(site_of "$P") $(versions "$P")" "2024-01-01 $na 1"
flock -u 9
exec 9>&-
wait "$pid"
check_eq "let go, it publishes (exit 0)" "$?" 0
check_eq "the site is B's" "$(site_of "$P")" "2024-02-02 $nb"
check_eq "one version is left, no build" "$(versions "$P")" 1
check "every file of the manifest is there with its hash" whole "$P"

# two at once, each waiting for the other: both publish, one after the other
mc publish --db "$A" --out "$P" --wait 600 >"$TMP/a.out" 2>"$TMP/a.err" &
pa=$!
mc publish --db "$B" --out "$P" --wait 600 >"$TMP/b.out" 2>"$TMP/b.err" &
pb=$!
wait "$pa"; sa=$?
wait "$pb"; sb=$?
check_eq "two publishes at once, of A and of B: both exit 0" "$sa $sb" "0 0"
site=$(site_of "$P")
check "the site is A's or B's" test "$site" = "2024-01-01 $na" -o "$site" = "2024-02-02 $nb"
check_eq "one version is left (none orphaned), no build" "$(versions "$P")" 1
check "every file of the manifest is there with its hash" whole "$P"
check_eq "DIR/pages and DIR/audit lead to it" "$(readlink "$P/pages") $(readlink "$P/audit")" \
	".modelcat/current/pages .modelcat/current/audit"

# ---- the layout before versions: what run removes of killed runs' ----
# DIR/pages a folder; a DIR/.build-PID of a process that is no more holding
# a file of the user's (no mark: left), one with publish's mark (removed),
# a file named as a half-written page (left, said)
made=$TMP/p5/.modelcat/current/MADE
P=$TMP/p6
mkdir -p "$P/pages/en" "$P/audit" "$P/.build-2147483646/pages" "$P/.build-2147483645/pages/en"
echo "old page" >"$P/pages/en/index.html"
echo "my thesis" >"$P/.build-2147483646/thesis.txt"
echo half >"$P/.build-2147483645/pages/en/x.html"
cp "$made" "$P/.build-2147483645/"
echo "my draft" >"$P/pages/en/draft.html.tmp-2147483646"
before=$(tree "$P/.build-2147483646")
check_status "run over the old layout publishes (exit 0)" 0 mc --db "$TMP/run.db" run \
	--snapshots "$TMP/store6" --out "$P" --source "notable_ai_models=file://$TMP/notable_ai_models.a.csv"
check_eq "run publishes A's rows" "$(site_of "$P" | cut -d" " -f2)" "$na"
check_eq "an old-layout .build-PID without publish's mark is untouched" \
	"$(tree "$P/.build-2147483646")" "$before"
check_eq "the user's file in it is there" "$(cat "$P/.build-2147483646/thesis.txt")" "my thesis"
check_grep "a log line says it is left in place" \
	"left $P/.build-2147483646 in place: not made by modelcat's publish" "$TMP/err"
check "one with publish's mark (a killed run's) is removed" test ! -e "$P/.build-2147483645"
check_eq "a file named as a half-written page is left (nothing proves a run wrote it)" \
	"$(cat "$P/pages/en/draft.html.tmp-2147483646")" "my draft"
check_grep "a log line says so" "left $P/pages/en/draft.html.tmp-2147483646 in place" "$TMP/err"
check_status "a publish after it (exit 0)" 0 mc publish --db "$TMP/run.db" --out "$P"
check_eq "the unmarked .build-PID is still untouched" "$(tree "$P/.build-2147483646")" "$before"
check_eq "and the user's file named as a half-written page is there" \
	"$(cat "$P/pages/en/draft.html.tmp-2147483646")" "my draft"

done_testing
