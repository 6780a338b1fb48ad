#include "base/printf.h"
#include "base/alloc.h"
#include "base/text.h"

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does fmt hold no conversion but %s, %c, %d, %i, %u (with l, ll or z),
 * %% and, with a precision (digits or *), %s and %f, without flags or
 * width? Such a format is what most calls pass: a path, a tag, a number,
 * a coordinate. */
static int fmt_plain(const char *fmt)
{
	while ((fmt = strchr(fmt, '%'))) {
		int sized = 0;

		fmt++;
		if (*fmt == '.') {
			/* a precision: of a string, or of a fixed-point number */
			fmt++;
			if (*fmt == '*')
				fmt++;
			else
				while (*fmt >= '0' && *fmt <= '9')
					fmt++;
			if (*fmt != 's' && *fmt != 'f')
				return 0;
			fmt++;
			continue;
		}
		if (*fmt == 'z' || *fmt == 'l') {
			sized = 1;
			fmt += fmt[0] == 'l' && fmt[1] == 'l' ? 2 : 1;
		}
		if (*fmt == 'd' || *fmt == 'i' || *fmt == 'u' ||
		    (!sized && (*fmt == 's' || *fmt == 'c' || *fmt == '%')))
			fmt++;
		else
			return 0;
	}
	return 1;
}

/* n bytes of s at *at of buf (cap bytes), as far as they fit with a NUL
 * after; *at counts them all. */
static void fmt_put(char *buf, size_t cap, size_t *at, const char *s, size_t n)
{
	if (*at + 1 < cap) {
		size_t room = cap - 1 - *at;

		memcpy(buf + *at, s, n < room ? n : room);
	}
	*at += n;
}

/* v with decimals digits after the point, as printf's "%.*f" writes it,
 * into out; its length, or 0 when v is not one this takes: decimals from
 * 0 to 3, |v| times 10^decimals below 2^52, and the rounding mode to
 * nearest. printf rounds the exact product, to nearest with ties to
 * even; the double product p differs from it by e, which fma() gives
 * exactly, and rint(p) is its rounding but where p lies halfway between
 * two integers: there the sign of e decides, and a true tie (e = 0)
 * stays with rint()'s even one. A negative v keeps its sign when it
 * rounds to zero, as printf's "-0.0". No stdio, no long double (which
 * valgrind computes with 64 bits): a page's numbers, its chart's
 * coordinates. */
static size_t fixed_exact(char out[48], double v, int decimals)
{
	static const double scale[] = { 1.0, 10.0, 100.0, 1000.0 };
	static const unsigned long long unit[] = { 1, 10, 100, 1000 };
	char digits[24], *d = digits + sizeof(digits);
	unsigned long long whole, part;
	double a = fabs(v), p, e, r, off;
	size_t n = 0, k;
	int i;

	if (decimals < 0 || decimals > 3 || !(a < 4503599627370496.0 / scale[decimals]) ||
	    fegetround() != FE_TONEAREST)
		return 0;
	p = a * scale[decimals];
	e = fma(a, scale[decimals], -p);   /* a x scale = p + e, exactly */
	r = rint(p);
	off = p - r;                       /* exact: r is p's nearest integer */
	if (off == 0.5 && e > 0)
		r += 1;
	else if (off == -0.5 && e < 0)
		r -= 1;
	whole = (unsigned long long)r / unit[decimals];
	part = (unsigned long long)r % unit[decimals];
	if (signbit(v))
		out[n++] = '-';
	do
		*--d = (char)('0' + whole % 10);
	while (whole /= 10);
	k = (size_t)(digits + sizeof(digits) - d);
	memcpy(out + n, d, k);
	n += k;
	if (decimals) {
		out[n++] = '.';
		for (i = decimals - 1; i >= 0; i--, part /= 10)
			out[n + (size_t)i] = (char)('0' + part % 10);
		n += (size_t)decimals;
	}
	return n;
}

/* v as "%.*f" with precision decimals (below 0: 6) at *at of buf. */
static void fmt_fixed(char *buf, size_t cap, size_t *at, double v, int decimals)
{
	char text[512];
	size_t n;
	int m;

	if (decimals < 0)
		decimals = 6;
	n = fixed_exact(text, v, decimals);
	if (n) {
		fmt_put(buf, cap, at, text, n);
		return;
	}
	m = snprintf(text, sizeof(text), "%.*f", decimals, v);
	if (m < 0)
		return;
	if ((size_t)m < sizeof(text)) {
		fmt_put(buf, cap, at, text, (size_t)m);
	} else {
		char *big = xmalloc((size_t)m + 1);

		snprintf(big, (size_t)m + 1, "%.*f", decimals, v);
		fmt_put(buf, cap, at, big, (size_t)m);
		free(big);
	}
}

/* vsnprintf() for a format fmt_plain() accepts, which it formats as
 * glibc does (a NULL string as "(null)", or as nothing with a precision
 * below 6), without stdio's machinery: a tenth of a publication's
 * instructions went into vsnprintf(), and then its numbers ("%.*f" of
 * format_decimal(), a chart's "%.1f") most of what was left there. */
static size_t fmt_plain_write(char *buf, size_t cap, const char *fmt, va_list ap)
{
	size_t at = 0;

	while (*fmt) {
		const char *pct = strchr(fmt, '%');
		char digits[24], *d = digits + sizeof(digits);
		unsigned long long u = 0;
		int size = 0, negative = 0;

		if (!pct) {
			fmt_put(buf, cap, &at, fmt, strlen(fmt));
			break;
		}
		fmt_put(buf, cap, &at, fmt, (size_t)(pct - fmt));
		fmt = pct + 1;
		if (*fmt == '.') {
			int precision = 0;

			fmt++;
			if (*fmt == '*') {
				precision = va_arg(ap, int);
				fmt++;
			} else {
				for (; *fmt >= '0' && *fmt <= '9'; fmt++)
					precision = precision < 100000 ? precision * 10 + (*fmt - '0')
									: precision;
			}
			if (*fmt++ == 'f') {
				fmt_fixed(buf, cap, &at, va_arg(ap, double), precision);
			} else {
				const char *s = va_arg(ap, const char *);

				if (!s)
					s = precision < 0 || precision >= 6 ? "(null)" : "";
				fmt_put(buf, cap, &at, s,
					precision < 0 ? strlen(s) : strnlen(s, (size_t)precision));
			}
			continue;
		}
		if (*fmt == 'z') {
			size = 3;
			fmt++;
		} else if (*fmt == 'l') {
			size = fmt[1] == 'l' ? 2 : 1;
			fmt += size;
		}
		switch (*fmt++) {
		case '%':
			fmt_put(buf, cap, &at, "%", 1);
			continue;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";
			fmt_put(buf, cap, &at, s, strlen(s));
			continue;
		}
		case 'c':
			*--d = (char)va_arg(ap, int);
			fmt_put(buf, cap, &at, d, 1);
			continue;
		case 'd':
		case 'i': {
			long long v = size == 2 ? va_arg(ap, long long) :
				      size == 1 ? va_arg(ap, long) :
				      size == 3 ? (long long)va_arg(ap, ssize_t) : va_arg(ap, int);

			negative = v < 0;
			u = negative ? 0ULL - (unsigned long long)v : (unsigned long long)v;
			break;
		}
		default:   /* 'u' */
			u = size == 2 ? va_arg(ap, unsigned long long) :
			    size == 1 ? va_arg(ap, unsigned long) :
			    size == 3 ? va_arg(ap, size_t) : va_arg(ap, unsigned);
			break;
		}
		do
			*--d = (char)('0' + u % 10);
		while (u /= 10);
		if (negative)
			*--d = '-';
		fmt_put(buf, cap, &at, d, (size_t)(digits + sizeof(digits) - d));
	}
	if (cap)
		buf[at < cap ? at : cap - 1] = '\0';
	return at;
}

int mc_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	size_t n;

	if (!fmt_plain(fmt))
		return vsnprintf(buf, cap, fmt, ap);
	n = fmt_plain_write(buf, cap, fmt, ap);
	return n > INT_MAX ? -1 : (int)n;
}

void mc_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	mc_vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}
