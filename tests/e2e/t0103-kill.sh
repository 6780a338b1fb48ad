#!/bin/sh
# SIGKILL at random moments of: an ingest into a new catalogue, parse
# --out over an existing staging file, reingest over an existing
# catalogue, and the nightly job (modelcat run: fetch, ingest, audit,
# render when there is a renderer, publish). After each kill nothing
# half-written is there to read (the catalogue passes integrity_check and
# holds the old state or nothing, a staging file or published file is
# the old one or a whole new one), and the next run completes and removes
# what the killed one left (its temporary files, copies and folders).
# (A kill inside a load into an existing catalogue: t0070-crash.sh; inside
# a fetch: t0080-fetch.sh.)
. "$(dirname "$0")/lib.sh"

python3 "$TOP/tests/e2e/scale_export.py" "$SNAP/all_ai_models/2025-04-23.csv.gz" 8 "$TMP/all.csv"
rows=$((8 * 2225))

# run "$@" in the background as mc would, kill -9 it after a random
# moment in [20 ms, span ms); $killed is 1 when it was still running
kill_after() {
	span=$1; shift
	delay=$(( 20 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % (span - 20) ))
	$WRAP "$BIN/modelcat" "$@" >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	if kill -9 "$pid" 2>/dev/null; then killed=1; else killed=0; fi
	wait "$pid" 2>/dev/null
}
# another try of a loop of kills: four, and up to sixteen while none of
# them came before the program ended (a first, timed run slower than the
# ones after it makes that likely enough to happen now and then)
more_tries() {
	i=$((i + 1))
	[ "$i" -le 4 ] || { [ "$kills" = 0 ] && [ "$i" -le 16 ]; }
}
# how long "$@" takes, in ms (at least 100)
time_of() {
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$ms" -lt 100 ] && ms=100
	echo "$ms"
}

# ---- ingest into a new catalogue ----
new=$TMP/new.db
span=$(time_of mc --db "$new" ingest --as-of 2025-06-01 "all_ai_models=$TMP/all.csv")
rm -f "$new"*
kills=0 bad=0 i=0
while more_tries; do
	kill_after "$span" --db "$new" ingest --as-of 2025-06-01 "all_ai_models=$TMP/all.csv"
	kills=$((kills + killed))
	if [ -f "$new" ]; then
		got=$(sql_wait "$new" "PRAGMA integrity_check; SELECT count(*) FROM snapshot;
			SELECT coalesce(sum(loaded), 0) FROM snapshot_export" | tr '\n' ' ')
		# empty, or (killed after the commit) the whole snapshot
		[ "$got" = "ok 0 0 " ] || [ "$got" = "ok 1 $rows " ] || [ "$killed" = 0 ] ||
			{ bad=$((bad + 1)); echo "# kill $i: $got"; }
	fi
	[ "$killed" = 0 ] && rm -f "$new"*
done
check_eq "a new catalogue killed while loading is whole: empty, or complete ($kills kills in a $span ms load)" "$bad" 0
landed "some of those loads were killed" "$kills" 1
# the next ingest loads it (exit 1: the file has quarantined rows), or,
# when the last kill came after the commit, finds the same content (exit 0)
want=1
[ -f "$new" ] && [ "$(sqlite3 "$new" 'SELECT count(*) FROM snapshot')" = 1 ] && want=0
check_status "the next ingest loads the snapshot (or finds it whole)" "$want" \
	mc --db "$new" ingest --as-of 2025-06-01 "all_ai_models=$TMP/all.csv"
check_eq "every row" "$(sqlite3 "$new" 'SELECT DISTINCT loaded FROM snapshot_export')" "$rows"
check_eq "and no half-made new catalogue of the killed ones is left" \
	"$(find "$TMP" -name 'new.db.new-*' | wc -l)" 0

# ---- parse --out over a staging file ----
mc parse --out "$TMP/stage.db" "all_ai_models=$SNAP/all_ai_models/2025-04-23.csv.gz" >/dev/null 2>&1
before=$(sha256sum <"$TMP/stage.db")
span=$(time_of mc parse --out "$TMP/timing.db" "all_ai_models=$TMP/all.csv")
kills=0 bad=0 i=0
while more_tries; do
	kill_after "$span" parse --out "$TMP/stage.db" "all_ai_models=$TMP/all.csv"
	kills=$((kills + killed))
	if [ "$killed" = 1 ] && [ "$(sha256sum <"$TMP/stage.db")" != "$before" ]; then
		# killed after the rename (a sanitizer's exit checks take a
		# while): then it must be the whole new file
		[ "$(sql_wait "$TMP/stage.db" 'SELECT count(*) FROM staging_row WHERE NOT quarantined')" = "$rows" ] ||
			bad=$((bad + 1))
	fi
	before=$(sha256sum <"$TMP/stage.db")
done
check_eq "a killed parse --out leaves the staging file as it was, or whole ($kills kills)" "$bad" 0
landed "some of those were killed" "$kills" 1
check_status "the next parse --out replaces it" 1 mc parse --out "$TMP/stage.db" "all_ai_models=$TMP/all.csv"
check_eq "with every row" \
	"$(sqlite3 "$TMP/stage.db" 'SELECT count(*) FROM staging_row WHERE NOT quarantined')" "$rows"
check_eq "and no temporary file of the killed runs is left" \
	"$(find "$TMP" -name 'stage.db.tmp-*' | wc -l)" 0

# ---- reingest over a catalogue ----
S=$TMP/store
mkdir -p "$S/all_ai_models" "$S/notable_ai_models"
cp "$SNAP/notable_ai_models/"*.csv.gz "$S/notable_ai_models/"
gzip -9n <"$TMP/all.csv" >"$S/all_ai_models/2025-04-23.csv.gz"
mc ingest --as-of 2024-07-06 "$SNAP/notable_ai_models/2024-07-06.csv.gz" >/dev/null 2>&1
span=$(time_of mc --db "$TMP/timing2.db" reingest --snapshots "$S")
kills=0 bad=0 i=0
while more_tries; do
	kill_after "$span" reingest --snapshots "$S"
	kills=$((kills + killed))
	# the rebuild is copied into the catalogue file in one transaction: a
	# kill during the copy leaves a hot journal that the next open rolls
	# back, so the catalogue as read is the old one (1 snapshot) or the
	# whole rebuild (7; an earlier kill may have come after the copy)
	got=$(sql_wait "$MODELCAT_DB" 'PRAGMA integrity_check; SELECT count(*) FROM snapshot' | tr '\n' ' ')
	[ "$got" = "ok 1 " ] || [ "$got" = "ok 7 " ] ||
		{ bad=$((bad + 1)); echo "# kill $i: catalogue $got"; }
done
check_eq "a killed reingest leaves the catalogue as it was, or whole ($kills kills in a $span ms rebuild)" "$bad" 0
landed "some of those were killed" "$kills" 1
check_status "the next reingest rebuilds it" 0 mc reingest --snapshots "$S"
check_eq "with every snapshot" "$(sql 'SELECT count(*) FROM snapshot')" 7
check_eq "and no copy of a killed rebuild is left" "$(find "$TMP" -name '*.reingest-*' | wc -l)" 0

# ---- the nightly job ----
P=$TMP/public
R=$TMP/run.db
export MODELCAT_RETRY_BASE_MS=10
run() {
	mc --db "$R" run --snapshots "$TMP/runstore" --out "$P" "$@"
}
run --source "notable_ai_models=$SNAP/notable_ai_models/2024-07-16.csv.gz" >/dev/null 2>&1
old=$(sqlite3 "$R" 'PRAGMA integrity_check; SELECT count(*) FROM snapshot' | tr '\n' ' ')
next=$SNAP/notable_ai_models/2025-05-06.csv.gz
# a run that completes is undone, so that the next one has work to do
cp "$R" "$TMP/run-base.db"
cp -R "$TMP/runstore" "$TMP/runstore-base"
cp -R "$P" "$TMP/public-base"
undo() {
	cp "$TMP/run-base.db" "$R"
	rm -rf "$TMP/runstore" "$P"
	cp -R "$TMP/runstore-base" "$TMP/runstore"
	cp -R "$TMP/public-base" "$P"
}
cp "$R" "$TMP/timing3.db"
span=$(time_of mc --db "$TMP/timing3.db" run --snapshots "$TMP/timestore" --out "$TMP/timepub" \
	--source "notable_ai_models=$next")
kills=0 bad=0 i=0
while more_tries; do
	kill_after "$span" --db "$R" run --snapshots "$TMP/runstore" --out "$P" \
		--source "notable_ai_models=$next"
	kills=$((kills + killed))
	if [ "$killed" = 0 ]; then
		undo
		continue
	fi
	got=$(sql_wait "$R" 'PRAGMA integrity_check; SELECT count(*) FROM snapshot' | tr '\n' ' ')
	# the old catalogue, or (killed after its last step, the rename of
	# the new catalogue into place) the complete new one
	[ "$got" = "$old" ] || [ "$got" = "ok 2 " ] ||
		{ bad=$((bad + 1)); echo "# kill $i: catalogue $got, was $old"; }
	for f in "$P"/audit/*.json; do
		[ -f "$f" ] || continue
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" 2>/dev/null ||
			{ bad=$((bad + 1)); echo "# kill $i: $f is not whole"; }
	done
	if [ -f "$P/audit/feed.atom" ] && ! xmllint --noout "$P/audit/feed.atom" 2>/dev/null; then
		bad=$((bad + 1))
		echo "# kill $i: the feed is not whole"
	fi
	# a run killed after it completed is undone, like one that was not
	# killed, so that the next has work to do
	if [ "$got" = "ok 2 " ]; then undo; fi
done
check_eq "a killed run leaves the old or the complete new catalogue and whole published files ($kills kills in a $span ms run)" "$bad" 0
landed "some of those runs were killed" "$kills" 1
check_status "the next run completes" 0 run --source "notable_ai_models=$next"
check_eq "the catalogue has the new snapshot" "$(sqlite3 "$R" 'SELECT count(*) FROM snapshot')" 2
check_eq "no copy of the catalogue is left" "$(find "$TMP" -name 'run.db.run-*' | wc -l)" 0
check_eq "no build folder is left" "$(find "$P" -name '.build-*' | wc -l)" 0
check_eq "no temporary file is left among the published ones" "$(find "$P" -name '*.tmp-*' | wc -l)" 0
done_testing
