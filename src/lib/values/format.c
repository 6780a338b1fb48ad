#include "values/format.h"
#include "values/normalise.h"
#include "values/value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const format_lang languages[] = {
	{ "en", ',', '.', { "M", "B", "T" },
	  { "January", "February", "March", "April", "May", "June", "July", "August",
	    "September", "October", "November", "December" }, "Yes", "No", "$", " and " },
	{ "nl", '.', ',', { " miljoen", " miljard", " biljoen" },
	  { "januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus",
	    "september", "oktober", "november", "december" }, "Ja", "Nee", "$ ", " en " },
};

const format_lang *format_lang_of(const char *code)
{
	size_t i;

	for (i = 0; code && i < sizeof(languages) / sizeof(languages[0]); i++)
		if (!strcmp(languages[i].code, code))
			return &languages[i];
	return &languages[0];
}

void format_lang_init(format_lang *l, const char *code)
{
	*l = *format_lang_of(code);
}

void format_decimal(const format_lang *l, double value, int decimals, int trim, sbuf *out)
{
	char digits[400];
	const char *point, *p;
	size_t start, intlen, i;

	if (!isfinite(value)) {
		sbuf_adds(out, "?");
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	mc_fmt(digits, sizeof(digits), "%.*f", decimals, value);
	/* "-0" and "-0.0" are zero */
	if (digits[0] == '-' && strspn(digits + 1, "0.") == strlen(digits + 1))
		memmove(digits, digits + 1, strlen(digits));
	p = digits;
	if (*p == '-') {
		sbuf_addc(out, '-');
		p++;
	}
	point = strchr(p, '.');
	intlen = point ? (size_t)(point - p) : strlen(p);
	for (i = 0; i < intlen; i++) {
		if (i && (intlen - i) % 3 == 0)
			sbuf_addc(out, l->group);
		sbuf_addc(out, p[i]);
	}
	if (!point)
		return;
	start = out->len;
	sbuf_adds(out, point);
	out->data[start] = l->point;
	if (trim) {
		while (out->len > start && out->data[out->len - 1] == '0')
			out->len--;
		if (out->len > start && out->data[out->len - 1] == l->point)
			out->len--;
		out->data[out->len] = '\0';
	}
}

/*
 * |value| to three significant digits as printf's "%.2e" rounds it (to
 * nearest, ties to even): *digits from 100 to 999 and *exp10, the value
 * being about digits x 10^(exp10 - 2). In integer arithmetic, exact, for
 * a whole |value| from 1 to 1e36 (counts, parameters, FLOP: most of a
 * page's numbers); 0 for any other value, which snprintf() rounds.
 */
static int three_exact(double value, unsigned *digits, int *exp10)
{
	double a = fabs(value);
	unsigned __int128 n, p = 1, unit, q, rem;
	int d = 0;

	if (!(a >= 1 && a < 1e36) || a != floor(a))
		return 0;
	n = (unsigned __int128)a;
	while (p * 10 <= n) {
		p *= 10;
		d++;
	}
	if (d <= 2) {
		*digits = (unsigned)(d == 2 ? n : d == 1 ? n * 10 : n * 100);
		*exp10 = d;
		return 1;
	}
	unit = p / 100;
	q = n / unit;
	rem = n % unit;
	if (rem > unit / 2 || (rem == unit / 2 && (q & 1)))
		q++;
	if (q == 1000) {
		q = 100;
		d++;
	}
	*digits = (unsigned)q;
	*exp10 = d;
	return 1;
}

/* value rounded to three significant digits, as a double: strtod() of
 * its "%.2e", which is the double nearest digits x 10^(exp10 - 2) that
 * the conversion of that whole number gives too. */
static double three_digits(double value)
{
	char buf[64];
	unsigned digits;
	int exp10;

	if (three_exact(value, &digits, &exp10)) {
		unsigned __int128 whole = digits;

		if (exp10 < 2)
			return value;   /* (up to three digits: itself) */
		while (exp10-- > 2)
			whole *= 10;
		return value < 0 ? -(double)whole : (double)whole;
	}
	mc_fmt(buf, sizeof(buf), "%.2e", value);
	return strtod(buf, NULL);
}

/* Up to three significant digits of a value between 1 and 1000 (more
 * digits for larger ones), trailing zeros dropped. */
static void add_significant(const format_lang *l, double value, sbuf *out)
{
	if (fabs(value) >= 100)
		format_decimal(l, value, 0, 1, out);
	else if (fabs(value) >= 10)
		format_decimal(l, value, 1, 1, out);
	else
		format_decimal(l, value, 2, 1, out);
}

void format_count(const format_lang *l, double value, sbuf *out)
{
	static const double scales[] = { 1e6, 1e9, 1e12 };
	double rounded = three_digits(value);
	size_t i;

	for (i = 3; i > 0; i--) {
		if (fabs(rounded) >= scales[i - 1]) {
			add_significant(l, rounded / scales[i - 1], out);
			sbuf_adds(out, l->count[i - 1]);
			return;
		}
	}
	format_number(l, value, out);
}

void format_power_of_ten(const format_lang *l, double value, sbuf *out)
{
	static const char *const superscript[] = {
		"\xE2\x81\xB0", "\xC2\xB9", "\xC2\xB2", "\xC2\xB3", "\xE2\x81\xB4",
		"\xE2\x81\xB5", "\xE2\x81\xB6", "\xE2\x81\xB7", "\xE2\x81\xB8", "\xE2\x81\xB9",
	};
	char buf[64], *e, *p;
	double mantissa;
	unsigned digits;
	int exp10;

	if (!isfinite(value) || value == 0) {
		format_number(l, value, out);
		return;
	}
	if (three_exact(value, &digits, &exp10)) {
		/* the mantissa strtod() reads from "%.2e": the double nearest
		   digits / 100, as the division gives it */
		mc_fmt(buf, sizeof(buf), "%d", exp10);
		mantissa = (double)digits / 100;
		format_decimal(l, value < 0 ? -mantissa : mantissa, 2, 1, out);
		sbuf_adds(out, " \xC3\x97 10");
		for (p = buf; *p >= '0' && *p <= '9'; p++)
			sbuf_adds(out, superscript[*p - '0']);
		return;
	}
	mc_fmt(buf, sizeof(buf), "%.2e", value);
	e = strchr(buf, 'e');
	if (!e) {
		sbuf_adds(out, buf);
		return;
	}
	*e = '\0';
	mantissa = strtod(buf, NULL);
	format_decimal(l, mantissa, 2, 1, out);
	sbuf_adds(out, " \xC3\x97 10");
	p = e + 1;
	if (*p == '-')
		sbuf_adds(out, "\xE2\x81\xBB");
	if (*p == '-' || *p == '+')
		p++;
	while (*p == '0' && p[1])
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		sbuf_adds(out, superscript[*p - '0']);
}

void format_number(const format_lang *l, double value, sbuf *out)
{
	if (fabs(value) >= 1e15 || (value != 0 && fabs(value) < 0.01))
		format_power_of_ten(l, value, out);
	else if (fabs(value) >= 1000 || value == floor(value))
		format_decimal(l, value, 0, 1, out);
	else
		format_decimal(l, value, 2, 1, out);
}

void format_percent(const format_lang *l, double ratio, sbuf *out)
{
	format_decimal(l, ratio * 100, 1, 0, out);
	sbuf_addc(out, '%');
}

void format_si(const format_lang *l, double value, const char *unit, sbuf *out)
{
	static const struct { double scale; const char *prefix; } prefixes[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" }, { 1, "" },
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		double scaled = value / prefixes[i].scale;

		if (fabs(value) >= prefixes[i].scale || i + 1 == sizeof(prefixes) / sizeof(prefixes[0])) {
			/* 99.96 MW rounds to 100.0: written as 100 */
			if (fabs(scaled) < 99.95)
				format_decimal(l, scaled, 1, 0, out);
			else
				format_decimal(l, scaled, 0, 1, out);
			sbuf_addf(out, " %s%s", prefixes[i].prefix, unit);
			return;
		}
	}
}

void format_bytes(const format_lang *l, double bytes, sbuf *out)
{
	static const struct { double scale; const char *unit; } units[] = {
		{ 1e9, "GB" }, { 1e6, "MB" }, { 1e3, "KB" },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double scaled = bytes / units[i].scale;

		if (bytes >= units[i].scale || i + 1 == sizeof(units) / sizeof(units[0])) {
			if (scaled < 1)
				scaled = 1;
			if (scaled < 9.95)
				format_decimal(l, scaled, 1, 1, out);
			else
				format_decimal(l, scaled, 0, 1, out);
			sbuf_addf(out, " %s", units[i].unit);
			return;
		}
	}
}

void format_dollars(const format_lang *l, double value, sbuf *out)
{
	if (value < 0) {
		sbuf_addc(out, '-');
		value = -value;
	}
	sbuf_adds(out, l->dollar);
	format_decimal(l, value, 0, 1, out);
}

void format_list_unique(const char *list, sbuf *out)
{
	const char *p = list;
	size_t start = out->len;

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *seen = out->data + start;
		int repeat = 0;

		/* is p[0..len) already one of the items written? */
		while (out->len > start && seen < out->data + out->len) {
			const char *end = memchr(seen, ',', (size_t)(out->data + out->len - seen));
			size_t n = end ? (size_t)(end - seen) : (size_t)(out->data + out->len - seen);

			if (n == len && !memcmp(seen, p, len)) {
				repeat = 1;
				break;
			}
			if (!end)
				break;
			seen = end + 1;
		}
		if (!repeat && len) {
			if (out->len > start)
				sbuf_addc(out, ',');
			sbuf_add(out, p, len);
		}
		p += len;
		if (*p == ',')
			p++;
	}
}

static int fold_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The first line break in p[0..n), or NULL. */
static const char *line_break(const char *p, size_t n)
{
	const char *nl = memchr(p, '\n', n), *cr = memchr(p, '\r', nl ? (size_t)(nl - p) : n);

	return cr ? cr : nl;
}

/* Every value of every page passes through here: the text between line
 * breaks is copied in one piece (most values have none: one copy). */
void format_fold(const char *text, sbuf *out)
{
	const char *p = text, *end, *at;
	size_t start = out->len;

	while (fold_space(*p))
		p++;
	end = p + strlen(p);
	while (end > p && fold_space(end[-1]))
		end--;
	/* (p and end[-1] are not white space: a break has text on both sides) */
	while ((at = line_break(p, (size_t)(end - p)))) {
		const char *a = at, *b = at;

		while (fold_space(a[-1]))
			a--;
		while (fold_space(*b))
			b++;
		sbuf_add(out, p, (size_t)(a - p));
		sbuf_addc(out, ' ');
		p = b;
	}
	sbuf_add(out, p, (size_t)(end - p));
	if (out->len == start)
		sbuf_add(out, "", 0);
}

void format_lower_first(sbuf *out, size_t from)
{
	if (from < out->len && out->data[from] >= 'A' && out->data[from] <= 'Z' &&
	    !(from + 1 < out->len && out->data[from + 1] >= 'A' && out->data[from + 1] <= 'Z'))
		out->data[from] = (char)(out->data[from] - 'A' + 'a');
}

void format_list_join(const format_lang *l, const char *list, int in_sentence, int lower,
		      sbuf *out)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ","), at;

		if (p != list)
			sbuf_adds(out, in_sentence && !strchr(p, ',') ? l->and_word : ", ");
		at = out->len;
		sbuf_add(out, p, len);
		if (lower)
			format_lower_first(out, at);
		p += len;
		if (*p == ',')
			p++;
	}
}

int format_date(const format_lang *l, const char *iso, int month_only, sbuf *out)
{
	struct norm_date d;

	if (!iso || norm_date_parse(iso, strlen(iso), &d, NULL) != NORM_OK)
		return 0;
	if (d.precision == DATE_YEAR)
		sbuf_addf(out, "%d", d.year);
	else if (month_only || d.precision == DATE_MONTH)
		sbuf_addf(out, "%s %d", l->month[d.month - 1], d.year);
	else
		sbuf_addf(out, "%d %s %d", d.day, l->month[d.month - 1], d.year);
	return 1;
}

void format_bool(const format_lang *l, int yes, sbuf *out)
{
	sbuf_adds(out, yes ? l->yes : l->no);
}

/* Does field's name hold word? */
static int named(const char *field, const char *word)
{
	return strstr(field, word) != NULL;
}

/* A number of field, by the unit its name gives. */
static void format_quantity(const format_lang *l, const char *field, double x, sbuf *out)
{
	if (!strcmp(field, "Parameters") || !strncmp(field, "Training dataset size", 21)) {
		format_count(l, x, out);
	} else if (named(field, "cost") || named(field, "USD") || named(field, "price")) {
		format_dollars(l, x, out);
	} else if (named(field, "(FLOP)")) {
		format_power_of_ten(l, x, out);
		sbuf_adds(out, " FLOP");
	} else if (named(field, "(FLOP/s)") || named(field, "(OP/s)")) {
		format_power_of_ten(l, x, out);
		sbuf_adds(out, named(field, "(FLOP/s)") ? " FLOP/s" : " OP/s");
	} else if (named(field, "(W)")) {
		format_si(l, x, "W", out);
	} else if (named(field, "(byte/s)")) {
		format_si(l, x, "B/s", out);
	} else if (named(field, "(bit/s)")) {
		format_si(l, x, "bit/s", out);
	} else if (named(field, "(bytes)")) {
		format_bytes(l, x, out);
	} else {
		format_number(l, x, out);
	}
}

int format_number_list(const format_lang *l, const char *field, const char *text, sbuf *out)
{
	size_t at = out->len;
	const char *item = text;

	while (item) {
		char *end;
		double value = strtod(item, &end);

		if (end == item || (*end && *end != ',') || !isfinite(value)) {
			out->len = at;
			if (out->data)
				out->data[at] = '\0';
			return -1;
		}
		if (out->len > at)
			sbuf_adds(out, "; ");
		format_quantity(l, field, value, out);
		item = *end ? end + 1 : NULL;
	}
	return 0;
}

void format_value(const format_lang *l, const char *field, const char *text, sbuf *out)
{
	value_kind kind = value_kind_of_field(field, text);
	sbuf unique, joined;
	typed_value v;

	if (value_read(kind, text, &v) && kind == VALUE_NUMBER && strchr(v.text, ',') &&
	    !format_number_list(l, field, v.text, out))
		return;             /* a rollup field's several numbers */
	switch (v.kind) {
	case VALUE_NUMBER:
		format_quantity(l, field, v.number, out);
		return;
	case VALUE_DATE:
		format_date(l, v.text, 0, out);
		return;
	case VALUE_BOOL:
		format_bool(l, v.yes, out);
		return;
	case VALUE_LIST:
		sbuf_init(&unique);
		sbuf_init(&joined);
		format_list_unique(v.text, &unique);
		format_list_join(l, unique.data ? unique.data : "", 0, 0, &joined);
		format_fold(joined.data ? joined.data : "", out);
		sbuf_release(&unique);
		sbuf_release(&joined);
		return;
	default:
		format_fold(v.text, out);
	}
}

