#!/bin/sh
# Ingest behaviour: formats (.csv, .csv.gz, .zip) give the same catalogue
# content; parse + load through a staging file equals ingest; same content
# again is no change; a failed ingest writes nothing; undeclared columns are
# kept and reported once.
. "$(dirname "$0")/lib.sh"

src=$SNAP/notable_ai_models/2024-07-16.csv.gz
gzip -dc "$src" >"$TMP/notable_ai_models.csv"
python3 -c '
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("README.txt", "not the export")
    z.write(sys.argv[2], "notable_ai_models.csv")' "$TMP/export.zip" "$TMP/notable_ai_models.csv"

export_of() { # $1 file, $2 db
	MODELCAT_DB=$2 mc ingest --as-of 2024-07-16 "notable_ai_models=$1" >/dev/null 2>&1 &&
	MODELCAT_DB=$2 mc export --source notable_ai_models --as-of 2024-07-16
}
export_of "$src" "$TMP/gz.db" >"$TMP/gz.csv"
export_of "$TMP/notable_ai_models.csv" "$TMP/plain.db" >"$TMP/plain.csv"
export_of "$TMP/export.zip" "$TMP/zip.db" >"$TMP/zip.csv"
check "the .csv.gz export is not empty" test "$(wc -l <"$TMP/gz.csv")" -gt 825
check ".csv gives the same export as .csv.gz" cmp -s "$TMP/gz.csv" "$TMP/plain.csv"
check ".zip gives the same export as .csv.gz" cmp -s "$TMP/gz.csv" "$TMP/zip.csv"
want=$(sha256sum "$TMP/notable_ai_models.csv" | cut -d' ' -f1)
for db in gz plain zip; do
	check_eq "the $db file's recorded hash is the content's" \
		"$(sqlite3 "$TMP/$db.db" 'SELECT sha256 FROM snapshot_export')" "$want"
done

# the export name from the file name
check_status "ingest names the export from the file name" 0 \
	mc --db "$TMP/name.db" ingest --as-of 2024-07-16 "$TMP/notable_ai_models.csv"
check_eq "file name rule: notable_ai_models.csv -> notable_ai_models" \
	"$(sqlite3 "$TMP/name.db" 'SELECT export FROM snapshot_export')" notable_ai_models
check_status "ingest names the export from the store's folder" 0 \
	mc --db "$TMP/name2.db" ingest --as-of 2024-07-16 "$src"
check_eq "store rule: notable_ai_models/2024-07-16.csv.gz -> notable_ai_models" \
	"$(sqlite3 "$TMP/name2.db" 'SELECT export FROM snapshot_export')" notable_ai_models

check_status "a stored snapshot ingests as of its date by default" 0 \
	mc --db "$TMP/dated.db" ingest "$SNAP/large_scale_ai_models/2024-07-16.csv.gz"
check_eq "its snapshot is dated by the file name" \
	"$(sqlite3 "$TMP/dated.db" 'SELECT as_of FROM snapshot')" 2024-07-16

# parse --out then load equals ingest
check_status "parse --out writes a staging file" 0 mc parse --out "$TMP/stage.db" "$src"
check_grep "parse prints a summary" "825 rows, 825 good, 0 quarantined" "$TMP/out"
check_eq "the staging file holds the rows" \
	"$(sqlite3 "$TMP/stage.db" 'SELECT count(*) FROM staging_row')" 825
check_status "parse --out refuses to replace what is not a regular file" 3 \
	mc parse --out /dev/null "$src"
check "and leaves it alone" test -c /dev/null
check_status "load of the staging file" 0 mc --db "$TMP/staged.db" load --as-of 2024-07-16 "$TMP/stage.db"
MODELCAT_DB=$TMP/staged.db mc export --source notable_ai_models --as-of 2024-07-16 >"$TMP/staged.csv"
check "parse + load gives the same export as ingest" cmp -s "$TMP/gz.csv" "$TMP/staged.csv"

# the schema is applied by numbered migrations, recorded once
check_eq "schema version recorded" "$(sqlite3 "$TMP/gz.db" 'SELECT group_concat(version) FROM schema_version')" \
	"$(ls "$TOP/sql" | grep -E '^[0-9]{3}_.*\.sql$' | sed 's/^0*//; s/_.*//' | paste -sd, -)"

# same content again: no new version
mc ingest --as-of 2024-07-16 "$src" >/dev/null 2>&1
before=$(sql 'SELECT count(*) FROM version')
check_status "the same content again exits 0" 0 mc ingest --as-of 2024-07-20 "$src"
check_grep "it says no change" "same content as its previous snapshot; no change" "$TMP/out"
check_eq "no version was written" "$(sql 'SELECT count(*) FROM version')" "$before"
check_eq "migrations were not applied twice" "$(sql 'SELECT count(*) FROM schema_version')" \
	"$(ls "$TOP/sql" | grep -cE '^[0-9]{3}_.*\.sql$')"
check_eq "the export still answers for the later date" \
	"$(mc export --source notable_ai_models --as-of 2024-07-20 | wc -l)" "$(wc -l <"$TMP/gz.csv")"

# a plain file of several MiB (read on a thread of its own when its hash
# alone tells that nothing changed): the same content found, its hash the
# file's own
big="$TMP/all_ai_models.csv"
python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("all_ai_models.csv"))' "$TOP/tests/data/bundle/2025-11-01.zip" >"$big"
check_status "a 6 MB plain export ingests" 0 mc --db "$TMP/big.db" ingest --as-of 2025-11-01 "all_ai_models=$big"
check_status "and again, the same content, a day later" 0 mc --db "$TMP/big.db" ingest --as-of 2025-11-02 "all_ai_models=$big"
check_grep "it says no change" "same content as its previous snapshot; no change" "$TMP/out"
check_eq "both snapshots hold the file's SHA-256 and size" \
	"$(sqlite3 "$TMP/big.db" "SELECT group_concat(sha256 || ' ' || bytes || ' ' || unchanged, ',') FROM (SELECT * FROM snapshot_export ORDER BY id)")" \
	"$(sha256sum <"$big" | cut -d' ' -f1) $(wc -c <"$big" | tr -d ' ') 0,$(sha256sum <"$big" | cut -d' ' -f1) $(wc -c <"$big" | tr -d ' ') 1"

# an older snapshot after a newer one is refused, catalogue untouched
cp "$MODELCAT_DB" "$TMP/before.db"
check_status "an older snapshot after a newer one exits 3" 3 \
	mc ingest --as-of 2024-07-06 "$SNAP/notable_ai_models/2024-07-06.csv.gz"
check_grep "it says why" "later than 2024-07-06" "$TMP/err"
check "the catalogue is unchanged" sh -c "sqlite3 '$MODELCAT_DB' .dump >'$TMP/a' && sqlite3 '$TMP/before.db' .dump >'$TMP/b' && cmp -s '$TMP/a' '$TMP/b'"

# a failure in the second file leaves nothing of the first
printf 'Model,Parameters\n"unterminated,1\n' >"$TMP/broken.csv"
printf 'no,model,column\n1,2,3\n' >"$TMP/nomodel.csv"
check_status "a file without a model column fails the whole snapshot (exit 3)" 3 \
	mc ingest --as-of 2025-01-01 "$SNAP/large_scale_ai_models/2024-07-16.csv.gz" "other=$TMP/nomodel.csv"
check_grep "the error names the file and line" "nomodel.csv:1: no model name column" "$TMP/err"
check "nothing of the first file was written" sh -c "sqlite3 '$MODELCAT_DB' .dump >'$TMP/a' && cmp -s '$TMP/a' '$TMP/b'"

# bad bytes are quarantined with the field named; the good row loads
printf 'Model,Parameters,Notes\nGood,1,fine\nBad,2,caf\351\nNul,3,a\000b\n' >"$TMP/bytes.csv"
check_status "invalid UTF-8 and NUL bytes: exit 1" 1 mc ingest --as-of 2025-01-01 "bytes=$TMP/bytes.csv"
check_grep "invalid UTF-8 is reported with file, line and field" "bytes.csv:3: Notes: invalid UTF-8" "$TMP/err"
check_grep "a NUL byte is reported with file, line and field" "bytes.csv:4: Notes: NUL byte" "$TMP/err"
check_eq "the good row loaded" "$(sql "SELECT name FROM record WHERE export = 'bytes'")" Good
check_grep "the undeclared column is counted in one line" \
	"bytes.csv: 1 column not in the column map; kept as text fields (--verbose lists them)" "$TMP/err"
check_eq "the catalogue keeps its notice" "$(sql "SELECT count(*) FROM notice WHERE message LIKE '%bytes.csv: column ''Notes'' is not in the column map%'")" 1
check_eq "and kept as a field" \
	"$(sql "SELECT json_extract(v.norm, '\$.Notes') FROM record r JOIN version v ON v.record_id = r.id WHERE r.export = 'bytes'")" fine
check_status "an unterminated quote quarantines the row (exit 1)" 1 mc ingest --as-of 2025-01-01 "broken=$TMP/broken.csv"
check_grep "it is reported" "broken.csv:2: end of file inside a quoted field" "$TMP/err"
done_testing
