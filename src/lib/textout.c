#include "textout.h"

#include <string.h>

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

void textout_json_string(sbuf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, start;

	sbuf_grow(out, len + 2);
	sbuf_addc(out, '"');
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t bad;

		start = i;
		while (i < len && (unsigned char)s[i] >= 0x20 && s[i] != '"' &&
		       s[i] != '\\' && (unsigned char)s[i] < 0x80)
			i++;
		sbuf_add(out, s + start, i - start);
		if (i >= len)
			break;
		c = (unsigned char)s[i];
		if (c >= 0x80) {
			size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 :
				   (c & 0xF8) == 0xF0 ? 4 : 1;

			if (i + n <= len && mc_utf8_valid(s + i, n, &bad)) {
				sbuf_add(out, s + i, n);
				i += n;
			} else {
				sbuf_adds(out, "\xEF\xBF\xBD");
				i++;
			}
			continue;
		}
		switch (c) {
		case '"': sbuf_adds(out, "\\\""); break;
		case '\\': sbuf_adds(out, "\\\\"); break;
		case '\n': sbuf_adds(out, "\\n"); break;
		case '\r': sbuf_adds(out, "\\r"); break;
		case '\t': sbuf_adds(out, "\\t"); break;
		default:
			sbuf_adds(out, "\\u00");
			sbuf_addc(out, hex[c >> 4]);
			sbuf_addc(out, hex[c & 15]);
		}
		i++;
	}
	sbuf_addc(out, '"');
}

void textout_html(sbuf *out, const char *s, size_t len)
{
	size_t i = 0, bad;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];

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
			size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 :
				   (c & 0xF8) == 0xF0 ? 4 : 1;

			if (i + n <= len && mc_utf8_valid(s + i, n, &bad)) {
				sbuf_add(out, s + i, n);
				i += n;
			} else {
				sbuf_adds(out, "\xEF\xBF\xBD");
				i++;
			}
		}
	}
}
