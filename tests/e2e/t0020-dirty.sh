#!/bin/sh
# The spreadsheet re-save: every broken row quarantined with a reason, on
# stderr and in the catalogue; every other row loaded exactly.
. "$(dirname "$0")/lib.sh"

dirty=$DATA/dirty/notable_ai_models-spreadsheet-resave.csv.gz
expected=$DATA/dirty/expected-quarantine.txt

# 21 of its rows are quarantined, more than the guard's 2 % (t0112): the
# re-save is loaded with --accept
check_status "ingest of the re-save exits 1 (rows quarantined)" 1 \
	mc ingest --accept --as-of 2025-05-10 "notable_ai_models=$dirty"
cp "$TMP/err" "$TMP/ingest.err"

grep -v '^#' "$expected" | sort >"$TMP/want"
sql "SELECT name FROM quarantine ORDER BY name" | sort >"$TMP/got"
if cmp -s "$TMP/want" "$TMP/got"; then
	ok "the quarantined rows are exactly the broken ones ($(wc -l <"$TMP/want"))"
else
	not_ok "quarantined rows differ from the broken ones"
	diff "$TMP/want" "$TMP/got" | sed 's/^/#   /'
fi

n=$(grep -c 'row quarantined' "$TMP/ingest.err")
check_eq "one stderr line per quarantined row" "$n" "$(wc -l <"$TMP/want" | tr -d ' ')"
bad=$(grep 'row quarantined' "$TMP/ingest.err" | grep -vc "^$dirty:[0-9][0-9]*: ")
check_eq "each stderr line names file and line" "$bad" 0

# a handful by name: field and reason
reason() { sql "SELECT coalesce(field, '') || ' | ' || reason FROM quarantine WHERE name = '$1'"; }
check_grep_text() { case "$2" in *"$3"*) ok "$1";; *) not_ok "$1"; echo "#   got '$2'";; esac; }
check_grep_text "Pixtral Large: hardware name in the date column" \
	"$(reason 'Pixtral Large')" "Publication date | Publication date: 'NVIDIA Tesla V100 SMX2' is not a valid date"
check_grep_text "FinGPT-13B: paper title in the citations column" \
	"$(reason 'FinGPT-13B')" "Citations | Citations: 'FinGPT: Instruction Tuning"
check_grep_text "Dropout (ImageNet): hardware name in a number column" \
	"$(reason 'Dropout (ImageNet)')" "Hardware quantity | Hardware quantity: 'NVIDIA GeForce GTX 580' is not a valid number"
check_grep_text "QwQ-32B: rows run together into 383 fields" \
	"$(reason 'QwQ-32B')" "the row has 383 fields, the header has 368"
check_grep_text "Llama 3-70B: an author's name in the epochs column" \
	"$(reason 'Llama 3-70B')" "Epochs | Epochs: ' Adam Kelsey' is not a valid number"
check_grep_text "DeepSeek-V3: a value in a column with no header" \
	"$(reason 'DeepSeek-V3')" "column 42 | column 42: value '200000000000' in a column that has no header"
check_grep_text "BellKor 2009: text in the epochs column" \
	"$(reason 'BellKor 2009')" "Epochs | Epochs: ' won Netflix Grand Prize' is not a valid number"
line=$(sql "SELECT line FROM quarantine WHERE name = 'Pixtral Large'")
check_eq "Pixtral Large's line number is its line in the file" "$line" \
	"$(gzip -dc "$dirty" | grep -n '^Pixtral Large,' | cut -d: -f1)"
raw=$(sql "SELECT raw FROM quarantine WHERE name = 'Pixtral Large'" | head -c 40)
check_eq "the raw row is kept" "$raw" "Pixtral Large,Mistral AI,NVIDIA Tesla V1"

# good rows, a handful by name, then all of them against the file
for name in 'GPT-4o' 'Claude 3.5 Sonnet' 'ELIZA' 'GPT-4' 'AlphaGo Lee'; do
	n=$(sql "SELECT count(*) FROM record r JOIN version v ON v.record_id = r.id WHERE r.name = '$name'")
	check_eq "good row '$name' loaded" "$n" 1
done
check_eq "GPT-4's compute re-saved as 2.1E+025 reads as 2.1e+25" \
	"$(sql "SELECT json_extract(v.norm, '\$.\"Training compute (FLOP)\"') FROM record r JOIN version v ON v.record_id = r.id WHERE r.name = 'GPT-4'")" "2.1e+25"
mc export --source notable_ai_models --as-of 2025-05-10 >"$TMP/export.csv"
if python3 "$TOP/tests/e2e/compare_export.py" "$TOP/pipelines/columns.tsv" "$dirty" \
	"$TMP/export.csv" --skip-names "$expected" >"$TMP/compare.out" 2>&1; then
	ok "every other row loaded exactly ($(tail -1 "$TMP/compare.out"))"
else
	not_ok "good rows differ from the file"
	head -10 "$TMP/compare.out" | sed 's/^/#   /'
fi
loaded=$(sql "SELECT loaded || '/' || quarantined || '/' || rows FROM snapshot_export")
check_eq "counts: loaded/quarantined/rows" "$loaded" "933/21/954"
done_testing
