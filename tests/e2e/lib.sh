# Shared helpers for the end-to-end tests: each test prints TAP lines
# ("ok N - what" / "not ok N - what") that tests/run counts.
set -u
: "${MODELCAT_BIN:=$(cd "$(dirname "$0")/../.." && pwd)/bin}"
: "${MODELCAT_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
TOP=$MODELCAT_TOP
BIN=$MODELCAT_BIN
DATA=$TOP/tests/data
SNAP=$TOP/snapshots
TMP=$(mktemp -d "${TMPDIR:-/tmp}/modelcat-test.XXXXXX")
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"' EXIT
export MODELCAT_DB="$TMP/catalogue.db"
test_count=0
# a command prefixed to each program run through mc (tests/run: MODELCAT_WRAP)
WRAP=${MODELCAT_WRAP:-}

# shellcheck disable=SC2086
mc() { $WRAP "$BIN/modelcat" "$@"; }

ok() { test_count=$((test_count + 1)); echo "ok $test_count - $*"; }
not_ok() { test_count=$((test_count + 1)); echo "not ok $test_count - $*"; }

# skip "what" "why": a check that cannot run here, reported as such
# ("ok N - what # SKIP why"; tests/run counts it as skipped, not passed).
# A test that leaves checks out prints one skip for each, so that every
# pass of the suite shows the same checks, run or skipped with a reason.
skip() { test_count=$((test_count + 1)); echo "ok $test_count - $1 # SKIP $2"; }
# skip_checks "why" "what"...: one skip for each check named
skip_checks() {
	skip_why_=$1; shift
	for skip_what_ in "$@"; do skip "$skip_what_" "$skip_why_"; done
}

# check "description" command...: passes when the command succeeds
check() {
	desc=$1; shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# check_eq "description" actual expected
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; echo "#   got      '$2'"; echo "#   expected '$3'"; fi
}

# check_status "description" expected-status command...
check_status() {
	desc=$1; want=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -eq "$want" ]; then ok "$desc"; else
		not_ok "$desc (exit $got, expected $want)"; sed 's/^/#   /' "$TMP/err" | head -5
	fi
}

# check_grep "description" pattern file
check_grep() {
	if grep -q -e "$2" "$3"; then ok "$1"; else not_ok "$1"; echo "#   '$2' not in $3:"; sed 's/^/#   /' "$3" | head -5; fi
}

# start_server DIR SECONDS: tests/e2e/fetch_server.py serving DIR on a
# loopback port for at most SECONDS, logging to $TMP/server.log; sets
# server (its pid) and URL, and stops it when the test ends.
start_server() {
	python3 "$TOP/tests/e2e/fetch_server.py" --dir "$1" --port-file "$TMP/port" \
		--log "$TMP/server.log" --lifetime "$2" &
	server=$!
	trap 'kill "$server" 2>/dev/null; [ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"' EXIT
	i=0
	while [ ! -s "$TMP/port" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	URL=http://127.0.0.1:$(cat "$TMP/port")
}

sql() { sqlite3 -batch -noheader "$MODELCAT_DB" "$@"; }
# sqlite3 that waits for a lock: a catalogue read right after a kill, while
# the killed program's children (killed with it by PR_SET_PDEATHSIG) may
# still be dying with their lock held on a loaded machine
sql_wait() { sqlite3 -batch -noheader -cmd '.timeout 600000' "$@"; }
# landed "what" COUNT MIN: how many kills came while the program still ran
# follows the machine's speed, not the program; COUNT of MIN or more
# passes, fewer is skipped (each kill that did land was checked on its own)
landed() {
	if [ "$2" -ge "$3" ]; then
		ok "$1 ($2)"
	else
		skip "$1 ($2)" "the program ended before its kills on this machine"
	fi
}

done_testing() { echo "1..$test_count"; }

# xmllint --html on FILES passes: no message of its HTML 4 parser but
# "Tag details/summary invalid" and the two lines that quote the place
# (the folds are HTML 5, unknown to it; only they pass); the others shown
html_lint_clean() {
	xmllint --html --noout "$@" 2>&1 |
		awk '/HTML parser error : Tag (details|summary) invalid/ {skip = 2; next} skip {skip--; next} {print "#   " $0; bad = 1} END {exit bad}'
}

# seed_page PREFIX OUT: the seed page PREFIX_*.txt (000 English, 001
# Dutch) with a final newline, as render prints it, after the documented
# deviations of tests/data/seeds/deviations.tsv (docs/pages.md, "How
# values are written") are applied, into OUT.
seed_page() {
	python3 - "$DATA/seeds" "$1" "$2" <<'PYEOF'
import glob, os, sys
seeds, prefix, out = sys.argv[1:4]
text = open(glob.glob(os.path.join(seeds, prefix + "_*.txt"))[0], encoding="utf-8").read()
for line in open(os.path.join(seeds, "deviations.tsv"), encoding="utf-8"):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    seed, old, new = line.split("\t")
    if seed == prefix:
        if old not in text:
            sys.exit("deviations.tsv: %r is not in seed %s" % (old, prefix))
        text = text.replace(old, new)
open(out, "w", encoding="utf-8").write(text + "\n")
PYEOF
}

# bundled_catalogue [DB]: the catalogue of the bundled history (reingest of
# snapshots/) in DB (default: $MODELCAT_DB), reingest's output in $TMP/out
# and $TMP/err; one check, that the rebuild exited 0. tests/run builds it
# once per run (MODELCAT_BUNDLED) and each test copies it; a test run on
# its own (sh tests/e2e/tNNNN-x.sh) rebuilds it here. A test of reingest
# itself runs reingest instead.
bundled_catalogue() {
	bundled_db_=${1:-$MODELCAT_DB}
	if [ -n "${MODELCAT_BUNDLED:-}" ] && [ -d "$MODELCAT_BUNDLED" ] && [ ! -e "$MODELCAT_BUNDLED/none" ]; then
		while [ ! -f "$MODELCAT_BUNDLED/status" ]; do sleep 1; done
		cp "$MODELCAT_BUNDLED/out" "$TMP/out"
		cp "$MODELCAT_BUNDLED/err" "$TMP/err"
		bundled_rc_=$(cat "$MODELCAT_BUNDLED/status")
		[ "$bundled_rc_" -ne 0 ] || cp "$MODELCAT_BUNDLED/catalogue.db" "$bundled_db_" || bundled_rc_=cp
	else
		mc --db "$bundled_db_" reingest --snapshots "$SNAP" >"$TMP/out" 2>"$TMP/err"
		bundled_rc_=$?
	fi
	if [ "$bundled_rc_" = 0 ]; then ok "reingest of the bundled history exits 0"; else
		not_ok "reingest of the bundled history exits 0 (exit $bundled_rc_)"
		sed 's/^/#   /' "$TMP/err" | head -5
	fi
}
