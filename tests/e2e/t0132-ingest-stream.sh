#!/bin/sh
# A later load reads the export's live records as a stream
# (src/lib/db/current.c) and recognises unchanged rows through a compact
# table; a first load into an empty catalogue makes the index by name at
# the export's end. Checked: the counts and the names of the changed and
# removed models of a load that changes, leaves out and adds rows, each
# computed here from the CSVs; the index by name after a first load, after
# a first load a guard held (rolled back with it), and after one into a
# catalogue that holds versions already.
. "$(dirname "$0")/lib.sh"

gzip -dc "$SNAP/notable_ai_models/2025-04-18.csv.gz" >"$TMP/a.csv"
# b: every 40th uniquely named row gets a new Citations count, every 97th
# is left out, and three rows are added under new names and links
python3 - "$TMP/a.csv" "$TMP/b.csv" "$TMP/expected" <<'EOF'
import collections, csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
h, body = rows[0], rows[1:]
name, cites, link, ref = (h.index(c) for c in ("Model", "Citations", "Link", "Reference"))
count = collections.Counter(r[name].strip() for r in body)
unique = [i for i, r in enumerate(body) if r[name].strip() and count[r[name].strip()] == 1]
changed = set(unique[::40])
removed = set(unique[20::97]) - changed
out = []
for i, r in enumerate(body):
    if i in removed:
        continue
    if i in changed:
        r = list(r)
        r[cites] = str(7000000 + i)
    out.append(r)
for k in range(3):
    r = list(body[unique[k + 1]])
    r[name], r[link], r[ref] = "Streamed model %d" % k, "https://example.org/streamed-%d" % k, ""
    out.append(r)
with open(sys.argv[2], "w", encoding="utf-8", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows([h] + out)
with open(sys.argv[3], "w", encoding="utf-8") as f:
    f.write("%d %d 3\n" % (len(changed), len(removed)))
    f.write("changed:%s\n" % "|".join(sorted(body[i][name].strip() for i in changed)))
    f.write("removed:%s\n" % "|".join(sorted(body[i][name].strip() for i in removed)))
EOF
read -r n_changed n_removed n_added <"$TMP/expected"
check "some rows changed and some removed ($n_changed, $n_removed)" test "$n_changed" -gt 5 -a "$n_removed" -gt 3

sql() { sqlite3 -batch -noheader "$MODELCAT_DB" "$1"; }
name_index=$(grep '^CREATE INDEX version_name' "$TOP/sql/002_history.sql" | sed 's/;$//')

mc ingest --as-of 2025-04-18 "notable_ai_models=$TMP/a.csv" >"$TMP/first" 2>/dev/null
check_eq "a first load makes the index by name again, as the schema has it" \
	"$(sql "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'version_name'")" "$name_index"
check_eq "the catalogue is whole" "$(sql "PRAGMA integrity_check")" ok
check_eq "the index holds every version" \
	"$(sql "SELECT count(*) FROM version INDEXED BY version_name WHERE name > ''")" \
	"$(sql "SELECT count(*) FROM version WHERE name > ''")"

mc ingest --as-of 2025-05-06 "notable_ai_models=$TMP/b.csv" >"$TMP/second" 2>/dev/null
summary=$(grep '^notable_ai_models:' "$TMP/second")
check_grep "the load counts what changed, left and came ($summary)" \
	"$n_added added, $n_removed removed, 0 renamed, $n_changed changed" "$TMP/second"
check_eq "the changed models by name" \
	"changed:$(sql "SELECT group_concat(name, '|') FROM (SELECT v.name FROM version v WHERE v.valid_from = '2025-05-06' AND v.kind = 'changed' ORDER BY v.name)")" \
	"$(sed -n 2p "$TMP/expected")"
check_eq "the removed models by name" \
	"removed:$(sql "SELECT group_concat(name, '|') FROM (SELECT v.name FROM version v WHERE v.valid_from = '2025-05-06' AND v.kind = 'removed' ORDER BY v.name)")" \
	"$(sed -n 3p "$TMP/expected")"
check_eq "every other live model kept its version" \
	"$(sql "SELECT count(*) FROM snapshot_row s JOIN snapshot_export e ON e.id = s.snapshot_export_id JOIN version v ON v.id = s.version_id WHERE e.snapshot_id = 2 AND v.valid_from = '2025-04-18'")" \
	"$(sql "SELECT count(*) FROM version WHERE valid_from = '2025-04-18' AND valid_to IS NULL")"

# a gzip file's size is not known before it is read: its first load drops
# the index and makes it at the end (a plain file this small keeps it)
export MODELCAT_DB=$TMP/gz.db
gzip -c "$TMP/a.csv" >"$TMP/a.csv.gz"
mc ingest --as-of 2025-04-18 "notable_ai_models=$TMP/a.csv.gz" >/dev/null 2>&1
check_eq "a first load of a gzip file makes the index by name again" \
	"$(sql "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'version_name'")" "$name_index"
check_eq "that index holds every version" \
	"$(sql "SELECT count(*) FROM version INDEXED BY version_name WHERE name > ''")" \
	"$(sql "SELECT count(*) FROM version WHERE name > ''")"
check_eq "and the catalogue is whole" "$(sql "PRAGMA integrity_check")" ok

# a first load a guard holds (a header and no rows): the index stays
export MODELCAT_DB=$TMP/held.db
head -1 "$TMP/a.csv" >"$TMP/empty.csv"
check_status "a header without rows is held" 1 mc ingest --as-of 2025-04-18 "notable_ai_models=$TMP/empty.csv"
check_eq "the index by name is there after the held load" \
	"$(sql "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'version_name'")" "$name_index"

# a first load of another export into a catalogue holding versions
export MODELCAT_DB=$TMP/two.db
mc ingest --as-of 2025-04-18 "notable_ai_models=$TMP/a.csv" >/dev/null 2>&1
mc ingest --as-of 2025-05-06 "other_models=$TMP/b.csv" >/dev/null 2>&1
check_eq "a second export loads beside the first" \
	"$(sql "SELECT count(DISTINCT export) FROM record")" 2
check_eq "the index by name holds both exports' versions" \
	"$(sql "SELECT count(*) FROM version INDEXED BY version_name WHERE name > ''")" \
	"$(sql "SELECT count(*) FROM version WHERE name > ''")"
check_eq "the catalogue is whole after both" "$(sql "PRAGMA integrity_check")" ok

done_testing
