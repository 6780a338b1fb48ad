#!/bin/sh
# Writers in pairs, on the real exports: one writer at a time holds the
# catalogue's writer lock (CATALOGUE.lock); a second one exits 75 naming
# the holder, or with --wait waits and then succeeds; no write whose
# command exited 0 is lost; PRAGMA integrity_check stays ok. A sqlite3
# shell that does not take the lock and writes during run or reingest
# keeps its write: the rebuilt catalogue is not installed over it. A
# connection open across a reingest reads the new catalogue (the file is
# written into, not replaced).
#
# Each pair is made deterministic without timing: the first writer is
# held inside its write by a sqlite3 shell holding a write transaction
# (BEGIN IMMEDIATE) on the catalogue, the second starts once the lock
# file names the first, and the shell then rolls back (changing nothing).
. "$(dirname "$0")/lib.sh"
# n40.csv and n60.csv (40, 60 rows) on a catalogue of hundreds of models trip the guard
# against removing more than 5 %: its ingests and runs are given --accept
export MODELCAT_RETRY_BASE_MS=10
today=$(date -u +%Y-%m-%d)
tomorrow=$(date -u -d tomorrow +%Y-%m-%d)

# exports: the real notable export cut to 40 and 60 models (run's
# sources), the real large_scale export, a store of the real notable
# snapshots
python3 - "$SNAP/notable_ai_models/2025-05-06.csv.gz" "$TMP" <<'EOF'
import csv, gzip, sys
with gzip.open(sys.argv[1], "rt", newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))
for n in (40, 60):
    with open("%s/n%d.csv" % (sys.argv[2], n), "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows(rows[:n + 1])
EOF
LARGE="large_scale_ai_models=$SNAP/large_scale_ai_models/2024-07-16.csv.gz"
mkdir -p "$TMP/store0/notable_ai_models"
cp "$SNAP"/notable_ai_models/*.csv.gz "$TMP/store0/notable_ai_models/"
stored=$(ls "$SNAP"/notable_ai_models/*.csv.gz | wc -l)
mc parse --out "$TMP/large.staging" "$LARGE" >/dev/null 2>&1

# $WRAP "$BIN/modelcat" "$@" in the background, output in $TMP/bg.N.*;
# sets bg (its pid: the program execs the stage, which keeps it) and n
bg_n=0
start_bg() {
	bg_n=$((bg_n + 1))
	$WRAP "$BIN/modelcat" "$@" >"$TMP/bg.$bg_n.out" 2>"$TMP/bg.$bg_n.err" &
	bg=$!
	n=$bg_n
}
# wait_bg PID N: its exit status, its stderr shown when not 0 or 75
wait_bg() {
	wait "$1"
	rc_=$?
	[ $rc_ -eq 0 ] || [ $rc_ -eq 75 ] || sed 's/^/#   /' "$TMP/bg.$2.err" | grep -v 'repeats\|no model name' | head -5
	return $rc_
}
# holds LOCK PID: the lock file names PID as its holder; 1 if PID ended first
holds() {
	i=0
	while ! grep -q "^pid $2 " "$1" 2>/dev/null; do
		kill -0 "$2" 2>/dev/null || return 1
		i=$((i + 1)); [ $i -gt 2400 ] && return 1
		sleep 0.05
	done
}
# hold_db DB [SQL]: a sqlite3 shell opens a write transaction on DB (and
# runs SQL in it), returning once it holds the write lock (another BEGIN
# IMMEDIATE fails); release_db [COMMIT;|ROLLBACK;] ends it
hold_db() {
	rm -f "$TMP/hold.in"
	mkfifo "$TMP/hold.in"
	sqlite3 "$1" <"$TMP/hold.in" >"$TMP/hold.out" 2>&1 &
	hold_pid=$!
	exec 3>"$TMP/hold.in"
	# the shell waits for the lock (.timeout): the probe below takes it for
	# a moment, and a shell without a timeout would fail its BEGIN then
	printf '.timeout 20000\nBEGIN IMMEDIATE; %s\n' "${2:-}" >&3
	i=0
	while sqlite3 "$1" "BEGIN IMMEDIATE; ROLLBACK;" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 400 ] && break
		sleep 0.05
	done
}
release_db() {
	echo "${1:-ROLLBACK;}" >&3
	exec 3>&-
	wait "$hold_pid"
}
whole() { sqlite3 "$1" 'PRAGMA integrity_check'; }
snapshots() { sqlite3 "$1" 'SELECT count(*) FROM snapshot'; }
has_export() { sqlite3 "$1" "SELECT count(DISTINCT snapshot_id) FROM snapshot_export WHERE export = '$2'"; }
# the catalogue db with the stored notable snapshots, and a table of the
# sqlite3 shell's own
base_db() {
	mc --db "$1" reingest --snapshots "$2" >/dev/null 2>&1
	sqlite3 "$1" 'CREATE TABLE note(x)'
}

# ---- 1. the lock held by another process (flock(1)) -------------------------
DB=$TMP/p0.db
LOCK=$DB.lock
mc --db "$DB" ingest --as-of 2024-07-16 "$LARGE" >/dev/null 2>&1
echo "pid 4242 (t0107-holder) since 2026-01-01T00:00:00Z" >"$LOCK"
flock "$LOCK" sh -c "while [ ! -e '$TMP/release' ]; do sleep 0.05; done" &
holder=$!
i=0
while flock -n "$LOCK" true && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
before=$(sha256sum <"$DB")
failed=
for cmd in "ingest --accept notable_ai_models=$TMP/n40.csv" "load $TMP/large.staging" \
	"reingest --snapshots $TMP/store0" "translate" \
	"fetch --snapshots $TMP/fstore --source notable_ai_models=$TMP/n40.csv" \
	"run --accept notable_ai_models --snapshots $TMP/fstore --out $TMP/public --source notable_ai_models=$TMP/n40.csv"; do
	# shellcheck disable=SC2086
	mc --db "$DB" $cmd >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 75 ] || ! grep -q "$LOCK: held by pid 4242 (t0107-holder) since" "$TMP/err"; then
		failed="$failed ${cmd%% *}(exit $rc: $(head -1 "$TMP/err"))"
	fi
done
check_eq "while another process holds the lock, ingest, load, reingest, translate, fetch and run exit 75 naming the holder and the lock file" "$failed" ""
check_eq "none of them wrote the catalogue" "$(sha256sum <"$DB")" "$before"
check "fetch and run stored nothing" test ! -e "$TMP/fstore/notable_ai_models"
ln -s p0.db "$TMP/link.db"
check_status "a symlinked --db shares its target's lock (exit 75)" 75 \
	mc --db "$TMP/link.db" ingest --accept "notable_ai_models=$TMP/n40.csv"
check_grep "naming the target's lock file" "$LOCK: held by pid 4242" "$TMP/err"
MODELCAT_LOCK_FD="0:1:2" mc --db "$DB" ingest --accept "notable_ai_models=$TMP/n40.csv" >"$TMP/out" 2>"$TMP/err"
check_eq 'a $MODELCAT_LOCK_FD that names no lock of ours is no lock (exit 75)' "$?" 75
check_status "--wait 1 waits, then exits 75" 75 \
	mc --db "$DB" ingest --accept --wait 1 "notable_ai_models=$TMP/n40.csv"
check_grep "saying how long it waited" "held by pid 4242 .*(waited 1 s)" "$TMP/err"
start_bg --db "$DB" ingest --accept --wait 600 --as-of 2025-05-06 "notable_ai_models=$TMP/n40.csv"
sleep 0.5
check_eq "a writer with --wait writes nothing while the lock is held" "$(sha256sum <"$DB")" "$before"
touch "$TMP/release"
wait "$holder"
wait_bg "$bg" "$n"
check_eq "once the holder lets go, it takes the lock and loads (exit 0)" "$?" 0
check_eq "its snapshot is in the catalogue" "$(has_export "$DB" notable_ai_models)" 1
check "it removed the lock file when done" test ! -e "$LOCK"

# ---- 2. run + ingest ---------------------------------------------------------
DB=$TMP/p1.db
base_db "$DB" "$TMP/store0"
cp -r "$TMP/store0" "$TMP/s1"
hold_db "$DB"
start_bg --db "$DB" run --accept notable_ai_models --snapshots "$TMP/s1" --out "$TMP/pub1" --source "notable_ai_models=$TMP/n40.csv"
run=$bg run_n=$n
check "run holds the lock" holds "$DB.lock" "$run"
check_status "ingest while run holds the lock exits 75" 75 mc --db "$DB" ingest --as-of 2024-07-16 "$LARGE"
check_grep "naming the run" "$DB.lock: held by pid $run (modelcat-run) since" "$TMP/err"
start_bg --db "$DB" ingest --wait 600 --as-of 2024-07-16 "$LARGE"
release_db
wait_bg "$run" "$run_n"
check_eq "the run completes (exit 0)" "$?" 0
wait_bg "$bg" "$n"
check_eq "ingest --wait 600 waited for it and loaded (exit 0)" "$?" 0
check_eq "the catalogue is whole" "$(whole "$DB")" ok
check_eq "the run's snapshot is there" "$(sqlite3 "$DB" "SELECT count(*) FROM snapshot WHERE as_of = '$today'")" 1
check_eq "and the ingest's" "$(has_export "$DB" large_scale_ai_models)" 1
check_eq "and the stored ones" "$(snapshots "$DB")" $((stored + 2))

# ---- 3. run + reingest -------------------------------------------------------
DB=$TMP/p2.db
base_db "$DB" "$TMP/store0"
cp -r "$TMP/store0" "$TMP/s2"
hold_db "$DB"
start_bg --db "$DB" run --accept notable_ai_models --snapshots "$TMP/s2" --out "$TMP/pub2" --source "notable_ai_models=$TMP/n40.csv"
run=$bg run_n=$n
check "run holds the lock" holds "$DB.lock" "$run"
check_status "reingest while run holds the lock exits 75" 75 mc --db "$DB" reingest --snapshots "$TMP/s2"
check_grep "naming the run" "$DB.lock: held by pid $run (modelcat-run) since" "$TMP/err"
start_bg --db "$DB" reingest --wait 600 --snapshots "$TMP/s2"
release_db
wait_bg "$run" "$run_n"
check_eq "the run completes (exit 0)" "$?" 0
wait_bg "$bg" "$n"
check_eq "reingest --wait 600 waited for it and rebuilt (exit 0)" "$?" 0
check_grep "from every stored snapshot, the run's included" "from $((stored + 1)) snapshots" "$TMP/bg.$n.out"
check_eq "the catalogue is whole" "$(whole "$DB")" ok
check_eq "and holds every snapshot, the run's too" "$(snapshots "$DB")" $((stored + 1))

# ---- 4. ingest + reingest, both ways -----------------------------------------
DB=$TMP/p3.db
base_db "$DB" "$TMP/store0"
hold_db "$DB"
start_bg --db "$DB" ingest --as-of 2024-07-16 "$LARGE"
ing=$bg ing_n=$n
check "ingest holds the lock" holds "$DB.lock" "$ing"
check_status "reingest while ingest holds the lock exits 75" 75 mc --db "$DB" reingest --snapshots "$TMP/store0"
check_grep "naming the ingest" "$DB.lock: held by pid $ing (modelcat-ingest) since" "$TMP/err"
release_db
wait_bg "$ing" "$ing_n"
check_eq "the ingest loads (exit 0)" "$?" 0
check_eq "its snapshot is there" "$(has_export "$DB" large_scale_ai_models)" 1
check_eq "the catalogue is whole" "$(whole "$DB")" ok
hold_db "$DB"
start_bg --db "$DB" reingest --snapshots "$TMP/store0"
re=$bg re_n=$n
check "reingest holds the lock" holds "$DB.lock" "$re"
check_status "ingest while reingest holds the lock exits 75" 75 \
	mc --db "$DB" ingest --accept --as-of "$tomorrow" "notable_ai_models=$TMP/n40.csv"
check_grep "naming the reingest" "$DB.lock: held by pid $re (modelcat-reingest) since" "$TMP/err"
start_bg --db "$DB" ingest --accept --wait 600 --as-of "$tomorrow" "notable_ai_models=$TMP/n40.csv"
release_db
wait_bg "$re" "$re_n"
check_eq "the reingest rebuilds (exit 0)" "$?" 0
wait_bg "$bg" "$n"
check_eq "ingest --wait 600 waited for it and loaded (exit 0)" "$?" 0
check_eq "the catalogue is whole" "$(whole "$DB")" ok
check_eq "it holds the stored snapshots and the ingest's" "$(snapshots "$DB")" $((stored + 1))
check_eq "the ingest's is the last" "$(sqlite3 "$DB" 'SELECT max(as_of) FROM snapshot')" "$tomorrow"

# ---- 5. run + translate ------------------------------------------------------
DB=$TMP/p4.db
base_db "$DB" "$TMP/store0"
cp -r "$TMP/store0" "$TMP/s4"
hold_db "$DB"
start_bg --db "$DB" run --accept notable_ai_models --snapshots "$TMP/s4" --out "$TMP/pub4" --source "notable_ai_models=$TMP/n40.csv"
run=$bg run_n=$n
check "run holds the lock" holds "$DB.lock" "$run"
check_status "translate while run holds the lock exits 75" 75 mc --db "$DB" translate
check_grep "naming the run" "$DB.lock: held by pid $run (modelcat-run) since" "$TMP/err"
start_bg --db "$DB" translate --wait 600
release_db
wait_bg "$run" "$run_n"
check_eq "the run completes (exit 0; its own translate and ingest work under its lock)" "$?" 0
wait_bg "$bg" "$n"
rc=$?
check "translate --wait 600 waited for it and stored the texts (exit 0 or 1)" test $rc -le 1
check_eq "the catalogue is whole" "$(whole "$DB")" ok
check_eq "the run's snapshot is there" "$(sqlite3 "$DB" "SELECT count(*) FROM snapshot WHERE as_of = '$today'")" 1
check "and the page texts" test "$(sqlite3 "$DB" 'SELECT count(*) FROM translation')" -gt 0

# ---- 6. ingest + load --------------------------------------------------------
DB=$TMP/p5.db
mc --db "$DB" ingest --as-of 2025-05-06 "notable_ai_models=$SNAP/notable_ai_models/2025-05-06.csv.gz" >/dev/null 2>&1
hold_db "$DB"
start_bg --db "$DB" ingest --accept --as-of 2025-05-07 "notable_ai_models=$TMP/n60.csv"
ing=$bg ing_n=$n
check "ingest holds the lock" holds "$DB.lock" "$ing"
check_status "load while ingest holds the lock exits 75" 75 mc --db "$DB" load --as-of 2025-05-07 "$TMP/large.staging"
check_grep "naming the ingest" "$DB.lock: held by pid $ing (modelcat-ingest) since" "$TMP/err"
start_bg --db "$DB" load --wait 600 --as-of 2025-05-08 "$TMP/large.staging"
release_db
wait_bg "$ing" "$ing_n"
check_eq "the ingest loads (exit 0)" "$?" 0
wait_bg "$bg" "$n"
check_eq "load --wait 600 waited for it and loaded (exit 0)" "$?" 0
check_eq "the catalogue is whole" "$(whole "$DB")" ok
check_eq "both snapshots are there" \
	"$(sqlite3 "$DB" "SELECT group_concat(as_of) FROM (SELECT as_of FROM snapshot ORDER BY as_of)")" \
	"2025-05-06,2025-05-07,2025-05-08"

# ---- 7. a sqlite3 shell write transaction open during run --------------------
DB=$TMP/p6.db
base_db "$DB" "$TMP/store0"
cp -r "$TMP/store0" "$TMP/s6"
before=$(snapshots "$DB")
start_bg --db "$DB" run --accept notable_ai_models --snapshots "$TMP/s6" --out "$TMP/pub6" --source "notable_ai_models=$TMP/n40.csv"
run=$bg run_n=$n
# once the run works on its copy, the shell writes and keeps its
# transaction open until the run is about to install (or ends), then commits
i=0
while ! grep -q "ingesting" "$TMP/bg.$n.err" 2>/dev/null && kill -0 "$run" 2>/dev/null && [ $i -lt 2400 ]; do
	sleep 0.05; i=$((i + 1))
done
hold_db "$DB" "INSERT INTO note VALUES ('during run');"
i=0
while ! grep -q "installing the new catalogue" "$TMP/bg.$n.err" 2>/dev/null && kill -0 "$run" 2>/dev/null && [ $i -lt 2400 ]; do
	sleep 0.05; i=$((i + 1))
done
release_db "COMMIT;"
wait_bg "$run" "$run_n"
check_eq "the run installs nothing and exits 75" "$?" 75
check_grep "it says another program changed the catalogue" \
	"changed by another program during the run; nothing installed" "$TMP/bg.$n.err"
check_eq "the catalogue is whole" "$(whole "$DB")" ok
check_eq "the shell's write is kept" "$(sqlite3 "$DB" 'SELECT group_concat(x) FROM note')" "during run"
check_eq "the run's snapshot was not installed over it" "$(snapshots "$DB")" "$before"
check "no journal is left beside it" test ! -e "$DB-journal"
check_status "the next run ingests what the store has (exit 0)" 0 \
	mc --db "$DB" run --accept notable_ai_models --snapshots "$TMP/s6" --out "$TMP/pub6" --source "notable_ai_models=$TMP/n40.csv"
check_eq "then the catalogue is whole" "$(whole "$DB")" ok
check_eq "with the run's snapshot" "$(snapshots "$DB")" $((before + 1))
check_eq "and the shell's write" "$(sqlite3 "$DB" 'SELECT group_concat(x) FROM note')" "during run"

# ---- 8. a sqlite3 shell commits during reingest ------------------------------
DB=$TMP/p7.db
base_db "$DB" "$TMP/store0"
mc --db "$DB" ingest --as-of 2024-07-16 "$LARGE" >/dev/null 2>&1
before=$(snapshots "$DB")
start_bg --db "$DB" reingest --snapshots "$TMP/store0"
re=$bg re_n=$n
# once the rebuild has begun (its new catalogue exists), the shell writes
i=0
while ! ls "$TMP" | grep -q "^p7.db.reingest-$re" && kill -0 "$re" 2>/dev/null && [ $i -lt 2400 ]; do
	sleep 0.05; i=$((i + 1))
done
sqlite3 -cmd ".timeout 20000" "$DB" "INSERT INTO note VALUES ('during reingest')"
wait_bg "$re" "$re_n"
check_eq "reingest installs nothing and exits 75" "$?" 75
check_grep "it says another program changed the catalogue" \
	"changed by another program during the run; nothing installed" "$TMP/bg.$n.err"
check_eq "the catalogue is whole" "$(whole "$DB")" ok
check_eq "the shell's write is kept" "$(sqlite3 "$DB" 'SELECT group_concat(x) FROM note')" "during reingest"
check_eq "and the ingest's snapshot (reingest would drop it: it is not in the store)" \
	"$(snapshots "$DB")" "$before"
check "no temporary catalogue is left" sh -c "! ls '$TMP' | grep -q 'p7.db.reingest-'"

# ---- 9. a connection open across reingest reads the new catalogue ------------
DB=$TMP/p8.db
mkdir -p "$TMP/s8/notable_ai_models"
cp "$SNAP/notable_ai_models/2024-07-06.csv.gz" "$TMP/s8/notable_ai_models/"
mc --db "$DB" reingest --snapshots "$TMP/s8" >/dev/null 2>&1
chmod 600 "$DB"
inode=$(stat -c %i "$DB")
rm -f "$TMP/reader.in"
mkfifo "$TMP/reader.in"
sqlite3 "$DB" <"$TMP/reader.in" >"$TMP/reader.out" 2>&1 &
reader=$!
exec 4>"$TMP/reader.in"
echo "SELECT count(*) FROM snapshot;" >&4
cp "$SNAP"/notable_ai_models/*.csv.gz "$TMP/s8/notable_ai_models/"
check_status "reingest with a reader's connection open exits 0" 0 mc --db "$DB" reingest --snapshots "$TMP/s8"
echo "SELECT count(*) FROM snapshot; PRAGMA integrity_check;" >&4
exec 4>&-
wait "$reader"
check_eq "the open connection read the old catalogue, then the new one" \
	"$(tr '\n' ' ' <"$TMP/reader.out")" "1 $stored ok "
check_eq "the catalogue is the same file (inode kept)" "$(stat -c %i "$DB")" "$inode"
check_eq "with its mode" "$(stat -c %a "$DB")" 600
done_testing
