#!/bin/sh
# The nightly job: `modelcat run` against a loopback server serving a real
# export publishes the audit (and pages); a second run with nothing new
# changes no version and no published file; two runs at once: one works,
# the other exits 75 at once; a source that is down fails the run and
# leaves catalogue and published files as they were; the Atom feed is
# valid XML. Then `make install` and the installed programs.
. "$(dirname "$0")/lib.sh"
export MODELCAT_RETRY_BASE_MS=10

WWW=$TMP/www
mkdir -p "$WWW"
gzip -dc "$SNAP/notable_ai_models/2025-05-06.csv.gz" >"$WWW/notable_ai_models.csv"
start_server "$WWW" 300
check "the test server is listening" test -s "$TMP/port"

cd "$TMP" || exit 1
run() { "$BIN/modelcat" run --snapshots "$TMP/store" --out "$TMP/public" "$@"; }
state() { # every published file with its modification time, and the versions
	find "$TMP/public" -type f ! -name '*.tmp-*' -printf '%p %T@\n' | sort
	sqlite3 "$MODELCAT_DB" 'SELECT count(*) FROM version; SELECT count(*) FROM snapshot'
}

check_status "a first run publishes (exit 0)" 0 run --source "notable_ai_models=$URL/data/notable_ai_models.csv"
cp "$TMP/err" "$TMP/run1.log"
day=$(date -u +%Y-%m-%d)
for kind in txt json html; do
	check "the audit of $day is published as $kind" test -s "$TMP/public/audit/$day.$kind"
done
check_eq "the audit counts every model as added" \
	"$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["added"]))' "$TMP/public/audit/$day.json")" 954
check "the audit index is published" test -s "$TMP/public/audit/index.html"
check_grep "the index links the audit" "$day.html" "$TMP/public/audit/index.html"
check "the Atom feed is valid XML" xmllint --noout "$TMP/public/audit/feed.atom"
check_grep "the feed lists the run's changes" "954 added" "$TMP/public/audit/feed.atom"
if [ -x "$BIN/modelcat-render" ]; then
	n=$(find "$TMP/public/pages/" -type f | wc -l)
	check "pages are published ($n files)" test "$n" -gt 954
else
	skip "pages are published" "no modelcat-render in $BIN: run publishes no pages"
fi
bad=$(grep -cv '^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z ' "$TMP/run1.log")
check_eq "every log line has a timestamp" "$bad" 0
check_grep "the last line is the summary" "summary: 1 sources fetched, 954 added, 0 removed, 0 renamed, 0 changed, 0 quarantined" \
	"$(tail -1 "$TMP/run1.log" >"$TMP/last"; echo "$TMP/last")"
check_eq "the catalogue holds the snapshot" "$(sql 'SELECT count(*) FROM snapshot_export')" 1

before=$(state)
sleep 1
check_status "a second run with nothing new exits 0" 0 run --source "notable_ai_models=$URL/data/notable_ai_models.csv"
check_grep "it says no change" "nothing new upstream: no change" "$TMP/err"
check_eq "no version and no published file changed (same mtimes)" "$(state)" "$before"

# two runs at once: the first holds the lock while it waits on a 429 with
# Retry-After: 10; the second starts once the server has seen the first's
# request (so the first holds the lock), and must not wait for it
"$BIN/modelcat" run --snapshots "$TMP/store" --out "$TMP/public" \
	--source "notable_ai_models=$URL/retry-after/10/notable_ai_models.csv" >/dev/null 2>"$TMP/runA.log" &
a=$!
i=0
while ! grep -q '"path": "/retry-after/10/' "$TMP/server.log" && kill -0 "$a" 2>/dev/null && [ $i -lt 1200 ]; do
	sleep 0.05; i=$((i + 1))
done
check_status "a second run while one works exits 75" 75 run --source "notable_ai_models=$URL/data/notable_ai_models.csv"
kill -0 "$a" 2>/dev/null
check_eq "it does not wait for the lock: the first run is still working when it exits" "$?" 0
check_grep "it names the run that holds the lock" "another writer holds the catalogue: .*held by pid $a (modelcat-run) since" "$TMP/err"
wait $a
check_eq "the first run completed" "$?" 0

# a source that is down: nothing changes
before=$(state)
check_status "a run whose source answers 500 fails (exit >= 3)" 3 \
	run --source "notable_ai_models=$URL/status/500" --retries 1
check_grep "it says nothing was published" "nothing ingested, nothing published" "$TMP/err"
check_eq "catalogue and published files are as they were" "$(state)" "$before"
check_status "a run whose source refuses connections fails (exit >= 3)" 3 \
	run --source "notable_ai_models=http://127.0.0.1:9/x.csv" --retries 0
check_eq "still as they were" "$(state)" "$before"

# new content upstream: only changed pages are rewritten, the audit says what changed
python3 - "$WWW/notable_ai_models.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding='utf-8', newline='')))
c = rows[0].index('Citations')
rows[1][c] = '123456'
csv.writer(open(sys.argv[1], 'w', encoding='utf-8', newline=''), lineterminator='\n').writerows(rows)
PY
name=$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1], encoding="utf-8"))); print(r[1][0])' "$WWW/notable_ai_models.csv")
sleep 1
check_status "a run with one changed model" 0 run --source "notable_ai_models=$URL/plain/notable_ai_models.csv"
cp "$TMP/err" "$TMP/run3.log"
check_grep "its summary counts one change" "0 added, 0 removed, 0 renamed, 1 changed" "$TMP/run3.log"
json=$(ls -t "$TMP/public/audit/"*.json | head -1)
check_eq "the audit names the changed model and field" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([(c["name"], [f["field"] for f in c["fields"]]) for c in d["changed"]])' "$json")" \
	"[('$name', ['Citations'])]"
if [ -x "$BIN/modelcat-render" ]; then
	n=$(sed -n 's/.*published \([0-9]*\) page files.*/\1/p' "$TMP/run3.log")
	check "only a few page files were rewritten ($n)" test "${n:-0}" -ge 1 -a "${n:-0}" -lt 40
else
	skip "only a few page files were rewritten" "no modelcat-render in $BIN: run publishes no pages"
fi
check "the feed is still valid XML" xmllint --noout "$TMP/public/audit/feed.atom"

# install, then use the installed programs from another folder
root=$TMP/root
make -C "$TOP" install DESTDIR="$root" PREFIX=/usr/local >"$TMP/install.log" 2>&1
check_eq "make install DESTDIR PREFIX exits 0" "$?" 0
mkdir -p "$TMP/elsewhere"
cd "$TMP/elsewhere" || exit 1
check_status "the installed reingest works from another folder" 0 \
	"$root/usr/local/bin/modelcat" --db "$TMP/elsewhere/installed.db" reingest
ndates=$(ls "$SNAP"/*/*.csv.gz | sed 's|.*/||' | sort -u | wc -l | tr -d ' ')
check_grep "it rebuilt the bundled history" "from $ndates snapshots" "$TMP/out"
check_status "the installed run works from another folder" 0 \
	"$root/usr/local/bin/modelcat" --db "$TMP/elsewhere/run.db" run --snapshots store --out public \
	--source "notable_ai_models=$URL/data/notable_ai_models.csv"
check "it published the audit" test -s "$TMP/elsewhere/public/audit/index.html"
for page in "$root"/usr/local/share/man/man1/*.1; do
	if man -l "$page" 2>/dev/null | grep -q "SYNOPSIS"; then ok "man -l $(basename "$page")"
	else not_ok "man -l $(basename "$page")"; fi
done
n=$(ls "$root"/usr/local/share/man/man1/ | wc -l)
check_eq "a manual page for modelcat and each command" "$n" "$(( $("$BIN/modelcat" --help | awk '/^commands:/{f=1;next} f&&/^  [a-z]/{n++} f&&/^$/{f=0} END{print n}') + 1 ))"
check "the cron wrapper is installed" test -x "$root/usr/local/share/modelcat/cron/modelcat-nightly"

# the cron wrapper: log file, exit status, output only on failure
cd "$TMP" || exit 1
MODELCAT_HOME=$TMP/cronhome MODELCAT_BIN=$BIN sh "$TOP/cron/modelcat-nightly" \
	--source "notable_ai_models=$URL/data/notable_ai_models.csv" >"$TMP/cron.out" 2>&1
check_eq "the wrapper exits with the run's status" "$?" 0
check "it prints nothing when the run went well" test ! -s "$TMP/cron.out"
check_grep "it logs with timestamps" "modelcat-run: summary:" "$TMP/cronhome/log/modelcat.log"
MODELCAT_HOME=$TMP/cronhome MODELCAT_BIN=$BIN sh "$TOP/cron/modelcat-nightly" \
	--source "notable_ai_models=$URL/status/500" --retries 0 >"$TMP/cron.out" 2>&1
check_eq "a failed run: the wrapper exits 3" "$?" 3
check_grep "and prints the run's log for cron to mail" "exited with status 3" "$TMP/cron.out"
# exit 75: silent when another writer held the lock, said when a program
# that does not take it held or changed the catalogue (nothing installed)
mkdir -p "$TMP/fakebin"
printf '#!/bin/sh\necho "modelcat-run: $FAKE_LINE" >&2\nexit 75\n' >"$TMP/fakebin/modelcat"
chmod +x "$TMP/fakebin/modelcat"
FAKE_LINE="another run holds the lock" MODELCAT_HOME=$TMP/cronhome MODELCAT_BIN=$TMP/fakebin \
	sh "$TOP/cron/modelcat-nightly" >"$TMP/cron.out" 2>&1
check_eq "locked: the wrapper exits 75" "$?" 75
check "and prints nothing" test ! -s "$TMP/cron.out"
FAKE_LINE="/x/modelcat.db: changed by another program during the run; nothing installed" \
	MODELCAT_HOME=$TMP/cronhome MODELCAT_BIN=$TMP/fakebin \
	sh "$TOP/cron/modelcat-nightly" >"$TMP/cron.out" 2>&1
check_eq "nothing installed: the wrapper exits 75" "$?" 75
check_grep "and prints the run's log for cron to mail" "changed by another program" "$TMP/cron.out"
MODELCAT_LOG_SIZE=0 MODELCAT_HOME=$TMP/cronhome MODELCAT_BIN=$BIN sh "$TOP/cron/modelcat-nightly" \
	--source "notable_ai_models=$URL/data/notable_ai_models.csv" >/dev/null 2>&1
check "the log is rotated" test -s "$TMP/cronhome/log/modelcat.log.1"
done_testing
