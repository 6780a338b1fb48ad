#!/bin/sh
# translate on copies of the catalogues: a removed Dutch entry is reported
# missing and the page falls back to English; a changed English text makes
# the Dutch entry stale (reported, English used) until the translation is
# brought up to date; unknown keys, bad placeholders, a malformed catalogue
# (named with file and line; the others still load), a new language, a
# removed one, and a broken English base (nothing stored).
. "$(dirname "$0")/lib.sh"

FIX=$DATA/fixtures/megascale-2026-05-25
NAME="MegaScale (Production)"
CAT=$TMP/catalogues
SEED_NL=$(ls "$DATA"/seeds/001_*.txt)
seed_page 001 "$TMP/seed_nl.txt"
fresh() { rm -rf "$CAT"; mkdir -p "$CAT"; cp "$TOP"/translations/*.xlf "$CAT"/; }
# drop_unit FILE ID: remove one trans-unit
drop_unit() {
	python3 -c '
import re, sys
path, unit = sys.argv[1], sys.argv[2]
s = open(path, encoding="utf-8").read()
t = re.sub(r"\n\s*<trans-unit id=\"%s\">.*?</trans-unit>" % re.escape(unit), "", s, flags=re.S)
assert t != s, unit
open(path, "w", encoding="utf-8").write(t)' "$1" "$2"
}
status_of() { sql "SELECT status FROM translation WHERE lang = '$1' AND key = '$2'"; }

mc ingest --as-of 2026-05-25 notable_ai_models="$FIX/notable_ai_models.csv" \
	all_ai_models="$FIX/all_ai_models.csv" >/dev/null

# 1. a Dutch entry removed: missing, English used
fresh
drop_unit "$CAT/nl.xlf" faq.gpu.q
check_status "translate with a Dutch entry removed exits 1" 1 mc translate --catalogues "$CAT"
check_grep "it reports one missing entry" "^nl: [0-9]* entries: [0-9]* translated, 1 missing, 0 stale, 0 invalid, 0 unknown" "$TMP/out"
check_grep "it names the file and the entry" "$CAT/nl.xlf: 'faq.gpu.q' is missing (English is used)" "$TMP/err"
check_eq "the stored status is missing" "$(status_of nl faq.gpu.q)" missing
mc render "$NAME" --lang nl >"$TMP/nl.txt"
check_grep "the Dutch page asks that question in English" "^What GPU do I need to run MegaScale (Production)?$" "$TMP/nl.txt"
check_eq "and only that line differs from the seed" "$(diff "$TMP/seed_nl.txt" "$TMP/nl.txt" | grep -c '^[<>]')" 2

# 2. an English text changed: the Dutch entry is stale, English used
fresh
sed -i 's|<source>Full specification</source>|<source>Complete specification</source>|' "$CAT/en.xlf"
check_status "translate with a changed English text exits 1" 1 mc translate --catalogues "$CAT"
check_grep "it reports one stale entry" "^nl: [0-9]* entries: [0-9]* translated, 0 missing, 1 stale, 0 invalid, 0 unknown" "$TMP/out"
line=$(grep -n '<trans-unit id="spec.heading">' "$CAT/nl.xlf" | cut -d: -f1)
check_grep "it names file, line and entry and says English is used" \
	"$CAT/nl.xlf:$line: 'spec.heading' is stale: the English text changed since it was translated (English is used" "$TMP/err"
check_eq "the stored status is stale" "$(status_of nl spec.heading)" stale
mc render "$NAME" --lang nl >"$TMP/nl.txt"
check_eq "the Dutch page shows the new English text" "$(sed -n 6p "$TMP/nl.txt")" "Complete specification"
check_eq "the English page shows it too" "$(mc render "$NAME" | sed -n 6p)" "Complete specification"
# the translator updates source and target: translated again
sed -i 's|<source>Full specification</source>|<source>Complete specification</source>|; s|<target>Volledige specificatie</target>|<target>Complete specificatie</target>|' "$CAT/nl.xlf"
check_status "after the translation is updated translate exits 0" 0 mc translate --catalogues "$CAT"
check_eq "the Dutch page uses the new translation" "$(mc render "$NAME" --lang nl | sed -n 6p)" "Complete specificatie"

# 3. unknown keys and bad placeholders
fresh
sed -i 's|<trans-unit id="band">|<trans-unit id="band.extra"><source>x</source><target>y</target></trans-unit><trans-unit id="band">|' "$CAT/nl.xlf"
sed -i 's|<target>Vastgelegd</target>|<target>Vastgelegd <x id="params"/></target>|' "$CAT/nl.xlf"
check_status "translate with an unknown key and a bad placeholder exits 1" 1 mc translate --catalogues "$CAT"
check_grep "the unknown key is reported" "'band.extra' is unknown: English has no such entry" "$TMP/err"
check_grep "the bad placeholder is reported" "'band': the translation names a placeholder" "$TMP/err"
check_grep "both are counted" "^nl: [0-9]* entries: [0-9]* translated, 0 missing, 0 stale, 1 invalid, 1 unknown" "$TMP/out"
check_eq "the invalid entry falls back to English" "$(mc render "$NAME" --lang nl | sed -n 5p)" "On record"

# 4. a malformed catalogue: named with file and line, the others load
fresh
mc translate --catalogues "$CAT" >/dev/null
cp "$CAT/nl.xlf" "$TMP/nl.good"
sed -i 's|<target>Vastgelegd</target>|<target>Vastgelegd</targ>|' "$CAT/nl.xlf"
line=$(grep -n '</targ>' "$CAT/nl.xlf" | cut -d: -f1)
printf '<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n<file source-language="en" target-language="de"><body>\n<trans-unit id="band"><source>On record</source><target>Im Verzeichnis</target></trans-unit>\n</body></file></xliff>\n' >"$CAT/de.xlf"
check_status "translate with a malformed Dutch catalogue exits 1" 1 mc translate --catalogues "$CAT"
check_grep "the error names file and line" "^$CAT/nl.xlf:$line: .*targ" "$TMP/err"
check_grep "Dutch is reported as not loaded" "^nl: not loaded" "$TMP/out"
check_grep "German still loads, mostly missing" "^de: [0-9]* entries: 1 translated, [0-9]* missing" "$TMP/out"
check_eq "the Dutch texts stored before are kept" "$(mc render "$NAME" --lang nl | cksum)" "$(cksum <"$TMP/seed_nl.txt")"
check_eq "a German page uses German where it can and English elsewhere" \
	"$(mc render "$NAME" --lang de | sed -n '5p;6p' | tr '\n' '|')" "Im Verzeichnis|Full specification|"
# 5. a language removed from the folder is forgotten
cp "$TMP/nl.good" "$CAT/nl.xlf"
rm "$CAT/de.xlf"
check_status "translate after removing de.xlf exits 0" 0 mc translate --catalogues "$CAT"
check_status "German pages are no longer rendered (exit 3)" 3 mc render "$NAME" --lang de
check_eq "nothing of German is stored" "$(sql "SELECT count(*) FROM translation WHERE lang = 'de'")" 0

# 6. a broken English base: nothing stored
fresh
drop_unit "$CAT/en.xlf" band
check_status "an English base without an entry the pages use exits 3" 3 mc translate --catalogues "$CAT"
check_grep "it names the entry" "no entry 'band', which the pages use" "$TMP/err"
fresh
sed -i 's|<source>On record</source>|<source>On <x id="nonsense"/> record</source>|' "$CAT/en.xlf"
check_status "an English text with an unknown placeholder exits 3" 3 mc translate --catalogues "$CAT"
check_grep "it names file, line and placeholder" "en.xlf:[0-9]*: 'band': the pages have no placeholder 'nonsense'" "$TMP/err"
fresh
sed -i 's|<source>On record</source>|<source>On record|' "$CAT/en.xlf"
check_status "a malformed English base exits 3" 3 mc translate --catalogues "$CAT"
check_grep "it names the file and line" "^modelcat-translate: $CAT/en.xlf:[0-9]*: " "$TMP/err"
check_eq "the texts stored before are untouched" "$(mc render "$NAME" --lang nl | cksum)" "$(cksum <"$TMP/seed_nl.txt")"
fresh
mv "$CAT/nl.xlf" "$CAT/not a language.xlf"
check_status "a file whose name is not a language code is skipped (exit 1)" 1 mc translate --catalogues "$CAT"
check_grep "and reported" "the name is not a language code" "$TMP/err"
done_testing
