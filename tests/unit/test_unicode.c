/*
 * Names compared in canonical form: NFC, invisible characters removed,
 * no-break spaces folded; and the search key (case, accents, compatibility
 * forms folded). The expected texts are written out byte by byte from the
 * Unicode tables (U+00E9 is C3 A9, U+0065 U+0301 is 65 CC 81).
 */
#include "base/unicode.h"
#include "base/text.h"
#include "unit.h"

#include <string.h>

static void canonical(const char *in, const char *want, int want_rc, const char *what)
{
	sbuf out;
	int rc;

	sbuf_init(&out);
	sbuf_adds(&out, "[");
	rc = unicode_canonical(in, strlen(in), &out);
	sbuf_addc(&out, ']');
	CHECK(rc == want_rc, "%s: returns %d (got %d)", what, want_rc, rc);
	{
		char expect[256];

		snprintf(expect, sizeof(expect), "[%s]", want);
		CHECK_STR(out.data, expect, "%s: appended after what out held", what);
	}
	sbuf_release(&out);
}

/* What canonical form changed, in words. */
static void changes(const char *in, const char *want, const char *what)
{
	sbuf out, words;
	unsigned bits = 99;

	sbuf_init(&out);
	sbuf_init(&words);
	unicode_canonical_changes(in, strlen(in), &out, &bits);
	unicode_describe_changes(bits, &words);
	sbuf_addc(&words, 0);
	CHECK_STR(words.data, want, "%s", what);
	sbuf_release(&out);
	sbuf_release(&words);
}

static void key(const char *in, const char *want, const char *what)
{
	sbuf out;

	sbuf_init(&out);
	CHECK(unicode_search_key(in, strlen(in), &out) == 0, "%s: valid UTF-8", what);
	sbuf_addc(&out, 0);
	CHECK_STR(out.data, want, "%s", what);
	sbuf_release(&out);
}

int main(void)
{
	CHECK(mc_utf8_chars("N\xc3\x9cWA \xcf\x80" "0", 9) == 7 && mc_utf8_chars("ab", 0) == 0 &&
	      mc_utf8_chars("\xe2\x81\xb0x", 4) == 2,
	      "mc_utf8_chars counts code points, not bytes (7 in the 9 bytes of a name with \u00dc and pi)");
	canonical("Caf\xc3\xa9 LM", "Caf\xc3\xa9 LM", 0, "NFC stays");
	canonical("Cafe\xcc\x81 LM", "Caf\xc3\xa9 LM", 1, "NFD composes to NFC");
	canonical("\xef\xbb\xbfGPT-4", "GPT-4", 1, "a byte-order mark is removed");
	canonical("GPT\xe2\x80\x8b-4", "GPT-4", 1, "a zero-width space is removed");
	canonical("GPT\xe2\x80\x8d-4\xe2\x81\xa0", "GPT-4", 1, "joiners are removed");
	canonical("ALLaM\xc2\xa0" "adapted 70B", "ALLaM adapted 70B", 1, "a no-break space is a space");
	canonical("x\xe2\x80\xafy", "x y", 1, "a narrow no-break space is a space");
	canonical("\xef\xbc\xa7PT", "\xef\xbc\xa7PT", 0, "a full-width letter stays (NFC, not NFKC)");
	canonical("", "", 0, "empty");
	canonical("bad\xff", "bad\xff", -1, "invalid UTF-8 is appended as it is");
	canonical("a\xc3", "a\xc3", -1, "a cut sequence is invalid");

	changes("Caf\xc3\xa9 LM", "", "canonical: nothing changed");
	changes("Cafe\xcc\x81 LM", "NFD to NFC", "NFD composed");
	changes("\xef\xbb\xbfGPT", "byte-order mark removed", "a BOM");
	changes("G\xe2\x80\x8bPT\xe2\x81\xa0", "invisible character removed", "zero-width and word joiner");
	changes("ALLaM\xc2\xa0" "adapted", "no-break space", "a no-break space");
	changes("\xef\xbb\xbf" "Cafe\xcc\x81\xe2\x80\xaf" "LM\xe2\x80\x8c",
		"NFD to NFC, byte-order mark removed, invisible character removed, no-break space",
		"all four, in a fixed order");
	changes("A\xe2\x84\xab", "NFD to NFC", "a singleton (U+212B ANGSTROM SIGN) is not NFC");
	changes("bad\xff", "", "invalid UTF-8: no change said");
	canonical("A\xe2\x84\xab", "A\xc3\x85", 1, "U+212B becomes U+00C5");
	canonical("\xe1\xba\xa1\xcc\x82", "\xe1\xba\xad", 1, "marks in canonical order compose (a, dot below, circumflex)");

	key("GPT-4", "gpt-4", "case folded");
	key("Caf\xc3\xa9", "cafe", "accent removed (NFC)");
	key("CAFE\xcc\x81", "cafe", "accent removed (NFD)");
	key("\xef\xbc\xa7PT", "gpt", "full-width folded (NFKC)");
	key("Stra\xc3\x9f" "e", "strasse", "sharp s case-folds to ss");
	key("\xef\xbb\xbf" "A\xc2\xa0" "B", "a b", "BOM removed, no-break space folded");
	{
		sbuf out;

		sbuf_init(&out);
		CHECK(unicode_search_key("AB\xff", 3, &out) == -1, "invalid UTF-8: -1");
		CHECK(out.len == 3 && !memcmp(out.data, "ab\xff", 3), "and ASCII lowered");
		sbuf_release(&out);
	}
	return unit_done();
}
