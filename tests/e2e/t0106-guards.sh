#!/bin/sh
# Guards for the operator's mistakes: a --db that is not a regular file
# (device, FIFO, folder) is refused by every writer and left as it was; a
# symlinked --db is written through to its target with mode and owner
# kept; a store entry or an export file that is not a regular file fails
# at once instead of hanging; an --as-of after tomorrow needs
# --allow-future. No command runs under a time limit: a hang (a FIFO read
# to its end) stops the suite at CI's own limit, and a loaded machine
# fails nothing.
. "$(dirname "$0")/lib.sh"
export MODELCAT_RETRY_BASE_MS=10

# a small export (five models) and a small store of two dates
python3 - "$SNAP/notable_ai_models/2025-05-06.csv.gz" "$TMP/small.csv" <<'EOF'
import csv, gzip, sys
with gzip.open(sys.argv[1], "rt", newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))[:6]
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
EOF
mkdir -p "$TMP/store/notable_ai_models"
gzip -c "$TMP/small.csv" >"$TMP/store/notable_ai_models/2025-01-01.csv.gz"
head -4 "$TMP/small.csv" | gzip >"$TMP/store/notable_ai_models/2025-02-01.csv.gz"
mc parse --out "$TMP/staging.db" "notable_ai_models=$TMP/small.csv" >/dev/null 2>&1

# --- 1. a --db that is not a catalogue file ---------------------------------
BAD=$TMP/bad
mkdir -p "$BAD/folder"
mkfifo "$BAD/fifo"
mknod "$BAD/cdev" c 1 3 2>/dev/null
listing() { ls -la "$BAD" "$BAD/folder" | sed 's/ [A-Z][a-z][a-z] .*:[0-9][0-9] / /'; }
for path in "$BAD/fifo" "$BAD/cdev" "$BAD/folder" /dev/null; do
	case $path in
	*fifo) kind="a FIFO"; test_kind=-p ;;
	*folder) kind="a folder"; test_kind=-d ;;
	*) kind="a character device"; test_kind=-c ;;
	esac
	if [ ! -e "$path" ]; then
		skip_checks "cannot create $path here" "$path is refused by every writer"
		continue
	fi
	# /dev/null only once a device of our own came through unharmed: a
	# regression would replace the system's /dev/null with a file
	if [ "$path" = /dev/null ] && [ "${cdev_ok:-}" != yes ]; then
		skip_checks "the device $BAD/cdev was not refused" "--db /dev/null is refused" \
			"/dev/null is still a character device" "nothing was written beside it"
		continue
	fi
	before=$(listing)
	failed=
	for cmd in "ingest notable_ai_models=$TMP/small.csv" "load $TMP/staging.db" \
		"reingest --snapshots $TMP/store" "translate" \
		"fetch --snapshots $TMP/fstore --source notable_ai_models=$TMP/small.csv" \
		"run --snapshots $TMP/fstore --out $TMP/public --source notable_ai_models=$TMP/small.csv"; do
		# shellcheck disable=SC2086
		"$BIN/modelcat" $cmd --db "$path" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		if [ $rc -ne 3 ] || ! grep -q "$path: is $kind, not a catalogue file" "$TMP/err"; then
			failed="$failed ${cmd%% *}(exit $rc: $(head -1 "$TMP/err"))"
		fi
	done
	check_eq "--db $path ($kind) is refused with exit 3 by ingest, load, reingest, translate, fetch, run" "$failed" ""
	check "$path is still $kind" test $test_kind "$path"
	check_eq "nothing was written beside it" "$(listing)" "$before"
	if [ "$path" = "$BAD/cdev" ] && [ -z "$failed" ] && [ -c "$path" ]; then cdev_ok=yes; fi
	if [ "$path" = /dev/null ] && [ ! -c /dev/null ]; then
		rm -f /dev/null && mknod -m 666 /dev/null c 1 3
	fi
done
check "fetch and run refused before making a store or an output folder" \
	test ! -e "$TMP/fstore" -a ! -e "$TMP/public"
MODELCAT_DB=$BAD/fifo "$BIN/modelcat" ingest "notable_ai_models=$TMP/small.csv" >"$TMP/out" 2>"$TMP/err"
check_eq "\$MODELCAT_DB naming a FIFO is refused too (exit 3)" "$?" 3
check_eq "with one line on stderr" "$(wc -l <"$TMP/err")" 1

# --- 2. a symlinked --db ------------------------------------------------------
mkdir -p "$TMP/real" "$TMP/links"
REAL=$TMP/real/catalogue.db
LINK=$TMP/links/catalogue.db
mc ingest --db "$REAL" --as-of 2024-12-01 "notable_ai_models=$TMP/small.csv" >/dev/null 2>&1
ln -s ../real/catalogue.db "$LINK"
chmod 600 "$REAL"
owner=$(id -u)
if [ "$owner" -eq 0 ]; then chown 65534:65534 "$REAL"; owner=65534; fi
inode=$(stat -c %i "$REAL")
check_status "reingest through a symlinked --db exits 0" 0 "$BIN/modelcat" reingest --db "$LINK" --snapshots "$TMP/store"
check "the link is still a link" test -L "$LINK"
check_eq "its target has the rebuilt catalogue" \
	"$(sqlite3 "$REAL" 'SELECT group_concat(as_of) FROM (SELECT as_of FROM snapshot ORDER BY as_of)')" "2025-01-01,2025-02-01"
check_eq "the target kept its mode" "$(stat -c %a "$REAL")" 600
check_eq "the target kept its owner" "$(stat -c %u:%g "$REAL")" "$owner:$owner"
check_eq "the target is the same file, written into, not replaced" "$(stat -c %i "$REAL")" "$inode"
check "no temporary catalogue is left beside the link or the target" \
	sh -c "! ls '$TMP/real' '$TMP/links' | grep -q reingest-"

WWW=$TMP/www
mkdir -p "$WWW"
cp "$TMP/small.csv" "$WWW/notable_ai_models.csv"
start_server "$WWW" 120
day=$(date -u +%Y-%m-%d)
check_status "run through a symlinked --db exits 0" 0 "$BIN/modelcat" run --db "$LINK" \
	--snapshots "$TMP/store" --out "$TMP/public" --source "notable_ai_models=$URL/data/notable_ai_models.csv"
check "the link is still a link after run" test -L "$LINK"
check_eq "its target has the run's snapshot" "$(sqlite3 "$REAL" "SELECT count(*) FROM snapshot WHERE as_of = '$day'")" 1
check_eq "the target kept its mode after run" "$(stat -c %a "$REAL")" 600
check_eq "the target kept its owner after run" "$(stat -c %u:%g "$REAL")" "$owner:$owner"
check_eq "and is still the same file" "$(stat -c %i "$REAL")" "$inode"
check "no lock file is left beside the target or the link" \
	sh -c "! ls '$TMP/real' '$TMP/links' | grep -q '\.lock\$'"
kill $server 2>/dev/null

ln -s "$TMP/real/missing.db" "$TMP/links/dangling.db"
check_status "a symlink to a missing file is refused (exit 3)" 3 "$BIN/modelcat" reingest \
	--db "$TMP/links/dangling.db" --snapshots "$TMP/store"
check_grep "it says so" "dangling.db: is a symbolic link to a file that does not exist" "$TMP/err"
check "its target is not created" test ! -e "$TMP/real/missing.db"
check_status "ingest refuses it too (exit 3)" 3 "$BIN/modelcat" ingest \
	--db "$TMP/links/dangling.db" "notable_ai_models=$TMP/small.csv"

# --- 3. a store entry or an export file that is not a regular file -----------
mc reingest --snapshots "$TMP/store" >/dev/null 2>&1
cp "$MODELCAT_DB" "$TMP/before.db"
mkfifo "$TMP/store/notable_ai_models/2025-03-01.csv.gz"
check_status "reingest with a FIFO in the store fails at once (exit 3)" 3 "$BIN/modelcat" reingest --snapshots "$TMP/store"
check_grep "the error names the FIFO" "notable_ai_models/2025-03-01.csv.gz: not a regular file" "$TMP/err"
check "the catalogue is unchanged" cmp -s "$MODELCAT_DB" "$TMP/before.db"
rm "$TMP/store/notable_ai_models/2025-03-01.csv.gz"
ln -s /dev/zero "$TMP/store/notable_ai_models/2025-03-01.csv.gz"
check_status "reingest with a link to /dev/zero in the store fails at once (exit 3)" 3 "$BIN/modelcat" reingest --snapshots "$TMP/store"
check_grep "the error names the link" "notable_ai_models/2025-03-01.csv.gz: not a regular file" "$TMP/err"
check "the catalogue is still unchanged" cmp -s "$MODELCAT_DB" "$TMP/before.db"
mkfifo "$TMP/export.csv"
check_status "ingest of a FIFO fails at once (exit 3)" 3 "$BIN/modelcat" ingest "notable_ai_models=$TMP/export.csv"
check_grep "the error names it" "export.csv: not a regular file" "$TMP/err"
check "nothing was loaded" cmp -s "$MODELCAT_DB" "$TMP/before.db"
check_status "parse of a FIFO fails at once (exit 3)" 3 "$BIN/modelcat" parse "notable_ai_models=$TMP/export.csv"

# --- 4. dates in the future ----------------------------------------------------
check_status "ingest --as-of 2205-01-01 is refused (exit 2)" 2 mc ingest --as-of 2205-01-01 "notable_ai_models=$TMP/small.csv"
check_grep "it says why" "after tomorrow (UTC).*--allow-future" "$TMP/err"
check "nothing was written" cmp -s "$MODELCAT_DB" "$TMP/before.db"
check_status "load --as-of 2205-01-01 is refused (exit 2)" 2 mc load --as-of 2205-01-01 "$TMP/staging.db"
check "nothing was written by load" cmp -s "$MODELCAT_DB" "$TMP/before.db"
tomorrow=$(date -u -d tomorrow +%Y-%m-%d)
check_status "tomorrow ($tomorrow) is accepted" 0 mc ingest --as-of "$tomorrow" "notable_ai_models=$TMP/small.csv"
check_status "with --allow-future 2205-01-01 loads" 0 mc ingest --as-of 2205-01-01 --allow-future "notable_ai_models=$TMP/small.csv"
check_eq "the snapshot is there" "$(sql "SELECT count(*) FROM snapshot WHERE as_of = '2205-01-01'")" 1
check_status "load takes --allow-future too" 0 mc load --as-of 2205-02-01 --allow-future "$TMP/staging.db"
name=$(python3 -c 'import csv,sys; print(list(csv.reader(open(sys.argv[1])))[1][0])' "$TMP/small.csv")
check_status "show accepts any date" 0 mc show "$name" --as-of 2999-12-31
check_status "export accepts any date" 0 mc export --source notable_ai_models --as-of 2999-12-31
done_testing
