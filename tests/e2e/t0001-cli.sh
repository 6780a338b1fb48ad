#!/bin/sh
# The command-line contract: --help and --version everywhere, usage errors
# exit 2, unknown commands exit 2, errors on stderr.
. "$(dirname "$0")/lib.sh"

check_status "modelcat --help exits 0" 0 mc --help
check_grep "modelcat --help lists ingest" "ingest" "$TMP/out"
check_status "modelcat --version exits 0" 0 mc --version
check_grep "modelcat --version prints the version" "^modelcat [0-9]" "$TMP/out"
check_status "an unknown command exits 2" 2 mc frobnicate
check_grep "an unknown command is named on stderr" "'frobnicate' is not a modelcat command" "$TMP/err"
check_status "a command name with a path is refused (exit 2)" 2 mc ../bin/modelcat-parse
check_status "no command exits 2" 2 mc
check_status "an unknown global option exits 2" 2 mc --frob ingest
check_status "modelcat help ingest shows ingest's help" 0 mc help ingest
check_grep "help ingest describes EXPORT=FILE" "EXPORT=\]FILE" "$TMP/out"

for cmd in parse load ingest reingest export diff show history; do
	check_status "modelcat $cmd --help exits 0" 0 mc "$cmd" --help
	check_grep "modelcat $cmd --help shows usage" "^usage: modelcat $cmd" "$TMP/out"
	check_status "modelcat-$cmd --version exits 0" 0 "$BIN/modelcat-$cmd" --version
	check_status "modelcat $cmd with an unknown option exits 2" 2 mc "$cmd" --no-such-option
done

check_status "ingest without files exits 2" 2 mc ingest
check_status "ingest with a bad --as-of exits 2" 2 mc ingest --as-of 2024-02-30 x.csv
check_grep "the bad date is named" "2024-02-30" "$TMP/err"
check_status "export without --source exits 2" 2 mc export
check_status "diff with --from after --to exits 2" 2 mc diff --from 2025-01-02 --to 2025-01-01
check_status "diff with a bad --format exits 2" 2 mc diff --format xml
check_status "show without a name exits 2" 2 mc show
check_status "history with two names exits 2" 2 mc history a b
check_status "export with a bad export name exits 2" 2 mc export --source ../etc
check_status "ingest of a file whose export cannot be named exits 2" 2 mc ingest "$TMP/2024-01-01.csv"
check_status "ingest of a missing file exits 3" 3 mc ingest notable_ai_models="$TMP/missing.csv"
check_grep "the missing file is named" "missing.csv" "$TMP/err"
check "a failed ingest does not leave a new catalogue behind" test ! -e "$MODELCAT_DB"
check_status "--db routes the catalogue" 0 mc --db "$TMP/other.db" ingest --as-of 2024-07-16 \
	"$SNAP/large_scale_ai_models/2024-07-16.csv.gz"
check "the catalogue named by --db was written" test -s "$TMP/other.db"
check "the default catalogue was not" test ! -e "$MODELCAT_DB"

# commands run with glibc's malloc asking for huge pages (src/modelcat.c,
# docs/performance.md), unless GLIBC_TUNABLES names that tunable already:
# a command of the same folder that prints what it was given
mkdir -p "$TMP/bin"
cp "$BIN/modelcat" "$TMP/bin/modelcat"
printf '#!/bin/sh\nprintf "%%s\\n" "${GLIBC_TUNABLES-unset}"\n' >"$TMP/bin/modelcat-tunables"
chmod +x "$TMP/bin/modelcat-tunables"
check_eq "a command runs with glibc.malloc.hugetlb=1" \
	"$(env -u GLIBC_TUNABLES "$TMP/bin/modelcat" tunables)" "glibc.malloc.hugetlb=1"
check_eq "an empty GLIBC_TUNABLES gets it too" \
	"$(GLIBC_TUNABLES= "$TMP/bin/modelcat" tunables)" "glibc.malloc.hugetlb=1"
check_eq "other tunables are kept, it is added" \
	"$(GLIBC_TUNABLES=glibc.malloc.arena_max=4 "$TMP/bin/modelcat" tunables)" \
	"glibc.malloc.arena_max=4:glibc.malloc.hugetlb=1"
check_eq "a hugetlb tunable of the caller's is left as it is" \
	"$(GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$TMP/bin/modelcat" tunables)" "glibc.malloc.hugetlb=0"

# the programs that read no translation catalogue do not load the XML
# reader (libxml2, and ICU under it) at start (src/lib/cli/stagehw.c)
if command -v readelf >/dev/null 2>&1; then
	for cmd in ingest parse show load reingest export history search; do
		check "modelcat-$cmd does not load libxml2" \
			sh -c '! readelf -d "$1" | grep -q "NEEDED.*libxml2"' sh "$BIN/modelcat-$cmd"
	done
	check "modelcat-render does (the check sees a library that is there)" \
		sh -c 'readelf -d "$1" | grep -q "NEEDED.*libxml2"' sh "$BIN/modelcat-render"
else
	for cmd in ingest parse show load reingest export history search; do
		skip "modelcat-$cmd does not load libxml2" "no readelf here"
	done
	skip "modelcat-render does (the check sees a library that is there)" "no readelf here"
fi
done_testing
