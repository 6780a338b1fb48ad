#include "base/textout.h"
#include "base/sbuf.h"
#include "base/text.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void textout_csv_field(sbuf *out, const char *s, size_t len)
{
	size_t i;
	int quote = len && (s[0] == ' ' || s[len - 1] == ' ');

	for (i = 0; i < len && !quote; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			quote = 1;
	if (!quote) {
		sbuf_add(out, s, len);
		return;
	}
	sbuf_grow(out, len + 2);
	sbuf_addc(out, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			sbuf_addc(out, '"');
		sbuf_addc(out, s[i]);
	}
	sbuf_addc(out, '"');
}

void textout_csv_row(sbuf *out, const char *const *fields, const size_t *lengths,
		     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			sbuf_addc(out, ',');
		textout_csv_field(out, fields[i], lengths ? lengths[i] : strlen(fields[i]));
	}
	sbuf_addc(out, '\n');
}

/* 1 for the bytes a JSON string cannot hold as they are. */
static const unsigned char json_special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

/* Append s[0..len) (no special byte in it) as it is when it is valid
 * UTF-8, else with each invalid byte as U+FFFD. */
static void json_run(sbuf *out, const char *s, size_t len)
{
	size_t bad, i;

	if (mc_utf8_valid(s, len, &bad)) {
		sbuf_add(out, s, len);
		return;
	}
	sbuf_add(out, s, bad);
	i = bad;
	while (i < len) {
		size_t n = mc_utf8_char(s + i, len - i, NULL);

		if (n) {
			sbuf_add(out, s + i, n);
			i += n;
		} else {
			sbuf_adds(out, "\xEF\xBF\xBD");
			i++;
		}
	}
}

/*
 * Length of the run at s[0..len) that a JSON string holds as it is (no
 * quote, backslash or control byte); *high is set when the run has a byte
 * of 0x80 or above.
 */
static size_t json_clean_run(const unsigned char *s, size_t len, int *high)
{
	size_t i = 0;

#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	const __m128i control = _mm_set1_epi8(0x1f);

	for (; i + 16 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + i));
		__m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote),
							_mm_cmpeq_epi8(v, backslash)),
					   _mm_cmpeq_epi8(_mm_max_epu8(v, control), control));
		int mask = _mm_movemask_epi8(bad);

		*high |= _mm_movemask_epi8(v) != 0;
		if (mask) {
			i += (size_t)__builtin_ctz((unsigned)mask);
			/* the high bytes before the special one were counted
			 * with the whole block: harmless, it only asks for a
			 * UTF-8 check */
			return i;
		}
	}
#endif
	for (; i < len && !json_special[s[i]]; i++)
		*high |= s[i] & 0x80;
	return i;
}

/* The JSON string writer; trusted: s is known to be valid UTF-8. */
static void json_string(sbuf *out, const char *s, size_t len, int trusted)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run;

	sbuf_grow(out, len + 2);
	sbuf_addc(out, '"');
	while (i < len) {
		int high = 0;

		run = json_clean_run(p + i, len - i, &high);
		if (high && !trusted)
			json_run(out, s + i, run);
		else
			sbuf_add(out, s + i, run);
		i += run;
		if (i >= len)
			break;
		switch (p[i]) {
		case '"': sbuf_adds(out, "\\\""); break;
		case '\\': sbuf_adds(out, "\\\\"); break;
		case '\n': sbuf_adds(out, "\\n"); break;
		case '\r': sbuf_adds(out, "\\r"); break;
		case '\t': sbuf_adds(out, "\\t"); break;
		default:
			sbuf_adds(out, "\\u00");
			sbuf_addc(out, hex[p[i] >> 4]);
			sbuf_addc(out, hex[p[i] & 15]);
		}
		i++;
	}
	sbuf_addc(out, '"');
}

void textout_json_string(sbuf *out, const char *s, size_t len)
{
	json_string(out, s, len, 0);
}

void textout_json_utf8(sbuf *out, const char *s, size_t len)
{
	json_string(out, s, len, 1);
}

/* 1 for the bytes textout_html() copies as they are: printable ASCII but
 * & < > " ' (escaped), and newline and tab. A table: most strings of a
 * page are shorter than 16 bytes, and go a byte at a time. */
static const unsigned char html_plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* Length of the run at s[0..len) that textout_html() copies as it is,
 * 16 bytes at a time where the CPU has SSE2. */
static size_t html_plain_run(const unsigned char *s, size_t len)
{
	size_t i = 0;

#if defined(__SSE2__)
	const __m128i space = _mm_set1_epi8(0x20), nl = _mm_set1_epi8('\n'),
		      tab = _mm_set1_epi8('\t'), amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'),
		      gt = _mm_set1_epi8('>'), quot = _mm_set1_epi8('"'),
		      apos = _mm_set1_epi8('\'');

	for (; i + 16 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + i));
		/* below 0x20 (but newline and tab), or 0x80 and above: both are
		 * below 0x20 as signed bytes */
		__m128i bad = _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi8(v, nl),
							    _mm_cmpeq_epi8(v, tab)),
					       _mm_cmplt_epi8(v, space));
		int mask;

		bad = _mm_or_si128(bad, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, amp),
								  _mm_cmpeq_epi8(v, lt)),
						     _mm_or_si128(_mm_cmpeq_epi8(v, gt),
								  _mm_or_si128(_mm_cmpeq_epi8(v, quot),
									       _mm_cmpeq_epi8(v, apos)))));
		mask = _mm_movemask_epi8(bad);
		if (mask)
			return i + (size_t)__builtin_ctz((unsigned)mask);
	}
#endif
	while (i < len && html_plain[s[i]])
		i++;
	return i;
}

void textout_html(sbuf *out, const char *s, size_t len)
{
	size_t i = 0;

	if (out->cap - out->len <= len)
		sbuf_grow(out, len);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t run = i + html_plain_run((const unsigned char *)s + i, len - i);

		/* a run of bytes copied as they are, in one append */
		if (run > i) {
			sbuf_add(out, s + i, run - i);
			i = run;
			continue;
		}
		switch (c) {
		case '&': sbuf_adds(out, "&amp;"); i++; continue;
		case '<': sbuf_adds(out, "&lt;"); i++; continue;
		case '>': sbuf_adds(out, "&gt;"); i++; continue;
		case '"': sbuf_adds(out, "&quot;"); i++; continue;
		case '\'': sbuf_adds(out, "&#39;"); i++; continue;
		default: break;
		}
		if (c < 0x80) {
			if (c >= 0x20 || c == '\n' || c == '\t')
				sbuf_addc(out, (char)c);
			else
				sbuf_addc(out, ' ');
			i++;
			continue;
		}
		{
			size_t n = mc_utf8_char(s + i, len - i, NULL);

			if (n) {
				sbuf_add(out, s + i, n);
				i += n;
			} else {
				sbuf_adds(out, "\xEF\xBF\xBD");
				i++;
			}
		}
	}
}

void textout_base64(sbuf *out, const void *data, size_t len)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		unsigned long v = (unsigned long)p[i] << 16 | (unsigned long)p[i + 1] << 8 | p[i + 2];

		sbuf_addc(out, digits[v >> 18 & 63]);
		sbuf_addc(out, digits[v >> 12 & 63]);
		sbuf_addc(out, digits[v >> 6 & 63]);
		sbuf_addc(out, digits[v & 63]);
	}
	if (i < len) {
		unsigned long v = (unsigned long)p[i] << 16 | (i + 1 < len ? (unsigned long)p[i + 1] << 8 : 0);

		sbuf_addc(out, digits[v >> 18 & 63]);
		sbuf_addc(out, digits[v >> 12 & 63]);
		sbuf_addc(out, i + 1 < len ? digits[v >> 6 & 63] : '=');
		sbuf_addc(out, '=');
	}
}

/* The length of the valid UTF-8 character at p (at most len bytes) that
 * is not a C1 control (U+0080 to U+009F), or 0. */
static size_t term_char_len(const unsigned char *p, size_t len)
{
	unsigned long cp;
	size_t n = mc_utf8_char((const char *)p, len, &cp);

	return n && !(cp >= 0x80 && cp < 0xA0) ? n : 0;
}

void textout_term(sbuf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, start = 0;

	while (i < len) {
		size_t n;

		if (p[i] >= 0x20 && p[i] < 0x7f) {
			i++;
			continue;
		}
		n = p[i] >= 0x80 ? term_char_len(p + i, len - i) : 0;
		if (n) {
			i += n;
			continue;
		}
		sbuf_add(out, s + start, i - start);
		sbuf_addc(out, '\\');
		sbuf_addc(out, 'x');
		sbuf_addc(out, hex[p[i] >> 4]);
		sbuf_addc(out, hex[p[i] & 0xF]);
		start = ++i;
	}
	sbuf_add(out, s + start, len - start);
}

void textout_terms(sbuf *out, const char *s)
{
	textout_term(out, s, strlen(s));
}

void textout_text(sbuf *out, const char *s, size_t len)
{
	size_t start = 0, i;

	for (i = 0; i < len; i++) {
		if (s[i] != '\n')
			continue;
		textout_term(out, s + start, i - start);
		sbuf_addc(out, '\n');
		start = i + 1;
	}
	textout_term(out, s + start, len - start);
}

void textout_vtermf(sbuf *out, const char *fmt, va_list ap)
{
	sbuf msg;

	sbuf_init(&msg);
	sbuf_vaddf(&msg, fmt, ap);
	textout_term(out, msg.data ? msg.data : "", msg.len);
	sbuf_release(&msg);
}

void textout_termf(sbuf *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	textout_vtermf(out, fmt, ap);
	va_end(ap);
}

void textout_vline(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	sbuf line;

	sbuf_init(&line);
	if (prefix) {
		sbuf_adds(&line, prefix);
		sbuf_adds(&line, ": ");
	}
	textout_vtermf(&line, fmt, ap);
	sbuf_addc(&line, '\n');
	fwrite(line.data, 1, line.len, f);
	sbuf_release(&line);
}

void textout_line(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	textout_vline(f, NULL, fmt, ap);
	va_end(ap);
}
