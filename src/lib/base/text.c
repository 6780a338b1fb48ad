#include "base/text.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int mc_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

int mc_parse_size(const char *text, unsigned long long *bytes)
{
	unsigned long long value, unit = 1;
	char *end;

	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno)
		return -1;
	if (*end == 'k' || *end == 'K')
		unit = 1ULL << 10;
	else if (*end == 'M')
		unit = 1ULL << 20;
	else if (*end == 'G')
		unit = 1ULL << 30;
	if (unit > 1)
		end++;
	if (*end || value > ULLONG_MAX / unit)
		return -1;
	*bytes = value * unit;
	return 0;
}

void mc_one_line(char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = ' ';
}

size_t mc_ascii_run(const char *s, size_t len)
{
	size_t i = 0;
	unsigned long long w;

	while (len - i >= 8) {
		memcpy(&w, s + i, 8);
		if (w & 0x8080808080808080ULL)
			break;
		i += 8;
	}
	while (i < len && !((unsigned char)s[i] & 0x80))
		i++;
	return i;
}

/* The length of the valid UTF-8 character at p (at most len bytes, len
 * at least 1) and its code point into *cp; 0 when it is not one
 * (overlong, a surrogate, past U+10FFFF, cut short). */
static inline size_t utf8_char(const unsigned char *p, size_t len, unsigned long *cp)
{
	size_t n, k;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	} else if ((p[0] & 0xE0) == 0xC0) {
		n = 2;
		*cp = p[0] & 0x1F;
	} else if ((p[0] & 0xF0) == 0xE0) {
		n = 3;
		*cp = p[0] & 0x0F;
	} else if ((p[0] & 0xF8) == 0xF0) {
		n = 4;
		*cp = p[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (k = 1; k < n; k++) {
		if ((p[k] & 0xC0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (p[k] & 0x3F);
	}
	if ((n == 2 && *cp < 0x80) || (n == 3 && *cp < 0x800) || (n == 4 && *cp < 0x10000) ||
	    *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF))
		return 0;
	return n;
}

size_t mc_utf8_char(const char *s, size_t len, unsigned long *cp)
{
	unsigned long ignored;

	return len ? utf8_char((const unsigned char *)s, len, cp ? cp : &ignored) : 0;
}

int mc_utf8_valid(const char *s, size_t len, size_t *bad_offset)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	unsigned long cp;

	while (i < len) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if (!(n = utf8_char(p + i, len - i, &cp))) {
			if (bad_offset)
				*bad_offset = i;
			return 0;
		}
		i += n;
	}
	return 1;
}

size_t mc_utf8_chars(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xC0) != 0x80;
	return n;
}
