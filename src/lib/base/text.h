/*
 * text: small questions and chores of plain text: a suffix, a size with
 * its unit, a line for a message, UTF-8 validity, decimal digits written
 * with no stdio.
 */
#ifndef MODELCAT_TEXT_H
#define MODELCAT_TEXT_H

#include <stddef.h>

/* Does the string end with suffix? */
int mc_ends_with(const char *s, const char *suffix);

/* Parse a size: digits, optionally followed by k/K, M or G (KiB, MiB,
 * GiB), nothing else. 0 and *bytes, or -1 when text is not one or
 * overflows. */
int mc_parse_size(const char *text, unsigned long long *bytes);

/* Make s[0..len) one line of plain text for a message: line ends, tabs,
 * other control bytes and DEL (from a header, a name or a parser's excerpt
 * quoted in it) become spaces. */
void mc_one_line(char *s, size_t len);

/* Is [s, s+len) valid UTF-8? On failure *bad_offset is set to the first
 * offending byte. */
int mc_utf8_valid(const char *s, size_t len, size_t *bad_offset);
/* The length of the valid UTF-8 character [s, s+len) starts with, its
 * code point into *cp (when not NULL); 0 when it starts with none. */
size_t mc_utf8_char(const char *s, size_t len, unsigned long *cp);
/* The characters (code points) of UTF-8 text [s, s+len): its bytes that
 * do not continue a character. */
size_t mc_utf8_chars(const char *s, size_t len);
/* How many bytes [s, s+len) starts with that are ASCII (below 0x80),
 * tested eight at a time. */
size_t mc_ascii_run(const char *s, size_t len);

/* Append the decimal digits of n, at least width of them (zeros before),
 * to buf at *at, within len bytes (the last kept for a NUL, which is not
 * written). No stdio and no allocation: safe in a signal handler. Inline:
 * numbers and dates are written with it for every row. */
static inline void mc_put_decimal(char *buf, size_t len, size_t *at, unsigned long long n,
				  int width)
{
	char digits[24];
	int k = 0;

	do {
		digits[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (k < width && k < (int)sizeof(digits))
		digits[k++] = '0';
	while (k && *at + 1 < len)
		buf[(*at)++] = digits[--k];
}

#endif
