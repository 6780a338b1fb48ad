#include "base/unicode.h"
#include "base/sbuf.h"
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

static int is_invisible(utf8proc_int32_t c)
{
	return (c >= 0x200B && c <= 0x200D) || c == 0x2060;
}

/*
 * s without its invisible characters and with its no-break spaces made
 * spaces, NUL-terminated (malloc'd), or NULL when s is not valid UTF-8 (or
 * holds a NUL). *changes gets the unicode_change bits of what was done.
 */
static utf8proc_uint8_t *strip_invisible(const char *s, size_t len, unsigned *changes)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s, *end = p + len;
	utf8proc_uint8_t *out = xmalloc(len + 1), *o = out;

	*changes = 0;
	while (p < end) {
		utf8proc_int32_t c;
		utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &c);

		if (n <= 0 || c == 0) {
			free(out);
			return NULL;
		}
		if (c == 0xFEFF) {
			*changes |= UNICODE_BOM;
		} else if (is_invisible(c)) {
			*changes |= UNICODE_INVISIBLE;
		} else if (c == 0x00A0 || c == 0x202F) {
			*changes |= UNICODE_NBSP;
			*o++ = ' ';
		} else {
			memcpy(o, p, (size_t)n);
			o += n;
		}
		p += n;
	}
	*o = 0;
	return out;
}

/* Map s by options (after removing invisibles and folding no-break spaces)
 * and append to out; 0, or -1 when s is not valid UTF-8. *changes as
 * strip_invisible(), plus UNICODE_NFC when the mapping changed the text. */
static int map_into(const char *s, size_t len, utf8proc_option_t options, sbuf *out,
		    unsigned *changes)
{
	utf8proc_uint8_t *clean = strip_invisible(s, len, changes), *mapped = NULL;
	utf8proc_ssize_t n;

	if (!clean)
		return -1;
	n = utf8proc_map(clean, 0, &mapped, UTF8PROC_NULLTERM | UTF8PROC_STABLE | options);
	if (n < 0) {
		free(clean);
		*changes = 0;
		return -1;
	}
	if (strcmp((const char *)clean, (const char *)mapped) != 0)
		*changes |= UNICODE_NFC;
	free(clean);
	sbuf_add(out, mapped, (size_t)n);
	free(mapped);
	return 0;
}

int unicode_canonical_changes(const char *s, size_t len, sbuf *out, unsigned *changes)
{
	size_t start = out->len;

	if (map_into(s, len, UTF8PROC_COMPOSE, out, changes)) {
		sbuf_add(out, s, len);
		return -1;
	}
	return out->len - start != len || memcmp(out->data + start, s, len) != 0;
}

int unicode_canonical(const char *s, size_t len, sbuf *out)
{
	unsigned changes;

	return unicode_canonical_changes(s, len, out, &changes);
}

void unicode_describe_changes(unsigned changes, sbuf *out)
{
	static const struct {
		unsigned bit;       /* a unicode_change */
		const char *what;   /* its words */
	} words[] = {
		{ UNICODE_NFC, "NFD to NFC" },
		{ UNICODE_BOM, "byte-order mark removed" },
		{ UNICODE_INVISIBLE, "invisible character removed" },
		{ UNICODE_NBSP, "no-break space" },
	};
	size_t i;
	int first = 1;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!(changes & words[i].bit))
			continue;
		if (!first)
			sbuf_adds(out, ", ");
		first = 0;
		sbuf_adds(out, words[i].what);
	}
}

int unicode_search_key(const char *s, size_t len, sbuf *out)
{
	size_t i;
	unsigned changes;

	if (!map_into(s, len, UTF8PROC_COMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD |
				      UTF8PROC_STRIPMARK | UTF8PROC_IGNORE, out, &changes))
		return 0;
	for (i = 0; i < len; i++)
		sbuf_addc(out, s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i]);
	return -1;
}
