#include "base/unicode.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

/* The invisible characters removed, and the spaces folded, before a name
 * is normalised: utf8proc's custom hook sees each code point. */
static utf8proc_int32_t fold_invisible(utf8proc_int32_t c, void *data)
{
	(void)data;
	if (c == 0x00A0 || c == 0x202F)
		return ' ';
	return c;
}

static int is_invisible(utf8proc_int32_t c)
{
	return c == 0xFEFF || (c >= 0x200B && c <= 0x200D) || c == 0x2060;
}

/* s without its invisible characters, NUL-terminated (malloc'd), or NULL
 * when s is not valid UTF-8. */
static utf8proc_uint8_t *strip_invisible(const char *s, size_t len)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s, *end = p + len;
	utf8proc_uint8_t *out = xmalloc(len + 1), *o = out;

	while (p < end) {
		utf8proc_int32_t c;
		utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &c);

		if (n <= 0 || c == 0) {
			free(out);
			return NULL;
		}
		if (!is_invisible(c)) {
			memcpy(o, p, (size_t)n);
			o += n;
		}
		p += n;
	}
	*o = 0;
	return out;
}

/* Map s by options (after removing invisibles) and append to out; 0, or
 * -1 when s is not valid UTF-8. */
static int map_into(const char *s, size_t len, utf8proc_option_t options, sbuf *out)
{
	utf8proc_uint8_t *clean = strip_invisible(s, len), *mapped = NULL;
	utf8proc_ssize_t n;

	if (!clean)
		return -1;
	n = utf8proc_map_custom(clean, 0, &mapped, UTF8PROC_NULLTERM | UTF8PROC_STABLE | options,
				fold_invisible, NULL);
	free(clean);
	if (n < 0)
		return -1;
	sbuf_add(out, mapped, (size_t)n);
	free(mapped);
	return 0;
}

int unicode_canonical(const char *s, size_t len, sbuf *out)
{
	size_t start = out->len;

	if (map_into(s, len, UTF8PROC_COMPOSE, out)) {
		sbuf_add(out, s, len);
		return -1;
	}
	return out->len - start != len || memcmp(out->data + start, s, len) != 0;
}

int unicode_search_key(const char *s, size_t len, sbuf *out)
{
	size_t i;

	if (!map_into(s, len, UTF8PROC_COMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD |
				      UTF8PROC_STRIPMARK | UTF8PROC_IGNORE, out))
		return 0;
	for (i = 0; i < len; i++)
		sbuf_addc(out, s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i]);
	return -1;
}
