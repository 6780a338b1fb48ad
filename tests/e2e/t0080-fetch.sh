#!/bin/sh
# fetch: downloads from a scripted HTTP server on 127.0.0.1 (started and
# stopped here) into a snapshot store. A good body is stored once; the same
# content again stores nothing; every kind of bad response is refused with
# a clear error and leaves the store as it was; a killed fetch leaves no
# file under a final name; what fetch stored ingests with no other input.
. "$(dirname "$0")/lib.sh"

WWW=$TMP/www
S=$TMP/store
mkdir -p "$WWW"
export MODELCAT_RETRY_BASE_MS=10
today=$(date -u +%Y-%m-%d)

# ---- test data: real exports and small cuts of them ----
gzip -dc "$SNAP/notable_ai_models/2024-07-16.csv.gz" >"$WWW/a.csv"
gzip -dc "$SNAP/notable_ai_models/2024-12-24.csv.gz" >"$WWW/b.csv"
gzip -dc "$SNAP/large_scale_ai_models/2024-07-16.csv.gz" >"$WWW/large.csv"
gzip -dc "$SNAP/all_ai_models/2025-04-23.csv.gz" >"$WWW/all.csv"
python3 - "$WWW" <<'EOF'
import csv, sys
www = sys.argv[1]
rows = list(csv.reader(open(www + "/a.csv", newline="", encoding="utf-8")))
for name, n in (("small1.csv", 40), ("small2.csv", 60)):
    with open("%s/%s" % (www, name), "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows[:n + 1])
body = open(www + "/small1.csv", encoding="utf-8").read()
open(www + "/unterminated.csv", "w", encoding="utf-8").write(body + 'Cut model,"a description that never')
open(www + "/unknown.csv", "w").write("Name,Colour\nx,red\n")
EOF
sha_of() { sha256sum "$1" | cut -c1-64; }

# ---- the server ----
start_server "$WWW" 300
check "the test server is listening" test -s "$TMP/port"

fetch() { mc fetch --snapshots "$S" "$@"; }
requests() { grep -c "\"path\": \"$1\"" "$TMP/server.log"; }
snapshot_files() { find "$1" -name '*.csv.gz' | wc -l; }
digest() { (cd "$1" && find . | LC_ALL=C sort && find . -type f | LC_ALL=C sort | xargs -r sha256sum); }
now_ms() { date +%s%3N; }
manifest_events() { tail -n +2 "$S/MANIFEST.tsv" | cut -f2,3 | tr '\t' ' ' | paste -sd, -; }

# ---- the command line ----
check_status "fetch --help exits 0" 0 mc fetch --help
for opt in --config --snapshots --source --max-size --retries --timeout --connect-timeout --db; do
	check_grep "fetch --help lists $opt" "$opt" "$TMP/out"
done
check_status "modelcat-fetch --version exits 0" 0 "$BIN/modelcat-fetch" --version
check_status "modelcat --help exits 0" 0 mc --help
check_grep "modelcat --help lists fetch" "^  fetch " "$TMP/out"
check_status "an unknown option exits 2" 2 fetch --frob
check_status "an unknown configured source exits 2" 2 fetch --source no_such_source
check_grep "the unknown source is named" "no_such_source" "$TMP/err"
check_status "a bad source name exits 2" 2 fetch --source "../x=$URL/data/small1.csv"
check_status "an unsupported URL scheme exits 2" 2 fetch --source "x=ftp://127.0.0.1/x.csv"
check_status "a bad --max-size exits 2" 2 fetch --max-size lots --source "x=$URL/data/small1.csv"
check_status "the same source twice exits 2" 2 fetch --source "x=$URL/a" --source "x=$URL/b"
check "usage errors create no store" test ! -e "$S"
check "nor a catalogue" test ! -e "$MODELCAT_DB"
check_grep "the default sources are Epoch's live exports" \
	"^notable_ai_models	https://epoch.ai/data/notable_ai_models.csv" "$TOP/pipelines/sources.tsv"
n=$(grep -c '^[a-z_]*	https://epoch.ai/data/[a-z_]*\.csv	csv$' "$TOP/pipelines/sources.tsv")
check_eq "pipelines/sources.tsv declares the four exports" "$n" 4
printf 'broken line without a tab\n' >"$TMP/bad-sources.tsv"
check_status "a broken sources file fails (exit 3)" 3 fetch --config "$TMP/bad-sources.tsv"
check_grep "the error names file and line" "bad-sources.tsv:1:" "$TMP/err"

# ---- 200: stored once ----
printf 'notable_ai_models\t%s/data/small1.csv\tcsv\nlarge_scale_ai_models\t%s/plain/large.csv\n' \
	"$URL" "$URL" >"$TMP/sources.tsv"
check_status "fetch of a configured source exits 0" 0 fetch --config "$TMP/sources.tsv" \
	--source notable_ai_models
cp "$TMP/out" "$TMP/first.out"
check "nothing on stderr when it is not a terminal" test ! -s "$TMP/err"
check_eq "one summary line" "$(wc -l <"$TMP/first.out")" 1
stored=$(sed -n 's/^notable_ai_models: stored \([^ ]*\) .*/\1/p' "$TMP/first.out")
check_eq "stored under <source>/<date>.csv.gz" "$stored" "$S/notable_ai_models/$today.csv.gz"
check "the snapshot is gzip-compressed and holds the body" \
	sh -c "gzip -dc '$stored' | cmp -s - '$WWW/small1.csv'"
check_eq "the snapshot is read-only" "$(stat -c %a "$stored")" 444
check_eq "only the configured source picked was fetched" "$(requests /plain/large.csv)" 0
check_grep "the summary gives rows and hash" "(40 rows, .* bytes, sha256 $(sha_of "$WWW/small1.csv" | cut -c1-12))" "$TMP/first.out"
check_grep "the request named modelcat and its version" '"user_agent": "modelcat/[0-9]' "$TMP/server.log"
check_grep "the request accepted gzip" '"accept_encoding": "gzip"' "$TMP/server.log"
check_grep "the body came gzip-encoded" '"note": "gzip"' "$TMP/server.log"
line=$(tail -n 1 "$S/MANIFEST.tsv")
check_eq "MANIFEST.tsv has a header and one line" "$(wc -l <"$S/MANIFEST.tsv")" 2
check_eq "manifest: source, event, file" "$(echo "$line" | cut -f2-4)" \
	"notable_ai_models	stored	notable_ai_models/$today.csv.gz"
check_eq "manifest: URL and status" "$(echo "$line" | cut -f5,6)" "$URL/data/small1.csv	200"
check_eq "manifest: sha256 of the content" "$(echo "$line" | cut -f9)" "$(sha_of "$WWW/small1.csv")"
check_eq "manifest: bytes, stored bytes, rows" "$(echo "$line" | cut -f11,12,14)" \
	"$(wc -c <"$WWW/small1.csv")	$(wc -c <"$stored")	40"
check "manifest: the ETag" sh -c "echo '$line' | cut -f7 | grep -q '^\"[0-9a-f]*\"$'"
check "manifest: the fetch time" sh -c "echo '$line' | cut -f1 | grep -q '^${today}T..:..:..Z$'"
check_eq "the catalogue holds the manifest line" \
	"$(sql "SELECT source, event, file, rows, sha256 FROM fetch_manifest")" \
	"notable_ai_models|stored|notable_ai_models/$today.csv.gz|40|$(sha_of "$WWW/small1.csv")"

# ---- the same again: 304, nothing stored ----
check_status "the same fetch again exits 0" 0 fetch --config "$TMP/sources.tsv" \
	--source notable_ai_models
check_grep "it says not modified" "not modified (HTTP 304); nothing stored" "$TMP/out"
check_grep "the request was conditional" '"if_none_match": "\\"' "$TMP/server.log"
check_eq "no new file" "$(snapshot_files "$S")" 1
# the same content from another URL (no validators): same hash, nothing stored
check_status "the same content without validators exits 0" 0 \
	fetch --source "notable_ai_models=$URL/plain/small1.csv"
check_grep "it says unchanged" "unchanged, same content as .*$today.csv.gz" "$TMP/out"
check_eq "still no new file" "$(snapshot_files "$S")" 1
check_eq "the manifest notes both" "$(manifest_events)" \
	"notable_ai_models stored,notable_ai_models not-modified,notable_ai_models seen"
check_eq "and so does the catalogue" "$(sql "SELECT count(*) FROM fetch_manifest")" 3

# ---- what fetch stored ingests with no other input ----
check_status "ingest of the stored snapshot exits 0" 0 mc --db "$TMP/ingest.db" ingest "$stored"
check_eq "the export is named from the store's folder" \
	"$(sqlite3 "$TMP/ingest.db" 'SELECT export, rows FROM snapshot_export')" "notable_ai_models|40"

# ---- a new content the same day, then a return to the first ----
check_status "a different content the same day exits 0" 0 \
	fetch --source "notable_ai_models=$URL/data/small2.csv"
second=$(sed -n 's/^notable_ai_models: stored \([^ ]*\) .*/\1/p' "$TMP/out")
sha2=$(sha_of "$WWW/small2.csv" | cut -c1-12)
check "it is stored as <date>T<time>Z-<sha12>.csv.gz" \
	sh -c "echo '$second' | grep -q '/notable_ai_models/${today}T[0-9]\{6\}Z-$sha2\.csv\.gz$'"
check_status "ingest names the export from such a file too" 0 \
	mc --db "$TMP/ingest2.db" ingest --as-of 2030-01-01 --allow-future "$second"
check_eq "export and rows" "$(sqlite3 "$TMP/ingest2.db" 'SELECT export, rows FROM snapshot_export')" \
	"notable_ai_models|60"
check_status "going back to the first content exits 0" 0 \
	fetch --source "notable_ai_models=$URL/plain/small1.csv"
third=$(sed -n 's/^notable_ai_models: stored \([^ ]*\) .*/\1/p' "$TMP/out")
check "the return is stored (it is the latest content)" test -f "$third"
check_eq "as a hard link to the first file: no bytes stored twice" \
	"$(stat -c %i "$third")" "$(stat -c %i "$stored")"
check "it sorts after the second" test "$(basename "$third")" \> "$(basename "$second")"
check_status "reingest of the store exits 0" 0 mc --db "$TMP/re.db" reingest --snapshots "$S"
check_grep "reingest uses one file per export and date" "from 1 snapshots (1 export files)" "$TMP/out"
check_eq "the latest content of the day is the one loaded" \
	"$(sqlite3 "$TMP/re.db" 'SELECT rows FROM snapshot_export')" 40

# ---- the bundled store: files without manifest lines ----
B=$TMP/bundled
mkdir -p "$B"
cp -R "$SNAP/large_scale_ai_models" "$B/"
chmod -R u+w "$B"
check_status "fetching the content of a bundled snapshot exits 0" 0 \
	mc fetch --snapshots "$B" --source "large_scale_ai_models=$URL/plain/large.csv"
check_grep "it is recognised: nothing stored" "unchanged, same content as .*2024-07-16.csv.gz" "$TMP/out"
check_eq "no new file in the bundled store" "$(snapshot_files "$B")" 1
check_status "a new content is stored beside the bundled one" 0 \
	mc fetch --snapshots "$B" --source "large_scale_ai_models=$URL/plain/small1.csv"
check_status "the bundled content again is stored as the latest" 0 \
	mc fetch --snapshots "$B" --source "large_scale_ai_models=$URL/plain/large.csv"
back=$(sed -n 's/^large_scale_ai_models: stored \([^ ]*\) .*/\1/p' "$TMP/out")
check_eq "linked to the bundled file" "$(stat -c %i "$back")" \
	"$(stat -c %i "$B/large_scale_ai_models/2024-07-16.csv.gz")"
check_status "reingest of the mixed store exits 0" 0 mc --db "$TMP/mixed.db" reingest --snapshots "$B"
check_grep "two snapshots, one file each" "from 2 snapshots (2 export files)" "$TMP/out"
rows=$(MODELCAT_DB=$TMP/mixed.db mc export --source large_scale_ai_models --as-of "$today" |
	python3 -c 'import csv,sys; print(len(list(csv.reader(sys.stdin)))-1)')
check_eq "today's latest content (the bundled one, 192 rows) is loaded" "$rows" 192
gzip -c "$WWW/small2.csv" >"$B/large_scale_ai_models/2024-07-16T120000Z-$(sha_of "$WWW/small2.csv" | cut -c1-12).csv.gz"
check_status "reingest with a later file for a bundled date exits 0" 0 \
	mc --db "$TMP/mixed2.db" reingest --snapshots "$B"
check_grep "still two snapshots, one file each" "from 2 snapshots (2 export files)" "$TMP/out"
check_eq "the later file of the date wins" \
	"$(sqlite3 "$TMP/mixed2.db" "SELECT rows FROM snapshot_export e JOIN snapshot s ON s.id = e.snapshot_id WHERE s.as_of = '2024-07-16'")" 60

# ---- failures: a clear error, the store untouched ----
before=$(digest "$S")
untouched() { check_eq "$1: the store is untouched" "$(digest "$S")" "$before"; }

check_status "HTTP 500 after retries exits 3" 3 fetch --source "bad=$URL/status/500"
check_grep "the error names source, URL and status" "bad: $URL/status/500: HTTP 500 .*after 4 attempts" "$TMP/err"
check_eq "one error line" "$(wc -l <"$TMP/err")" 1
check_eq "4 attempts (3 retries)" "$(requests /status/500)" 4
untouched "500"
check_status "--retries 0: one attempt" 3 fetch --retries 0 --source "bad=$URL/status/502"
check_eq "502 tried once" "$(requests /status/502)" 1

check_status "HTTP 404 exits 3" 3 fetch --source "bad=$URL/status/404"
check_grep "the error says 404" "HTTP 404" "$TMP/err"
check_eq "a 404 is not retried" "$(requests /status/404)" 1
untouched "404"

check_status "a truncated body exits 3" 3 fetch --source "bad=$URL/truncate/small1.csv"
check_grep "the error says truncated" "truncated body: received [0-9]* of the [0-9]* bytes" "$TMP/err"
untouched "truncated body"

check_status "a CSV ending inside a quoted field exits 3" 3 \
	fetch --source "bad=$URL/data/unterminated.csv"
cut_line=$(($(wc -l <"$WWW/small1.csv") + 1))
check_grep "the error names the URL and line" "unterminated.csv:$cut_line: the body ends inside a quoted field" "$TMP/err"
untouched "unterminated CSV"

check_status "an HTML page exits 3" 3 fetch --source "bad=$URL/html"
check_grep "the error says HTML" "an HTML page (a login or error page?), not CSV" "$TMP/err"
untouched "HTML page"

check_status "an empty body exits 3" 3 fetch --source "bad=$URL/empty"
check_grep "the error says empty" "empty body" "$TMP/err"
untouched "empty body"

check_status "a CSV the column map does not know exits 3" 3 fetch --source "bad=$URL/plain/unknown.csv"
check_grep "the error says no model column" "no model name column" "$TMP/err"

printf 'gz\t%s/plain/small1.csv\tcsv.gz\n' "$URL" >"$TMP/gz-sources.tsv"
check_status "a body not in the declared format exits 3" 3 fetch --config "$TMP/gz-sources.tsv"
check_grep "the error says what was expected" "expected a gzip file, got plain CSV" "$TMP/err"
untouched "unknown header, wrong format"

check_status "a redirect loop exits 3" 3 fetch --source "bad=$URL/loop"
check_grep "the error says redirects" "more than 5 redirects" "$TMP/err"
check "the loop is bounded" test "$(requests /loop)" -le 6
untouched "redirect loop"

check_status "a body over the size cap exits 3" 3 fetch --max-size 10k --source "bad=$URL/plain/small1.csv"
check_grep "the error names the cap" "larger than the size cap of 10240 bytes" "$TMP/err"
check_status "a streamed body over the size cap exits 3" 3 \
	fetch --max-size 10k --source "bad=$URL/stream/small1.csv"
check_grep "it is stopped during the download" "larger than the size cap of 10240 bytes (after decoding); stopped" "$TMP/err"
untouched "size cap"

check_status "a gzip bomb (Content-Encoding) exits 3" 3 fetch --max-size 1M --source "bad=$URL/bomb"
check_grep "it is stopped at the cap" "larger than the size cap of 1048576 bytes (after decoding); stopped" "$TMP/err"
i=0
while ! grep -q '"path": "/bomb"' "$TMP/server.log" && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
sent=$(grep '"path": "/bomb"' "$TMP/server.log" | sed 's/.*"sent": \([0-9]*\).*/\1/')
check "the server could not send the whole bomb (sent ${sent:-?} of 10 MB)" \
	test "${sent:-99999999}" -lt 5000000
check_status "a gzip file that inflates past the cap exits 3" 3 \
	fetch --max-size 1M --source "bad=$URL/bombfile"
check_grep "the error names the cap" "more than the size cap of 1048576 bytes once decompressed" "$TMP/err"
untouched "gzip bombs"

check_status "a server that does not answer times out (exit 3)" 3 \
	fetch --timeout 1 --retries 0 --source "bad=$URL/slow"
check_grep "the error says timed out" "timed out" "$TMP/err"
# without the timeout the fetch would wait out the server's 10 s of
# silence and fail on its empty reply: that it did not is the property
check "it gave up itself, not on the server's empty reply after its silence" \
	sh -c '! grep -qi "empty reply" "$1"' sh "$TMP/err"
check_status "a closed port: connection errors retried, then exit 3" 3 \
	fetch --source "bad=http://127.0.0.1:1/x.csv"
check_grep "the error says connect, after 4 attempts" "onnect.*after 4 attempts" "$TMP/err"
untouched "timeout, refused connection"

# ---- transient failures then success ----
check_status "503 twice then 200 exits 0" 0 fetch --source "flaky=$URL/flaky/503/2/small1.csv"
check_grep "it is stored" "^flaky: stored .*/flaky/$today.csv.gz" "$TMP/out"
check_eq "three requests" "$(requests /flaky/503/2/small1.csv)" 3
t0=$(now_ms)
check_status "429 with Retry-After: 1, then 200, exits 0" 0 \
	fetch --source "polite=$URL/retry-after/1/small1.csv"
t1=$(now_ms)
check "Retry-After was honoured ($((t1 - t0)) ms)" test $((t1 - t0)) -ge 1000
check_status "redirects are followed" 0 fetch --source "moved=$URL/redirect/3/small1.csv"
check "the redirected body is stored" test -f "$S/moved/$today.csv.gz"

# ---- file:// URLs and local paths ----
check_status "a file:// URL is fetched" 0 fetch --source "byurl=file://$WWW/small2.csv"
check "it is stored" sh -c "gzip -dc '$S/byurl/$today.csv.gz' | cmp -s - '$WWW/small2.csv'"
check_status "a local path is fetched as file://" 0 fetch --source "bypath=$WWW/small2.csv"
check_grep "the manifest has its file:// URL" "	file://$WWW/small2.csv	0	" "$S/MANIFEST.tsv"
check_status "a missing file exits 3" 3 fetch --source "gone=file://$WWW/missing.csv"
check_status "a failed first fetch into a new store exits 3" 3 \
	mc fetch --snapshots "$TMP/new-store" --source "x=$URL/status/404"
check "it leaves no store behind" test ! -e "$TMP/new-store"

# ---- several sources: one fails, the others are stored ----
printf 'good\t%s/data/small2.csv\nbroken\t%s/status/404\n' "$URL" "$URL" >"$TMP/mixed.tsv"
check_status "a run where one source of two fails exits 4" 4 fetch --config "$TMP/mixed.tsv"
check_grep "the good one is stored" "^good: stored" "$TMP/out"
check_grep "the broken one is reported" "broken: .*HTTP 404" "$TMP/err"
check "nothing stored for the broken one" test ! -e "$S/broken"

# ---- the catalogue follows the store ----
rm -f "$MODELCAT_DB"
check_status "after losing the catalogue, a fetch exits 0" 0 fetch --source "good=$URL/data/small2.csv"
check_eq "the catalogue is given every manifest line again" \
	"$(sql 'SELECT count(*) FROM fetch_manifest')" "$(($(wc -l <"$S/MANIFEST.tsv") - 1))"

# ---- killed mid-download: no file under a final name ----
before=$(digest "$S")
# (the program itself in the background, not a shell function: $! is its pid)
"$BIN/modelcat" fetch --snapshots "$S" --source "stalled=$URL/stall/a.csv" >/dev/null 2>&1 &
victim=$!
i=0
while ! grep -q '"note": "stalled"' "$TMP/server.log" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
check_grep "the download is under way (half of the body sent)" '"note": "stalled"' "$TMP/server.log"
check_status "a second fetch meanwhile is refused (the store is locked)" 3 \
	fetch --source "other=$URL/data/small1.csv"
check_grep "it says why" "another modelcat fetch is writing" "$TMP/err"
kill -9 "$victim"
wait "$victim" 2>/dev/null
check "a fetch killed mid-download leaves no file under a final name" test ! -e "$S/stalled"
untouched "killed mid-download"

# ---- killed at any point while storing: never a partial file ----
# how long one run takes here (the second of two: the catalogue exists)
K=$TMP/killstore
for scratch in 1 2; do
	rm -rf "$TMP/scratch"
	t0=$(now_ms)
	mc --db "$TMP/kill.db" fetch --snapshots "$TMP/scratch" \
		--source "all_ai_models=file://$WWW/all.csv" >/dev/null 2>&1
	t1=$(now_ms)
done
span=$((t1 - t0))
bad=0
unlisted=0
killed=0
temps=0
for step in 1 2 3 4 5 6 7 8 9 10 11 12; do
	$WRAP "$BIN/modelcat" --db "$TMP/kill.db" fetch --snapshots "$K" \
		--source "all_ai_models=file://$WWW/all.csv" >/dev/null 2>&1 &
	victim=$!
	sleep "$(awk "BEGIN { printf \"%.3f\", $span * $step / 14000 }")"
	kill -9 "$victim" 2>/dev/null
	wait "$victim" 2>/dev/null
	[ $? -eq 137 ] && killed=$((killed + 1))
	[ -n "$(find "$K" -name '.tmp-*' 2>/dev/null)" ] && temps=$((temps + 1))
	for f in $(find "$K" -name '*.csv.gz' 2>/dev/null); do
		if ! gzip -dc "$f" 2>/dev/null | cmp -s - "$WWW/all.csv"; then
			bad=$((bad + 1))
			echo "# partial or wrong file under a final name: $f"
		fi
	done
	# a whole manifest line of a stored file names a file that is there
	# (a last line cut by the kill is dropped by the next fetch)
	if [ -f "$K/MANIFEST.tsv" ]; then
		for f in $(awk -F '\t' 'NR > 1 && NF == 14 && $3 == "stored" { print $4 }' "$K/MANIFEST.tsv"); do
			[ -f "$K/$f" ] || { unlisted=$((unlisted + 1)); echo "# manifest names a missing file: $f"; }
		done
	fi
	rm -rf "$K/all_ai_models/"*.csv.gz "$K/MANIFEST.tsv" 2>/dev/null
done
check_eq "no kill left a partial file under a final name ($killed kills over a $span ms run, $temps while writing)" "$bad" 0
check_eq "no kill left a manifest line naming a file that is not there" "$unlisted" 0
check_status "a fetch after the kills stores the export" 0 \
	mc --db "$TMP/kill.db" fetch --snapshots "$K" --source "all_ai_models=file://$WWW/all.csv"
check_eq "once" "$(snapshot_files "$K")" 1
check_eq "and no temporary file is left" "$(find "$K" -name '.tmp-*' | wc -l)" 0

# ---- the progress bar, on a terminal only ----
if command -v script >/dev/null 2>&1; then
	script -qec "'$BIN/modelcat' fetch --snapshots '$TMP/tty-store' --source 'tty=$URL/plain/a.csv'" \
		/dev/null </dev/null >"$TMP/tty.out" 2>&1
	check_grep "on a terminal, a progress bar is drawn" "tty  *\[#*\.*\] *[0-9]*%" "$TMP/tty.out"
	check_grep "and the summary line follows" "tty: stored" "$TMP/tty.out"
else
	skip_checks "script(1) is not installed: no terminal to test the progress bar on" \
		"on a terminal, a progress bar is drawn" "and the summary line follows"
fi
done_testing
