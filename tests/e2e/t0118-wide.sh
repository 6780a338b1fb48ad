#!/bin/sh
# A model with 50,000 filled columns of its own (headers not in the column
# map, kept as text fields): show, in text and JSON, lists every one of
# them with its value in the file's order, and the model's other fields as
# they are without those columns; render --all and render of its page
# write the pages they write without them. Then what show and render cost
# grows linearly with the number of fields: counted, not timed (every
# strcmp, strncmp and memcmp call the programs make, through a preloaded
# counter), 5,000 fields against 50,000: a lookup per field that walks the
# fields makes ten times the fields cost a hundred times the comparisons.
. "$(dirname "$0")/lib.sh"

WIDE=50000
SMALL=5000
DAY=2026-01-01
notable=$(ls "$SNAP"/notable_ai_models/*.csv* | tail -1)

# make DIR N: DIR/notable_ai_models/DAY.csv, three rows of the bundled
# notable export (the first with parameters, training compute and a
# publication date, and a name no other row has); the first gets N extra
# columns, each filled (quotes, commas, markup, line breaks, accents among
# the values); prints the first row's name
make_export() {
	mkdir -p "$1/notable_ai_models"
	python3 - "$notable" "$1/notable_ai_models/$DAY.csv" "$2" <<'EOF'
import csv, gzip, io, sys
source, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(source, 'rb').read()
data = gzip.decompress(data) if data[:2] == b'\x1f\x8b' else data
rows = list(csv.reader(io.StringIO(data.decode('utf-8-sig'), newline='')))
header, body = rows[0], rows[1:]
at = {h: i for i, h in enumerate(header)}
names = [r[at['Model']].strip() for r in body]
picked = [r for r in body if r[at['Parameters']] and r[at['Training compute (FLOP)']]
          and r[at['Publication date']] and names.count(r[at['Model']].strip()) == 1][:3]
def value(i):
    kinds = ['say "%d", then, a comma' % i, '<b>%d</b> & <i>more</i>' % i,
             'line %d\nnext line' % i, 'café %d ☕' % i]
    return kinds[i % 9] if i % 9 < len(kinds) else '%d:%x' % (i, i * 2654435761 % 2 ** 32)
with open(out, 'w', encoding='utf-8', newline='') as f:
    w = csv.writer(f, lineterminator='\n')
    w.writerow(header + ['Extra column %d' % i for i in range(1, n + 1)])
    w.writerow(picked[0] + [value(i) for i in range(1, n + 1)])
    for r in picked[1:]:
        w.writerow(r + [''] * n)
print(picked[0][at['Model']].strip())
EOF
}

# load DIR: DIR/catalogue.db from DIR's export, with the page texts
load() {
	MODELCAT_DB=$1/catalogue.db mc ingest --as-of $DAY "$1/notable_ai_models/$DAY.csv" >/dev/null 2>&1 &&
		MODELCAT_DB=$1/catalogue.db mc translate >/dev/null 2>&1
}

name=$(make_export "$TMP/wide" $WIDE)
make_export "$TMP/narrow" 0 >/dev/null
make_export "$TMP/small" $SMALL >/dev/null
for d in wide narrow small; do
	if load "$TMP/$d"; then ok "$d: ingest and translate exit 0"; else not_ok "$d: ingest and translate exit 0"; fi
done

export MODELCAT_DB="$TMP/wide/catalogue.db"
check_status "show --format json exits 0" 0 mc show "$name" --as-of $DAY --format json
cp "$TMP/out" "$TMP/wide.json"
check_status "show exits 0" 0 mc show "$name" --as-of $DAY
cp "$TMP/out" "$TMP/wide.txt"
MODELCAT_DB="$TMP/narrow/catalogue.db" mc show "$name" --as-of $DAY --format json >"$TMP/narrow.json"
MODELCAT_DB="$TMP/narrow/catalogue.db" mc show "$name" --as-of $DAY >"$TMP/narrow.txt"

# every extra column against the CSV: JSON and text, in file order, full values
python3 - "$TMP/wide/notable_ai_models/$DAY.csv" "$TMP/wide.json" "$TMP/wide.txt" \
	"$TMP/narrow.json" "$TMP/narrow.txt" "notable_ai_models $DAY" >"$TMP/show.check" <<'EOF'
import csv, json, sys
source, wide_json, wide_txt, narrow_json, narrow_txt, origin = sys.argv[1:]
with open(source, encoding='utf-8', newline='') as f:
    rows = list(csv.reader(f))
header, row = rows[0], rows[1]
extra = [(h, v.strip()) for h, v in zip(header, row) if h.startswith('Extra column ') and v.strip()]
print('%d extra cells in the CSV' % len(extra))
export, snapshot = origin.split()

doc = json.load(open(wide_json, encoding='utf-8'))
got = [(f['field'], f['value']) for f in doc['fields'] if f['field'].startswith('Extra column ')]
print('json: extra fields, values and order as in the CSV: %s' % (got == extra))
print('json: every extra value from %s: %s' % (origin, all(
    f['export'] == export and f['snapshot'] == snapshot
    for f in doc['fields'] if f['field'].startswith('Extra column '))))
rest = [f for f in doc['fields'] if not f['field'].startswith('Extra column ')]
print('json: the other fields as without the extra columns: %s' % (
    rest == json.load(open(narrow_json, encoding='utf-8'))['fields'] and len(rest) > 5))

lines = open(wide_txt, encoding='utf-8').read().split('\n')
body = [l for l in lines[3:] if l.startswith('Extra column ')]
column = len(body[0]) - len(body[0][len('Extra column 1'):].lstrip()) if body else 0
# the one rule of terminal lines: a control character as \xNN
term = lambda v: ''.join('\\x%02x' % ord(c) if ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f else c for c in v)
want = ['%-*s%s  [%s]' % (column, h, term(v), origin) for h, v in extra]
print('text: one line per extra cell, value in full, aligned: %s' % (body == want))
others = [l for l in lines if not l.startswith('Extra column ')]
print('text: the other lines as without the extra columns: %s' % (
    others == open(narrow_txt, encoding='utf-8').read().split('\n')))
EOF
check_grep "the CSV has $WIDE filled extra cells" "^$WIDE extra cells in the CSV$" "$TMP/show.check"
for what in "json: extra fields, values and order as in the CSV" \
	"json: every extra value from notable_ai_models $DAY" \
	"json: the other fields as without the extra columns" \
	"text: one line per extra cell, value in full, aligned" \
	"text: the other lines as without the extra columns"; do
	check_grep "show $what" "^$what: True$" "$TMP/show.check"
done

# the pages: every figure against the CSV, and the same as without the columns
check_status "render --all exits 0" 0 mc render --all --as-of $DAY --out "$TMP/site"
if python3 "$TOP/tests/e2e/check_pages.py" "$TMP/wide" "$TMP/site" en nl --step 1 >"$TMP/pages.out" 2>&1; then
	ok "the pages agree with the CSV ($(tail -1 "$TMP/pages.out"))"
else
	not_ok "the pages agree with the CSV"
	head -5 "$TMP/pages.out" | sed 's/^/#   /'
fi
MODELCAT_DB="$TMP/narrow/catalogue.db" mc render --all --as-of $DAY --out "$TMP/site-narrow" >/dev/null 2>&1
# (but for the citation blocks' SHA-256 of the source file, a different
# file: in full, or its first 12 digits in the BibTeX's note)
sha='[0-9a-f]\{64\}\|SHA-256 [0-9a-f]\{12\}'
check "render --all writes the pages it writes without the extra columns" \
	diff -r -I "$sha" "$TMP/site" "$TMP/site-narrow"
check_eq "the citations differ by the source files' SHA-256 alone" \
	"$(diff -r "$TMP/site" "$TMP/site-narrow" | grep '^[<>]' | grep -vc "$sha")" 0
stem=$(basename "$(grep -lxF "$name" "$TMP"/site/en/*.txt | head -1)" .txt)
for lang in en nl; do
	for format in text html; do
		ext=$format; [ $format = text ] && ext=txt
		mc render "$name" --as-of $DAY --lang $lang --format $format >"$TMP/page" 2>"$TMP/err"
		check "render of the page ($lang, $format) is render --all's" \
			cmp -s "$TMP/page" "$TMP/site/$lang/$stem.$ext"
	done
done

# the comparisons each command makes, at 5,000 fields and at 50,000
cat >"$TMP/count.c" <<'EOF'
/* counts strcmp, strncmp and memcmp calls; the total is appended to
 * $COUNT_FILE when the process ends */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long long calls;

int strcmp(const char *a, const char *b)
{
	calls++;
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	calls++;
	for (; n && *a && *a == *b; n--)
		a++, b++;
	return n ? (unsigned char)*a - (unsigned char)*b : 0;
}

int memcmp(const void *x, const void *y, size_t n)
{
	const unsigned char *a = x, *b = y;

	calls++;
	for (; n; n--, a++, b++)
		if (*a != *b)
			return *a - *b;
	return 0;
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("COUNT_FILE");
	char line[32];
	int fd, n;

	if (!path || (fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600)) < 0)
		return;
	n = snprintf(line, sizeof(line), "%llu\n", calls);
	if (write(fd, line, (size_t)n) != n)
		n = 0;
	close(fd);
}
EOF
# counted DIR CMD ARGS...: the comparisons of one run of the stage program
# CMD (run directly, not under MODELCAT_WRAP: a tool such as valgrind
# replaces these functions with its own)
counted() {
	dir=$1; cmd=$2; shift 2
	rm -f "$TMP/count"
	LD_PRELOAD=$TMP/count.so COUNT_FILE=$TMP/count ASAN_OPTIONS=verify_asan_link_order=0 \
		MODELCAT_DB=$dir/catalogue.db "$BIN/modelcat-$cmd" "$@" >/dev/null 2>&1 || echo 0 >>"$TMP/count"
	awk '{ s += $1 } END { print s + 0 }' "$TMP/count"
}
# linear: at most 10x (less with a fixed part); quadratic: about 100x
linear() {
	if [ "$2" -ge $SMALL ] && [ "$3" -le $(($2 * 30)) ]; then
		ok "$1: comparisons grow linearly with the fields ($2 at $SMALL fields, $3 at $WIDE)"
	else
		not_ok "$1: comparisons grow linearly with the fields ($2 at $SMALL fields, $3 at $WIDE)"
	fi
}
if ! ${CC:-cc} -shared -fPIC -O1 -o "$TMP/count.so" "$TMP/count.c" 2>"$TMP/cc.err"; then
	skip_checks "no C compiler to build the counter (${CC:-cc})" "show: comparisons" \
		"render: comparisons" "render --all: comparisons"
elif [ "$(counted "$TMP/small" show "$name" --as-of $DAY)" -lt $SMALL ]; then
	# a statically linked libc, or a runtime that interposes these calls itself
	skip_checks "the preloaded counter sees no comparisons here" "show: comparisons" \
		"render: comparisons" "render --all: comparisons"
else
	linear show "$(counted "$TMP/small" show "$name" --as-of $DAY)" \
		"$(counted "$TMP/wide" show "$name" --as-of $DAY)"
	linear render "$(counted "$TMP/small" render "$name" --as-of $DAY --format html)" \
		"$(counted "$TMP/wide" render "$name" --as-of $DAY --format html)"
	linear "render --all" "$(counted "$TMP/small" render --all --as-of $DAY --out "$TMP/c-small")" \
		"$(counted "$TMP/wide" render --all --as-of $DAY --out "$TMP/c-wide")"
fi

done_testing
