/*
 * normalise: hand-written parsers for the kinds of value found in the
 * exports (see normalise.h for the contract of each function).
 *
 * Design notes:
 *   - Every parser checks the grammar itself, byte by byte; no sscanf, and
 *     strtod only ever sees a string this file built ("DIGITSe-NN": no
 *     sign, decimal point, hex, inf or nan), so the result does not depend
 *     on the locale.
 *   - Formatting is locale-independent too: see fmt15().
 *   - Nothing here allocates: results go to the caller's sbuf, scratch
 *     space is on the stack (fixed size, no VLA).
 *   - Inputs are (pointer, length) pairs and may hold any byte, NUL
 *     included; they are never read past len.
 */
#include "values/normalise.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

typedef const unsigned char *uptr;

/* Copy a fixed reason into why (NORM_WHY_LEN bytes), if why is given. */
static void set_why(char *why, const char *msg)
{
	size_t i;

	if (!why)
		return;
	for (i = 0; i + 1 < NORM_WHY_LEN && msg[i]; i++)
		why[i] = msg[i];
	why[i] = '\0';
}

static int fail(char *why, const char *msg)
{
	set_why(why, msg);
	return NORM_INVALID;
}

static int is_digit(unsigned c)
{
	return c - '0' < 10u;
}

static int is_alpha(unsigned c)
{
	return (c | 0x20u) - 'a' < 26u;
}

static unsigned to_lower(unsigned c)
{
	return c - 'A' < 26u ? c | 0x20u : c;
}

/* ASCII case-insensitive comparison of n bytes. */
static int ieq(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (to_lower((unsigned char)a[i]) !=
		    to_lower((unsigned char)b[i]))
			return 0;
	return 1;
}

/*
 * Outer white space: space, tab, LF, VT, FF, CR and U+00A0 (C2 A0).
 * ws_len: length of the white space starting at p (0 if none);
 * ws_len_back: length of the white space ending just before e.
 * C2 is always a lead byte in UTF-8, so C2 A0 is never part of another
 * character.
 */
static size_t ws_len(uptr p, uptr e)
{
	switch (*p) {
	case ' ': case '\t': case '\n': case '\v': case '\f': case '\r':
		return 1;
	case 0xC2:
		return e - p >= 2 && p[1] == 0xA0 ? 2 : 0;
	default:
		return 0;
	}
}

static size_t ws_len_back(uptr b, uptr e)
{
	switch (e[-1]) {
	case ' ': case '\t': case '\n': case '\v': case '\f': case '\r':
		return 1;
	case 0xA0:
		return e - b >= 2 && e[-2] == 0xC2 ? 2 : 0;
	default:
		return 0;
	}
}

/* Length of a byte-order mark (U+FEFF, EF BB BF) at p, or 0. */
static size_t bom_len(uptr p, uptr e)
{
	return e - p >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
}

/* Trim [s, s+len) to [*pb, *pe). s may be NULL when len is 0. A
 * byte-order mark among the leading white space goes with it: inside a
 * file (files joined together, a cell pasted from a document) it marks
 * where a text began, and is no part of the value. */
static void trim(const char *s, size_t len, uptr *pb, uptr *pe)
{
	uptr b = (uptr)s, e;
	size_t w;

	if (!s) {
		*pb = *pe = (uptr)"";
		return;
	}
	e = b + len;
	while (b < e && ((w = ws_len(b, e)) != 0 || (w = bom_len(b, e)) != 0))
		b += w;
	while (e > b && (w = ws_len_back(b, e)) != 0)
		e -= w;
	*pb = b;
	*pe = e;
}

/* Append [p, e) with CRLF and lone CR turned into LF. */
static void add_lf(sbuf *out, uptr p, uptr e)
{
	while (p < e) {
		uptr cr = memchr(p, '\r', (size_t)(e - p));

		if (!cr) {
			sbuf_add(out, p, (size_t)(e - p));
			return;
		}
		sbuf_add(out, p, (size_t)(cr - p));
		sbuf_addc(out, '\n');
		p = cr + 1;
		if (p < e && *p == '\n')
			p++;
	}
}

/* ------------------------------------------------------------------ */
/* Numbers                                                             */
/* ------------------------------------------------------------------ */

/*
 * Significant digits kept exactly. Beyond this a non-zero dropped digit
 * is remembered as a final "1" (sticky digit), which keeps strtod's
 * rounding right for all but absurdly long inputs.
 */
#define NUM_MAX_DIGITS 800

/* Bytes of the buffer a number's text is written into (fmt_plain(),
 * lay_out(), fmt15(), fmt_shortest()). */
#define NUM_TEXT 40

/* The digits of a number being read: value = d[0..n) * 10^exp. */
struct digits {
	char d[NUM_MAX_DIGITS + 2];
	size_t n;
	long long exp;
	int sticky;
};

static void dig_push(struct digits *g, unsigned c, int frac)
{
	if (g->n == 0 && c == '0') {
		if (frac)
			g->exp--;
		return;
	}
	if (g->n < NUM_MAX_DIGITS) {
		g->d[g->n++] = (char)c;
		if (frac)
			g->exp--;
	} else {
		if (!frac)
			g->exp++;
		if (c != '0')
			g->sticky = 1;
	}
}

static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* What dig_value() says of a value a double cannot hold. */
enum { DIG_OVER = -1, DIG_UNDER = -2 };

/* The double strtod() reads from the decimal dig[0..n) x 10^e10, written
 * "DIGITSe[-]N": no decimal point, so whatever the locale. n is at most
 * NUM_MAX_DIGITS + 1. */
static double decimal_value(const char *dig, size_t n, long long e10)
{
	char buf[NUM_MAX_DIGITS + 24];
	size_t pos = n;

	memcpy(buf, dig, n);
	buf[pos++] = 'e';
	if (e10 < 0)
		buf[pos++] = '-';
	mc_put_decimal(buf, sizeof(buf), &pos,
		       e10 < 0 ? (unsigned long long)-e10 : (unsigned long long)e10, 1);
	buf[pos] = '\0';
	return strtod(buf, NULL);
}

/*
 * The double nearest to d * 10^(exp + xexp). Returns 0 and sets *v;
 * DIG_OVER when the value is too large for a double; DIG_UNDER when it is
 * not zero but below DBL_MIN, the smallest normal double (a subnormal
 * keeps fewer than 15 significant digits, and below it lies 0).
 */
static int dig_value(struct digits *g, long long xexp, double *v)
{
	long long e10;
	size_t k;

	if (g->sticky) {
		g->d[g->n++] = '1';
		g->exp--;
	} else {
		while (g->n && g->d[g->n - 1] == '0') {
			g->n--;
			g->exp++;
		}
	}
	if (g->n == 0) {
		*v = 0.0;
		return 0;
	}
	e10 = g->exp + xexp;
	/* value lies in [10^(n-1+e10), 10^(n+e10)) */
	if ((long long)g->n + e10 > 309)
		return DIG_OVER;
	if ((long long)g->n + e10 < -307)
		return DIG_UNDER;   /* below 10^-308, so below DBL_MIN */
	/* Clinger's fast path: both operands exact, one rounding. */
	if (g->n <= 15 && e10 >= -22 && e10 <= 22) {
		uint64_t m = 0;

		for (k = 0; k < g->n; k++)
			m = m * 10 + (uint64_t)(g->d[k] - '0');
		*v = e10 < 0 ? (double)m / pow10_exact[-e10]
			     : (double)m * pow10_exact[e10];
		return 0;
	}
	/* General case: strtod of the decimal, rounded once. */
	*v = decimal_value(g->d, g->n, e10);
	if (isinf(*v))
		return DIG_OVER;
	return *v < DBL_MIN ? DIG_UNDER : 0;
}

/* Sign at p: '+', '-' or U+2212 MINUS SIGN. Returns its length, 0 if none. */
static size_t sign_len(uptr p, uptr e, int *neg)
{
	if (*p == '+' || *p == '-') {
		*neg = *p == '-';
		return 1;
	}
	if (e - p >= 3 && p[0] == 0xE2 && p[1] == 0x88 && p[2] == 0x92) {
		*neg = 1;
		return 3;
	}
	return 0;
}

/* Space allowed around a multiplication sign: space, tab, U+00A0,
 * U+2009 THIN SPACE, U+202F NARROW NO-BREAK SPACE. */
static size_t inner_space_len(uptr p, uptr e)
{
	if (*p == ' ' || *p == '\t')
		return 1;
	if (e - p >= 2 && p[0] == 0xC2 && p[1] == 0xA0)
		return 2;
	if (e - p >= 3 && p[0] == 0xE2 && p[1] == 0x80 &&
	    (p[2] == 0x89 || p[2] == 0xAF))
		return 3;
	return 0;
}

/* Multiplication sign: x, X, *, U+00D7 (C3 97). */
static size_t mul_len(uptr p, uptr e)
{
	if (*p == 'x' || *p == 'X' || *p == '*')
		return 1;
	if (e - p >= 2 && p[0] == 0xC3 && p[1] == 0x97)
		return 2;
	return 0;
}

/*
 * Superscript digit at p: ⁰ U+2070, ¹ U+00B9, ² U+00B2, ³ U+00B3,
 * ⁴..⁹ U+2074..U+2079. Returns its length and sets *d, 0 if none.
 */
static size_t sup_digit_len(uptr p, uptr e, int *d)
{
	if (e - p >= 2 && p[0] == 0xC2) {
		switch (p[1]) {
		case 0xB9: *d = 1; return 2;
		case 0xB2: *d = 2; return 2;
		case 0xB3: *d = 3; return 2;
		default: return 0;
		}
	}
	if (e - p >= 3 && p[0] == 0xE2 && p[1] == 0x81) {
		if (p[2] == 0xB0) {
			*d = 0;
			return 3;
		}
		if (p[2] >= 0xB4 && p[2] <= 0xB9) {
			*d = p[2] - 0xB0;
			return 3;
		}
	}
	return 0;
}

/* Superscript sign: ⁺ U+207A, ⁻ U+207B. */
static size_t sup_sign_len(uptr p, uptr e, int *neg)
{
	if (e - p >= 3 && p[0] == 0xE2 && p[1] == 0x81 &&
	    (p[2] == 0xBA || p[2] == 0xBB)) {
		*neg = p[2] == 0xBB;
		return 3;
	}
	return 0;
}

/* Add one exponent digit, saturating far beyond any double's range. */
static void exp_push(long long *x, int d)
{
	if (*x < 1000000)
		*x = *x * 10 + d;
}

/*
 * The exponent that follows "10": "^" sign? digits, or superscript
 * sign? superscript digits. Advances *pp. Returns 0, or -1 when there is
 * none.
 */
static int parse_power(uptr *pp, uptr e, long long *xexp)
{
	uptr p = *pp;
	long long x = 0;
	int neg = 0, d, any = 0;
	size_t n;

	if (p < e && *p == '^') {
		p++;
		if (p < e)
			p += sign_len(p, e, &neg);
		while (p < e && is_digit(*p)) {
			exp_push(&x, *p - '0');
			p++;
			any = 1;
		}
	} else {
		if (p < e)
			p += sup_sign_len(p, e, &neg);
		while (p < e && (n = sup_digit_len(p, e, &d)) != 0) {
			exp_push(&x, d);
			p += n;
			any = 1;
		}
	}
	if (!any)
		return -1;
	*xexp = neg ? -x : x;
	*pp = p;
	return 0;
}

/*
 * The mantissa from *pp: an integer part, maybe with thousands separators,
 * then maybe a fraction; its digits go into g. Advances *pp. NORM_OK, or
 * NORM_INVALID with the reason in why.
 */
static int parse_mantissa(uptr *pp, uptr e, struct digits *g, char *why)
{
	uptr p = *pp, q;
	size_t nint, nfrac = 0;

	/* integer part, maybe with thousands separators */
	q = p;
	while (p < e && is_digit(*p))
		dig_push(g, *p++, 0);
	nint = (size_t)(p - q);
	if (nint && p < e && *p == ',') {
		if (nint > 3)
			return fail(why, "misplaced thousands separator");
		while (p < e && *p == ',') {
			q = ++p;
			while (p < e && is_digit(*p))
				dig_push(g, *p++, 0);
			if (p - q != 3)
				return fail(why, "misplaced thousands separator");
			nint += 3;
		}
	}
	/* fraction */
	if (p < e && *p == '.') {
		p++;
		q = p;
		while (p < e && is_digit(*p))
			dig_push(g, *p++, 1);
		nfrac = (size_t)(p - q);
	}
	if (nint + nfrac == 0)
		return fail(why, "not a number");
	*pp = p;
	return NORM_OK;
}

/*
 * What may follow the mantissa (which began at mant) from *pp: an "e"
 * exponent, the power of a bare "10" (g then holds the mantissa 1), or
 * "x 10^n" after a multiplication sign; anything else is left at *pp.
 * The power of ten goes into *xexp. Advances *pp. NORM_OK, or
 * NORM_INVALID with the reason in why.
 */
static int parse_exponent(uptr *pp, uptr e, uptr mant, struct digits *g,
			  long long *xexp, char *why)
{
	uptr p = *pp, q;
	size_t n;
	int d, sn;

	if (p < e && (*p == 'e' || *p == 'E')) {
		int xneg = 0;

		p++;
		if (p < e && (*p == '+' || *p == '-'))
			xneg = *p++ == '-';
		q = p;
		while (p < e && is_digit(*p)) {
			exp_push(xexp, *p - '0');
			p++;
		}
		if (p == q)
			return fail(why, "missing exponent digits");
		if (xneg)
			*xexp = -*xexp;
	} else if (p < e) {
		if (p - mant == 2 && mant[0] == '1' && mant[1] == '0' &&
		    (*p == '^' || sup_digit_len(p, e, &d) ||
		     sup_sign_len(p, e, &sn))) {
			/* bare power of ten: the mantissa is 1 */
			g->n = 1;
			g->d[0] = '1';
			g->exp = 0;
			if (parse_power(&p, e, xexp))
				return fail(why, "missing exponent after 10");
		} else {
			q = p;
			while (p < e && (n = inner_space_len(p, e)) != 0)
				p += n;
			if (p < e && (n = mul_len(p, e)) != 0) {
				p += n;
				while (p < e && (n = inner_space_len(p, e)) != 0)
					p += n;
				if (e - p < 2 || p[0] != '1' || p[1] != '0')
					return fail(why, "expected 10 after "
						    "the multiplication sign");
				p += 2;
				if (parse_power(&p, e, xexp))
					return fail(why, "missing exponent after 10");
			} else {
				p = q;
			}
		}
	}
	*pp = p;
	return NORM_OK;
}

/*
 * Grammar (after trimming outer white space):
 *   number   = sign? mantissa power?
 *   sign     = "+" | "-" | U+2212
 *   mantissa = int ("." digit*)? | "." digit+
 *   int      = digit+ | digit{1,3} ("," digit{3})+
 *   power    = ("e"|"E") sign? digit+
 *            | sp* mul sp* "10" exp10
 *   exp10    = "^" sign? digit+ | supsign? supdigit+
 *   mul      = "x" | "X" | "*" | U+00D7;  sp = space, tab, U+00A0,
 *              U+2009, U+202F
 * and the bare power "10" exp10 (sign allowed in front): 10^24, 10²⁴.
 */
int norm_number_parse(const char *s, size_t len, double *value, char *why)
{
	struct digits g;
	uptr p, e, mant;
	long long xexp = 0;
	int neg = 0, rc;
	double v;

	if (why)
		why[0] = '\0';
	trim(s, len, &p, &e);
	if (p == e)
		return NORM_EMPTY;
	g.n = 0;
	g.exp = 0;
	g.sticky = 0;

	p += sign_len(p, e, &neg);
	mant = p;
	if (e - p >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    (is_digit(p[2]) || to_lower(p[2]) - 'a' < 6u))
		return fail(why, "hexadecimal numbers are not accepted");
	rc = parse_mantissa(&p, e, &g, why);
	if (rc == NORM_OK)
		rc = parse_exponent(&p, e, mant, &g, &xexp, why);
	if (rc != NORM_OK)
		return rc;
	if (p != e)
		return fail(why, "unexpected text after the number");
	rc = dig_value(&g, xexp, &v);
	if (rc == DIG_OVER)
		return fail(why, "number out of range: above the largest double, "
			    "1.7976931348623157e+308");
	if (rc == DIG_UNDER)
		return fail(why, "number out of range: not zero but below the smallest "
			    "normal double, 2.2250738585072014e-308");
	if (value)
		*value = v == 0.0 ? 0.0 : (neg ? -v : v);
	return NORM_OK;
}

/*
 * The decimal digits of |v| at "%.<prec-1>e": digits into dig (no point),
 * decimal exponent into *x. Returns the number of digits.
 */
static size_t sci_digits(double v, int prec, char *dig, int *x)
{
	char tmp[48];
	const char *t;
	size_t n = 0;
	int e = 0, eneg = 0;

	snprintf(tmp, sizeof tmp, "%.*e", prec - 1, fabs(v));
	for (t = tmp; *t && *t != 'e' && *t != 'E'; t++)
		if (is_digit((unsigned char)*t))
			dig[n++] = *t;
	if (*t) {
		t++;
		if (*t == '-' || *t == '+')
			eneg = *t++ == '-';
		for (; is_digit((unsigned char)*t); t++)
			e = e * 10 + (*t - '0');
	}
	*x = eneg ? -e : e;
	return n;
}

/* Does the decimal dig[0..n) x 10^(x-n+1) read back as exactly |v|? The
 * text built has no decimal point, so strtod's locale does not matter. */
static int digits_round_trip(double v, const char *dig, size_t n, int x)
{
	return decimal_value(dig, n, x - (long long)n + 1) == fabs(v);
}

/*
 * The 17 digits d17 of a number (exponent x17) rounded to prec (15 or 16)
 * digits into dig (exponent into *x), as printf rounds the exact binary
 * value: where the digits dropped are not exactly a half, the 17 digits
 * (within half a unit of their last digit of the exact value) are on the
 * same side of the half as the exact value. 0 where they are a half
 * ("5", "50"), whose side only the exact value tells.
 */
static int digits_rounded(const char *d17, int x17, int prec, char *dig, int *x)
{
	int up, i;

	if (prec == 16) {
		if (d17[16] == '5')
			return 0;
		up = d17[16] > '5';
	} else {
		if (d17[15] == '5' && d17[16] == '0')
			return 0;
		up = d17[15] > '5' || (d17[15] == '5' && d17[16] > '0');
	}
	memcpy(dig, d17, (size_t)prec);
	*x = x17;
	for (i = prec - 1; up && i >= 0; i--) {
		if (dig[i] != '9') {
			dig[i]++;
			up = 0;
		} else {
			dig[i] = '0';
		}
	}
	if (up) {                   /* 99..9 became 100..0 */
		dig[0] = '1';
		(*x)++;
	}
	return 1;
}

/*
 * The 15 digits of |v| at "%.14e" (into dig, decimal exponent into *x)
 * when a decimal M x 10^e of at most 15 digits, -22 <= e <= 22, reads back
 * as v, found without printing; 0 when there is none. M and 10^|e| are
 * exact doubles, so M / 10^-e and M * 10^e are rounded once, as strtod()
 * rounds the decimal. A double is within 2^-53 of the decimal it reads
 * back from, a half unit of the 15th digit is at least 5 x 10^-16 of it:
 * rounding v to 15 digits gives that decimal.
 */
static size_t digits_exact15(double v, char *dig, int *x)
{
	static const double p10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	double a = fabs(v), m = 0;
	unsigned long long u;
	char rev[20];
	int k, e = 0, found = 0;
	size_t n = 0, i;

	if (!(a >= 1e-22 && a < 1e37))
		return 0;
	if (a < 1e15) {
		for (k = 0; k <= 22 && !found; k++) {
			m = nearbyint(a * p10[k]);
			if (m >= 1e15)
				return 0;
			found = m / p10[k] == a;
			e = -k;
		}
	} else {
		for (k = 1; k <= 22 && !found; k++) {
			m = nearbyint(a / p10[k]);
			found = m < 1e15 && m * p10[k] == a;
			e = k;
		}
	}
	if (!found || m < 1)
		return 0;
	for (u = (unsigned long long)m; u; u /= 10)
		rev[n++] = (char)('0' + u % 10);
	*x = (int)n - 1 + e;
	for (i = 0; i < 15; i++)
		dig[i] = i < n ? rev[n - 1 - i] : '0';
	return 15;
}

/*
 * The shortest of the 15, 16 and 17 significant digits of |v| ("%.14e",
 * "%.15e", "%.16e") that reads back as v (17 always does), into dig;
 * decimal exponent into *x. Returns the number of digits and sets *prec
 * to the precision taken. v is finite and not zero (fmt_plain() writes
 * the others).
 */
static size_t digits_shortest(double v, char *dig, int *x, int *prec)
{
	char d17[20];
	size_t n = digits_exact15(v, dig, x);
	int x17;

	*prec = 15;
	if (n)
		return n;
	/* printed once, at 17 digits (v is finite and not zero: 17 of them);
	 * 15 and 16 rounded from them (a fifth of a parse's numbers: one call
	 * into printf instead of three) */
	sci_digits(v, 17, d17, &x17);
	for (*prec = 15; *prec <= 16; (*prec)++) {
		n = (size_t)*prec;
		if (!digits_rounded(d17, x17, *prec, dig, x))
			n = sci_digits(v, *prec, dig, x);
		if (digits_round_trip(v, dig, n, *x))
			return n;
	}
	memcpy(dig, d17, 17);
	*x = x17;
	return 17;
}

/*
 * The 15 significant digits of |v| as a spreadsheet writes them: the
 * shortest decimal that reads back as v, rounded half up to 15 digits. So
 * 783480.3837556645 gives 783480.383755665, as a re-save writes it, where
 * rounding the binary value (printf's %.15g) would give ...664.
 */
static size_t digits15(double v, char *dig, int *x)
{
	char longer[20];
	size_t k;
	int lx, prec;

	k = digits_shortest(v, longer, &lx, &prec);
	memcpy(dig, longer, k < 15 ? k : 15);
	*x = lx;
	if (prec == 15)
		return k;
	/* round longer[0..k) half up to 15 digits */
	if (longer[15] >= '5') {
		int i = 14;

		while (i >= 0 && dig[i] == '9')
			dig[i--] = '0';
		if (i >= 0) {
			dig[i]++;
		} else {
			memmove(dig + 1, dig, 14);
			dig[0] = '1';
			(*x)++;
		}
	}
	return 15;
}

/*
 * Lay out the digits dig[0..n) x 10^(x-n+1) (sign neg) as printf's
 * "%.<prec>g" does, trailing zeros dropped, into buf (NUM_TEXT bytes):
 * an exponent when x < -4 or x >= prec, at least two exponent digits.
 * Returns the length.
 */
static size_t lay_out(int neg, const char *dig, size_t n, int x, int prec, char *buf)
{
	size_t pos = 0, i;

	while (n > 1 && dig[n - 1] == '0')
		n--;
	if (neg)
		buf[pos++] = '-';
	if (x < -4 || x >= prec) {
		buf[pos++] = dig[0];
		if (n > 1) {
			buf[pos++] = '.';
			for (i = 1; i < n; i++)
				buf[pos++] = dig[i];
		}
		buf[pos++] = 'e';
		buf[pos++] = x < 0 ? '-' : '+';
		mc_put_decimal(buf, NUM_TEXT, &pos, (unsigned long long)(x < 0 ? -x : x), 2);
	} else if (x >= 0) {
		for (i = 0; i <= (size_t)x; i++)
			buf[pos++] = i < n ? dig[i] : '0';
		if (n > (size_t)x + 1) {
			buf[pos++] = '.';
			for (i = (size_t)x + 1; i < n; i++)
				buf[pos++] = dig[i];
		}
	} else {
		buf[pos++] = '0';
		buf[pos++] = '.';
		for (i = 1; i < (size_t)-x; i++)
			buf[pos++] = '0';
		for (i = 0; i < n; i++)
			buf[pos++] = dig[i];
	}
	buf[pos] = '\0';
	return pos;
}

/*
 * The texts of v that need no digits: "nan", "inf", "-inf", "0" (-0 too),
 * and integers below 10^15 (at most 15 digits, written out). Returns the
 * length written to buf (NUM_TEXT bytes), 0 for any other value.
 */
static size_t fmt_plain(double v, char *buf)
{
	size_t pos = 0;
	const char *t = NULL;

	if (isnan(v))
		t = "nan";
	else if (isinf(v))
		t = v < 0 ? "-inf" : "inf";
	else if (v == 0.0)
		t = "0";
	if (t) {
		memcpy(buf, t, strlen(t) + 1);
		return strlen(t);
	}
	if (fabs(v) < 1e15 && v == (double)(long long)v) {
		int neg = v < 0;
		unsigned long long u = (unsigned long long)(neg ? -(long long)v
							 : (long long)v);

		if (neg)
			buf[pos++] = '-';
		mc_put_decimal(buf, NUM_TEXT, &pos, u, 1);
		buf[pos] = '\0';
		return pos;
	}
	return 0;
}

/*
 * The compared text of v into buf (NUM_TEXT bytes), whatever the
 * locale: 15 significant digits (digits15) in "%.15g" layout. Returns its
 * length.
 */
static size_t fmt15(double v, char *buf)
{
	char dig[20];
	size_t n = fmt_plain(v, buf);
	int x = 0;

	if (n)
		return n;
	n = digits15(v, dig, &x);
	return lay_out(v < 0, dig, n, x, 15, buf);
}

/*
 * The stored text of v into buf (NUM_TEXT bytes), whatever the locale:
 * the first of "%.15g", "%.16g", "%.17g" that reads back as v. Returns its
 * length.
 */
static size_t fmt_shortest(double v, char *buf)
{
	char dig[20];
	size_t n = fmt_plain(v, buf);
	int x = 0, prec;

	if (n)
		return n;
	n = digits_shortest(v, dig, &x, &prec);
	return lay_out(v < 0, dig, n, x, prec, buf);
}

void norm_number_format(double value, sbuf *out)
{
	char buf[NUM_TEXT];

	sbuf_add(out, buf, fmt_shortest(value, buf));
}

void norm_number_compared(double value, sbuf *out)
{
	char buf[NUM_TEXT];

	sbuf_add(out, buf, fmt15(value, buf));
}

int norm_number(const char *s, size_t len, sbuf *out, char *why)
{
	double v;
	int rc = norm_number_parse(s, len, &v, why);

	if (rc == NORM_OK)
		norm_number_format(v, out);
	return rc;
}

/* One cell as a number of unit (NULL: bare): the status, *value. */
static int number_of(const norm_unit *unit, const char *s, size_t len, double *value, char *why)
{
	return unit ? norm_quantity_parse(unit, s, len, value, why)
		    : norm_number_parse(s, len, value, why);
}

int norm_number_rollup(const norm_unit *unit, const char *s, size_t len, sbuf *out, char *why)
{
	double whole, items[64];
	size_t n = 0, i, at, start = 0;
	int rc = number_of(unit, s, len, &whole, why);

	if (rc != NORM_INVALID) {
		if (rc == NORM_OK)
			norm_number_format(whole, out);
		return rc;
	}
	for (at = 0; at <= len; at++) {
		double v;

		if (at < len && s[at] != ',')
			continue;
		if (n == sizeof(items) / sizeof(*items) ||
		    number_of(unit, s + start, at - start, &v, NULL) != NORM_OK)
			return NORM_INVALID;    /* why: the whole cell's */
		for (i = 0; i < n && !norm_number_equal(items[i], v); i++)
			;
		if (i == n)
			items[n++] = v;
		start = at + 1;
	}
	for (i = 0; i < n; i++) {
		if (i)
			sbuf_addc(out, ',');
		norm_number_format(items[i], out);
	}
	return NORM_OK;
}

int norm_number_text_compared(const char *s, size_t len, sbuf *out)
{
	double v;
	int rc = norm_number_parse(s, len, &v, NULL);

	if (rc == NORM_OK)
		norm_number_compared(v, out);
	return rc;
}

int norm_number_text_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	double x, y;

	if (alen == blen && (!alen || !memcmp(a, b, alen)))
		return 1;
	return norm_number_parse(a, alen, &x, NULL) == NORM_OK &&
	       norm_number_parse(b, blen, &y, NULL) == NORM_OK && norm_number_equal(x, y);
}

int norm_number_equal(double a, double b)
{
	char ba[NUM_TEXT], bb[NUM_TEXT];
	size_t na, nb;

	if (a == b)
		return 1;
	na = fmt15(a, ba);
	nb = fmt15(b, bb);
	return na == nb && !memcmp(ba, bb, na);
}

/* ------------------------------------------------------------------ */
/* Dates                                                               */
/* ------------------------------------------------------------------ */

static size_t digit_run(uptr p, uptr e)
{
	uptr q = p;

	while (q < e && is_digit(*q))
		q++;
	return (size_t)(q - p);
}

/* Value of n (<= 9) decimal digits at p. */
static int digits_value(uptr p, size_t n)
{
	int v = 0;

	while (n--)
		v = v * 10 + (*p++ - '0');
	return v;
}

static int is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
	static const int days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

/* English month name, full or 3-letter (also "Sept"), any case: 1..12,
 * or 0. */
static int month_from_name(uptr p, size_t n)
{
	static const char *const names[12] = {
		"january", "february", "march", "april", "may", "june", "july",
		"august", "september", "october", "november", "december"
	};
	int m;

	for (m = 0; m < 12; m++) {
		size_t full = strlen(names[m]);

		if ((n == 3 || n == full) && ieq((const char *)p, names[m], n))
			return m + 1;
	}
	if (n == 4 && ieq((const char *)p, "sept", 4))
		return 9;
	return 0;
}

/* Skip spaces and tabs; returns how many were skipped. */
static size_t skip_spaces(uptr *pp, uptr e)
{
	uptr p = *pp;
	size_t n = 0;

	while (p < e && (*p == ' ' || *p == '\t')) {
		p++;
		n++;
	}
	*pp = p;
	return n;
}

/* Separator between words of a written date: spaces, at most one comma.
 * Returns 0 if at least one such character was skipped, -1 otherwise. */
static int skip_sep(uptr *pp, uptr e)
{
	size_t n = skip_spaces(pp, e);

	if (*pp < e && **pp == ',') {
		(*pp)++;
		n++;
		n += skip_spaces(pp, e);
	}
	return n ? 0 : -1;
}

/*
 * Time of day, after the date: H[H]:MM[:SS[.fraction]] then, if
 * allow_offset, an optional UTC offset (one space may come before it):
 * "Z", "z", ±HH, ±HHMM or ±HH:MM. The fraction of a second is read and
 * dropped. Must run to e.
 */
static int parse_time(uptr p, uptr e, struct norm_date *d, int allow_offset,
		      char *why)
{
	size_t n;

	n = digit_run(p, e);
	if (n < 1 || n > 2)
		return fail(why, "bad time of day");
	d->hour = digits_value(p, n);
	p += n;
	if (p >= e || *p != ':' || digit_run(p + 1, e) != 2)
		return fail(why, "bad time of day");
	d->minute = digits_value(p + 1, 2);
	p += 3;
	if (p < e && *p == ':') {
		if (digit_run(p + 1, e) != 2)
			return fail(why, "bad time of day");
		d->second = digits_value(p + 1, 2);
		p += 3;
		if (p < e && *p == '.') {
			n = digit_run(p + 1, e);
			if (!n)
				return fail(why, "bad fraction of a second");
			p += 1 + n;
		}
	}
	if (d->hour > 23 || d->minute > 59 || d->second > 59)
		return fail(why, "time of day out of range");
	if (p < e && allow_offset) {
		int sign, oh, om = 0;

		if (*p == ' ' && e - p >= 2)
			p++;
		if (*p == 'Z' || *p == 'z') {
			p++;
			d->has_utc_offset = 1;
			d->utc_offset_minutes = 0;
		} else if (*p == '+' || *p == '-') {
			sign = *p == '-' ? -1 : 1;
			p++;
			n = digit_run(p, e);
			if (n == 4) {
				oh = digits_value(p, 2);
				om = digits_value(p + 2, 2);
				p += 4;
			} else if (n == 2) {
				oh = digits_value(p, 2);
				p += 2;
				if (p < e && *p == ':') {
					if (digit_run(p + 1, e) != 2)
						return fail(why, "bad UTC offset");
					om = digits_value(p + 1, 2);
					p += 3;
				}
			} else {
				return fail(why, "bad UTC offset");
			}
			if (oh > 23 || om > 59)
				return fail(why, "UTC offset out of range");
			d->has_utc_offset = 1;
			d->utc_offset_minutes = sign * (oh * 60 + om);
		}
	}
	if (p != e)
		return fail(why, "unexpected text after the time");
	d->precision = DATE_TIME;
	return NORM_OK;
}

/*
 * The forms of a date, each from p (trimmed, up to e) into *d: NORM_OK,
 * or NORM_INVALID with the reason in why. Ranges are checked after.
 */

/* YYYY[-M[M][-D[D][(T|t| )time]]]: p starts with four digits. */
static int date_iso(uptr p, uptr e, struct norm_date *d, char *why)
{
	size_t n;

	d->year = digits_value(p, 4);
	p += 4;
	d->precision = DATE_YEAR;
	if (p < e) {
		if (*p != '-' || (n = digit_run(p + 1, e)) < 1 || n > 2)
			return fail(why, "not a date");
		d->month = digits_value(p + 1, n);
		p += 1 + n;
		d->precision = DATE_MONTH;
	}
	if (p < e) {
		if (*p != '-' || (n = digit_run(p + 1, e)) < 1 || n > 2)
			return fail(why, "not a date");
		d->day = digits_value(p + 1, n);
		p += 1 + n;
		d->precision = DATE_DAY;
	}
	if (p < e) {
		if (*p != 'T' && *p != 't' && *p != ' ')
			return fail(why, "unexpected text after the date");
		return parse_time(p + 1, e, d, 1, why);
	}
	return NORM_OK;
}

/* M[M]/D[D]/YYYY[ time]: p starts with the n month digits and a '/'. */
static int date_us(uptr p, size_t n, uptr e, struct norm_date *d, char *why)
{
	d->month = digits_value(p, n);
	p += n + 1;
	n = digit_run(p, e);
	if (n < 1 || n > 2 || p + n >= e || p[n] != '/')
		return fail(why, "not a date");
	d->day = digits_value(p, n);
	p += n + 1;
	if (digit_run(p, e) != 4)
		return fail(why, "year must have four digits");
	d->year = digits_value(p, 4);
	p += 4;
	d->precision = DATE_DAY;
	if (p < e) {
		if (!skip_spaces(&p, e))
			return fail(why, "unexpected text after the date");
		return parse_time(p, e, d, 0, why);
	}
	return NORM_OK;
}

/* D[D] Month[.][,] YYYY: p starts with the n day digits. */
static int date_day_month(uptr p, size_t n, uptr e, struct norm_date *d,
			  char *why)
{
	uptr w;

	d->day = digits_value(p, n);
	p += n;
	if (!skip_spaces(&p, e))
		return fail(why, "not a date");
	for (w = p; p < e && is_alpha(*p); p++)
		;
	d->month = month_from_name(w, (size_t)(p - w));
	if (!d->month)
		return fail(why, "not a date");
	if (p < e && *p == '.')
		p++;
	if (skip_sep(&p, e) || digit_run(p, e) != 4)
		return fail(why, "not a date");
	d->year = digits_value(p, 4);
	p += 4;
	d->precision = DATE_DAY;
	if (p != e)
		return fail(why, "unexpected text after the date");
	return NORM_OK;
}

/* Month[.] D[D][,] YYYY or Month[.][,] YYYY: p starts with a letter. */
static int date_month_first(uptr p, uptr e, struct norm_date *d, char *why)
{
	uptr w = p;
	size_t n;

	while (p < e && is_alpha(*p))
		p++;
	d->month = month_from_name(w, (size_t)(p - w));
	if (!d->month)
		return fail(why, "not a date");
	if (p < e && *p == '.')
		p++;
	if (skip_sep(&p, e))
		return fail(why, "not a date");
	n = digit_run(p, e);
	if (n == 4) {
		d->year = digits_value(p, 4);
		p += 4;
		d->precision = DATE_MONTH;
	} else if (n >= 1 && n <= 2) {
		d->day = digits_value(p, n);
		p += n;
		if (skip_sep(&p, e) || digit_run(p, e) != 4)
			return fail(why, "not a date");
		d->year = digits_value(p, 4);
		p += 4;
		d->precision = DATE_DAY;
	} else {
		return fail(why, "not a date");
	}
	if (p != e)
		return fail(why, "unexpected text after the date");
	return NORM_OK;
}

/*
 * Accepted (after trimming outer white space; month names English, full
 * or 3-letter or "Sept", any case, optionally followed by "."):
 *   YYYY                         year
 *   YYYY-M[M]                    month
 *   YYYY-M[M]-D[D]               day
 *   YYYY-MM-DD(T|t| )H[H]:MM[:SS[.f]][ ][Z|±HH[[:]MM]]   date-time
 *   M[M]/D[D]/YYYY               day (US order)
 *   M[M]/D[D]/YYYY H[H]:MM[:SS]  date-time, no offset
 *   D[D] Month[,] YYYY           day
 *   Month D[D][,] YYYY           day
 *   Month[,] YYYY                month
 * Year 0001-9999; month, day, hour, minute, second, offset range-checked
 * (leap years by the Gregorian rule).
 */
int norm_date_parse(const char *s, size_t len, struct norm_date *date,
		    char *why)
{
	struct norm_date d;
	uptr p, e;
	size_t n;
	int rc;

	if (why)
		why[0] = '\0';
	trim(s, len, &p, &e);
	if (p == e)
		return NORM_EMPTY;
	memset(&d, 0, sizeof d);

	if (is_digit(*p)) {
		n = digit_run(p, e);
		if (n == 4)
			rc = date_iso(p, e, &d, why);
		else if (n <= 2 && p + n < e && p[n] == '/')
			rc = date_us(p, n, e, &d, why);
		else if (n <= 2)
			rc = date_day_month(p, n, e, &d, why);
		else
			rc = fail(why, "not a date");
	} else if (is_alpha(*p)) {
		rc = date_month_first(p, e, &d, why);
	} else {
		rc = fail(why, "not a date");
	}
	if (rc != NORM_OK)
		return rc;

	if (d.year < 1)
		return fail(why, "year out of range");
	if (d.precision >= DATE_MONTH && (d.month < 1 || d.month > 12))
		return fail(why, "month out of range");
	if (d.precision >= DATE_DAY &&
	    (d.day < 1 || d.day > days_in_month(d.year, d.month)))
		return fail(why, "day out of range for the month");
	if (date)
		*date = d;
	return NORM_OK;
}

/* Write v (0 when below) as at least width decimal digits at buf + *n,
 * and advance *n: a date's two-digit parts and four-digit year directly,
 * anything else by mc_put_decimal(), within len bytes. */
static void put_num(char *buf, size_t len, size_t *n, int v, int width)
{
	if (v < 0)
		v = 0;
	if (width == 2 && v < 100) {        /* month, day, hour...: most calls */
		buf[(*n)++] = (char)('0' + v / 10);
		buf[(*n)++] = (char)('0' + v % 10);
		return;
	}
	if (width == 4 && v >= 1000 && v < 10000) {    /* a year */
		buf[(*n)++] = (char)('0' + v / 1000);
		buf[(*n)++] = (char)('0' + v / 100 % 10);
		buf[(*n)++] = (char)('0' + v / 10 % 10);
		buf[(*n)++] = (char)('0' + v % 10);
		return;
	}
	mc_put_decimal(buf, len, n, (unsigned long long)v, width);
}

/* The text is made in a buffer and appended once: a date is in most rows,
 * and appending it a byte at a time was 3 % of a parse. */
void norm_date_format(const struct norm_date *date, sbuf *out)
{
	char buf[48];               /* 11 digits of year, then at most 21 */
	size_t n = 0;
	int off;

	put_num(buf, sizeof(buf), &n, date->year, 4);
	if (date->precision >= DATE_MONTH) {
		buf[n++] = '-';
		put_num(buf, sizeof(buf), &n, date->month, 2);
	}
	if (date->precision >= DATE_DAY) {
		buf[n++] = '-';
		put_num(buf, sizeof(buf), &n, date->day, 2);
	}
	if (date->precision >= DATE_TIME) {
		buf[n++] = 'T';
		put_num(buf, sizeof(buf), &n, date->hour, 2);
		buf[n++] = ':';
		put_num(buf, sizeof(buf), &n, date->minute, 2);
		buf[n++] = ':';
		put_num(buf, sizeof(buf), &n, date->second, 2);
		if (date->has_utc_offset) {
			off = date->utc_offset_minutes;
			buf[n++] = off < 0 ? '-' : '+';
			if (off < 0)
				off = -off;
			put_num(buf, sizeof(buf), &n, off / 60, 2);
			buf[n++] = ':';
			put_num(buf, sizeof(buf), &n, off % 60, 2);
		}
	}
	sbuf_add(out, buf, n);
}

int norm_date(const char *s, size_t len, sbuf *out, char *why)
{
	struct norm_date d;
	int rc = norm_date_parse(s, len, &d, why);

	if (rc == NORM_OK)
		norm_date_format(&d, out);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Booleans, lists, enumerations, text                                 */
/* ------------------------------------------------------------------ */

int norm_bool(const char *s, size_t len, sbuf *out, char *why)
{
	static const char *const yes[] = { "true", "yes", "1" };
	static const char *const no[] = { "false", "no", "0" };
	uptr p, e;
	size_t n, i;

	if (why)
		why[0] = '\0';
	trim(s, len, &p, &e);
	n = (size_t)(e - p);
	if (!n)
		return NORM_EMPTY;
	for (i = 0; i < 3; i++) {
		if (n == strlen(yes[i]) && ieq((const char *)p, yes[i], n)) {
			sbuf_add(out, "True", 4);
			return NORM_OK;
		}
		if (n == strlen(no[i]) && ieq((const char *)p, no[i], n)) {
			sbuf_add(out, "False", 5);
			return NORM_OK;
		}
	}
	return fail(why, "not a boolean (True/False, Yes/No, 1/0)");
}

/*
 * Items are split on every comma (there is no quoting inside a cell), so
 * a name that itself holds a comma becomes two items. Inside an item,
 * CRLF and CR become LF like norm_text. A cell of only commas and white
 * space has no item and gives NORM_EMPTY. Never NORM_INVALID.
 */
int norm_list(const char *s, size_t len, sbuf *out, char *why)
{
	uptr p, e, comma, b, t;
	size_t items = 0;

	if (why)
		why[0] = '\0';
	trim(s, len, &p, &e);
	while (p < e) {
		comma = memchr(p, ',', (size_t)(e - p));
		if (!comma)
			comma = e;
		trim((const char *)p, (size_t)(comma - p), &b, &t);
		if (b < t) {
			if (items++)
				sbuf_addc(out, ',');
			add_lf(out, b, t);
		}
		p = comma + (comma < e);
	}
	return items ? NORM_OK : NORM_EMPTY;
}

/* Case matching is ASCII-only ("open source" matches "Open source"). */
int norm_enum(const char *s, size_t len, const char *const *known,
	      sbuf *out, int *unknown)
{
	uptr p, e;
	size_t n, i, k;

	if (unknown)
		*unknown = 0;
	trim(s, len, &p, &e);
	n = (size_t)(e - p);
	if (!n)
		return NORM_EMPTY;
	for (k = 0; k < 2; k++) {
		for (i = 0; known && known[i]; i++) {
			if (strlen(known[i]) != n)
				continue;
			if (k == 0 ? !memcmp(known[i], p, n)
				   : ieq(known[i], (const char *)p, n)) {
				sbuf_add(out, known[i], n);
				return NORM_OK;
			}
		}
	}
	sbuf_add(out, p, n);
	if (unknown)
		*unknown = 1;
	return NORM_OK;
}

int norm_text(const char *s, size_t len, sbuf *out)
{
	uptr p, e;

	trim(s, len, &p, &e);
	if (p == e)
		return NORM_EMPTY;
	add_lf(out, p, e);
	return NORM_OK;
}

/* A cursor over text whose white-space runs read as one space. */
struct fold {
	uptr p, e;
};

/* Next byte of the folded text, or -1 at the end. The text was trimmed,
 * so a white-space run is always followed by something. */
static int fold_next(struct fold *f)
{
	size_t w;

	if (f->p >= f->e)
		return -1;
	if (!ws_len(f->p, f->e))
		return *f->p++;
	while (f->p < f->e && (w = ws_len(f->p, f->e)) != 0)
		f->p += w;
	return ' ';
}

int norm_text_fold_equal(const char *a, size_t alen, const char *b,
			 size_t blen)
{
	struct fold fa, fb;
	int ca, cb;

	trim(a, alen, &fa.p, &fa.e);
	trim(b, blen, &fb.p, &fb.e);
	do {
		ca = fold_next(&fa);
		cb = fold_next(&fb);
		if (ca != cb)
			return 0;
	} while (ca >= 0);
	return 1;
}

/* ------------------------------------------------------------------ */
/* Organisation alignment                                              */
/* ------------------------------------------------------------------ */

/* Items of a comma-separated list that are not empty after trimming. */
static size_t count_items(const char *s)
{
	uptr p, e, comma, b, t;
	size_t n = 0;

	if (!s)
		return 0;
	p = (uptr)s;
	e = p + strlen(s);
	while (p < e) {
		comma = memchr(p, ',', (size_t)(e - p));
		if (!comma)
			comma = e;
		trim((const char *)p, (size_t)(comma - p), &b, &t);
		if (b < t)
			n++;
		p = comma + (comma < e);
	}
	return n;
}

size_t norm_org_align(const char *orgs, const char *categories,
		      const char *countries, int *categories_aligned,
		      int *countries_aligned)
{
	size_t n = count_items(orgs);

	if (categories_aligned)
		*categories_aligned = count_items(categories) == n;
	if (countries_aligned)
		*countries_aligned = count_items(countries) == n;
	return n;
}

/* ---- quantities: numbers with a unit ---- */

/* An SI prefix: its text and its power (of 10, or of 2 when binary). */
struct unit_prefix {
	const char *text;
	int power;
	int binary;
};

static const struct unit_prefix prefixes_large[] = {
	{ "k", 3, 0 }, { "K", 3, 0 }, { "M", 6, 0 }, { "G", 9, 0 }, { "T", 12, 0 },
	{ "P", 15, 0 }, { "E", 18, 0 }, { NULL, 0, 0 }
};
static const struct unit_prefix prefixes_bytes[] = {
	{ "Ki", 10, 1 }, { "Mi", 20, 1 }, { "Gi", 30, 1 }, { "Ti", 40, 1 }, { "Pi", 50, 1 },
	{ "k", 3, 0 }, { "K", 3, 0 }, { "M", 6, 0 }, { "G", 9, 0 }, { "T", 12, 0 },
	{ "P", 15, 0 }, { "E", 18, 0 }, { NULL, 0, 0 }
};
static const struct unit_prefix prefixes_watts[] = {
	{ "m", -3, 0 }, { "k", 3, 0 }, { "K", 3, 0 }, { "M", 6, 0 }, { NULL, 0, 0 }
};
static const struct unit_prefix prefixes_metres[] = {
	{ "n", -9, 0 }, { "\xc2\xb5", -6, 0 }, { "\xce\xbc", -6, 0 }, { "u", -6, 0 },
	{ "m", -3, 0 }, { NULL, 0, 0 }
};
static const struct unit_prefix prefixes_none[] = { { NULL, 0, 0 } };

struct norm_unit {
	const char *name;                      /* as in unit=NAME */
	int power;                             /* the header's unit is 10^power
						  of the spelled unit (MHz: 6) */
	const char *const *spellings;          /* after the number */
	const struct unit_prefix *prefixes;    /* allowed before a spelling */
	int currency;                          /* "$" or "US$" may come first */
};

static const char *const sp_byte[] = { "B", "byte", "bytes", "Byte", "Bytes", NULL };
static const char *const sp_flops[] = { "FLOP/s", "FLOPS", "FLOPs", "flop/s", NULL };
static const char *const sp_ops[] = { "OP/s", "OPS", "OPs", "op/s", NULL };
static const char *const sp_byte_s[] = { "B/s", "byte/s", "bytes/s", "Byte/s", NULL };
static const char *const sp_bit_s[] = { "bit/s", "bits/s", "b/s", "bps", NULL };
static const char *const sp_bit[] = { "bit", "bits", NULL };
static const char *const sp_watt[] = { "W", "watt", "watts", NULL };
static const char *const sp_usd[] = { "USD", NULL };
static const char *const sp_mm2[] = { "mm^2", "mm\xc2\xb2", "mm2", NULL };
static const char *const sp_hz[] = { "Hz", NULL };
static const char *const sp_metre[] = { "m", NULL };

static const norm_unit units[] = {
	{ "byte", 0, sp_byte, prefixes_bytes, 0 },
	{ "FLOP/s", 0, sp_flops, prefixes_large, 0 },
	{ "OP/s", 0, sp_ops, prefixes_large, 0 },
	{ "byte/s", 0, sp_byte_s, prefixes_bytes, 0 },
	{ "bit/s", 0, sp_bit_s, prefixes_large, 0 },
	{ "bit", 0, sp_bit, prefixes_large, 0 },
	{ "W", 0, sp_watt, prefixes_watts, 0 },
	{ "USD", 0, sp_usd, prefixes_none, 1 },
	{ "mm2", 0, sp_mm2, prefixes_none, 0 },
	{ "MHz", 6, sp_hz, prefixes_large, 0 },
	{ "nm", -9, sp_metre, prefixes_metres, 0 },
};

const norm_unit *norm_unit_named(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(units[i].name, name))
			return &units[i];
	return NULL;
}

const char *norm_unit_names(void)
{
	return "byte, FLOP/s, OP/s, byte/s, bit/s, bit, W, USD, mm2, MHz, nm";
}

const char *norm_unit_name(const norm_unit *unit)
{
	return unit->name;
}

/* v times 2^power (binary) or 10^power, each power of ten exact. */
static double scale(double v, int power, int binary)
{
	double f = 1.0;
	int i, n = power < 0 ? -power : power;

	for (i = 0; i < n; i++)
		f *= binary ? 2.0 : 10.0;
	return power < 0 ? v / f : v * f;
}

/* [p, e) ends with text: 1 and *pe moved back before it. */
static int ends_with(uptr p, uptr *pe, const char *text)
{
	size_t n = strlen(text);

	if ((size_t)(*pe - p) < n || memcmp(*pe - n, text, n))
		return 0;
	*pe -= n;
	return 1;
}

/* The number in [p, e) followed by prefix (or none) in the unit's terms:
 * NORM_OK and *value, or NORM_INVALID. */
static int quantity_with_prefix(const norm_unit *unit, uptr p, uptr e,
				const struct unit_prefix *prefix, double *value)
{
	double v;
	int power = 0;

	if (prefix) {
		if (!ends_with(p, &e, prefix->text))
			return NORM_INVALID;
		power = prefix->power;
	}
	if (e == p || norm_number_parse((const char *)p, (size_t)(e - p), &v, NULL) != NORM_OK)
		return NORM_INVALID;
	if (prefix && prefix->binary)
		v = scale(v, power, 1);
	else
		v = scale(v, power - unit->power, 0);
	*value = v;
	return NORM_OK;
}

/* The number and unit in [p, e) (no currency sign): NORM_OK or
 * NORM_INVALID. */
static int quantity_spelled(const norm_unit *unit, uptr p, uptr e, double *value)
{
	size_t s, k;

	for (s = 0; unit->spellings[s]; s++) {
		uptr end = e;

		if (!ends_with(p, &end, unit->spellings[s]))
			continue;
		for (k = 0; unit->prefixes[k].text; k++)
			if (quantity_with_prefix(unit, p, end, &unit->prefixes[k], value) == NORM_OK)
				return NORM_OK;
		if (quantity_with_prefix(unit, p, end, NULL, value) == NORM_OK)
			return NORM_OK;
	}
	return NORM_INVALID;
}

int norm_quantity_parse(const norm_unit *unit, const char *s, size_t len,
			double *value, char *why)
{
	uptr p, e;
	double v;
	int rc = norm_number_parse(s, len, &v, why);

	if (rc != NORM_INVALID) {
		if (rc == NORM_OK && value)
			*value = v;
		return rc;
	}
	trim(s, len, &p, &e);
	if (unit->currency) {
		if (!ends_with(p, &e, "USD")) {
			uptr q = p;

			if ((size_t)(e - q) >= 3 && !memcmp(q, "US$", 3))
				q += 3;
			else if (q < e && *q == '$')
				q++;
			if (q != p && norm_number_parse((const char *)q, (size_t)(e - q), &v,
							NULL) == NORM_OK)
				goto ok;
			e = p;
		} else if (norm_number_parse((const char *)p, (size_t)(e - p), &v, NULL) ==
			   NORM_OK) {
			goto ok;
		}
	} else if (quantity_spelled(unit, p, e, &v) == NORM_OK) {
		goto ok;
	}
	if (why)
		mc_fmt(why, NORM_WHY_LEN, "not a number in %s", unit->name);
	return NORM_INVALID;
ok:
	if (value)
		*value = v;
	return NORM_OK;
}

int norm_quantity(const norm_unit *unit, const char *s, size_t len, sbuf *out, char *why)
{
	double v;
	int rc = norm_quantity_parse(unit, s, len, &v, why);

	if (rc == NORM_OK)
		norm_number_format(v, out);
	return rc;
}
