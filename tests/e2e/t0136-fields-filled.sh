#!/bin/sh
# A field of a model page is empty only where no export holds a value for
# that model on that date (docs/normalisation.md, "Renamed columns"): the
# bundled history rebuilt, every model's English page rendered on each
# date of a model snapshot in it, and each compared by tests/e2e/filled.py with the exports of that
# date read by Python's csv module, each page field looked for under every
# header Epoch has given it (the dataset size's three names, both country
# headers, ...). Llama 3.1-405B's training data, under
# `Training dataset size (gradients)` in the 2025-11-01 bundle, shows 15.6T
# tokens in both languages.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
check_status "translate exits 0" 0 mc translate

# date: the exports as they stood that day
filled() {
	date=$1; shift
	mc render --all --as-of "$date" --out "$TMP/site-$date" >"$TMP/out" 2>"$TMP/err" ||
		{ not_ok "render --all --as-of $date"; sed 's/^/#   /' "$TMP/err" | head -5; return; }
	if python3 "$TOP/tests/e2e/filled.py" "$TMP/site-$date/en" "$@" >"$TMP/filled" 2>&1; then
		ok "on $date every page field with a value in some export shows one, and none other ($(tail -1 "$TMP/filled"))"
	else
		not_ok "on $date a page field disagrees with the exports"; sed 's/^/#   /' "$TMP/filled" | head -21
	fi
	rm -rf "$TMP/site-$date"
}
N=$SNAP/notable_ai_models L=$SNAP/large_scale_ai_models/2024-07-16.csv.gz
A=$SNAP/all_ai_models/2025-04-23.csv.gz Z=$SNAP/ai_models/2025-11-01.zip
filled 2024-07-06 "$N/2024-07-06.csv.gz"
filled 2024-07-16 "$N/2024-07-16.csv.gz" "$L"
filled 2024-12-24 "$N/2024-12-24.csv.gz" "$L"
filled 2025-02-24 "$N/2025-02-24.csv.gz" "$L"
filled 2025-04-18 "$N/2025-04-18.csv.gz" "$L"
filled 2025-04-23 "$N/2025-04-18.csv.gz" "$A" "$L"
filled 2025-05-06 "$N/2025-05-06.csv.gz" "$A" "$L"
filled 2025-11-01 "$Z/notable_ai_models.csv" "$Z/all_ai_models.csv" \
	"$Z/large_scale_ai_models.csv" "$Z/frontier_ai_models.csv"

check_status "render Llama 3.1-405B exits 0" 0 mc render "Llama 3.1-405B"
check_eq "its training data is the 2025-11-01 bundle's 15,600,000,000,000 tokens" \
	"$(grep -A1 '^- Training data$' "$TMP/out" | tail -1)" "- 15.6T tokens"
check_status "render Llama 3.1-405B --lang nl exits 0" 0 mc render "Llama 3.1-405B" --lang nl
# (the Dutch label as translations/nl.xlf gives it)
nl_label=$(python3 -c 'import sys, xml.etree.ElementTree as E
for u in E.parse(sys.argv[1]).getroot().iter():
    if u.tag.endswith("trans-unit") and u.get("id") == "label.training_data":
        print([c.text for c in u if c.tag.endswith("target")][0])' "$TOP/translations/nl.xlf")
if grep -A1 -xF -- "- $nl_label" "$TMP/out" | tail -1 | grep -q '^- 15[.,]6'; then
	ok "the Dutch page shows it too"
else
	not_ok "the Dutch page shows it too ($nl_label)"; grep -A1 -xF -- "- $nl_label" "$TMP/out" | sed 's/^/#   /'
fi

# every header of the real exports (bundled and test data) that names a
# former field is read as that field: a column map lookup per header
python3 - "$SNAP" "$TOP/pipelines/columns.tsv" >"$TMP/renamed" <<'PY'
import csv, glob, gzip, io, os, sys, zipfile
snap, columns = sys.argv[1], sys.argv[2]
field = {}
for line in open(columns, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    cols = line.rstrip("\n").split("\t")
    field[cols[0]] = cols[0]
    for alias in (cols[2].split("|") if len(cols) > 2 and cols[2] else []):
        field[alias] = cols[0]
# former names of fields, each with the field it must map to (the headers
# read off the exports: a header renamed between two snapshots of one
# export, with the same values, or marked "(DEPRECATED)")
renames = {
    "System": "Model",
    "Country (from Organization)": "Country (of organization)",
    "Organization categorization (from Organization)": "Organization categorization",
    "Training dataset size (datapoints)": "Training dataset size (total)",
    "Training dataset size (gradients)": "Training dataset size (total)",
    "(DEPRECATED) Training dataset size (datapoints)": "Training dataset size (total)",
    "Hardware utilization": "Hardware utilization (MFU)",
}
headers = set()
for path in glob.glob(os.path.join(snap, "*", "*.csv.gz")):
    if "ml_hardware" in path:
        continue
    headers.update(next(csv.reader(io.TextIOWrapper(gzip.open(path), encoding="utf-8-sig"))))
z = zipfile.ZipFile(os.path.join(snap, "ai_models", "2025-11-01.zip"))
for member in z.namelist():
    if member.endswith(".csv"):
        headers.update(next(csv.reader(io.TextIOWrapper(z.open(member), encoding="utf-8-sig"))))
bad = [h for h in sorted(headers) if h in renames and field.get(h) != renames[h]]
bad += [h for h in sorted(headers) if h.startswith("(DEPRECATED)") and h not in field]
missing = [h for h in renames if h not in headers]
for h in bad:
    print("header %r maps to %r" % (h, field.get(h)))
for h in missing:
    print("header %r is in no export" % h)
PY
check_eq "every former header of the real exports maps to its field" "$(cat "$TMP/renamed")" ""

done_testing
