#!/bin/sh
# modelcat publish and the site that run publishes: one switch of a
# symbolic link (DIR/.modelcat/current), DIR/pages and DIR/audit links to
# it. From the layout before versions (real folders) to the links, with
# the user's files kept; user files, folders and a symbolic link under
# DIR/pages and DIR/audit, and files in DIR, survive run and publish, and
# the folder the link leads to is never touched; no temporary name is ever
# visible; two runs on one day keep both audits with distinct feed ids;
# the rollback of docs/operations.md, step by step, withdraws the bad
# snapshot (audit, pages, a feed entry of its own, earlier entries kept);
# SIGTERM and SIGINT during publish leave the old site or the new one and
# nothing of the half-built one.
. "$(dirname "$0")/lib.sh"

P=$TMP/public
S=$TMP/store
first=$SNAP/notable_ai_models/2024-07-16.csv.gz
second=$SNAP/notable_ai_models/2025-05-06.csv.gz
day=$(date -u +%Y-%m-%d)
run() { mc run --snapshots "$S" --out "$P" "$@"; }
publish() { mc publish --out "$P" "$@"; }
# python3 -c "$sigint_default" COMMAND...: COMMAND with SIGINT as by
# default (same process): a shell starts a background job with SIGINT
# ignored, and modelcat leaves an ignored signal ignored
sigint_default='import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])'
# temporary names a reader could see under the resolved DIR/pages, DIR/audit
temps() {
	find "$P/pages/" "$P/audit/" \( -name '*.tmp*' -o -name '.build-*' -o -name '*new-*' \
		-o -name 'build-*' -o -name '*.link' \) -print | wc -l
}
# every file of the published version's manifest is there with its hash
whole() { (cd "$P/.modelcat/current/" && sha256sum --quiet --strict -c MANIFEST); }
# the user's files and the folder the user's link leads to
user_state() {
	for f in "$P/robots.txt" "$P/pages/README.md" "$P/pages/style.css" "$P/pages/img/logo.png" \
		"$P/pages/img/deep/x.txt" "$P/audit/notes.txt" "$P/audit/extra/y.txt" \
		"$TMP/other/a.txt" "$TMP/other/sub/b.txt"; do
		if [ -f "$f" ]; then echo "$f $(sha256sum <"$f")"; else echo "$f missing"; fi
	done
	if [ -L "$P/pages/en-link" ]; then echo "link $(readlink "$P/pages/en-link")"; else echo "no link"; fi
}
# the ids of the feed's entries, one a line
feed_ids() { sed -n 's/^ *<id>\(urn:[^<]*:\(snapshot\|withdrawn\):[^<]*\)<\/id>/\1/p' "$P/audit/feed.atom"; }

# ---- the layout before versions: real folders, an old page, user files ----
mkdir -p "$P/pages/en" "$P/audit" "$TMP/other/sub"
echo "old page" >"$P/pages/en/index.html"
echo "# my site" >"$P/pages/README.md"
echo "old audit" >"$P/audit/2024-01-01.html"
echo "my notes" >"$P/audit/notes.txt"
echo "User-agent: *" >"$P/robots.txt"
echo a >"$TMP/other/a.txt"
echo b >"$TMP/other/sub/b.txt"
# what a killed run of the old layout left: a build folder, a half-written page
mkdir -p "$P/.build-2147483646/pages"
echo half >"$P/pages/en/gone.html.tmp-2147483646"

check_status "a first run publishes over the old layout (exit 0)" 0 run --source "notable_ai_models=$first"
# publish removes nothing it did not make (issue 46): the old layout made
# no marks, so nothing shows that these are a run's; they stay, each said
check "the old layout's build folder (unmarked) is left as it is" test -d "$P/.build-2147483646/pages"
check_grep "a log line says so" "left $P/.build-2147483646 in place: not made by modelcat's publish" "$TMP/err"
check "a file named as its half-written page is left (carried as a file of the user's)" \
	test -f "$P/pages/en/gone.html.tmp-2147483646"
check_grep "a log line says so" "left $P/pages/en/gone.html.tmp-2147483646 in place: named as" "$TMP/err"
# (the operator, told, removes them)
rm -r "$P/.build-2147483646" "$P/pages/en/gone.html.tmp-2147483646"
check "DIR/pages is now a symbolic link" test -L "$P/pages"
check "DIR/audit is now a symbolic link" test -L "$P/audit"
check_eq "to the current version" "$(readlink "$P/pages") $(readlink "$P/audit")" \
	".modelcat/current/pages .modelcat/current/audit"
check "the page modelcat writes replaced the old one" grep -q "<html" "$P/pages/en/index.html"
check_eq "the user's README in the old folder was kept" "$(cat "$P/pages/README.md")" "# my site"
check_eq "the user's notes in the old audit folder were kept" "$(cat "$P/audit/notes.txt")" "my notes"
check_eq "a file directly in DIR is untouched" "$(cat "$P/robots.txt")" "User-agent: *"
check_eq "nothing of the old folders is left aside" "$(find "$P/.modelcat" -maxdepth 1 -name 'old-*' | wc -l)" 0
check "the audit of $day is published" test -s "$P/audit/$day.json"
check_eq "no temporary name is visible" "$(temps)" 0
check "every file of the manifest is there with its hash" whole

# ---- user files, folders and a symbolic link in the published site ----
echo "body{}" >"$P/pages/style.css"
mkdir -p "$P/pages/img/deep" "$P/audit/extra"
printf '\211PNG' >"$P/pages/img/logo.png"
echo x >"$P/pages/img/deep/x.txt"
echo y >"$P/audit/extra/y.txt"
ln -s "$TMP/other" "$P/pages/en-link"
users=$(user_state)
page=$(find "$P/pages/en/" -name '*.html' ! -name index.html | head -1)
mtime=$(stat -c %Y "$page")
sleep 1
audit_inode=$(stat -c %i "$P/audit/$day.json")
check_status "publish with nothing new (exit 0)" 0 publish
check_grep "computes no audit again" ", 0 audits computed" "$TMP/out"
check_grep "its summary counts one snapshot in the singular" ": 1 snapshot, " "$TMP/out"
check_eq "the audit is the same file (linked)" "$(stat -c %i "$P/audit/$day.json")" "$audit_inode"
check_eq "the user's files and link survive publish; the link's folder is whole" "$(user_state)" "$users"
check "the link is still a symbolic link" test -L "$P/pages/en-link"
check_eq "an unchanged page keeps its time (linked, not written)" "$(stat -c %Y "$page")" "$mtime"
check_eq "no temporary name is visible" "$(temps)" 0
check "every file of the manifest is there with its hash" whole
check_eq "one version is left" "$(find "$P/.modelcat" -maxdepth 1 -name 'site-*' | wc -l)" 1

# ---- an old version with a file added while it was published ----
# (as a publish stopped after its switch leaves it: the next one retires it)
cur=$(readlink "$P/.modelcat/current")
cp -al "$P/.modelcat/$cur" "$P/.modelcat/site-1-1"
echo late >"$P/.modelcat/site-1-1/pages/late.txt"
rm "$P/.modelcat/site-1-1/pages/style.css"
echo "other body{}" >"$P/.modelcat/site-1-1/pages/style.css"
check_status "publish retires an old version left behind" 0 publish
check_eq "a file added to it is moved into the published version" "$(cat "$P/pages/late.txt")" late
check_eq "one whose name the published version has stays where it was" \
	"$(cat "$P/.modelcat/site-1-1/pages/style.css")" "other body{}"
check_grep "a log line says so" "left .*site-1-1/pages/style.css in place" "$TMP/err"
check_eq "nothing else is left of it (but its MANIFEST and publish's mark)" \
	"$(find "$P/.modelcat/site-1-1" ! -type d | wc -l)" 3
check_eq "the user's style.css is the published one" "$(cat "$P/pages/style.css")" "body{}"
rm -r "$P/.modelcat/site-1-1" "$P/pages/late.txt"

# ---- the same, a file left in place in each folder of the old version ----
# (its folders are retired on two threads: what either leaves in place
# keeps the old version's MANIFEST)
cur=$(readlink "$P/.modelcat/current")
dirs=$(cd "$P/.modelcat/$cur" && find . -mindepth 2 -maxdepth 3 -type f | sed 's|^\./||; s|/[^/]*$||' | sort -u)
check "the version has files in folders (audit, pages/en...)" test "$(echo $dirs | wc -w)" -ge 3
for dir in $dirs; do
	cur=$(readlink "$P/.modelcat/current")
	cp -al "$P/.modelcat/$cur" "$P/.modelcat/site-1-2"
	file=$(cd "$P/.modelcat/site-1-2" && find "$dir" -maxdepth 1 -type f | sort | head -n 1)
	rm "$P/.modelcat/site-1-2/$file"
	echo "a file of my own" >"$P/.modelcat/site-1-2/$file"
	grep -vF "  $file" "$P/.modelcat/$cur/MANIFEST" >"$P/.modelcat/site-1-2/MANIFEST.new"
	mv "$P/.modelcat/site-1-2/MANIFEST.new" "$P/.modelcat/site-1-2/MANIFEST"
	check_status "publish retires an old version with its own $file" 0 publish
	check_grep "a log line says $file is left in place" "left .*site-1-2/$file in place" "$TMP/err"
	check_eq "it, the old version's MANIFEST and mark are all that is left of it ($dir)" \
		"$(cd "$P/.modelcat/site-1-2" && find . ! -type d | sort | paste -sd' ' -)" \
		"./MADE ./MANIFEST ./$file"
	check "the published $file is not the one left" test "$(cat "$P/.modelcat/current/$file")" != "a file of my own"
	rm -r "$P/.modelcat/site-1-2"
done

# ---- a second run the same day ----
check_status "a second run the same day (exit 0)" 0 run --source "notable_ai_models=$second"
# the new snapshot's audit, and the one before it (it links the new one as next)
check_grep "it computes the new snapshot's audit and its predecessor's only" "2 audits computed" "$TMP/err"
for kind in txt json html; do
	check "the first audit of the day is kept ($day.$kind)" test -s "$P/audit/$day.$kind"
	check "the second has its own ($day.2.$kind)" test -s "$P/audit/$day.2.$kind"
done
check "the two audits differ" test "$(sha256sum <"$P/audit/$day.json")" != "$(sha256sum <"$P/audit/$day.2.json")"
check_eq "the feed has an entry for each" "$(feed_ids | grep -c ":snapshot:$day")" 2
check_eq "with distinct ids" "$(feed_ids | sort -u | wc -l)" "$(feed_ids | wc -l)"
check_grep "the index lists both" "$day.2.html" "$P/audit/index.html"
check "the feed is valid XML" xmllint --noout "$P/audit/feed.atom"
check_eq "the user's files and link survive run" "$(user_state)" "$users"
check_eq "no temporary name is visible" "$(temps)" 0
check "every file of the manifest is there with its hash" whole
ids_before=$(feed_ids)
first_id=$(feed_ids | grep ":snapshot:$day:")
check_status "a run with nothing new" 0 run --source "notable_ai_models=$second"
check_grep "says no change" "nothing new upstream: no change" "$TMP/err"

# ---- roll back the second snapshot: docs/operations.md, step by step ----
cp "$P/audit/$day.2.json" "$TMP/withdrawn-audit.json"
# 1. find the snapshot's file in the store: the day's later content is
#    named DATE T TIME Z-SHA12
bad=$(ls "$S/notable_ai_models/" | grep "^${day}T")
check "1. the bad snapshot's file is in the store ($bad)" test -f "$S/notable_ai_models/$bad"
# 2. move it out of the store, keeping it for the record
mkdir -p "$TMP/rolled-back"
check "2. move it out of the store" mv "$S/notable_ai_models/$bad" "$TMP/rolled-back/"
# 3. rebuild the catalogue from the store
check_status "3. modelcat reingest --snapshots STORE" 0 mc reingest --snapshots "$S"
# 4. publish again (reingest kept the page texts)
check_status "4. modelcat publish --out DIR" 0 publish
check_grep "it withdraws the snapshot" ", 1 withdrawn" "$TMP/out"
check "the withdrawn snapshot's audit is gone" test ! -e "$P/audit/$day.2.json"
check "the first audit stays" test -s "$P/audit/$day.json"
check_eq "the feed has one withdrawal entry" "$(feed_ids | grep -c ":withdrawn:$day.2:")" 1
check_grep "saying so" "Snapshot $day.2 withdrawn" "$P/audit/feed.atom"
check_eq "the first snapshot's entry keeps its id" "$(feed_ids | grep ":snapshot:$day:")" "$first_id"
check "the withdrawal's id is new" sh -c "! printf '%s\n' \"\$1\" | grep -qF \"\$2\"" _ "$ids_before" \
	"$(feed_ids | grep ':withdrawn:')"
check_grep "the index lists it as withdrawn" "Withdrawn" "$P/audit/index.html"
# the pages the withdrawal changed: one site-wide change, naming exactly
# models the withdrawn snapshot's audit named
python3 - "$TMP/withdrawn-audit.json" "$P/audit/site.json" >"$TMP/site-change" <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
named = {m["name"] if isinstance(m, dict) else m for k in ("added", "removed", "returned") for m in a[k]}
named |= {c["name"] for c in a["changed"]} | {r["from"] for r in a["renamed"]} | {r["to"] for r in a["renamed"]}
named |= {m for cv in a["column_values"] for m in cv["models"]} | {h["name"] for h in a["held"] if h.get("name")}
c = json.load(open(sys.argv[2]))["site_changes"]
print(len(c), c[0]["reason"] if c else "", len(c[0]["models"]) if c else 0,
      bool(c) and set(c[0]["models"]) <= named)
EOF
read -r nchanges _ <"$TMP/site-change"
check_eq "the withdrawal is one site-wide change" "$nchanges" 1
check_grep "its reason names the snapshot" "^1 snapshot $day.2 withdrawn from the catalogue [1-9][0-9]* True\$" \
	"$TMP/site-change"
mc render --all --out "$TMP/fresh" >/dev/null 2>&1
# published HTML pages carry the site's frame (head links, header) that
# render --all's stand-alone pages have not: from <div class="page"> on,
# and every text page, they are the same bytes (but for the links of the
# History's dates to the audits, and the indexes' download list after the
# table, which only a published page has)
same=$(python3 - "$TMP/fresh" "$P/pages" <<'EOF'
import os, re, sys
fresh, pub = sys.argv[1], sys.argv[2]
def body(path):
    data = open(path, encoding="utf-8").read()
    data = re.sub(r'<dt><a href="\.\./\.\./audit/[0-9.-]+\.html">([^<]*)</a></dt>', r"<dt>\1</dt>", data)
    data = re.sub(r'<p>[^<]*</p>\n<ul class="downloads">\n.*?</ul>\n', "", data, flags=re.S)
    return data[max(data.find('<div class="page">'), 0):]
def files(top):   # the files under top, the hardware/ folder's too
    return sorted(os.path.relpath(os.path.join(d, f), top) for d, _, fs in os.walk(top) for f in fs)
same = 1
for lang in os.listdir(fresh):
    a, b = files(os.path.join(fresh, lang)), files(os.path.join(pub, lang))
    if a != b:
        same = 0
        continue
    for name in a:
        if body(os.path.join(fresh, lang, name)) != body(os.path.join(pub, lang, name)):
            same = 0
print(same)
EOF
)
check_eq "the pages are those of the catalogue without the bad snapshot" "$same" 1
check_eq "the user's files and link survive the rollback" "$(user_state)" "$users"
check_eq "no temporary name is visible" "$(temps)" 0
check "every file of the manifest is there with its hash" whole
check_status "publish again" 0 publish
check_eq "the withdrawal entry persists, not repeated" "$(feed_ids | grep -c ':withdrawn:')" 1
check_grep "publish says nothing was withdrawn now" ", 0 withdrawn" "$TMP/out"
check_status "the next run (nothing new upstream)" 0 run --source "notable_ai_models=$first"
check_grep "finds the site published from the catalogue as it is" "no change" "$TMP/err"
check_eq "and the withdrawal entry is still there once" "$(feed_ids | grep -c ':withdrawn:')" 1

# ---- SIGTERM and SIGINT during publish ----
# each signal at a random moment in the first span ms of a publish; a
# publish that ended first (exit 0: a signal after the switch is too late)
# aims the next ones earlier; at least six signals, more until two of them
# stopped a publish
span=$(( $(date +%s%N) / 1000000 ))
publish >/dev/null 2>&1
span=$(( $(date +%s%N) / 1000000 - span ))
[ "$span" -lt 100 ] && span=100
bad=0 stopped=0 i=0
while [ $i -lt 6 ] || { [ $stopped -lt 2 ] && [ $i -lt 24 ]; }; do
	i=$((i + 1))
	sig=TERM; [ $((i % 2)) = 0 ] && sig=INT
	before=$(readlink "$P/.modelcat/current")
	delay=$(( 10 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % span ))
	python3 -c "$sigint_default" $WRAP "$BIN/modelcat" publish --out "$P" >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	st=$?
	now=$(readlink "$P/.modelcat/current")
	case "$st" in
	0) span=$((span * 2 / 3 > 40 ? span * 2 / 3 : 40)) ;;
	130|143) stopped=$((stopped + 1)); [ "$now" = "$before" ] || { bad=$((bad + 1)); echo "# SIG$sig: switched, yet $st"; } ;;
	*) bad=$((bad + 1)); echo "# SIG$sig: exit $st" ;;
	esac
	left=$(find "$P/.modelcat" -maxdepth 1 \( -name 'build-*' -o -name 'current.new-*' \) | wc -l)
	[ "$left" = 0 ] || { bad=$((bad + 1)); echo "# SIG$sig: $left half-built left"; }
	whole || bad=$((bad + 1))
	[ "$(temps)" = 0 ] || bad=$((bad + 1))
done
check_eq "a publish stopped by SIGTERM or SIGINT exits 128+N, leaves the old site whole and nothing half-built" "$bad" 0
check "some of them were stopped by the signal ($stopped of $i)" test "$stopped" -ge 2
check_eq "the user's files and link survive it" "$(user_state)" "$users"

# ---- verify --out: the published site against its manifest ----
check_status "verify finds the published site, store and catalogue clean" 0 \
	mc verify --snapshots "$S" --out "$P"
page=$(find -L "$P/pages/en" -name '*.html' ! -name 'index.html' | head -n 1)
cp --remove-destination "$page" "$TMP/page.keep"
echo tampered >>"$page"
check_status "verify finds a published page changed since it was published (exit 1)" 1 \
	mc verify --snapshots "$S" --out "$P"
check_grep "naming it" "$(basename "$page")" "$TMP/out"
cp --remove-destination "$TMP/page.keep" "$page"
check_status "and the site clean again once the page is put back" 0 \
	mc verify --snapshots "$S" --out "$P"

# ---- publish --as-of names a snapshot as the other readers do ----
check_status "publish --as-of DATE.N of a snapshot the catalogue lacks: exit 3" 3 \
	publish --as-of 2001-01-01.2
check_grep "naming it" "no snapshot 2001-01-01.2" "$TMP/err"
check_status "a malformed one: exit 2" 2 publish --as-of 2001-01-01.x

# ---- render --all: its temporary files go with SIGTERM and SIGINT ----
left=0
mkdir -p "$TMP/r/en"
for sig in TERM INT TERM; do
	python3 -c "$sigint_default" $WRAP "$BIN/modelcat" render --all --out "$TMP/r" >/dev/null 2>&1 &
	pid=$!
	sleep "0.$(od -An -N1 -tu1 /dev/urandom | tr -d ' ' | cut -c1)"
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	left=$((left + $(find "$TMP/r" -name '*.tmp[0-9]*' | wc -l)))
done
check_eq "render --all stopped by SIGTERM or SIGINT leaves no temporary file" "$left" 0
echo half >"$TMP/r/en/index.html.tmp99999999"
mc render --all --out "$TMP/r" >/dev/null 2>&1
check "the next render --all removes one a SIGKILL left" test ! -e "$TMP/r/en/index.html.tmp99999999"

# ---- a published version whose MANIFEST is gone: left in place, said ----
N=$TMP/nomanifest
check_status "publish into a folder of its own" 0 mc publish --out "$N"
was=$(readlink "$N/.modelcat/current")
rm "$N/.modelcat/$was/MANIFEST"
check_status "publish again after its MANIFEST was removed (exit 0)" 0 mc publish --out "$N"
check "a new version is published" test "$(readlink "$N/.modelcat/current")" != "$was"
check "the old one, whose files cannot be told modelcat's, is left in place" \
	test -f "$N/.modelcat/$was/pages/en/index.html"
check_grep "and the log says why" "left .*$was in place: it has no MANIFEST" "$TMP/err"

# ---- a published version whose MANIFEST is damaged: refused, nothing changed ----
D=$TMP/badmanifest
check_status "publish into a folder of its own" 0 mc publish --out "$D"
was=$(readlink "$D/.modelcat/current")
lines=$(wc -l <"$D/.modelcat/$was/MANIFEST")
printf 'not a line of a manifest\n' >>"$D/.modelcat/$was/MANIFEST"
ls -R "$D" >"$TMP/bad.before"
check_status "publish again over a damaged MANIFEST fails (exit 3)" 3 mc publish --out "$D"
check_grep "naming the file and the line" \
	"$was/MANIFEST:$((lines + 1)): not a manifest line: not a line of a manifest" "$TMP/err"
# an empty line (second) is damage too, not skipped
sed -i -e '$d' -e '1G' "$D/.modelcat/$was/MANIFEST"
check_status "publish over a MANIFEST with an empty line fails (exit 3)" 3 mc publish --out "$D"
check_grep "naming that line" "$was/MANIFEST:2: an empty line, not a manifest line" "$TMP/err"
check_eq "the published version is still the one" "$(readlink "$D/.modelcat/current")" "$was"
ls -R "$D" >"$TMP/bad.after"
check "nothing was added or removed (no build folder left)" cmp -s "$TMP/bad.before" "$TMP/bad.after"

# ---- DIR/pages a symbolic link that is not modelcat's ----
mkdir -p "$TMP/q/elsewhere"
ln -s elsewhere "$TMP/q/pages"
check_status "publish refuses a DIR/pages that links elsewhere (exit 3)" 3 mc publish --out "$TMP/q"
check_grep "naming it" "q/pages: a symbolic link to elsewhere" "$TMP/err"
check "and left it alone" test -L "$TMP/q/pages"
done_testing
