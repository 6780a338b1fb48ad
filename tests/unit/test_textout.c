/*
 * textout: CSV fields, JSON strings and HTML text, escaped.
 */
#include "base/textout.h"
#include "unit.h"

/* One byte (or sequence) that needs escaping, or that looks as if it
 * might, at every place of a 48-byte run of letters (the 16-byte blocks'
 * edges included), against the output written out by hand. */
static void check_html_positions(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "&", "&amp;" }, { "<", "&lt;" }, { ">", "&gt;" }, { "\"", "&quot;" },
		{ "'", "&#39;" }, { "\x01", " " }, { "\x1f", " " }, { "\r", " " },
		{ "\n", "\n" }, { "\t", "\t" }, { "\x7f", "\x7f" }, { " ", " " },
		{ "\xff", "\xef\xbf\xbd" }, { "\xc3\xa9", "\xc3\xa9" },
		{ "\xe2\x82\xac", "\xe2\x82\xac" }, { "\xc3", "\xef\xbf\xbd" },
	};
	size_t c, at, bad = 0, total = 0;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t n = strlen(cases[c].in);

		for (at = 0; at + n <= 48; at++) {
			char in[64], want[64];
			sbuf out;
			size_t k;

			for (k = 0; k < 48; k++)
				in[k] = (char)('a' + k % 26);
			memcpy(in + at, cases[c].in, n);
			/* a lone lead byte at the end is cut short, elsewhere it
			 * is followed by a letter: U+FFFD either way */
			memcpy(want, in, at);
			want[at] = '\0';
			strcat(want, cases[c].want);
			strncat(want, in + at + n, 48 - at - n);
			sbuf_init(&out);
			textout_html(&out, in, 48);
			total++;
			if (!out.data || strcmp(out.data, want)) {
				if (!bad)
					printf("#   case %zu at %zu: got \"%s\"\n", c, at,
					       out.data ? out.data : "(null)");
				bad++;
			}
			sbuf_release(&out);
		}
	}
	CHECK(bad == 0, "html: %zu places of 16 escapes and look-alikes in 48 bytes (%zu wrong)",
	      total, bad);
}

static void check_json(const char *in, size_t len, const char *want)
{
	sbuf out;

	sbuf_init(&out);
	textout_json_string(&out, in, len);
	CHECK_STR(out.data, want, "json of %zu bytes", len);
	sbuf_release(&out);
}

static void check_html(const char *in, const char *want)
{
	sbuf out;

	sbuf_init(&out);
	textout_html(&out, in, strlen(in));
	CHECK_STR(out.data, want, "html of '%s'", in);
	sbuf_release(&out);
}

static void check_csv(const char *in, const char *want)
{
	sbuf out;

	sbuf_init(&out);
	textout_csv_field(&out, in, strlen(in));
	CHECK_STR(out.data, want, "csv field of '%s'", in);
	sbuf_release(&out);
}

static void check_base64(const char *in, size_t len, const char *want)
{
	sbuf out;

	sbuf_init(&out);
	textout_base64(&out, in, len);
	CHECK_STR(out.len ? out.data : "", want, "base64 of %zu bytes", len);
	sbuf_release(&out);
}

static void check_term(const char *in, size_t len, const char *want)
{
	sbuf out;

	sbuf_init(&out);
	textout_term(&out, in, len);
	CHECK_STR(out.len ? out.data : "", want, "terminal text of %zu bytes", len);
	sbuf_release(&out);
}

static void check_text(const char *in, size_t len, const char *want)
{
	sbuf out;

	sbuf_init(&out);
	textout_text(&out, in, len);
	CHECK_STR(out.len ? out.data : "", want, "terminal text of %zu bytes, several lines", len);
	sbuf_release(&out);
}

int main(void)
{
	/* terminal and log lines: controls, DEL, C1 and bad UTF-8 as \xNN */
	check_term("plain", 5, "plain");
	check_term("Evil\033[2J\007LM", 11, "Evil\\x1b[2J\\x07LM");
	check_term("a\nb\tc\r", 6, "a\\x0ab\\x09c\\x0d");
	check_term("del\177", 4, "del\\x7f");
	check_term("C1\302\233x", 5, "C1\\xc2\\x9bx");
	check_term("Caf\303\251 \302\240", 8, "Caf\303\251 \302\240");
	check_term("bad\377\300\257", 6, "bad\\xff\\xc0\\xaf");
	check_term("cut\342\202", 5, "cut\\xe2\\x82");
	check_term("nul\0z", 5, "nul\\x00z");
	check_term("back\\slash", 10, "back\\slash");
	/* a text of several lines: each line so, its line feeds kept */
	check_text("", 0, "");
	check_text("a\nb\n", 4, "a\nb\n");
	check_text("\033[2J\n\tx\r\n\302\233", 11, "\\x1b[2J\n\\x09x\\x0d\n\\xc2\\x9b");
	check_text("no end\007", 7, "no end\\x07");
	check_json("plain", 5, "\"plain\"");
	check_json("", 0, "\"\"");
	check_json("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	check_json("line\nbreak\r\ttab", 15, "\"line\\nbreak\\r\\ttab\"");
	check_json("\x01\x1f", 2, "\"\\u0001\\u001f\"");
	check_json("nul\0byte", 8, "\"nul\\u0000byte\"");
	check_json("3.9 \xc3\x97 10\xc2\xb2\xe2\x81\xb4", 14, "\"3.9 \xc3\x97 10\xc2\xb2\xe2\x81\xb4\"");
	check_json("caf\xe9!", 5, "\"caf\xef\xbf\xbd!\"");                 /* lone Latin-1 byte */
	check_json("\xe2\x81", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"");        /* cut sequence */
	check_json("ok \xf0\x9f\x98\x80 \xc0\xaf", 10, "\"ok \xf0\x9f\x98\x80 \xef\xbf\xbd\xef\xbf\xbd\"");

	check_html("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
	check_html("\"><img src=x onerror='a'>", "&quot;&gt;&lt;img src=x onerror=&#39;a&#39;&gt;");
	check_html("AT&T", "AT&amp;T");
	check_html("bad \xff byte", "bad \xef\xbf\xbd byte");
	check_html_positions();

	check_csv("plain", "plain");
	check_csv("a,b", "\"a,b\"");
	check_csv("say \"hi\"", "\"say \"\"hi\"\"\"");
	check_csv("two\nlines", "\"two\nlines\"");
	check_csv(" padded ", "\" padded \"");

	/* RFC 4648's test vectors, and bytes above 127 */
	check_base64("", 0, "");
	check_base64("f", 1, "Zg==");
	check_base64("fo", 2, "Zm8=");
	check_base64("foo", 3, "Zm9v");
	check_base64("foob", 4, "Zm9vYg==");
	check_base64("fooba", 5, "Zm9vYmE=");
	check_base64("foobar", 6, "Zm9vYmFy");
	check_base64("\xff\xfe\x00<", 4, "//4APA==");
	return unit_done();
}
