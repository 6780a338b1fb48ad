#!/bin/sh
# The index's charts and their data (issue 48, point 1). On the site of the
# bundled history, each chart's CSV holds one row per model on record with
# a positive value and a publication date, read here from the catalogue
# itself (its model_now view, with Python's sqlite3): the same models, the
# value as the catalogue stores it (text for text), the date as stored, the
# domain, the frontier flag. The script's points file has the same models
# in the same order; the picture over every year has a mark per row; the
# default picture starts at or after 2005 and leaves out only models older
# than its start; its text is 16 units high in a 480-wide viewBox (12 px or
# more on a page 400 px wide); tick labels mark every power of ten.
. "$(dirname "$0")/lib.sh"

bundled_catalogue
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$TMP/site"
SITE=$TMP/site/.modelcat/current

cat >"$TMP/check.py" <<'PY'
import csv, json, re, sqlite3, sys
db, site = sys.argv[1:3]
con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
date = re.compile(r"^\d{4}(-\d\d(-\d\d)?)?$")
out = []
def say(ok, what):
    out.append(("ok" if ok else "not ok") + " " + what)
for k, field in (("compute", "Training compute (FLOP)"), ("parameters", "Parameters")):
    want = {}
    for name, fields in con.execute("SELECT model, fields FROM model_now"):
        f = json.loads(fields)
        v, d = f.get(field), f.get("Publication date")
        if v is None or d is None or not date.match(d):
            continue
        try:
            x = float(v)
        except ValueError:
            continue
        if x > 0 and x != float("inf"):
            want[name] = (v, d, f.get("Domain", ""), "True" if f.get("Frontier model") == "True" else "")
    rows = list(csv.reader(open("%s/pages/en/index.%s.csv" % (site, k), encoding="utf-8", newline="")))
    head, rows = rows[0], rows[1:]
    say(head == ["Model", "Publication date", field, "Domain", "Frontier model", "Page"],
        "%s: the CSV's header names the source's columns: %s" % (k, head))
    got = {r[0]: (r[2], r[1], r[3], r[4]) for r in rows}
    say(len(rows) == len(got) == len(want) and set(got) == set(want),
        "%s: one row per model with a value and a date: %d rows, %d in the catalogue" % (k, len(rows), len(want)))
    off = [n for n in want if n in got and got[n] != tuple(str(x) for x in want[n])]
    say(not off, "%s: every row's value, date, domain and frontier flag as the catalogue holds them (%d off: %s)"
        % (k, len(off), [(n, got[n], want[n]) for n in off[:3]]))
    nl = open("%s/pages/nl/index.%s.csv" % (site, k), encoding="utf-8").read()
    say(nl == open("%s/pages/en/index.%s.csv" % (site, k), encoding="utf-8").read(),
        "%s: the Dutch index offers the same CSV" % k)
    js = open("%s/pages/en/index.%s.js" % (site, k), encoding="utf-8").read()
    pts = json.loads(js[js.index("["):js.rindex("]") + 1])
    say([p[2] for p in pts] == [r[0] for r in rows] and [p[3] for p in pts] == [r[5] for r in rows],
        "%s: the script's points are the CSV's models in its order, with their pages" % k)
    svg_all = open("%s/pages/en/index.%s.all.svg" % (site, k), encoding="utf-8").read()
    marks = svg_all[svg_all.index('<g class="marks">'):]
    marks = marks[:marks.index("</g>")]
    n = len(re.findall(r"(?:d=\"|\n)M", marks.split('<path class="stand-out"')[0]))
    say(n == len(rows), "%s: the picture over every year has a mark per row (%d)" % (k, n))
    index = open("%s/pages/en/index.html" % site, encoding="utf-8").read()
    g = re.search(r'data-points="index\.%s\.js" data-geometry="([^"]+)"' % k, index)
    x0 = float(g.group(1).split()[0]) if g else 0
    say(k != "compute" or x0 >= 2005, "%s: the default picture starts in %g (2005 or later for compute)" % (k, x0))
    older = sum(1 for p in pts if p[0] < x0)
    say(older <= len(pts) / 20, "%s: it leaves out %d of %d models, the oldest 5 %% at most" % (k, older, len(pts)))
    svg = open("%s/pages/en/index.%s.svg" % (site, k), encoding="utf-8").read()
    say('viewBox="0 0 480 400"' in svg and re.findall(r'font-size="(\d+)"', svg) == ["16"],
        "%s: its text is 16 units high in a 480-wide picture" % k)
    lo, hi = (float(v) for v in g.group(1).split()[2:4])
    ticks = re.findall(r'<text class="tick"[^>]*>10([^<]*)</text>', svg)
    say(len(ticks) == hi - lo + 1, "%s: a tick label on every power of ten from 10^%g to 10^%g (%d)" % (k, lo, hi, len(ticks)))
print("\n".join(out))
PY
python3 "$TMP/check.py" "$MODELCAT_DB" "$SITE" >"$TMP/check.out" 2>&1 || not_ok "the check ran: $(tail -1 "$TMP/check.out")"
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok }" ;;
	"not ok "*) not_ok "${line#not ok }" ;;
	*) echo "# $line" ;;
	esac
done <"$TMP/check.out"
done_testing
