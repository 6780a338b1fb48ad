#!/bin/sh
# Every value a published site renders from a field goes through the one
# formatter of its language (docs/pages.md, "How values are written"). A
# full publication of the bundled history is scanned, every file of both
# languages (tests/e2e/scan_values.py says which text is a field's value
# and how it finds it): no ISO date-time, no e-notation, no number with
# more than four decimals, no True/False, no whole number from 10,000 up
# without grouping; no English month name on a Dutch page; in History no
# entry whose old and new values are written alike, and one entry per
# field per date; JSON twins and downloads hold numbers and booleans as
# JSON numbers and booleans.
. "$(dirname "$0")/lib.sh"

export MODELCAT_DB="$TMP/full.db"
bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"
python3 "$TOP/tests/e2e/scan_values.py" "$TMP/site/.modelcat/current" "$TOP/pipelines" \
	"$TOP/translations" >"$TMP/scan"
sed -n 's/^# /#   /p' "$TMP/scan" | head -20
check "the scan read values of pages and audits" grep -q '^checked_values [1-9]' "$TMP/scan"
check "the scan read History entries" grep -q '^checked_history [1-9]' "$TMP/scan"
check "the scan read JSON values" grep -q '^checked_json [1-9]' "$TMP/scan"
check_grep "no ISO date-time in a value" '^iso_datetime 0$' "$TMP/scan"
check_grep "no e-notation in a value" '^e_notation 0$' "$TMP/scan"
check_grep "no number with more than four decimals" '^long_decimals 0$' "$TMP/scan"
check_grep "no True or False (booleans in words)" '^true_false 0$' "$TMP/scan"
check_grep "every whole number from 10,000 up is grouped" '^ungrouped 0$' "$TMP/scan"
check_grep "no English month name on a Dutch page" '^english_month_nl 0$' "$TMP/scan"
check_grep "no History entry whose values are written alike" '^history_same 0$' "$TMP/scan"
check_grep "at most one History entry per field per date" '^history_repeat 0$' "$TMP/scan"
check_grep "numbers in JSON are JSON numbers" '^json_number_as_string 0$' "$TMP/scan"
check_grep "booleans in JSON are JSON booleans" '^json_bool_as_string 0$' "$TMP/scan"
# a figure checked against the source: Llama 3.1-405B's parameters (405B
# in the bundled exports) in its twin as a number, and on its Dutch page
python3 - "$TMP/site/.modelcat/current" >"$TMP/llama" <<'PYEOF'
import glob, json, sys
root = sys.argv[1]
twin = json.load(open(glob.glob(root + "/downloads/models/llama-3-1-405b-*.json")[0]))
print("twin", twin["values"]["Parameters"] == 405000000000)
nl = open(glob.glob(root + "/pages/nl/llama-3-1-405b-*.txt")[0], encoding="utf-8").read()
print("nl", "- 405 miljard\n" in nl and "- 23 juli 2024\n" in nl)
PYEOF
check_grep "the twin holds Parameters as the number 405000000000" '^twin True' "$TMP/llama"
check_grep "the Dutch page writes 405 miljard and 23 juli 2024" '^nl True' "$TMP/llama"
done_testing
