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

int mc_utf8_valid(const char *s, size_t len, size_t *bad_offset)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		unsigned char c = p[i];
		size_t n, k;
		unsigned long cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xE0) == 0xC0) {
			n = 1;
			cp = c & 0x1F;
		} else if ((c & 0xF0) == 0xE0) {
			n = 2;
			cp = c & 0x0F;
		} else if ((c & 0xF8) == 0xF0) {
			n = 3;
			cp = c & 0x07;
		} else {
			goto bad;
		}
		if (i + n >= len)
			goto bad;
		for (k = 1; k <= n; k++) {
			if ((p[i + k] & 0xC0) != 0x80)
				goto bad;
			cp = (cp << 6) | (p[i + k] & 0x3F);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) ||
		    (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			goto bad;
		i += n + 1;
	}
	return 1;
bad:
	if (bad_offset)
		*bad_offset = i;
	return 0;
}
