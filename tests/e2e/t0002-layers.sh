#!/bin/sh
# make check-layers (tools/check_layers.py): the checked-in tree keeps every
# rule, and a copy with one rule broken at a time fails, naming the place.
. "$(dirname "$0")/lib.sh"

checker=$TOP/tools/check_layers.py

check_status "the sources keep the layer rules" 0 python3 "$checker" --root "$TOP"
for rule in "includes outside the declared layers" "include cycles" \
	"getopt_long calls under src/stages" \
	"SQL keywords in string literals outside the db layer" \
	"SQLite names (sqlite3_) outside the db layer" \
	"stage programs over 200 lines" "functions over 100 lines"; do
	check_grep "the report counts $rule" "^check-layers: 0 $rule" "$TMP/out"
done

# a copy of the sources to break
fresh() {
	rm -rf "$TMP/tree"
	mkdir -p "$TMP/tree"
	cp -R "$TOP/src" "$TMP/tree/src"
}

fresh
printf '#include "publish/page.h"\n' >>"$TMP/tree/src/lib/base/strmap.c"
check_status "an upward include fails the check" 1 python3 "$checker" --root "$TMP/tree"
check_grep "it is counted" "^check-layers: 1 includes outside the declared layers" "$TMP/out"
check_grep "it names file, line and rule" \
	'src/lib/base/strmap.c:[0-9]*: base includes "publish/page.h"' "$TMP/out"

fresh
printf '#include "read/csv.h"\n' >>"$TMP/tree/src/lib/read/input.h"
check_status "a cycle between two modules fails the check" 1 python3 "$checker" --root "$TMP/tree"
check_grep "the cycle is named" "modules .*src/lib/read/csv -> src/lib/read/input" "$TMP/out"

fresh
printf 'base: read\n' >>"$TMP/tree/src/lib/LAYERS"
check_status "a cycle between layers fails the check" 1 python3 "$checker" --root "$TMP/tree"
check_grep "the layer cycle is named" "layers .*base -> read" "$TMP/out"

fresh
printf '#include "nowhere/missing.h"\n' >>"$TMP/tree/src/lib/db/query.c"
check_status "an include of no header fails the check" 1 python3 "$checker" --root "$TMP/tree"
check_grep "the missing header is named" 'no such header' "$TMP/out"

fresh
printf 'static int f(int c, char **v) { return getopt_long(c, v, "", 0, 0); }\n' \
	>>"$TMP/tree/src/stages/modelcat-show.c"
check_status "getopt_long in a stage fails the check" 1 python3 "$checker" --root "$TMP/tree"
check_grep "it is counted" "^check-layers: 1 getopt_long calls under src/stages" "$TMP/out"

fresh
printf 'static const char *q = "SELECT name FROM record"; /* WHERE in a comment is fine */\n' \
	>>"$TMP/tree/src/lib/values/format.c"
check_status "SQL in a string outside the db layer fails the check" 1 \
	python3 "$checker" --root "$TMP/tree"
check_grep "it is counted" "^check-layers: 1 SQL keywords" "$TMP/out"
check_grep "it names the file and line" "src/lib/values/format.c:[0-9]*: SQL (SELECT)" "$TMP/out"
printf 'static const char *q2 = "SELECT 1";\n' >>"$TMP/tree/src/lib/db/query.c"
sed -i '$d' "$TMP/tree/src/lib/values/format.c"
check_status "the same string in the db layer passes" 0 python3 "$checker" --root "$TMP/tree"

fresh
printf 'static int open_now(catalogue *c) { return sqlite3_get_autocommit(c->db); }\n' \
	>>"$TMP/tree/src/lib/publish/render.c"
printf '/* sqlite3_int64 in a comment is fine */\nstatic sqlite3_int64 last_id;\n' \
	>>"$TMP/tree/src/lib/cli/nightly.c"
check_status "a SQLite call and type outside the db layer fail the check" 1 \
	python3 "$checker" --root "$TMP/tree"
check_grep "both are counted" "^check-layers: 2 SQLite names" "$TMP/out"
check_grep "the call is named with its place" \
	"src/lib/publish/render.c:[0-9]*: sqlite3_get_autocommit outside the db layer" "$TMP/out"
check_grep "the type is named with its place" \
	"src/lib/cli/nightly.c:[0-9]*: sqlite3_int64 outside the db layer" "$TMP/out"
printf 'static sqlite3_int64 kept_id;\n' >>"$TMP/tree/src/lib/db/query.c"
sed -i '$d' "$TMP/tree/src/lib/publish/render.c"
sed -i '$d' "$TMP/tree/src/lib/cli/nightly.c"
check_status "the same names in the db layer pass" 0 python3 "$checker" --root "$TMP/tree"

fresh
i=0
while [ $i -lt 210 ]; do echo "/* filler $i */"; i=$((i + 1)); done >>"$TMP/tree/src/stages/modelcat-show.c"
check_status "a stage program over 200 lines fails the check" 1 python3 "$checker" --root "$TMP/tree"
check_grep "it is counted with its length" "src/stages/modelcat-show.c: [0-9]* lines (at most 200)" "$TMP/out"

fresh
{
	printf 'int long_function(void);\nint long_function(void)\n{\n\tint x = 0;\n'
	i=0
	while [ $i -lt 100 ]; do echo "	x += $i;"; i=$((i + 1)); done
	printf '\treturn x;\n}\n'
} >>"$TMP/tree/src/lib/base/json.c"
check_status "a function over 100 lines fails the check" 1 python3 "$checker" --root "$TMP/tree"
check_grep "it is named with its length" "src/lib/base/json.c:[0-9]*: int long_function(void): 104 lines" "$TMP/out"

done_testing
