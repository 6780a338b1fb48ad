#!/bin/sh
# Killing a load with SIGKILL at random moments leaves a catalogue that
# passes PRAGMA integrity_check and holds the old state; a rerun completes.
. "$(dirname "$0")/lib.sh"

mc ingest --as-of 2025-05-06 "$SNAP/notable_ai_models/2025-05-06.csv.gz" >/dev/null 2>&1
state() {
	sql "SELECT (SELECT count(*) FROM snapshot) || '/' || (SELECT count(*) FROM version)
	     || '/' || (SELECT count(*) FROM record) || '/' || (SELECT count(*) FROM snapshot_row)
	     || '/' || (SELECT count(*) FROM quarantine)"
}
old=$(state)

# how long one load takes here, to aim the kills inside it: an export
# large enough that a load takes at least 400 ms (a fast machine gets a
# larger one)
copies=15
while :; do
	python3 "$TOP/tests/e2e/scale_export.py" "$SNAP/all_ai_models/2025-04-23.csv.gz" "$copies" "$TMP/all.csv"
	cp "$MODELCAT_DB" "$TMP/timing.db"
	start=$(date +%s%N)
	MODELCAT_DB=$TMP/timing.db mc ingest --as-of 2025-06-01 "all_ai_models=$TMP/all.csv" >/dev/null 2>&1
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	echo "# one load of $copies copies takes ${ms} ms"
	[ "$ms" -ge 400 ] || [ "$copies" -ge 120 ] || { copies=$((copies * 2)); continue; }
	break
done
check "the load takes long enough to be killed inside (${ms} ms for $copies copies)" test "$ms" -gt 200
new=$(MODELCAT_DB=$TMP/timing.db state)

cp "$MODELCAT_DB" "$TMP/old.db"
kills=0
for i in 1 2 3 4 5 6 7 8; do
	# somewhere in the first 60% of a load's time
	delay=$(( 20 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % (ms * 6 / 10) ))
	# (as mc runs it, under $WRAP too, so the kills fall inside the load)
	$WRAP "$BIN/modelcat" ingest --as-of 2025-06-01 "all_ai_models=$TMP/all.csv" >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	# the dispatcher execs the stage, so $pid is the loading process
	if ! kill -9 "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null
		# its two checks did not run: say so, as skips
		skip_checks "load $i finished before the kill at ${delay} ms (a busy or slow machine)" \
			"kill $i: integrity_check" "kill $i: the catalogue holds the old state"
		cp "$TMP/old.db" "$MODELCAT_DB"
		continue
	fi
	wait "$pid" 2>/dev/null
	check_eq "kill $i after ${delay} ms: integrity_check" "$(sql 'PRAGMA integrity_check')" ok
	now=$(state)
	if [ "$now" = "$old" ]; then
		kills=$((kills + 1))
		ok "kill $i: the catalogue holds the old state"
	elif [ "$now" = "$new" ]; then
		# killed after the commit (a sanitizer's exit checks take a while)
		ok "kill $i: the catalogue holds the complete new state"
		cp "$TMP/old.db" "$MODELCAT_DB"
	else
		not_ok "kill $i: the catalogue holds neither the old nor the new state"
		echo "#   got $now; old $old; new $new"
	fi
done

check "at least three loads were killed mid-way ($kills)" test "$kills" -ge 3
check_status "a rerun completes" 1 mc ingest --as-of 2025-06-01 "all_ai_models=$TMP/all.csv"
check_eq "after the rerun: integrity_check" "$(sql 'PRAGMA integrity_check')" ok
check_eq "the new snapshot is there" "$(sql 'SELECT count(*) FROM snapshot')" 2
check_eq "with every loaded row" "$(sql "SELECT loaded FROM snapshot_export WHERE export = 'all_ai_models'")" \
	"$(( copies * 2225 ))"
done_testing
