#!/bin/sh
# The disk filling up while the catalogue, a staging file or a snapshot is
# written. Two ways: the file size limit (ulimit -f: writes fail with
# EFBIG; the programs ignore SIGXFSZ, so it is an error, not a kill),
# which works anywhere; and a small tmpfs that really fills up (ENOSPC),
# when this machine lets us mount one. Each time: exit 3, an error saying
# what failed, the catalogue, staging file or store exactly as before, no
# temporary file left, and the next run (with room) succeeds.
. "$(dirname "$0")/lib.sh"

gzip -dc "$SNAP/notable_ai_models/2024-07-16.csv.gz" >"$TMP/a.csv"
gzip -dc "$SNAP/notable_ai_models/2024-12-24.csv.gz" >"$TMP/b.csv"
state() {
	sqlite3 "$1" "PRAGMA integrity_check; SELECT count(*) FROM snapshot;
		SELECT count(*) FROM version; SELECT count(*) FROM snapshot_row;
		SELECT count(*) FROM field_change; SELECT count(*) FROM quarantine" | tr '\n' ' '
}
tree() { (cd "$1" && find . | LC_ALL=C sort && find . -type f | LC_ALL=C sort | xargs -r sha256sum); }
# blocks of 512 bytes (the unit of ulimit -f) a file has now, plus extra
blocks() { echo $(( ($(stat -c %s "$1") + 511) / 512 + $2 )); }

# ---- the file size limit ----
mc ingest --as-of 2024-07-16 "notable_ai_models=$TMP/a.csv" >/dev/null 2>&1
old=$(state "$MODELCAT_DB")
limit=$(blocks "$MODELCAT_DB" 2)
(ulimit -f "$limit"; mc ingest --as-of 2024-12-24 "notable_ai_models=$TMP/b.csv") \
	>"$TMP/out" 2>"$TMP/err"
check_eq "ingest past the file size limit exits 3 (not killed by SIGXFSZ)" "$?" 3
check_grep "it says the write failed" "File too large\|disk is full\|disk I/O error" "$TMP/err"
check_grep "and that nothing was written" "nothing was written to the catalogue" "$TMP/err"
check_eq "the catalogue holds what it held" "$(state "$MODELCAT_DB")" "$old"
check_status "with room, the ingest succeeds" 0 \
	mc ingest --as-of 2024-12-24 "notable_ai_models=$TMP/b.csv"
check "and the catalogue has the new snapshot" test "$(state "$MODELCAT_DB")" != "$old"

# parse --out: the staging file it would replace stays
mc parse --out "$TMP/stage.db" "notable_ai_models=$TMP/a.csv" >/dev/null 2>&1
before=$(sha256sum <"$TMP/stage.db")
(ulimit -f 64; mc parse --out "$TMP/stage.db" "notable_ai_models=$TMP/b.csv") \
	>"$TMP/out" 2>"$TMP/err"
check_eq "parse --out past the file size limit exits 3" "$?" 3
check_grep "it names the staging file" "stage.db" "$TMP/err"
check_eq "the old staging file is untouched" "$(sha256sum <"$TMP/stage.db")" "$before"
check_eq "no temporary staging file is left" "$(find "$TMP" -name 'stage.db.tmp-*' | wc -l)" 0

# reingest: the old catalogue stays, the half-built one goes
old=$(state "$MODELCAT_DB")
(ulimit -f 2048; mc reingest) >"$TMP/out" 2>"$TMP/err"
check_eq "reingest past the file size limit exits 3" "$?" 3
check_grep "it says the catalogue was left as it was" "was left as it was" "$TMP/err"
check_eq "the catalogue is the old one" "$(state "$MODELCAT_DB")" "$old"
check_eq "no half-built catalogue is left" "$(find "$TMP" -name '*.reingest-*' | wc -l)" 0

# fetch: the snapshot is compressed into a temporary file that cannot grow
S=$TMP/store
mc fetch --snapshots "$S" --source "notable_ai_models=$TMP/a.csv" >/dev/null 2>&1
before=$(tree "$S")
(ulimit -f 16; mc fetch --snapshots "$S" --source "notable_ai_models=$TMP/b.csv") \
	>"$TMP/out" 2>"$TMP/err"
check_eq "fetch past the file size limit exits 3" "$?" 3
check_grep "it says the write failed and nothing was stored" "File too large.*nothing stored" "$TMP/err"
check_eq "the store is as it was (no file, no temporary file, same manifest)" "$(tree "$S")" "$before"
check_status "with room, the fetch stores the snapshot" 0 \
	mc fetch --snapshots "$S" --source "notable_ai_models=$TMP/b.csv"

# ---- a file system that fills up ----
FULL=$TMP/full
mkdir -p "$FULL"
if ! mount -t tmpfs -o size=16m tmpfs "$FULL" 2>/dev/null; then
	skip_checks "cannot mount a small tmpfs here (not root, or no privilege)" \
		"ingest onto a full file system exits 3" "it says the disk is full" \
		"the new catalogue is not left behind" \
		"ingest into a catalogue on a full disk exits 3" "it says the disk is full" \
		"the catalogue holds what it held" "with room again, the ingest succeeds" \
		"fetch into a store on a full disk exits 3" \
		"it says the disk is full and nothing was stored" "the store is as it was" \
		"with room again, the fetch stores the snapshot" "and no temporary file is left"
	done_testing
	exit 0
fi
trap 'umount "$FULL" 2>/dev/null; [ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"' EXIT

# a new catalogue with 4 MB left: the all_ai_models export does not fit
gzip -dc "$SNAP/all_ai_models/2025-04-23.csv.gz" >"$TMP/all.csv"
dd if=/dev/zero of="$FULL/filler" bs=1M count=12 2>/dev/null
check_status "ingest onto a full file system exits 3" 3 \
	mc --db "$FULL/new.db" ingest --as-of 2025-04-23 "all_ai_models=$TMP/all.csv"
check_grep "it says the disk is full" "disk is full\|No space left" "$TMP/err"
check_eq "the new catalogue is not left behind" "$(ls -A "$FULL")" "filler"
rm -f "$FULL/filler"

# an existing catalogue when the disk fills: it stays as it was
mc --db "$FULL/c.db" ingest --as-of 2024-07-16 "notable_ai_models=$TMP/a.csv" >/dev/null 2>&1
old=$(state "$FULL/c.db")
dd if=/dev/zero of="$FULL/filler" bs=64k 2>/dev/null
check_status "ingest into a catalogue on a full disk exits 3" 3 \
	mc --db "$FULL/c.db" ingest --as-of 2024-12-24 "notable_ai_models=$TMP/b.csv"
check_grep "it says the disk is full" "disk is full\|No space left" "$TMP/err"
check_eq "the catalogue holds what it held" "$(state "$FULL/c.db")" "$old"
rm -f "$FULL/filler"
check_status "with room again, the ingest succeeds" 0 \
	mc --db "$FULL/c.db" ingest --as-of 2024-12-24 "notable_ai_models=$TMP/b.csv"

# a store on a full disk
rm -f "$FULL"/c.db*
S=$FULL/store
mc --db "$TMP/f.db" fetch --snapshots "$S" --source "notable_ai_models=$TMP/a.csv" >/dev/null 2>&1
before=$(tree "$S")
dd if=/dev/zero of="$FULL/filler" bs=64k 2>/dev/null
check_status "fetch into a store on a full disk exits 3" 3 \
	mc --db "$TMP/f.db" fetch --snapshots "$S" --source "notable_ai_models=$TMP/b.csv"
check_grep "it says the disk is full and nothing was stored" "No space left.*nothing stored" "$TMP/err"
check_eq "the store is as it was" "$(tree "$S")" "$before"
rm -f "$FULL/filler"
check_status "with room again, the fetch stores the snapshot" 0 \
	mc --db "$TMP/f.db" fetch --snapshots "$S" --source "notable_ai_models=$TMP/b.csv"
check_eq "and no temporary file is left" "$(find "$S" -name '.tmp-*' | wc -l)" 0
done_testing
