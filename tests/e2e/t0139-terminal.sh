#!/bin/sh
# One escaping rule for every terminal and log line (base/textout.h): a
# crafted export whose model names hold ESC, BEL and a C1 control, a file
# path with a line feed in it, and a source URL with both. search, show,
# history, ingest's messages and run's log write each control byte as
# \xNN (never the raw byte), a path with a line feed stays on one line,
# every line of run's log starts with its timestamp and program, and no
# line names its program twice. The expected escaped names are computed
# here from the file's bytes (Python), not taken from the program.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
# names: ESC [2J (clear the screen) and BEL; a C1 CSI (U+009B); a plain one;
# a row whose date cell holds ESC is quarantined
printf 'Model,Organization,Publication date,Parameters\n' >crafted.csv
printf '"Evil\033[2J\007LM",Acme,2024-01-02,1000\n' >>crafted.csv
printf '"C1\302\233LM",Acme,2024-01-03,2000\n' >>crafted.csv
printf 'Plain LM,Acme,2024-01-04,3000\n' >>crafted.csv
printf 'Bad date LM,Acme,"20\03324-13-99",4000\n' >>crafted.csv

# the rule, in Python: bytes below 0x20, DEL, C1 controls and invalid UTF-8
# as \xNN; everything else as it is
cat >esc.py <<'PY'
import csv, sys
def esc(b):
    out, i = [], 0
    while i < len(b):
        c = b[i]
        if 0x20 <= c < 0x7f:
            out.append(chr(c)); i += 1; continue
        n = 2 if c >> 5 == 6 else 3 if c >> 4 == 14 else 4 if c >> 3 == 30 else 0
        try:
            ch = b[i:i + n].decode('utf-8') if n else None
        except UnicodeDecodeError:
            ch = None
        if ch is not None and len(ch) == 1 and not 0x80 <= ord(ch) <= 0x9f:
            out.append(ch); i += n; continue
        out.append('\\x%02x' % c); i += 1
    return ''.join(out)
if sys.argv[1] == 'name':
    rows = list(csv.reader(open(sys.argv[2], encoding='utf-8', newline='')))
    print(esc(rows[int(sys.argv[3])][0].encode('utf-8')))
else:
    print(esc(sys.argv[2].encode('utf-8', 'surrogateescape')))
PY
# raw FILE: how many raw control bytes (other than the line feeds that end
# lines) and C1 controls FILE holds
cat >raw.py <<'PY'
import re, sys
data = open(sys.argv[1], 'rb').read()
print(len(re.findall(rb'[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]', data)))
PY
raw() { python3 raw.py "$1"; }
evil=$(python3 esc.py name crafted.csv 1)
c1=$(python3 esc.py name crafted.csv 2)
check_eq "the expected escaped name holds \\x1b and \\x07" "$evil" 'Evil\x1b[2J\x07LM'

# ---- ingest, search, show, history ----
check_status "the crafted export loads (a row quarantined: exit 1)" 1 \
	mc ingest --as-of 2024-02-01 notable_ai_models=crafted.csv
check_eq "ingest's lines hold no raw control byte" "$(cat out err >ingest.all; raw ingest.all)" 0
check_status "search finds the crafted names" 0 mc search --as-of 2024-02-01 LM
check_eq "search prints no raw control byte" "$(raw out)" 0
check "search prints the ESC/BEL name escaped" grep -qF -- "$evil" out
check "search prints the C1 name escaped" grep -qF -- "$c1" out
check_eq "one line per model" "$(wc -l <out)" 3
check_status "show prints the crafted model" 0 mc show --as-of 2024-02-01 "$(printf 'Evil\033[2J\007LM')"
check_eq "show prints no raw control byte" "$(raw out)" 0
check_eq "show's first line is the escaped name" "$(head -1 out)" "$evil"
check_status "show of a near name fails (exit 3)" 3 mc show --as-of 2024-02-01 "$(printf 'Evil\033[2JLM')"
check_eq "its message and suggestions hold no raw control byte" "$(raw err)" 0
check "the suggestion names the model escaped" grep -qF -- "did you mean: $evil" err
check_status "history prints the crafted model" 0 mc history "$(printf 'C1\302\233LM')"
check_eq "history prints no raw control byte" "$(raw out)" 0
check "history names the model escaped" grep -qF -- "\"$c1\"" out

# ---- translate, render, diff, publish ----
# a catalogue folder whose name holds ESC ]0; and BEL (a window title), a
# file in it that is not a language code, and a Dutch catalogue with a
# text and an entry id holding a C1 CSI and DEL (XML allows those two; it
# forbids ESC and BEL even as character references)
esc_bel=$(printf '\033]0;x\007')
tdir="$TMP/tr${esc_bel}dir"
mkdir -p "$tdir"
cp "$TOP/translations/en.xlf" "$tdir/"
: >"$tdir/x$(printf '\033')y.xlf"
crafted_text=$(printf 'Geen\302\2332J\177schatting')
crafted_id=$(printf 'bogus\302\233id')
python3 - "$TOP/translations/nl.xlf" "$tdir/nl.xlf" "$crafted_text" "$crafted_id" <<'PY'
import sys
src, dst, text, uid = sys.argv[1:5]
s = open(src, encoding='utf-8').read()
old = '<target>Geen schatting</target>'
unit = '<trans-unit id="hardware.no_estimate">'
assert old in s and unit in s
s = s.replace(old, '<target>%s</target>' % text, 1)
s = s.replace(unit, '<trans-unit id="%s"><source>x</source><target>y</target></trans-unit>\n%s'
              % (uid, unit), 1)
open(dst, 'w', encoding='utf-8').write(s)
PY
check_status "translate of the crafted catalogues (exit 1: problems)" 1 \
	mc translate --catalogues "$tdir"
cat out err >translate.all
check_eq "translate's lines hold no raw control byte" "$(raw translate.all)" 0
check "the skipped file is named with its folder escaped" grep -qF -- \
	"$(python3 esc.py path "$tdir/x$(printf '\033')y.xlf"): the name is not a language code" err
check "the unknown entry is named escaped" grep -qF -- \
	"'$(python3 esc.py path "$crafted_id")' is unknown" err
check_status "render of the crafted model in Dutch, as text" 0 \
	mc render --lang nl --format text "$(printf 'Evil\033[2J\007LM')"
check_eq "render's text holds no raw control byte" "$(raw out)" 0
check_eq "its first line is the escaped name" "$(head -1 out)" "$evil"
check "the crafted translation is written escaped" grep -qxF -- \
	"$(python3 esc.py path "$crafted_text")" out
check_status "diff as text names the crafted models" 0 mc diff --to 2024-02-01
check_eq "diff's text holds no raw control byte" "$(raw out)" 0
check "diff names the ESC/BEL model escaped" grep -qxF -- "  notable_ai_models: $evil" out
pub="$TMP/pub${esc_bel}site"
check_status "publish into a folder whose name holds ESC and BEL" 0 mc publish --out "$pub"
cat out err >publish.all
check_eq "publish's lines hold no raw control byte" "$(raw publish.all)" 0
check "publish's summary names the folder escaped" grep -qF -- \
	" in $(python3 esc.py path "$pub"): " out

# ---- a line feed in a file's path: one line, \x0a ----
nl='
'
dir="$TMP/data${nl}folder"
mkdir -p "$dir"
cp crafted.csv "$dir/notable_ai_models.csv"
export MODELCAT_DB="$TMP/nl.db"
check_status "a file under a path with a line feed loads (exit 1)" 1 \
	mc ingest --as-of 2024-02-01 "$dir/notable_ai_models.csv"
path_esc=$(python3 esc.py path "$dir/notable_ai_models.csv")
check_eq "the quarantine message is one line" "$(wc -l <err)" 1
check "it names the path with \\x0a" grep -qF -- "$path_esc:5:" err
check_status "parse of it" 1 mc parse "$dir/notable_ai_models.csv"
check_eq "parse's summary is one line" "$(wc -l <out)" 1
cp out parse.out
check "it names the path with \\x0a" grep -qF -- "$path_esc (notable_ai_models)" parse.out

# ---- run's log ----
stamp='^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z modelcat-[a-z]*: '
doubled='^[^ ]* \(modelcat-[a-z]*\): \1: '
store="$TMP/st${nl}ore"
export MODELCAT_DB="$TMP/run.db"
check_status "run loads the crafted export (exit 1: a row quarantined)" 1 \
	mc run --snapshots "$store" --out "$TMP/public" \
	--source "notable_ai_models=file://$TMP/crafted.csv"
cp err run1.log
check_eq "run's log holds no raw control byte" "$(raw run1.log)" 0
check_eq "every line of run's log starts with timestamp and program" \
	"$(grep -cv "$stamp" run1.log)" 0
check_eq "no line of run's log names its program twice" "$(grep -c "$doubled" run1.log)" 0
check "the store's path is written with \\x0a" grep -qF -- "$(python3 esc.py path "$store")" run1.log
bad_url="file://$TMP/no such$(printf '\033\007')${nl}file.csv"
check_status "run with a source that cannot be read fails" 3 \
	mc run --snapshots "$store" --out "$TMP/public" --source "notable_ai_models=$bad_url"
cp err run2.log
check_eq "its log holds no raw control byte" "$(raw run2.log)" 0
check_eq "every line of its log starts with timestamp and program" \
	"$(grep -cv "$stamp" run2.log)" 0
check_eq "no line names its program twice" "$(grep -c "$doubled" run2.log)" 0
check "fetch's error is logged once, under its name, with the URL escaped" \
	grep -qF -- "modelcat-fetch: notable_ai_models: $(python3 esc.py path "$bad_url")" run2.log


# ---- verify and reingest of a store whose path holds ESC and BEL ----
store2="$TMP/st${esc_bel}ore"
cp -R "$store" "$store2"
for f in "$store2"/notable_ai_models/*.csv*; do printf 'x' >>"$f"; done
check_status "verify of a damaged store and a missing site finds problems (exit 1)" 1 \
	mc verify --snapshots "$store2" --out "$pub.none"
cp out verify.out
check_eq "verify's lines hold no raw control byte" "$(raw verify.out)" 0
check "a store problem names the store escaped" grep -qF -- \
	"$(python3 esc.py path "$store2")/notable_ai_models/" verify.out
check "the site problem names the folder escaped" grep -qF -- \
	"$(python3 esc.py path "$pub.none")/" verify.out
problems=$(sed -n 's/^verify: .*: \([0-9]*\) problems\{0,1\}$/\1/p' verify.out)
check_eq "each problem is one line, then the summary" "$(wc -l <verify.out)" "$((problems + 1))"
check_status "verify of the damaged store with the site run published (exit 1)" 1 \
	mc verify --snapshots "$store2" --out "$TMP/public"
check "the store's problem stays counted after the site's check" \
	grep -q '^verify: .*, the published site: [1-9][0-9]* problems\{0,1\}$' out
rm -rf "$store2"
cp -R "$store" "$store2"
redb="$TMP/re${esc_bel}.db"
check_status "reingest of that store into a catalogue whose path holds ESC and BEL" 0 \
	mc reingest --snapshots "$store2" --db "$redb"
cat out err >reingest.all
check_eq "reingest's lines hold no raw control byte" "$(raw reingest.all)" 0
check "its per-snapshot lines are there" grep -q '^snapshot [0-9-]*$' out
check "its summary names the catalogue escaped" grep -qF -- \
	"rebuilt $(python3 esc.py path "$redb") from " out

done_testing
