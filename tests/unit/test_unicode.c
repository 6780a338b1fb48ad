/*
 * Names compared in canonical form: NFC, invisible characters removed,
 * no-break spaces folded; and the search key (case, accents, compatibility
 * forms folded). The expected texts are written out byte by byte from the
 * Unicode tables (U+00E9 is C3 A9, U+0065 U+0301 is 65 CC 81).
 */
#include "base/unicode.h"
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
