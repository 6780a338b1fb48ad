/*
 * format: the one formatter of values, per language: how every published
 * output (model and hardware pages, History, the audit and its feed, the
 * index, chart labels) writes a value: numbers with grouped digits, powers
 * of ten with superscript exponents, counts with B/M/T (Dutch: miljoen,
 * miljard, biljoen), power in watts, memory in bytes, dates at their precision
 * ("23 February 2024", "februari 2024", "2024"), booleans in words
 * (Yes/No, Ja/Nee), and the text forms (lists with repeats removed, notes
 * folded onto one line, a lower-cased first letter). A language
 * (format_lang) holds its punctuation and its words; format_value() writes
 * any stored value of any field by the field's type (value.h) and unit.
 * docs/pages.md, "How values are written", lists the rules.
 *
 * Every function appends to out; none allocates except through out.
 */
#ifndef MODELCAT_FORMAT_H
#define MODELCAT_FORMAT_H

#include "base/util.h"

/* A language's way of writing values. The words are borrowed (static, or
 * page texts that outlive the use). */
typedef struct format_lang {
	char code[8];                /* "en", "nl" */
	char group;                  /* between groups of three digits: ',' '.' */
	char point;                  /* before the decimals: '.' ',' */
	const char *count[3];        /* after a count of millions, billions,
					trillions: "M" "B" "T"; " miljoen" ... */
	const char *month[12];       /* "January" ..., "januari" ... */
	const char *yes, *no;        /* a boolean */
	const char *dollar;          /* before an amount in dollars: "$", "$ " */
	const char *and_word;        /* before a list's last item in a
					sentence: " and ", " en " */
} format_lang;

/* The built-in language of code ("en", "nl"); English for any other. */
const format_lang *format_lang_of(const char *code);
/* *l as format_lang_of(code), to be given other words. */
void format_lang_init(format_lang *l, const char *code);

/* value rounded to at most decimals digits after the point, the integer
 * part grouped by threes with ','; with trim, trailing zeros (and a bare
 * point) are dropped: (12288, 0) "12,288"; (48, 1, keep) "48.0";
 * (3.5, 1, trim) "3.5"; (4, 1, trim) "4". */
void format_decimal(const format_lang *l, double value, int decimals, int trim, sbuf *out);

/* A count: "530B", "1.5M", "6.74B", "1.76T" (three significant digits);
 * below a million the whole number, grouped ("60,000"). */
void format_count(const format_lang *l, double value, sbuf *out);

/* A power of ten with a superscript exponent and up to three significant
 * digits: 3.9e+24 "3.9 × 10²⁴", 1e23 "1 × 10²³", 2.5e-3 "2.5 × 10⁻³". */
void format_power_of_ten(const format_lang *l, double value, sbuf *out);

/* A whole number grouped ("12,288"); a fraction below 1000 keeps up to two
 * decimals ("0.25"). */
void format_number(const format_lang *l, double value, sbuf *out);

/* A ratio as a percentage with one decimal: 0.48 "48.0%". */
void format_percent(const format_lang *l, double ratio, sbuf *out);

/* A quantity in unit with an SI prefix (k, M, G, T), one decimal below 100
 * of the prefixed unit: (9728028.18, "W") "9.7 MW", (125e6, "W") "125 MW". */
void format_si(const format_lang *l, double value, const char *unit, sbuf *out);

/* Memory: GB from a billion bytes up, else MB, else KB (at least 1 KB);
 * one decimal below 10 ("3.5 GB"), else a grouped whole ("1,060 GB"). */
void format_bytes(const format_lang *l, double bytes, sbuf *out);

/* US dollars, whole: 2614019.245 "$2,614,019" (Dutch "$ 2.614.019"). */
void format_dollars(const format_lang *l, double value, sbuf *out);

/* A comma-separated list as stored ("China,China"), with repeated items
 * left out: "China". */
void format_list_unique(const char *list, sbuf *out);

/* A comma-separated list as format_list_unique() leaves it, written for a
 * reader: the items joined by ", " ("ByteDance, Peking University"); with
 * in_sentence, the last two joined by the language's word ("ByteDance and
 * Peking University", "A, B and C"; Dutch "en"); with lower, each item's
 * first letter lower-cased unless the item starts with an acronym
 * (format_lower_first(): "industry and academia", "SOTA improvement"). */
void format_list_join(const format_lang *l, const char *list, int in_sentence, int lower,
		      sbuf *out);

/* Text on one line: every run of white space that holds a line break
 * becomes one space, and the ends are trimmed. */
void format_fold(const char *text, sbuf *out);

/* Lower-case the ASCII letter at out->data[from], if it is one and the
 * letter after it is not a capital too: an acronym keeps its case ("SOTA
 * improvement" stays, "Industry" becomes "industry"). */
void format_lower_first(sbuf *out, size_t from);

/* The numbers of a stored number or list of numbers of field (a rollup
 * field, norm_number_rollup(): "2260275840,2290000001"), each as
 * format_value() writes a number of that field, joined by "; ":
 * "2.26B; 2.29B" for a dataset size. 0, or -1 with nothing appended when
 * an item is not a number. */
int format_number_list(const format_lang *l, const char *field, const char *text, sbuf *out);

/* A date (stored ISO text, any precision; a date-time is shown as its
 * day): "23 February 2024"; with month_only, or a month's precision,
 * "February 2024"; a year's "2024". 1 written, 0 not a date (nothing
 * written). */
int format_date(const format_lang *l, const char *iso, int month_only, sbuf *out);

/* A boolean in words: Yes/No, Ja/Nee. */
void format_bool(const format_lang *l, int yes, sbuf *out);

/* Any stored value of field as every output shows it, by the field's type
 * (value.h: the column map's, else as the text reads) and unit: a
 * number of Parameters or a dataset size as a count ("40B"), FLOP as a
 * power of ten with " FLOP" (FLOP/s, OP/s likewise), costs and prices in
 * dollars, watts and bytes with SI prefixes, bandwidths in B/s, other
 * numbers grouped (a power of ten from 10¹⁵ up and below 0.01); a date as
 * format_date(); a boolean in words; a list with repeats left out; text
 * and enumerations folded onto one line. */
void format_value(const format_lang *l, const char *field, const char *value, sbuf *out);

#endif
