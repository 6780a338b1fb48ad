#!/bin/sh
# The newcomer's first hour (issue 46, points 13 to 15):
# - the README's quick start command (read from README.md), run in a fresh
#   folder holding only the bundled history, ends with a published site
#   whose index lists every model in English and Dutch (the models counted
#   from the source exports by check_pages.py, and from the catalogue);
# - every install line of README.md and docs/*.md names the packages of
#   .ci/run's apt-get line, no fewer and no more.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/pkgs.py" <<'PY'
import glob, os, re, sys
top = sys.argv[1]
def packages(text):
    words = [w for w in re.split(r'\s+', text) if w]
    out = []
    for w in words:
        if w in ('&&', '>/dev/null', '|', ';') or w.startswith('>'):
            break
        if not w.startswith('-') and w != '\\':
            out.append(w)
    return sorted(set(out))
ci = open(os.path.join(top, '.ci/run')).read().replace('\\\n', ' ')
m = re.search(r'apt-get install(.*)', ci)
want = packages(m.group(1))
print('ci', ' '.join(want))
for path in [os.path.join(top, 'README.md')] + sorted(glob.glob(os.path.join(top, 'docs/*.md'))):
    for n, line in enumerate(open(path, encoding='utf-8'), 1):
        for m in re.finditer(r'apt-get install(.*)', line):
            got = packages(m.group(1))
            print('%s:%d %s' % (os.path.relpath(path, top), n, 'same' if got == want else
                  'differs: missing %s, extra %s' % (sorted(set(want) - set(got)), sorted(set(got) - set(want)))))
PY
python3 "$TMP/pkgs.py" "$TOP" >"$TMP/pkgs" 2>&1
check_grep ".ci/run's apt-get line is read (libutf8proc-dev in it)" "^ci .*libutf8proc-dev" "$TMP/pkgs"
check "the README and docs/operations.md have install lines" \
	sh -c "grep -q '^README.md:' '$TMP/pkgs' && grep -q '^docs/operations.md:' '$TMP/pkgs'"
grep -v '^ci ' "$TMP/pkgs" >"$TMP/lines"
while read -r where verdict; do
	check_eq "$where: the install line names .ci/run's packages" "$verdict" same
done <"$TMP/lines"

# ---- the quick start -------------------------------------------------------
cmd=$(sed -n '/^## Quick start/,/^## /p' "$TOP/README.md" | grep 'apt-get install' | sed 's/.*&& make && //')
check_eq "the README's main command after make" "$cmd" "bin/modelcat reingest --out site"
fresh=$TMP/fresh
mkdir -p "$fresh"
ln -s "$TOP/snapshots" "$fresh/snapshots"
(
	cd "$fresh" || exit 3
	unset MODELCAT_DB
	# bin/ of the README is the build's
	eval "$WRAP $(printf '%s' "$cmd" | sed "s|^bin/|$BIN/|")"
) >"$TMP/qs.out" 2>"$TMP/qs.err"
check_eq "it exits 0" "$?" 0
check "it made the catalogue ./modelcat.db" test -s "$fresh/modelcat.db"
check_eq "its last line names the page to open" "$(tail -1 "$TMP/qs.out")" \
	"published the site in site: open site/index.html"
check "site/index.html is there" test -s "$fresh/site/index.html"
check_grep "one summary line" "^rebuilt .* from [0-9]* snapshots" "$TMP/qs.out"
check_eq "the page texts are stored (translated)" \
	"$(sqlite3 "$fresh/modelcat.db" "SELECT count(DISTINCT lang) FROM translation")" 2
# the catalogue's model names against each index's "- NAME" lines (a name
# may hold a line break: its first line is compared)
cat >"$TMP/index.py" <<'PY'
import sqlite3, sys
db, index = sys.argv[1], sys.argv[2]
names = sorted(r[0].split('\n')[0].strip() for r in sqlite3.connect(db).execute('SELECT "Model" FROM models'))
listed = sorted(l[2:].strip() for l in open(index, encoding='utf-8') if l.startswith('- '))
print(len(names), 'same' if names == listed else 'differ: %d listed, missing %s' % (len(listed), sorted(set(names) - set(listed))[:3]))
PY
nmodels=$(sqlite3 "$fresh/modelcat.db" 'SELECT count(*) FROM models')
check "the catalogue has models ($nmodels)" test "$nmodels" -gt 1000
for lang in en nl; do
	check_eq "the $lang index lists every model of the catalogue" \
		"$(python3 "$TMP/index.py" "$fresh/modelcat.db" "$fresh/site/pages/$lang/index.txt")" "$nmodels same"
done
check_grep "the Dutch index is in Dutch" "modellen vastgelegd op" "$fresh/site/pages/nl/index.txt"
if python3 "$TOP/tests/e2e/check_pages.py" "$SNAP" "$fresh/site/pages" en nl --step 97 >"$TMP/check.out" 2>&1; then
	ok "every model of the source exports has its pages in both languages ($(tail -1 "$TMP/check.out"))"
else
	not_ok "the published pages disagree with the source exports"
	head -10 "$TMP/check.out" | sed 's/^/#   /'
fi
done_testing
