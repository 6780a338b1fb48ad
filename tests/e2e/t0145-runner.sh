#!/bin/sh
# The runner (tests/run), on a tree of its own (a copy of the runner and
# lib.sh, tiny tests that note that they ran, the bundled snapshots linked
# in): a test named as an argument (name, file name, e2e/ path or full
# path; a unit test by name) is the only test that runs; a name that is no
# test exits 2 and runs nothing; TESTS still adds the unit tests; the
# slowest test (by the last run's seconds, else by the tree's
# tests/e2e/durations.tsv) starts first while the results are told in name
# order, and the run records its seconds for the next; the bundled
# history's catalogue is built once for the tests that ask for it, and
# each gets a copy of its own (a test that asks unseen builds its own).
. "$(dirname "$0")/lib.sh"

T=$TMP/tree
mkdir -p "$T/tests/e2e" "$TMP/units"
cp "$TOP/tests/run" "$T/tests/run"
cp "$TOP/tests/e2e/lib.sh" "$T/tests/e2e/lib.sh"
ln -s "$SNAP" "$T/snapshots"
MARKS=$TMP/marks
export MARKS REAL_TOP="$TOP" MODELCAT_BIN="$BIN"
for name in alpha beta; do
	n=1; [ $name = beta ] && n=2
	printf '#!/bin/sh\necho %s >>"$MARKS"\necho "ok 1 - %s ran"\n' "$name" "$name" >"$T/tests/e2e/t000$n-$name.sh"
done
printf '#!/bin/sh\necho unit >>"$MARKS"\necho "ok 1 - the unit test ran"\n' >"$TMP/units/test_one"
chmod +x "$TMP/units/test_one"
# two tests that copy the bundled history's catalogue: the first empties
# its copy, the second must still find every snapshot in its own (the
# helper's name is put together: this script itself asks for none)
for name in gamma delta; do
	n=3; [ $name = delta ] && n=4
	cat >"$T/tests/e2e/t000$n-$name.sh" <<EOF
#!/bin/sh
. "\$(dirname "\$0")/lib.sh"
echo $name >>"\$MARKS"
$(printf "bundled_%s" catalogue)
check_eq "$name: every bundled date is a snapshot" "\$(sql 'SELECT count(*) FROM snapshot')" \\
	"\$(python3 "\$REAL_TOP/tests/e2e/storeref.py" "\$SNAP" dates | wc -w | tr -d ' ')"
sql 'DELETE FROM snapshot_file' 2>/dev/null; sql 'DELETE FROM snapshot' 2>/dev/null
done_testing
EOF
done
# one that asks in a way the runner does not see: it builds its own
cat >"$T/tests/e2e/t0005-epsilon.sh" <<'EOF'
#!/bin/sh
. "$(dirname "$0")/lib.sh"
helper=bundled_
${helper}catalogue
done_testing
EOF
# every program run through MODELCAT_WRAP is noted (and run through the
# suite's own wrapper, if any)
cat >"$TMP/wrap" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/wrapped"
exec $WRAP "\$@"
EOF
chmod +x "$TMP/wrap"
: >"$TMP/wrapped"

# runner ARGS...: tests/run of the tree, one test at a time, MARKS emptied
runner() {
	: >"$MARKS"
	env -u TESTS MODELCAT_UNITS="$TMP/units" MODELCAT_TEST_JOBS=1 \
		MODELCAT_DURATIONS="${DURATIONS:-$TMP/durations.tsv}" MODELCAT_WRAP="$TMP/wrap" \
		sh "$T/tests/run" "$@" >"$TMP/out" 2>"$TMP/err"
}
marks() { tr '\n' ' ' <"$MARKS" | sed 's/ $//'; }

for arg in e2e/t0002-beta.sh t0002-beta t0002-beta.sh "$T/tests/e2e/t0002-beta.sh"; do
	runner "$arg"
	check_eq "tests/run $arg: exit 0" "$?" 0
	check_eq "tests/run $arg runs that test only" "$(marks)" beta
	check_grep "tests/run $arg tells its result and counts one check" "^1 passed, 0 failed, 0 skipped$" "$TMP/out"
done
runner test_one
check_eq "tests/run test_one runs that unit test only" "$(marks)" unit
runner unit/test_one t0001-alpha
check_eq "tests/run unit/test_one t0001-alpha runs those two" "$(marks | tr ' ' '\n' | sort | tr '\n' ' ')" "alpha unit "

runner t0001-alpha t0009-nothing
check_eq "a name that is no test: exit 2" "$?" 2
check_grep "naming it" "t0009-nothing: no such test" "$TMP/err"
check_eq "and nothing runs" "$(marks)" ""

: >"$MARKS"
env TESTS=t0001-alpha MODELCAT_UNITS="$TMP/units" MODELCAT_TEST_JOBS=1 \
	MODELCAT_DURATIONS="$TMP/durations.tsv" MODELCAT_WRAP="$TMP/wrap" \
	sh "$T/tests/run" >"$TMP/out" 2>"$TMP/err"
check_eq "TESTS=t0001-alpha runs the unit tests and that script" "$(marks | tr ' ' '\n' | sort | tr '\n' ' ')" "alpha unit "

# slowest first: the tree's list says beta takes longer; no last run
printf '# name\tseconds\ne2e/t0001-alpha.sh\t1\ne2e/t0002-beta.sh\t50\n' >"$T/tests/e2e/durations.tsv"
DURATIONS=$TMP/none/durations.tsv runner t0001-alpha t0002-beta
check_eq "by tests/e2e/durations.tsv, beta (50 s) starts before alpha (1 s)" "$(marks)" "beta alpha"
check_eq "the results are told in name order" \
	"$(grep -o '^e2e/t000[0-9]-[a-z]*' "$TMP/out" | tr '\n' ' ')" "e2e/t0001-alpha e2e/t0002-beta "
printf 'e2e/t0001-alpha.sh\t70\n' >"$TMP/durations.tsv"
runner t0001-alpha t0002-beta
check_eq "by the last run's seconds (alpha 70 s), alpha starts first" "$(marks)" "alpha beta"
check_eq "the run records each test's seconds for the next" \
	"$(cut -f1 "$TMP/durations.tsv" | tr '\n' ' ')" "e2e/t0001-alpha.sh e2e/t0002-beta.sh "

# the bundled history's catalogue: built once, copied by each test
: >"$TMP/wrapped"
runner t0003-gamma t0004-delta
check_eq "two tests that copy the bundled catalogue pass" "$?" 0
check_grep "both ran their two checks" "^4 passed, 0 failed, 0 skipped$" "$TMP/out"
check_eq "reingest ran once for both" "$(grep -c ' reingest ' "$TMP/wrapped")" 1
check_eq "of the bundled snapshots" "$(grep -c " reingest --snapshots $T/snapshots\$" "$TMP/wrapped")" 1
: >"$TMP/wrapped"
runner t0001-alpha
check_eq "a run with no test that asks for it builds none" "$(grep -c ' reingest ' "$TMP/wrapped")" 0
: >"$TMP/wrapped"
runner t0005-epsilon
check_eq "a test that asks unseen still gets its catalogue (exit 0)" "$?" 0
check_eq "built by its own reingest" "$(grep -c ' reingest ' "$TMP/wrapped")" 1
done_testing
