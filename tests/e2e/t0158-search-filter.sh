#!/bin/sh
# The search rules' table (tests/data/search-queries.tsv) run against the
# site's index filter: the bundled history published, then headless
# Chromium opens the English index with #q=QUERY (the first query; the
# others by changing the fragment, which the page applies as a link to
# it would) and reads the rows the filter shows. Each query's first row
# is the table's model (the nonsense query shows none); the filter shows
# as many rows as `modelcat search --limit 0` lists and its first ten in
# the same order (one set of rules, docs/search.md). Switching language
# keeps the filter: the link to the Dutch index carries the fragment, also
# after typing a query into the field, and the Dutch index opened by it
# shows the same first row with the query in its field. Skipped without
# Chromium.
. "$(dirname "$0")/lib.sh"

chromium=$(command -v chromium || command -v chromium-browser || true)
TABLE=$DATA/search-queries.tsv
bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"

n=$(grep -cv '^#' "$TABLE")
if [ -z "$chromium" ]; then
	skip_checks "chromium is not installed (apt-get install chromium)" \
		"the filter's first row is the table's for each of the $n queries" \
		"the filter shows what modelcat search lists, in its order" \
		"the language link carries the fragment" "and follows what is typed" \
		"the Dutch index keeps the filter"
	done_testing
	exit 0
fi

cat >"$TMP/probe.py" <<'PY'
# probe.py CHROMIUM SITE TABLE WORK: runs the index's filter in headless
# Chromium for every query of TABLE (the first by loading the English
# index with #q=QUERY, the others by changing the fragment); prints, per
# query, tab-separated: the query, the first ten rows shown (a JSON list
# of names), the number of rows shown, the other language's link; then
# "typed", the same after typing "deepmind gemini" into the field, and
# "nl", the same and the field's text on the Dutch index opened by that
# link
import html, json, pathlib, re, shutil, subprocess, sys
chromium, site, table, work = sys.argv[1:5]
queries = [l.rstrip("\n").split("\t")[0] for l in open(table, encoding="utf-8")
           if l.strip() and not l.startswith("#")]
index = pathlib.Path(site, "pages", "en", "index.html").resolve().as_uri()
PROBE = '''<!DOCTYPE html><html><head><meta charset="utf-8"><script>
var Q = %s, i = 0, lines = [], phase = "query", f;
function doc() { return f.contentWindow.document; }
function ready() { var s = doc().getElementById("shown"); return s && s.textContent; }
function first() {
  var d = doc(), r = d.querySelectorAll("#models .c:not([hidden]) > [role=row]:not([hidden]) [role=rowheader]"),
    a = d.querySelector("a[hreflang]");
  return [JSON.stringify(Array.prototype.slice.call(r, 0, 10).map(function (x) { return x.textContent; })),
          r.length, a ? a.getAttribute("href") : ""].join("\\t");
}
function next() {
  if (phase === "query") {
    lines.push(Q[i] + "\\t" + first());
    if (++i < Q.length) { f.contentWindow.location.hash = "q=" + encodeURIComponent(Q[i]); setTimeout(next, 200); return; }
    phase = "typed";
    var q = doc().getElementById("filters").elements.q;
    q.value = "deepmind gemini";
    q.dispatchEvent(new Event("input", { bubbles: true }));
    setTimeout(next, 200);
  } else if (phase === "typed") {
    lines.push("typed\\t" + first());
    phase = "nl";
    f.src = new URL(doc().querySelector("a[hreflang]").getAttribute("href"), f.contentWindow.location.href).href;
    setTimeout(wait, 200);
  } else {
    lines.push("nl\\t" + first() + "\\t" + doc().getElementById("filters").elements.q.value);
    document.getElementById("out").textContent = lines.join("\\n");
  }
}
function wait() { if (ready()) next(); else setTimeout(wait, 100); }
window.onload = function () { f = document.getElementById("f"); wait(); };
</script></head><body><iframe id="f" style="width:1280px;height:800px" src="%s"></iframe><pre id="out"></pre></body></html>
'''
probe = pathlib.Path(work, "probe.html")
probe.write_text(PROBE % (json.dumps(queries), html.escape(index + "#q=" + re.sub(" ", "%20", queries[0]), quote=True)), encoding="utf-8")
profile = pathlib.Path(work, "profile")
out = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update", "--disable-sync",
                      "--disable-extensions", "--allow-file-access-from-files",
                      "--user-data-dir=" + str(profile), "--virtual-time-budget=120000",
                      "--dump-dom", probe.as_uri()], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                     check=False).stdout.decode("utf-8", "replace")
shutil.rmtree(profile, ignore_errors=True)
m = re.search(r'<pre id="out">(.*?)</pre>', out, re.S)
print(html.unescape(m.group(1)) if m else "")
PY
mkdir -p "$TMP/work"
python3 "$TMP/probe.py" "$chromium" "$TMP/site" "$TABLE" "$TMP/work" >"$TMP/filter.tsv"

# what modelcat search lists for each query: the count and the first ten
grep -v '^#' "$TABLE" | while IFS='	' read -r query want why; do
	mc search --kind model --format json --limit 0 "$query" >"$TMP/s.json" 2>/dev/null
	python3 -c 'import json, sys; d = json.load(open(sys.argv[2]))
print("\t".join([sys.argv[1], json.dumps([x["name"] for x in d[:10]], ensure_ascii=False, separators=(",", ":")), str(len(d))]))' \
		"$query" "$TMP/s.json"
done >"$TMP/search.tsv"

python3 - "$TABLE" "$TMP/filter.tsv" "$TMP/search.tsv" >"$TMP/result" <<'PY'
import json, sys, urllib.parse
table, filt, search = sys.argv[1:4]
want = [l.rstrip("\n").split("\t") for l in open(table, encoding="utf-8") if l.strip() and not l.startswith("#")]
got = {}
for l in open(filt, encoding="utf-8"):
    p = l.rstrip("\n").split("\t")
    if len(p) >= 4:
        got[p[0]] = (json.loads(p[1]), int(p[2]), p[3]) + tuple(p[4:])
cli = {}
for l in open(search, encoding="utf-8"):
    p = l.rstrip("\n").split("\t")
    cli[p[0]] = (json.loads(p[1]), int(p[2]))
bad_first, bad_same, bad_link = [], [], []
for q, first, why in want:
    g = got.get(q)
    if not g:
        bad_first.append((q, "not read")); continue
    if (g[0][0] if g[0] else "-") != first or (first == "-") != (g[1] == 0):
        bad_first.append((q, g[0][:1], first))
    if (g[0], g[1]) != cli.get(q):
        bad_same.append((q, g[0][:3], g[1], cli.get(q, ([], 0))[0][:3], cli.get(q, ([], 0))[1]))
    # the Dutch index's link: the same file, the query in the fragment
    base, _, frag = g[2].partition("#")
    if not base.endswith("/nl/index.html") or urllib.parse.parse_qs(frag).get("q") != [q]:
        bad_link.append((q, g[2]))
print("first", "ok %d" % len(want) if not bad_first and len(want) >= 20 else bad_first)
print("same", "ok" if not bad_same else bad_same[:3])
print("link", "ok" if not bad_link else bad_link[:3])
t, nl = got.get("typed"), got.get("nl")
gem = [w[1] for w in want if w[0] == "deepmind gemini"][0]
print("typed", "ok" if t and t[0][:1] == [gem] and t[2].split("#")[0].endswith("/nl/index.html")
      and urllib.parse.parse_qs(t[2].partition("#")[2]).get("q") == ["deepmind gemini"] else t)
print("nl", "ok" if nl and nl[0][:1] == [gem] and nl[1] == t[1] and nl[3] == "deepmind gemini"
      and nl[2].split("#")[0].endswith("/en/index.html") else nl)
PY
check_eq "the filter's first row is the table's for each of the $n queries, none for nonsense" \
	"$(sed -n 's/^first //p' "$TMP/result")" "ok $n"
check_eq "the filter shows what modelcat search lists: as many rows, the first ten in its order" \
	"$(sed -n 's/^same //p' "$TMP/result")" ok
check_eq "the link to the Dutch index carries the fragment (#q=QUERY)" \
	"$(sed -n 's/^link //p' "$TMP/result")" ok
check_eq "and follows what is typed into the field" "$(sed -n 's/^typed //p' "$TMP/result")" ok
check_eq "the Dutch index opened by it keeps the filter: the same rows, the query in its field, its own link carrying it back" \
	"$(sed -n 's/^nl //p' "$TMP/result")" ok

done_testing
