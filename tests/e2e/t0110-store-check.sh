#!/bin/sh
# A checked store: a stored file whose content no longer matches the
# SHA-256 its manifest line (or its name) records, overwritten with other
# valid content or with garbage, is reported by run, reingest and ingest
# in one line naming it, exit 3, and nothing is loaded; a FIFO, a link to
# /dev/zero, a link out of the store or a folder among the stored files is
# an error naming it at once (never a hang); `modelcat verify` exits 0 on
# a clean store and catalogue, 1 with a line naming the file for each kind
# of damage. (t0106 has reingest of a FIFO and of a /dev/zero link.)
. "$(dirname "$0")/lib.sh"

N=$SNAP/notable_ai_models
STORE=$TMP/store
X=$STORE/notable_ai_models
mkdir -p "$X" "$TMP/www"
export MODELCAT_DATADIR=$TOP
gzip -dc "$N/2024-12-24.csv.gz" >"$TMP/www/notable_ai_models.csv"
SRC="notable_ai_models=file://$TMP/www/notable_ai_models.csv"
# shellcheck disable=SC2086
run() { $WRAP "$BIN/modelcat" run --snapshots "$STORE" --out "$TMP/public" --source "$SRC"; }

# put NAME FILE.gz [nomanifest]: store FILE as fetch would have, with its
# manifest line unless told not to
put() {
	cp "$2" "$X/$1"
	sha=$(gzip -dc "$2" | sha256sum | cut -c1-64)
	[ -s "$STORE/MANIFEST.tsv" ] || printf 'fetched_at\tsource\tevent\tfile\turl\tstatus\tetag\tlast_modified\tsha256\tformat\tbytes\tstored_bytes\tdownload_bytes\trows\n' >"$STORE/MANIFEST.tsv"
	[ $# -gt 2 ] || printf '%sT06:00:00Z\tnotable_ai_models\tstored\tnotable_ai_models/%s\tfile:///x.csv\t0\t\t\t%s\tcsv\t1\t1\t1\t1\n' \
		"$(echo "$1" | cut -c1-10)" "$1" "$sha" >>"$STORE/MANIFEST.tsv"
}
sha_of() { gzip -dc "$1" | sha256sum | cut -c1-64; }
D2T="2025-01-02T120000Z-$(sha_of "$N/2024-12-24.csv.gz" | cut -c1-12).csv.gz"
put 2025-01-01.csv.gz "$N/2024-07-06.csv.gz"
put 2025-01-02.csv.gz "$N/2024-07-16.csv.gz"
put "$D2T" "$N/2024-12-24.csv.gz"
check_status "a run on the clean store ingests it (exit 0)" 0 run
check_status "reingest of the clean store (exit 0)" 0 mc reingest --snapshots "$STORE"
snapshots() { sql "SELECT group_concat(as_of || ' ' || sha256, ', ') FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id"; }
before=$(snapshots)
cp "$MODELCAT_DB" "$TMP/before.db"
check_status "verify of a clean store and catalogue exits 0" 0 mc verify --snapshots "$STORE"
check_grep "its summary counts no problem" "3 store files (0 with no recorded hash), 2 snapshot files of the catalogue: 0 problems" "$TMP/out"

# --- the day's latest file overwritten with other valid content ---------------
chmod u+w "$X/$D2T"
cp "$N/2025-02-24.csv.gz" "$X/$D2T"
want="$X/$D2T: content does not match its recorded SHA-256 (manifest: $(sha_of "$N/2024-12-24.csv.gz"), file: $(sha_of "$N/2025-02-24.csv.gz"))"
check_status "run reports the tampered file (exit 3)" 3 run
check_grep "in the line the manifest and the file's hashes" "$want" "$TMP/err"
check_eq "run loaded nothing" "$(snapshots)" "$before"
cp "$MODELCAT_DB" "$TMP/before.db"  # run's fetch noted a manifest line in it
check_status "reingest reports it (exit 3)" 3 mc reingest --snapshots "$STORE"
check_grep "naming it" "$want" "$TMP/err"
check "reingest left the catalogue as it was" cmp -s "$MODELCAT_DB" "$TMP/before.db"
check_status "ingest of it reports it (exit 3)" 3 mc ingest "$X/$D2T"
check_grep "naming it too" "$want" "$TMP/err"
check "ingest loaded nothing" cmp -s "$MODELCAT_DB" "$TMP/before.db"
check_status "verify finds it (exit 1)" 1 mc verify --snapshots "$STORE"
check_grep "with the store's line" "$want" "$TMP/out"

# --- overwritten with garbage --------------------------------------------------
echo "this is not an export" | gzip >"$X/$D2T"
check_status "run reports a garbage file (exit 3)" 3 run
check_grep "as not matching its recorded hash" "$X/$D2T: content does not match its recorded SHA-256 (manifest: $(sha_of "$N/2024-12-24.csv.gz"), file: " "$TMP/err"
check_eq "run loaded nothing" "$(snapshots)" "$before"
cp "$MODELCAT_DB" "$TMP/before.db"
head -c 3000 /dev/urandom >"$X/$D2T"
check_status "reingest reports a file of random bytes (exit 3)" 3 mc reingest --snapshots "$STORE"
check_grep "naming it" "$X/$D2T: content does not match its recorded SHA-256 (manifest: " "$TMP/err"
check "reingest left the catalogue as it was" cmp -s "$MODELCAT_DB" "$TMP/before.db"
head -c 3000 "$N/2024-07-06.csv.gz" >"$X/$D2T"
check_status "reingest reports a cut gzip file (exit 3)" 3 mc reingest --snapshots "$STORE"
check_grep "as not readable" "$X/$D2T: content does not match its recorded SHA-256 (manifest: .*, file: not readable: " "$TMP/err"
check "reingest left the catalogue as it was" cmp -s "$MODELCAT_DB" "$TMP/before.db"
check_status "ingest of it reports it (exit 3)" 3 mc ingest "$X/$D2T"
check "ingest loaded nothing" cmp -s "$MODELCAT_DB" "$TMP/before.db"
check_status "verify finds it (exit 1)" 1 mc verify --snapshots "$STORE"
check_grep "naming it" "$X/$D2T: content does not match" "$TMP/out"
cp "$N/2024-12-24.csv.gz" "$X/$D2T"
check_status "restored, verify is clean again" 0 mc verify --snapshots "$STORE"

# --- an older file tampered, and a name's hash that does not match -------------
chmod u+w "$X/2025-01-01.csv.gz"
cp "$N/2025-04-18.csv.gz" "$X/2025-01-01.csv.gz"
check_status "reingest reports a tampered older file (exit 3)" 3 mc reingest --snapshots "$STORE"
check_grep "naming it" "$X/2025-01-01.csv.gz: content does not match its recorded SHA-256" "$TMP/err"
check_status "verify finds it (exit 1)" 1 mc verify --snapshots "$STORE"
check_grep "naming it" "$X/2025-01-01.csv.gz: content does not match its recorded SHA-256" "$TMP/out"
cp "$N/2024-07-06.csv.gz" "$X/2025-01-01.csv.gz"
BAD="2025-01-03T120000Z-000000000000.csv.gz"
put "$BAD" "$N/2025-02-24.csv.gz" nomanifest
check_status "a file whose name's hash differs: ingest refuses it (exit 3)" 3 mc ingest "$X/$BAD"
check_grep "saying so" "$X/$BAD: content does not match its recorded SHA-256 (name: 000000000000, file: $(sha_of "$N/2025-02-24.csv.gz"))" "$TMP/err"
check_status "verify finds it (exit 1)" 1 mc verify --snapshots "$STORE"
check_grep "naming it" "$X/$BAD: content does not match its recorded SHA-256 (name: 000000000000" "$TMP/out"
rm -f "$X/$BAD"
put 2025-01-03.csv.gz "$N/2025-02-24.csv.gz" nomanifest
check_status "a file with no recorded hash is no problem for verify" 0 mc verify --snapshots "$STORE"
check_grep "it is counted" "(1 with no recorded hash)" "$TMP/out"
check_status "run ingests it" 0 run
chmod u+w "$X/2025-01-03.csv.gz"
cp "$N/2025-04-18.csv.gz" "$X/2025-01-03.csv.gz"
check_status "overwritten, verify finds it against the catalogue (exit 1)" 1 mc verify --snapshots "$STORE"
check_grep "naming it" "$X/2025-01-03.csv.gz: content differs from what snapshot 2025-01-03 of notable_ai_models loaded (catalogue: $(sha_of "$N/2025-02-24.csv.gz"), file: $(sha_of "$N/2025-04-18.csv.gz"))" "$TMP/out"
cp "$N/2025-02-24.csv.gz" "$X/2025-01-03.csv.gz"
before=$(snapshots)
cp "$MODELCAT_DB" "$TMP/before.db"

# --- entries that are not regular files inside the store -----------------------
E=$X/2025-01-04.csv.gz
entry() { # what, the message, then how to make it at $E
	what=$1 msg=$2; shift 2
	"$@"
	check_status "run with $what in the store fails at once (exit 3, not 124)" 3 run
	check_grep "naming it" "$E: $msg" "$TMP/err"
	check_eq "and loads nothing" "$(snapshots)" "$before"
	check_status "verify reports $what (exit 1)" 1 "$BIN/modelcat" verify --snapshots "$STORE"
	check_grep "naming it" "$E: $msg" "$TMP/out"
	rm -rf "$E"
}
entry "a FIFO" "not a regular file (a FIFO)" mkfifo "$E"
entry "a link to /dev/zero" "not a regular file (a device)" ln -s /dev/zero "$E"
entry "a link out of the store" "a symbolic link out of the snapshot store" ln -s "$N/2025-02-24.csv.gz" "$E"
entry "a folder" "not a regular file (a folder)" mkdir "$E"
cp "$MODELCAT_DB" "$TMP/before.db"  # the runs' fetches noted manifest lines in it
mkfifo "$E"
check_status "reingest with a FIFO among the stored files fails (exit 3)" 3 "$BIN/modelcat" reingest --snapshots "$STORE"
rm -f "$E"
ln -s "$N/2025-02-24.csv.gz" "$E"
check_status "reingest with a link out of the store fails (exit 3)" 3 "$BIN/modelcat" reingest --snapshots "$STORE"
check_grep "naming it" "$E: a symbolic link out of the snapshot store" "$TMP/err"
check "the catalogue is as it was" cmp -s "$MODELCAT_DB" "$TMP/before.db"
rm -f "$E"

# --- the catalogue against the store -------------------------------------------
mv "$X/$D2T" "$TMP/moved.csv.gz"
check_status "verify: a snapshot's file missing from the store (exit 1)" 1 mc verify --snapshots "$STORE"
check_grep "names the file" "snapshot 2025-01-02 of notable_ai_models was loaded from $X/$D2T, which is not in the store" "$TMP/out"
mv "$TMP/moved.csv.gz" "$X/$D2T"
cp "$MODELCAT_DB" "$TMP/damaged.db"
page=$(sqlite3 "$TMP/damaged.db" "PRAGMA page_size")
root=$(sqlite3 "$TMP/damaged.db" "SELECT rootpage FROM sqlite_master WHERE name = 'version_name'")
head -c 64 /dev/zero | tr '\0' '\377' | dd of="$TMP/damaged.db" bs=1 seek=$((page * (root - 1) + 100)) conv=notrunc 2>/dev/null
check_status "verify: a damaged catalogue (exit 1)" 1 mc verify --db "$TMP/damaged.db" --snapshots "$STORE"
check_grep "integrity_check names it" "$TMP/damaged.db: integrity_check: " "$TMP/out"
check_status "verify of the sound one is clean" 0 mc verify --snapshots "$STORE"
check_status "verify of a store that is not there could not check (exit 3)" 3 mc verify --snapshots "$TMP/nothing"
check_status "verify with an argument is a usage error (exit 2)" 2 mc verify extra

done_testing
