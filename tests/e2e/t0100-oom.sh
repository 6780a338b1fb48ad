#!/bin/sh
# Out of memory at each allocation point: an LD_PRELOAD library
# (tests/fault/failmalloc.c) makes the Nth malloc, calloc or realloc of a
# process fail, for every N a clean run makes (parse), or for a sample of
# them spread over the whole run (parse --out, ingest; MODELCAT_FAULT_ALL=1
# tries every one). Each run must either do without the allocation and
# give exactly the clean run's result, or stop with exit 3 and a one-line
# error, leaving the staging file or the catalogue exactly as it was and
# no temporary file; never a crash, never a different result.
. "$(dirname "$0")/lib.sh"

lib=${MODELCAT_UNITS:-$TOP/build/release/tests}/failmalloc.so
why=
if [ -n "$WRAP" ]; then
	why="programs run under $(echo "$WRAP" | cut -d' ' -f1), whose allocator failmalloc.so cannot replace"
elif [ ! -f "$lib" ]; then
	why="failmalloc.so is not built here (make builds it only without SANITIZE: a sanitizer's allocator cannot be replaced)"
fi
if [ -n "$why" ]; then
	skip_checks "$why" \
		"the clean parse quarantines the bad row (exit 1)" \
		"the parse makes allocations to fail" \
		"parse: each allocation failing gives exit 3 or the clean result" \
		"parse --out: allocations failing leave the staging file as it was" \
		"ingest: allocations failing leave the catalogue as it was" \
		"an allocation failing halfway fails the ingest" \
		"after a failed ingest the next run loads the snapshot" \
		"and the catalogue holds what a clean run gives" \
		"ingest into a new catalogue: allocations failing leave no file"
	done_testing
	exit 0
fi

# a small export: the first rows of a real one, one with a date that is
# not a date (quarantined), then gzip-compressed; and an earlier one for
# the catalogue to hold (other rows: some are removed, some added)
python3 - "$SNAP/notable_ai_models/2025-05-06.csv.gz" "$TMP/small.csv" "$TMP/base.csv" <<'EOF'
import csv, gzip, sys
rows = list(csv.reader(gzip.open(sys.argv[1], "rt", encoding="utf-8", newline="")))
date = rows[0].index("Publication date")
bad = list(rows[20])
bad[date] = "NVIDIA Tesla V100"
with open(sys.argv[2], "w", encoding="utf-8", newline="") as f:
    csv.writer(f, lineterminator="\r\n").writerows(rows[:16] + [bad])
with open(sys.argv[3], "w", encoding="utf-8", newline="") as f:
    csv.writer(f, lineterminator="\r\n").writerows(rows[:1] + rows[8:30])
EOF
gzip -9n <"$TMP/small.csv" >"$TMP/small.csv.gz"
export MODELCAT_DATADIR="$TOP"

# how many allocations a clean run makes
count() {
	FAILMALLOC_COUNT=$TMP/count LD_PRELOAD=$lib "$@" >/dev/null 2>&1
	cat "$TMP/count"
}
# the failures to try out of n: all of them, or about want of them spread
# over the run from a random start
points() {
	n=$1 want=$2
	if [ -n "${MODELCAT_FAULT_ALL:-}" ] || [ "$n" -le "$want" ]; then
		seq 1 "$n"
	else
		step=$(( (n + want - 1) / want ))
		seq $(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % step + 1 )) "$step" "$n"
	fi
}
# run with the Nth allocation failing; sets $status, output in out/err
fail_at() {
	at=$1; shift
	FAILMALLOC_AT=$at LD_PRELOAD=$lib "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
}
# a failure must be exit 3 saying why
clean_failure() {
	[ "$status" -eq 3 ] && grep -q -e 'out of memory' -e 'Cannot allocate memory' "$TMP/err"
}

# ---- parse: every allocation ----
"$BIN/modelcat-parse" "$TMP/small.csv.gz" >"$TMP/clean.out" 2>"$TMP/clean.err"
clean_status=$?
check_eq "the clean parse quarantines the bad row (exit 1)" "$clean_status" 1
n=$(count "$BIN/modelcat-parse" "$TMP/small.csv.gz")
check "the parse makes allocations to fail ($n)" test "$n" -gt 100
bad=0 failed=0 survived=0
for i in $(points "$n" 100000); do
	fail_at "$i" "$BIN/modelcat-parse" "$TMP/small.csv.gz"
	if [ "$status" -eq "$clean_status" ] && cmp -s "$TMP/out" "$TMP/clean.out"; then
		survived=$((survived + 1))
	elif clean_failure; then
		failed=$((failed + 1))
	else
		bad=$((bad + 1))
		[ "$bad" -le 3 ] && echo "# allocation $i: exit $status: $(tail -1 "$TMP/err")"
	fi
done
check_eq "parse: each of $n allocations failing gives exit 3 or the clean result ($failed failed, $survived did without)" "$bad" 0

# ---- parse --out: the staging file stays as it was ----
"$BIN/modelcat-parse" --out "$TMP/stage.db" "$TMP/small.csv.gz" >/dev/null 2>&1
dump_stage() { sqlite3 "$1" .dump | sha256sum; }
clean_stage=$(dump_stage "$TMP/stage.db")
before=$(sha256sum <"$TMP/stage.db")
n=$(count "$BIN/modelcat-parse" --out "$TMP/count.db" "$TMP/small.csv.gz")
bad=0 tried=0
for i in $(points "$n" 100); do
	tried=$((tried + 1))
	fail_at "$i" "$BIN/modelcat-parse" --out "$TMP/stage.db" "$TMP/small.csv.gz"
	left=$(find "$TMP" -name 'stage.db.tmp-*' | wc -l)
	if [ "$status" -eq 3 ] && clean_failure && [ "$(sha256sum <"$TMP/stage.db")" = "$before" ] &&
		[ "$left" -eq 0 ]; then
		continue
	elif [ "$status" -eq 1 ] && [ "$(dump_stage "$TMP/stage.db")" = "$clean_stage" ] &&
		[ "$left" -eq 0 ]; then
		before=$(sha256sum <"$TMP/stage.db")
		continue
	fi
	bad=$((bad + 1))
	[ "$bad" -le 3 ] && echo "# allocation $i: exit $status, $left temporary files: $(tail -1 "$TMP/err")"
	rm -f "$TMP"/stage.db.tmp-*
done
check_eq "parse --out: $tried of $n allocations failing leave the staging file as it was" "$bad" 0

# ---- ingest into a catalogue: it stays as it was ----
state() {
	sqlite3 "$1" "PRAGMA integrity_check;
		SELECT count(*) FROM snapshot; SELECT count(*) FROM snapshot_export;
		SELECT record_id, valid_from, valid_to, kind, name, norm, raw, hex(digest)
		  FROM version ORDER BY id;
		SELECT * FROM snapshot_row ORDER BY 1, 2;
		SELECT file, line, field, reason, raw FROM quarantine ORDER BY id;
		SELECT * FROM field_change ORDER BY 1;
		SELECT * FROM export_column ORDER BY 1, 2;" | sha256sum
}
mc ingest --as-of 2025-01-01 "notable_ai_models=$TMP/base.csv" >/dev/null 2>&1
cp "$MODELCAT_DB" "$TMP/base.db"
old=$(state "$MODELCAT_DB")
"$BIN/modelcat-ingest" --as-of 2025-02-01 "notable_ai_models=$TMP/small.csv.gz" >/dev/null 2>&1
new=$(state "$MODELCAT_DB")
n=$(cp "$TMP/base.db" "$TMP/count.db" && export MODELCAT_DB="$TMP/count.db" &&
    count "$BIN/modelcat-ingest" --as-of 2025-02-01 "notable_ai_models=$TMP/small.csv.gz")
bad=0 tried=0
for i in $(points "$n" 120); do
	tried=$((tried + 1))
	cp "$TMP/base.db" "$MODELCAT_DB"
	rm -f "$MODELCAT_DB-journal"
	fail_at "$i" "$BIN/modelcat-ingest" --as-of 2025-02-01 "notable_ai_models=$TMP/small.csv.gz"
	got=$(state "$MODELCAT_DB")
	if clean_failure && [ "$got" = "$old" ]; then
		continue
	elif [ "$status" -eq 1 ] && [ "$got" = "$new" ]; then
		continue
	fi
	bad=$((bad + 1))
	[ "$bad" -le 3 ] && echo "# allocation $i: exit $status: $(tail -1 "$TMP/err")"
done
check_eq "ingest: $tried of $n allocations failing leave the catalogue as it was" "$bad" 0
# a failure from the middle of the run on: the count differs a little from
# run to run (threads), and a few allocations are done without, so the
# first one that fails the run is taken
i=$((n / 2))
while [ "$i" -le "$n" ]; do
	cp "$TMP/base.db" "$MODELCAT_DB"
	rm -f "$MODELCAT_DB-journal"
	fail_at "$i" "$BIN/modelcat-ingest" --as-of 2025-02-01 "notable_ai_models=$TMP/small.csv.gz"
	clean_failure && break
	i=$((i + 1))
done
check "an allocation failing halfway fails the ingest (allocation $i of $n)" clean_failure
check_status "after a failed ingest the next run loads the snapshot" 1 \
	mc ingest --as-of 2025-02-01 "notable_ai_models=$TMP/small.csv.gz"
check_eq "and the catalogue holds what a clean run gives" "$(state "$MODELCAT_DB")" "$new"

# ---- ingest into a new catalogue: none is left behind ----
n=$(export MODELCAT_DB="$TMP/count2.db" &&
    count "$BIN/modelcat-ingest" --as-of 2025-02-01 "notable_ai_models=$TMP/small.csv.gz")
bad=0 tried=0
catalogue=$MODELCAT_DB
MODELCAT_DB=$TMP/new.db
for i in $(points "$n" 80); do
	tried=$((tried + 1))
	rm -f "$TMP"/new.db*
	fail_at "$i" "$BIN/modelcat-ingest" --as-of 2025-02-01 "notable_ai_models=$TMP/small.csv.gz"
	files=$(find "$TMP" -name 'new.db*' | wc -l)
	if clean_failure && [ "$files" -eq 0 ]; then
		continue
	elif [ "$status" -eq 1 ] && [ "$files" -eq 1 ] && [ "$(state "$TMP/new.db")" != "" ]; then
		continue
	fi
	bad=$((bad + 1))
	[ "$bad" -le 3 ] && echo "# allocation $i: exit $status, $files files: $(tail -1 "$TMP/err")"
done
MODELCAT_DB=$catalogue
check_eq "ingest into a new catalogue: $tried of $n allocations failing leave no file" "$bad" 0
done_testing
