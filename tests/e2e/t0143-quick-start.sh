#!/bin/sh
# The newcomer's first hour (issue 46, points 13 to 15): every install
# line of README.md and docs/*.md names the packages of .ci/run's
# apt-get line, no fewer and no more.
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
done_testing
