#!/bin/sh
# The suite gives the same verdict wherever the checkout is. A checkout in
# a folder closed to others (git clone into $(mktemp -d)/p, mode 0700) run
# as root: the test that changes user (t0102, to user 65534) must make
# what that user needs reachable, or skip with a reason, never fail.
#
# The repository is cloned (git clone of the checkout, no network) into a
# 0700 folder, the programs under test are put in the clone's bin/ as a
# build there would, and the current t0102 runs with the clone as its
# checkout. Only t0102 changes user; running it alone keeps this test to
# seconds where the whole suite from the clone would take many minutes.
. "$(dirname "$0")/lib.sh"

why=
if [ "$(id -u)" != 0 ]; then
	why="not root: no other user to change to, so where the checkout is cannot matter"
elif ! command -v setpriv >/dev/null 2>&1; then
	why="running as root without setpriv: t0102 cannot change user either"
elif ! command -v git >/dev/null 2>&1 || ! git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	why="$TOP is not a git checkout (or git is missing): nothing to clone"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "${TMPDIR:-/tmp}" 2>/dev/null; then
	why="user 65534 cannot reach ${TMPDIR:-/tmp}: t0102 skips there whatever the checkout"
fi
if [ -n "$why" ]; then
	skip_checks "$why" \
		"the clone sits in a folder closed to others (mode 700)" \
		"user 65534 cannot reach the programs in the clone" \
		"t0102 run from the clone exits 0" "and runs to its end" "none of its checks fails" \
		"its read-only checks ran as user 65534 (none skipped)"
	done_testing
	exit 0
fi
as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

PRIV=$(mktemp -d "$TMP/private.XXXXXX")
chmod 700 "$PRIV"
git clone -q "$TOP" "$PRIV/p" 2>"$TMP/clone.err" || sed 's/^/#   /' "$TMP/clone.err"
CLONE=$PRIV/p
mkdir -p "$CLONE/bin"
cp "$BIN"/modelcat* "$CLONE/bin/"
# as open as a build would leave them: only the folder above is closed
chmod 755 "$CLONE" "$CLONE/bin"

check_eq "the clone sits in a folder closed to others (mode 700)" "$(stat -c %a "$PRIV")" 700
if as_user test -x "$CLONE/bin/modelcat" 2>/dev/null; then
	not_ok "user 65534 cannot reach the programs in the clone"
else
	ok "user 65534 cannot reach the programs in the clone"
fi

# t0102 as it is now, with the clone as its checkout and programs; its
# temporary folder where ours is made ($TMPDIR or /tmp)
env MODELCAT_TOP="$CLONE" MODELCAT_BIN="$CLONE/bin" sh "$TOP/tests/e2e/t0102-catalogue-damage.sh" \
	>"$TMP/t0102.out" 2>&1
status=$?
check_eq "t0102 run from the clone exits 0" "$status" 0
check_grep "and runs to its end" '^1\.\.[0-9]' "$TMP/t0102.out"
check_eq "none of its checks fails" "$(grep -c '^not ok' "$TMP/t0102.out")" 0
grep '^not ok' "$TMP/t0102.out" | head -5 | sed 's/^/#   /'
check_eq "its read-only checks ran as user 65534 (none skipped)" \
	"$(grep -c '# SKIP' "$TMP/t0102.out")" 0
grep '# SKIP' "$TMP/t0102.out" | head -2 | sed 's/^/#   /'
done_testing
