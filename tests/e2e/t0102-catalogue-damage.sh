#!/bin/sh
# A catalogue that cannot be written (a read-only file, a read-only
# folder), a file that is not a catalogue, a truncated catalogue. Writes
# fail with exit 3 and a message naming the file, and change nothing;
# reading a read-only catalogue works; a file that is not SQLite is never
# replaced (not even by reingest); a damaged catalogue is rebuilt by
# reingest, after which ingest works again.
. "$(dirname "$0")/lib.sh"

gzip -dc "$SNAP/notable_ai_models/2024-07-16.csv.gz" >"$TMP/a.csv"
gzip -dc "$SNAP/notable_ai_models/2024-12-24.csv.gz" >"$TMP/b.csv"
state() {
	sqlite3 "$1" "PRAGMA integrity_check; SELECT count(*) FROM snapshot;
		SELECT count(*) FROM version; SELECT count(*) FROM snapshot_row" | tr '\n' ' '
}
mc ingest --as-of 2024-07-16 "notable_ai_models=$TMP/a.csv" >/dev/null 2>&1
cp "$MODELCAT_DB" "$TMP/good.db"

# ---- read-only: root writes any file, so as root run as nobody ----
can_drop=0
if [ "$(id -u)" != 0 ]; then
	as_user() { "$@"; }
	can_drop=1
elif command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	can_drop=1
fi
if [ "$can_drop" = 1 ]; then
	RO=$TMP/ro
	mkdir -p "$RO"
	chmod 755 "$TMP" "$RO"
	chmod 644 "$TMP/b.csv"
	cp "$TMP/good.db" "$RO/c.db"
	chmod 444 "$RO/c.db"
	chown -R 65534:65534 "$RO" 2>/dev/null
	chmod 444 "$RO/c.db"
	old=$(state "$RO/c.db")
	before=$(sha256sum <"$RO/c.db")
	check_status "ingest into a read-only catalogue exits 3" 3 \
		as_user env MODELCAT_DB="$RO/c.db" $WRAP "$BIN/modelcat" ingest --as-of 2024-12-24 \
		"notable_ai_models=$TMP/b.csv"
	check_grep "it names the catalogue and says it is read-only" "c.db: .*readonly" "$TMP/err"
	check_eq "the catalogue is untouched" "$(sha256sum <"$RO/c.db")" "$before"
	check_status "a read-only catalogue can be read (show exits 0)" 0 \
		as_user env MODELCAT_DB="$RO/c.db" $WRAP "$BIN/modelcat" show GPT-4
	check_status "and exported" 0 as_user env MODELCAT_DB="$RO/c.db" \
		$WRAP "$BIN/modelcat" export --source notable_ai_models
	# a writable file in a folder that is not: no journal can be made
	chmod 644 "$RO/c.db"
	chmod 555 "$RO"
	check_status "ingest into a catalogue in a read-only folder exits 3" 3 \
		as_user env MODELCAT_DB="$RO/c.db" $WRAP "$BIN/modelcat" ingest --as-of 2024-12-24 \
		"notable_ai_models=$TMP/b.csv"
	check_grep "it names the catalogue" "c.db" "$TMP/err"
	check_eq "the catalogue is untouched" "$(sha256sum <"$RO/c.db")" "$before"
	chmod 755 "$RO"
	check_status "writable again, the ingest succeeds" 0 \
		as_user env MODELCAT_DB="$RO/c.db" $WRAP "$BIN/modelcat" ingest --as-of 2024-12-24 \
		"notable_ai_models=$TMP/b.csv"
	check "and the catalogue has the snapshot" test "$(state "$RO/c.db")" != "$old"
else
	ok "# SKIP running as root without setpriv: no read-only file for us"
fi

# ---- not a catalogue ----
cp "$TMP/a.csv" "$TMP/notes.db"
before=$(sha256sum <"$TMP/notes.db")
check_status "ingest into a file that is not SQLite exits 3" 3 \
	mc --db "$TMP/notes.db" ingest --as-of 2024-12-24 "notable_ai_models=$TMP/b.csv"
check_grep "it says the file is not a database" "notes.db: .*not a database" "$TMP/err"
check_status "show on it exits 3" 3 mc --db "$TMP/notes.db" show GPT-4
check_status "fetch into it exits 3" 3 mc --db "$TMP/notes.db" fetch --snapshots "$TMP/store" \
	--source "notable_ai_models=$TMP/a.csv"
check_status "reingest does not replace it (exit 3)" 3 mc --db "$TMP/notes.db" reingest
check_grep "it says why" "notes.db: not a SQLite database; not replaced" "$TMP/err"
check_eq "the file is untouched" "$(sha256sum <"$TMP/notes.db")" "$before"
check_eq "and nothing was left beside it" "$(ls "$TMP" | grep -c 'notes.db.')" 0

# ---- truncated ----
size=$(stat -c %s "$TMP/good.db")
head -c $((size / 2)) "$TMP/good.db" >"$TMP/cut.db"
before=$(sha256sum <"$TMP/cut.db")
check_status "ingest into a truncated catalogue exits 3" 3 \
	mc --db "$TMP/cut.db" ingest --as-of 2024-12-24 "notable_ai_models=$TMP/b.csv"
check_grep "it says the catalogue is damaged" "cut.db: .*malformed" "$TMP/err"
check_eq "it changes nothing" "$(sha256sum <"$TMP/cut.db")" "$before"
check_status "export from it exits 3" 3 \
	mc --db "$TMP/cut.db" export --source notable_ai_models --as-of 2024-07-16
check_status "reingest rebuilds it (exit 0)" 0 mc --db "$TMP/cut.db" reingest
check_eq "the rebuilt catalogue is whole" "$(sqlite3 "$TMP/cut.db" 'PRAGMA integrity_check')" ok
check_status "and takes an ingest again" 0 \
	mc --db "$TMP/cut.db" ingest --as-of 2030-01-01 "notable_ai_models=$TMP/b.csv"

# an empty file is an empty database: it becomes a catalogue
: >"$TMP/empty.db"
check_status "ingest into an empty file makes it a catalogue (exit 0)" 0 \
	mc --db "$TMP/empty.db" ingest --as-of 2024-07-16 "notable_ai_models=$TMP/a.csv"
done_testing
