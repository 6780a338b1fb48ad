#!/bin/sh
# fetch's errors and gzip bodies. A body fetch refuses is named by its
# source, status and size, never by its bytes: a file:// source pointing at
# a file whose first line looks like a password entry (and holds ESC and
# BEL) gives an error line with no byte of that line in it. A body sent
# with Content-Encoding: gzip in two gzip members (as pigz or a
# concatenation write) is stored as its content, like the same bytes read
# as a .csv.gz file; the size cap still holds for the decoded size.
. "$(dirname "$0")/lib.sh"
export MODELCAT_RETRY_BASE_MS=10

WWW=$TMP/www
mkdir -p "$WWW"
cd "$TMP" || exit 1

# ---- 7: a refused body is not quoted ----
printf 'root:*:20228:0:99999:7:::\033]0;owned\007\nbin:*:20228:0:99999:7:::\n' >"$TMP/shadow"
check_status "a file:// source that is no export fails (exit 3)" 3 \
	mc fetch --snapshots "$TMP/store" --source "notable_ai_models=file://$TMP/shadow"
cp err fetch.err
check "the error names the source" grep -q "^modelcat-fetch: notable_ai_models: " fetch.err
size=$(wc -c <"$TMP/shadow" | tr -d ' ')
check "it gives the size ($size bytes)" grep -q "a file of $size bytes" fetch.err
# no run of 4 or more bytes of the body's first line is in the message (the
# URL aside)
leak=$(python3 - "$TMP/shadow" fetch.err <<'PY'
import sys
body = open(sys.argv[1], 'rb').read().split(b'\n')[0]
err = open(sys.argv[2], 'rb').read().replace(sys.argv[1].encode(), b'')
print(sum(1 for i in range(len(body) - 3) if body[i:i + 4] in err))
PY
)
check_eq "no byte of the body's first line is in the error" "$leak" 0
check_eq "no raw control byte either" "$(tr -d '\n' <fetch.err | tr -d '[:print:]' | wc -c)" 0
check "nothing stored" test ! -e "$TMP/store/notable_ai_models"

start_server "$WWW" 300
check "the test server is listening" test -s "$TMP/port"
printf '<html><body>\033[2J secret-token-123</body></html>\n' >"$WWW/page.csv"
check_status "an HTML body over HTTP is refused (exit 3)" 3 \
	mc fetch --snapshots "$TMP/store" --source "notable_ai_models=$URL/plain/page.csv"
check "the error gives the status and the size" \
	grep -q "HTTP 200, $(wc -c <"$WWW/page.csv" | tr -d ' ') bytes" err
check "not the body's bytes" sh -c "! grep -q 'secret-token' '$TMP/err'"

# ---- 8: two gzip members with Content-Encoding: gzip ----
gzip -dc "$SNAP/notable_ai_models/2024-07-16.csv.gz" >"$WWW/two.csv"
python3 - "$WWW/two.csv" "$WWW/two.csv.gz" <<'PY'
import gzip, sys
data = open(sys.argv[1], 'rb').read()
half = len(data) // 2
open(sys.argv[2], 'wb').write(gzip.compress(data[:half]) + gzip.compress(data[half:]))
PY
check_eq "the test body is two gzip members" \
	"$(python3 -c 'import sys,zlib
d=open(sys.argv[1],"rb").read(); n=0
while d:
    z=zlib.decompressobj(31); z.decompress(d); d=z.unused_data; n+=1
print(n)' "$WWW/two.csv.gz")" 2
check_status "fetch of it exits 0" 0 \
	mc fetch --snapshots "$TMP/s2" --source "notable_ai_models=$URL/encoded/two.csv"
check_grep "the server sent it gzip-encoded" '"path": "/encoded/two.csv", "status": 200' "$TMP/server.log"
stored=$(ls "$TMP"/s2/notable_ai_models/*.csv.gz 2>/dev/null | head -1)
check "the stored snapshot holds the whole content" \
	sh -c "[ -n '$stored' ] && gzip -dc '$stored' | cmp -s - '$WWW/two.csv'"
rows=$(python3 -c 'import csv,sys; print(len(list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))) - 1)' "$WWW/two.csv")
check "fetch counts every row ($rows)" grep -q "($rows rows," out
export MODELCAT_DB="$TMP/fetched.db"
check_status "the fetched snapshot ingests" 0 mc ingest --as-of 2024-07-16 "$stored"
mc export --source notable_ai_models --as-of 2024-07-16 >fetched.csv
export MODELCAT_DB="$TMP/file.db"
cp "$WWW/two.csv.gz" "$TMP/notable_ai_models.csv.gz"
check_status "the same bytes as a .csv.gz file ingest" 0 \
	mc ingest --as-of 2024-07-16 "$TMP/notable_ai_models.csv.gz"
mc export --source notable_ai_models --as-of 2024-07-16 >file.csv
check "both give the same export" cmp -s fetched.csv file.csv
check_eq "with every row" "$(($(python3 -c 'import csv,sys; print(len(list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))))' fetched.csv) - 1))" "$rows"
check_status "the cap holds for the decoded size of the members" 3 \
	mc fetch --snapshots "$TMP/s3" --max-size 400k --source "notable_ai_models=$URL/encoded/two.csv"
check_grep "it says so" "larger than the size cap" "$TMP/err"
head -c 2000 "$WWW/two.csv.gz" >"$WWW/cut.csv.gz"
check_status "a gzip body cut inside a member is refused" 3 \
	mc fetch --snapshots "$TMP/s4" --retries 1 --source "notable_ai_models=$URL/encoded/cut.csv"
check "nothing of it stored" test ! -e "$TMP/s4/notable_ai_models"

done_testing
