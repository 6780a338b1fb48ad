#!/bin/sh
# Hardware pages never change without an audit entry that says why (issue
# 46, point 2). The notable history's nights of 2025-04-18 and 2025-05-06,
# with the hardware export loaded on the first (the bundled history holds
# cards only from 2025-11-01, after the notable-only nights), each
# published: the cards' lists of what fits in their memory change with the
# models, and tests/e2e/explained.py finds every changed hardware page (and
# model page) explained by the new audit. The audit names no model the
# pages did not gain or lose (read from the published pages themselves).
# Then a night where one card's memory changes in the hardware export: the
# card is named as changed and its lists' losses with it. Last, the checker
# can fail: a card page's list changed by hand, or its audit entry taken
# away, is flagged; so is a complete list's page or the CSV changed by
# hand, and a card's page whose list is not the first ten of its complete
# list.
. "$(dirname "$0")/lib.sh"

NOTABLE1=$SNAP/notable_ai_models/2025-04-18.csv.gz
NOTABLE2=$SNAP/notable_ai_models/2025-05-06.csv.gz
HW=$(ls "$SNAP"/ml_hardware/*.csv.gz | sort | head -1)
P=$TMP/public
keep() { rm -rf "$TMP/site.$1" && cp -RL "$P/.modelcat/current" "$TMP/site.$1"; }
explained() {
	python3 "$TOP/tests/e2e/explained.py" "$TMP/site.$1" "$TMP/site.$2" "$3" >"$TMP/expl.$2"
	sed -n '/^unexplained/{s/^/# /;p}' "$TMP/expl.$2" | head -5
	sed -n '/^hardware pages:/s/^/# /p;$s/^/# /p' "$TMP/expl.$2"
}

check_status "2025-04-18: ingest of notable_ai_models and ml_hardware exits 0" 0 \
	mc ingest --as-of 2025-04-18 notable_ai_models="$NOTABLE1" ml_hardware="$HW"
check_status "translate exits 0" 0 mc translate
check_status "publish exits 0" 0 mc publish --out "$P"
keep 1
check_status "2025-05-06: ingest of notable_ai_models exits 0" 0 \
	mc ingest --as-of 2025-05-06 notable_ai_models="$NOTABLE2"
check_status "publish exits 0" 0 mc publish --out "$P"
keep 2
explained 1 2 2025-05-06
check "hardware pages changed, every one explained by the audit" \
	grep -q "^hardware pages: changed [1-9][0-9]* unexplained 0\$" "$TMP/expl.2"
check "and every changed page of the site (model pages too)" \
	grep -q "^changed [1-9][0-9]* unexplained 0 wrong_updated 0 site_changes 0 " "$TMP/expl.2"

# The audit's hardware entries against the published English text pages:
# each card named lost or gained exactly those models at that width, and
# every card whose lists differ is named. Prints "cards N wrong N".
cat >"$TMP/pages.py" <<'PY'
import json, os, re, sys
before, after, label = sys.argv[1:4]
def lists(path):
    fits, trained, cur, items = {}, set(), None, False
    for line in open(path, encoding="utf-8").read().split("\n"):
        m = re.match(r"At (16|8|4)-bit: ", line)
        if m:
            cur = fits.setdefault(int(m.group(1)), set())
        elif line == "Models trained on it":
            cur = trained
        elif line.startswith("- ") and cur is not None:
            cur.add(re.sub(r" \([^()]*\)$", "", line[2:]) if cur is not trained else line[2:])
    return fits, trained
def pages(root):
    # a card's page STEM.txt shows ten of each list: its complete lists
    # are STEM-models-16/-8/-4.txt and STEM-trained.txt
    d = os.path.join(root, "pages", "en", "hardware")
    return {open(os.path.join(d, f), encoding="utf-8").readline().rstrip("\n"): os.path.join(d, f[:-4])
            for f in os.listdir(d) if os.path.exists(os.path.join(d, f[:-4] + "-trained.txt"))}
def complete(stem):
    fits, trained = {}, set()
    for suffix in ("-models-16", "-models-8", "-models-4", "-trained"):
        f, t = lists(stem + suffix + ".txt")
        fits.update(f)
        trained |= t
    return fits, trained
old, new = pages(before), pages(after)
audit = {c["name"]: c for c in json.load(open(os.path.join(after, "audit", label + ".json")))["hardware"]}
wrong = 0
for card in sorted(set(old) & set(new)):
    (fo, to), (fn, tn) = complete(old[card]), complete(new[card])
    c = audit.get(card, {"fits": [], "trained": {"added": [], "removed": []}})
    want = {f["bits"]: (set(f["added"]), set(f["removed"])) for f in c["fits"]}
    for bits in (16, 8, 4):
        got = (fn.get(bits, set()) - fo.get(bits, set()), fo.get(bits, set()) - fn.get(bits, set()))
        if got != want.get(bits, (set(), set())):
            wrong += 1
            print("# %s at %d bits: pages %r, audit %r" % (card, bits, got, want.get(bits)))
    if (tn - to, to - tn) != (set(c["trained"]["added"]), set(c["trained"]["removed"])):
        wrong += 1
        print("# %s trained on it: pages %r, audit %r" % (card, (tn - to, to - tn), c["trained"]))
print("cards %d wrong %d" % (len(audit), wrong))
PY
python3 "$TMP/pages.py" "$TMP/site.1" "$TMP/site.2" 2025-05-06 >"$TMP/pages.2"
sed -n '/^#/p' "$TMP/pages.2" | head -5
check "the audit names cards, each with exactly what its English complete lists gained and lost" \
	grep -q "^cards [1-9][0-9]* wrong 0\$" "$TMP/pages.2"
check_grep "the text audit has the section" "^Hardware pages ([1-9][0-9]*): " "$P/audit/2025-05-06.txt"
h100="NVIDIA H100 SXM5 80GB"
h100_file=$(grep -lx "$h100" "$P"/pages/en/hardware/*.txt | head -1)
check_grep "the HTML audit links a card to its page" \
	"<li><a href=\"../pages/en/hardware/$(basename "$h100_file" .txt).html\">$h100</a>: " \
	"$P/audit/2025-05-06.html"

# a card's own value: the H100 at a tenth of its memory (from the CSV)
python3 - "$HW" "$h100" "$TMP/hw.csv" <<'PY'
import csv, gzip, sys
src, card, out = sys.argv[1:4]
rows = list(csv.reader(gzip.open(src, "rt", encoding="utf-8", newline="")))
col = rows[0].index("Memory size per board (Byte)")
key = rows[0].index("Hardware name")
hit = [r for r in rows[1:] if r[key].strip() == card]
assert len(hit) == 1 and float(hit[0][col]) > 0
hit[0][col] = "%d" % (float(hit[0][col]) // 10)
csv.writer(open(out, "w", encoding="utf-8", newline="")).writerows(rows)
PY
check_status "2025-05-07: ingest of the changed hardware export exits 0" 0 \
	mc ingest --as-of 2025-05-07 ml_hardware="$TMP/hw.csv"
check_status "publish exits 0" 0 mc publish --out "$P"
keep 3
explained 2 3 2025-05-07
check "the card's pages changed and are explained" \
	grep -q "^hardware pages: changed [1-9][0-9]* unexplained 0\$" "$TMP/expl.3"
check "the audit names the card as changed, and its hardware entry what no longer fits" \
	python3 -c "
import json, sys
a = json.load(open(sys.argv[1]))
assert [c['name'] for c in a['changed']] == [sys.argv[2]], a['changed']
hw = {c['name']: c for c in a['hardware']}
assert list(hw) == [sys.argv[2]] and all(f['removed'] and not f['added'] for f in hw[sys.argv[2]]['fits'])
" "$P/audit/2025-05-07.json" "$h100"
python3 "$TMP/pages.py" "$TMP/site.2" "$TMP/site.3" 2025-05-07 >"$TMP/pages.3"
check_eq "and exactly the models its page lost" "$(tail -1 "$TMP/pages.3")" "cards 1 wrong 0"

# the checker fails: a model added by hand to a card's list ...
cp -R "$TMP/site.2" "$TMP/site.x"
rel=pages/en/hardware/$(basename "$h100_file")
sed -i '/^At 16-bit: /a - Hand-Made Model (1B, 2 GB)' "$TMP/site.x/$rel"
sha=$(sha256sum "$TMP/site.x/$rel" | cut -d' ' -f1)
sed -i "s|^[0-9a-f]*  $rel\$|$sha  $rel|" "$TMP/site.x/MANIFEST"
python3 "$TOP/tests/e2e/explained.py" "$TMP/site.1" "$TMP/site.x" 2025-05-06 >"$TMP/expl.x"
check_grep "a list changed by hand is flagged" \
	"^unexplained: $rel ($h100: Hand-Made Model fits at 16 bits, not named" "$TMP/expl.x"
sed -n "/^hardware pages:/s/^/# /p" "$TMP/expl.x"
check "and counted (the text page and the HTML judged by it)" \
	grep -q "^hardware pages: changed [1-9][0-9]* unexplained 2\$" "$TMP/expl.x"
# ... and the audit's entry for the card taken away
rm -rf "$TMP/site.y" && cp -R "$TMP/site.2" "$TMP/site.y"
python3 - "$TMP/site.y/audit/2025-05-06.json" "$h100" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
a["hardware"] = [c for c in a["hardware"] if c["name"] != sys.argv[2]]
json.dump(a, open(sys.argv[1], "w"))
PY
python3 "$TOP/tests/e2e/explained.py" "$TMP/site.1" "$TMP/site.y" 2025-05-06 >"$TMP/expl.y"
# every file of the card that changed is flagged, and no other: its page,
# its complete lists (text and HTML, both languages) and its CSV
stem=$(basename "$h100_file" .txt)
awk -v s="$stem" '{ n = $2; sub(/.*\//, "", n) }
	n ~ "^" s "(-models-(16|8|4)|-trained|-models)?[.](txt|html|csv)$" { print $1 "  " $2 }' \
	"$TMP/site.1/MANIFEST" | sort >"$TMP/card.1"
awk -v s="$stem" '{ n = $2; sub(/.*\//, "", n) }
	n ~ "^" s "(-models-(16|8|4)|-trained|-models)?[.](txt|html|csv)$" { print $1 "  " $2 }' \
	"$TMP/site.y/MANIFEST" | sort >"$TMP/card.y"
comm -13 "$TMP/card.1" "$TMP/card.y" | sed 's/^[^ ]*  //' | sort >"$TMP/card.changed"
sed -n 's/^unexplained: \([^ ]*\) .*/\1/p' "$TMP/expl.y" | sort >"$TMP/card.flagged"
check "a card the audit does not name is flagged: each of its files that changed (page, complete lists, CSV; both languages)" \
	test -s "$TMP/card.changed" -a "$(cat "$TMP/card.changed")" = "$(cat "$TMP/card.flagged")"
check "and counted" grep -q "^hardware pages: changed [1-9][0-9]* unexplained $(wc -l <"$TMP/card.changed")\$" "$TMP/expl.y"
check "its complete lists among them" grep -q "^unexplained: .*-models-16.txt " "$TMP/expl.y"
# ... a complete list's page or the CSV changed by hand
for f in "$rel" "${rel%.txt}-models-16.txt" "${rel%.txt}-models.csv"; do
	rm -rf "$TMP/site.z" && cp -R "$TMP/site.2" "$TMP/site.z"
	case $f in
	*.csv) sed -i '2i 16,Hand-Made Model,1000000000,2000000000' "$TMP/site.z/$f" ;;
	*-models-16.txt) sed -i '/^At 16-bit: /a - Hand-Made Model (1B, 2 GB)' "$TMP/site.z/$f" ;;
	# the card's page shows an item of its complete list past the tenth
	*) sed -i '/^At 16-bit: /{n;d}' "$TMP/site.z/$f"
	   sed -i "/^All [0-9,]* models that fit at 16-bit/i - $(sed -n '/^At 16-bit: /{n;n;n;n;n;n;n;n;n;n;n;p;q}' "$TMP/site.z/${rel%.txt}-models-16.txt" | cut -c3-)" "$TMP/site.z/$f" ;;
	esac
	sha=$(sha256sum "$TMP/site.z/$f" | cut -d' ' -f1)
	sed -i "s|^[0-9a-f]*  $f\$|$sha  $f|" "$TMP/site.z/MANIFEST"
	python3 "$TOP/tests/e2e/explained.py" "$TMP/site.1" "$TMP/site.z" 2025-05-06 >"$TMP/expl.z"
	sed -n '/^unexplained/{s/^/# /;p}' "$TMP/expl.z" | cut -c1-200
	check "flagged when changed by hand: $(basename "$f")" \
		grep -q "^unexplained: $f ($h100: .*\(Hand-Made Model fits at 16 bits, not named\|the list at 16 bits is not the first ten of its complete list\)" "$TMP/expl.z"
done
done_testing
