#!/bin/sh
# The search rules' table (tests/data/search-queries.tsv: a query, the
# model expected first, why) run against `modelcat search` on the bundled
# history: each query's first model is the table's, a query the table
# says finds nothing exits 1 with nothing listed. The table's names are
# checked against the exports (each is a model of the latest files), so
# the table cannot name a model the data does not hold. t0158 runs the
# same table against the site's index filter.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
TABLE=$DATA/search-queries.tsv

# every expected name is a model name of some export's latest file (NAME#n:
# the n-th row of that name)
check_eq "the table's expected models are rows of the exports" "$(python3 - "$TABLE" "$SNAP" <<'PY'
import csv, gzip, io, os, re, sys, unicodedata, zipfile
table, snap = sys.argv[1:3]
names = set()
for exp in os.listdir(snap):
    d = os.path.join(snap, exp)
    if not os.path.isdir(d):
        continue
    files = sorted(f for f in os.listdir(d) if re.match(r"\d{4}-\d{2}-\d{2}\.(csv\.gz|zip)$", f))
    for f in files[-1:]:
        p = os.path.join(d, f)
        if f.endswith(".zip"):
            z = zipfile.ZipFile(p)
            texts = [z.read(n).decode("utf-8-sig") for n in z.namelist() if n.endswith(".csv")]
        else:
            texts = [gzip.open(p).read().decode("utf-8-sig")]
        for t in texts:
            for r in csv.DictReader(io.StringIO(t)):
                n = (r.get("Model") or r.get("System") or "").replace("\u00a0", " ").strip()
                names.add(unicodedata.normalize("NFC", n))
rows = [l.rstrip("\n").split("\t") for l in open(table, encoding="utf-8") if l.strip() and not l.startswith("#")]
missing = [r[1] for r in rows if r[1] != "-" and re.sub(r"#\d+$", "", r[1]) not in names]
print("ok %d" % len(rows) if not missing and len(rows) >= 20 else "missing %s (of %d)" % (missing, len(rows)))
PY
)" "ok $(grep -cv '^#' "$TABLE")"

grep -v '^#' "$TABLE" | while IFS='	' read -r query want why; do
	mc search --kind model --format json --limit 3 "$query" >"$TMP/out" 2>"$TMP/err"
	status=$?
	if [ "$want" = - ]; then
		check_eq "'$query' finds nothing and exits 1 ($why)" \
			"$status $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$TMP/out")" "1 0"
	else
		check_eq "'$query' finds $want first ($why)" \
			"$status $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d[0]["name"] if d else "-")' "$TMP/out")" \
			"0 $want"
	fi
done >"$TMP/tap"
# (the loop ran in a subshell: its checks are numbered here)
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok [0-9]* - }" ;;
	"not ok "*) not_ok "${line#not ok [0-9]* - }" ;;
	*) echo "$line" ;;
	esac
done <"$TMP/tap"

done_testing
