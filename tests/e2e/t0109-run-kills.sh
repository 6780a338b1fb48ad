#!/bin/sh
# SIGKILL, SIGTERM and SIGINT at random moments of `modelcat run` (fetch
# from a local file, ingest, translate, render, publish): after each, a
# reader of DIR sees exactly the site of before or exactly a complete new
# one (its manifest checks), never a temporary name; the catalogue passes
# integrity_check; after SIGTERM or SIGINT nothing of the run is left
# (no catalogue copy, no half-built version) and it exited 128+N. At the
# end the next run leaves the same catalogue and the same published files
# as runs that were never interrupted, into a fresh DIR.
. "$(dirname "$0")/lib.sh"
export MODELCAT_RETRY_BASE_MS=10

# the first 500 models of a real export, then 5% of them changed: a run
# of a few seconds, 2,000 page files
python3 - "$SNAP/notable_ai_models/2025-05-06.csv.gz" "$TMP/a.csv" <<'PY'
import csv, gzip, sys
rows = list(csv.reader(gzip.open(sys.argv[1], 'rt', encoding='utf-8', newline='')))
csv.writer(open(sys.argv[2], 'w', encoding='utf-8', newline=''), lineterminator='\n').writerows(rows[:501])
PY
python3 "$TOP/tests/e2e/scale_export.py" "$TMP/a.csv" 1 "$TMP/b.csv" 5
R=$TMP/run.db
S=$TMP/store
P=$TMP/public
# run_with DB STORE DIR FILE: a run whose source is the local file FILE
run_with() {
	mc --db "$1" run --snapshots "$2" --out "$3" --source "notable_ai_models=$4"
}
# python3 -c "$sigint_default" COMMAND...: COMMAND with SIGINT as by
# default (same process): a shell starts a background job with SIGINT
# ignored, and modelcat leaves an ignored signal ignored
sigint_default='import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])'
# the files a reader sees under DIR/pages and DIR/audit, with their hashes
# (but $2 names left out)
tree() {
	for d in pages audit; do
		(cd "$1/$d/" && find . -type f ! -name "${2:-/}" -print | sort | xargs sha256sum)
	done
}
# cheaper, for the site of before: each file's name, inode, size and time
# (a file written again is a new inode under its name)
listing() {
	for d in pages audit; do
		(cd "$1/$d/" && find . -printf '%p %y %i %s %T@ %l\n' | sort)
	done
}
# every file of the published version's manifest is there with its hash
whole() { (cd "$1/.modelcat/current/" && sha256sum --quiet --strict -c MANIFEST) >/dev/null 2>&1; }
temps() {
	find "$P/pages/" "$P/audit/" \( -name '*.tmp*' -o -name '.build-*' -o -name '*new-*' \
		-o -name 'build-*' -o -name '*.link' \) -print | wc -l
}
catalogue() { # what the catalogue holds (not when it was loaded)
	sqlite3 "$1" "SELECT s.as_of, se.export, se.sha256, se.rows, se.loaded, se.quarantined
		FROM snapshot s JOIN snapshot_export se ON se.snapshot_id = s.id ORDER BY s.id"
	mc --db "$1" export --source notable_ai_models | sha256sum
}

# the uninterrupted runs, into a fresh DIR
start=$(date +%s%N)
run_with "$TMP/ref.db" "$TMP/ref-store" "$TMP/ref-public" "$TMP/a.csv" >/dev/null 2>&1
run_with "$TMP/ref.db" "$TMP/ref-store" "$TMP/ref-public" "$TMP/b.csv" >/dev/null 2>&1
span=$(( ($(date +%s%N) - start) / 2000000 ))
[ "$span" -lt 200 ] && span=200
check_eq "the uninterrupted runs publish two snapshots" \
	"$(sqlite3 "$TMP/ref.db" 'SELECT count(*) FROM snapshot')" 2

# the site before: a first run, and a file of the user's
run_with "$R" "$S" "$P" "$TMP/a.csv" >/dev/null 2>&1
echo "# mine" >"$P/pages/README.md"
cp -a "$R" "$TMP/base.db"
cp -a "$S" "$TMP/base-store"
# the catalogue and the store as they were before: the next run has work
# to do (the site may stay new: the next run publishes it again)
undo() {
	rm -rf "$R" "$S"
	cp -a "$TMP/base.db" "$R"
	cp -a "$TMP/base-store" "$S"
}

bad=0 kills=0 stopped=0 i=0
for sig in KILL TERM INT KILL TERM INT KILL TERM INT KILL TERM INT KILL TERM INT \
	KILL TERM INT KILL TERM INT; do
	i=$((i + 1))
	was=$(readlink "$P/.modelcat/current")
	before=$(listing "$P")
	delay=$(( 20 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % (span - 20) ))
	python3 -c "$sigint_default" $WRAP "$BIN/modelcat" --db "$R" run --snapshots "$S" --out "$P" \
		--source "notable_ai_models=$TMP/b.csv" >"$TMP/kill.log" 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	if kill -"$sig" "$pid" 2>/dev/null; then killed=1; else killed=0; fi
	wait "$pid"
	st=$?
	# a run that ended before its kill, or that was past the point where
	# it finishes anyway (exit 0 after SIGTERM or SIGINT): the reference
	# runs were slower than this one (a loaded machine when they ran):
	# aim the next kills earlier
	# (a little earlier after a late one: kills late in the run are wanted too)
	if [ "$killed" = 0 ]; then
		span=$((span * 2 / 3 > 60 ? span * 2 / 3 : 60))
	elif [ "$sig" != KILL ] && [ "$st" = 0 ]; then
		span=$((span * 7 / 8 > 60 ? span * 7 / 8 : 60))
	fi
	kills=$((kills + killed))
	now=$(readlink "$P/.modelcat/current")
	if [ "$now" = "$was" ]; then
		[ "$(listing "$P")" = "$before" ] || { bad=$((bad + 1)); echo "# $i SIG$sig: the old site changed"; }
	else
		whole "$P" || { bad=$((bad + 1)); echo "# $i SIG$sig: the new site is not whole"; }
		[ "$(wc -l <"$P/.modelcat/current/published.tsv")" = 2 ] ||
			{ bad=$((bad + 1)); echo "# $i SIG$sig: the new site lacks a snapshot"; }
	fi
	[ "$(temps)" = 0 ] || { bad=$((bad + 1)); echo "# $i SIG$sig: a temporary name is visible"; }
	[ "$(sql_wait "$R" 'PRAGMA integrity_check')" = ok ] ||
		{ bad=$((bad + 1)); echo "# $i SIG$sig: the catalogue is damaged"; }
	[ -f "$P/pages/README.md" ] || { bad=$((bad + 1)); echo "# $i SIG$sig: the user's file is gone"; }
	if [ "$sig" != KILL ] && [ "$killed" = 1 ]; then
		case $st in
		130|143) stopped=$((stopped + 1)) ;;
		0) ;;
		*) bad=$((bad + 1)); echo "# $i SIG$sig: exit $st" ;;
		esac
		# (what a SIGKILL before left is for the next run to remove)
		left=$(find "$TMP" -maxdepth 1 -name "run.db.run-$pid*" | wc -l)
		left=$((left + $(find "$P/.modelcat" -maxdepth 1 \( -name "build-$pid" -o -name "current.new-$pid" \) | wc -l)))
		[ "$left" = 0 ] || { bad=$((bad + 1)); echo "# $i SIG$sig: $left things of the run left:" \
			$(find "$TMP" -maxdepth 1 -name 'run.db.run-*'; ls "$P/.modelcat"); }
	fi
	# a run that got as far as replacing the catalogue is undone
	[ "$(sql_wait "$R" 'SELECT count(*) FROM snapshot')" = 1 ] || undo
done
check_eq "after each of 21 kills (SIGKILL, SIGTERM, SIGINT; $kills while running, in a $span ms run) the old site or a whole new one, no temporary name, a sound catalogue, nothing left by SIGTERM or SIGINT" "$bad" 0
landed "most were killed while running" "$kills" 15
# (how many land before the run's last step follows the machine's load;
# each that does must stop the run, checked above: here, that some did)
landed "SIGTERM and SIGINT stopped runs, exit 128+N (of 14)" "$stopped" 4

check_status "the next run completes" 0 run_with "$R" "$S" "$P" "$TMP/b.csv"
check_eq "the same catalogue as runs never interrupted" "$(catalogue "$R")" "$(catalogue "$TMP/ref.db")"
check_eq "the same published files" "$(tree "$P" feed.atom | grep -v README.md)" \
	"$(tree "$TMP/ref-public" feed.atom)"
titles() { grep '<title>' "$1/audit/feed.atom"; }
check_eq "the same feed entries" "$(titles "$P")" "$(titles "$TMP/ref-public")"
check "the site is whole" whole "$P"
check_eq "the user's file is there" "$(cat "$P/pages/README.md")" "# mine"
check_eq "no copy of the catalogue is left" "$(find "$TMP" -maxdepth 1 -name 'run.db.run-*' | wc -l)" 0
# (named, so that a failure says what was left and what it holds)
check_eq "no half-built version is left" "$(find "$P/.modelcat" -maxdepth 1 \( -name 'build-*' \
	-o -name 'current.new-*' -o -name 'link-*' \) -printf '%f %y ' -exec sh -c 'ls -A "$1" 2>/dev/null | head -5 | tr "\n" " "' sh {} \;)" ""
check_eq "one version is left" "$(find "$P/.modelcat" -maxdepth 1 -name 'site-*' | wc -l)" 1
done_testing
