/*
 * format: how the values of a model page are written: numbers with
 * grouped digits, powers of ten with superscript exponents, counts with
 * B/M/T, power in watts, memory in bytes, and the text forms (lists with
 * repeats removed, notes folded onto one line, a lower-cased first letter).
 * The same in every language (the seed pages write numbers alike).
 *
 * Every function appends to out; none allocates except through out.
 */
#ifndef MODELCAT_FORMAT_H
#define MODELCAT_FORMAT_H

#include "base/util.h"

/* value rounded to at most decimals digits after the point, the integer
 * part grouped by threes with ','; with trim, trailing zeros (and a bare
 * point) are dropped: (12288, 0) "12,288"; (48, 1, keep) "48.0";
 * (3.5, 1, trim) "3.5"; (4, 1, trim) "4". */
void format_decimal(double value, int decimals, int trim, sbuf *out);

/* A count: "530B", "1.5M", "6.74B", "1.76T" (three significant digits);
 * below a million the whole number, grouped ("60,000"). */
void format_count(double value, sbuf *out);

/* A power of ten with a superscript exponent and up to three significant
 * digits: 3.9e+24 "3.9 × 10²⁴", 1e23 "1 × 10²³", 2.5e-3 "2.5 × 10⁻³". */
void format_power_of_ten(double value, sbuf *out);

/* A whole number grouped ("12,288"); a fraction below 1000 keeps up to two
 * decimals ("0.25"). */
void format_number(double value, sbuf *out);

/* A ratio as a percentage with one decimal: 0.48 "48.0%". */
void format_percent(double ratio, sbuf *out);

/* A quantity in unit with an SI prefix (k, M, G, T), one decimal below 100
 * of the prefixed unit: (9728028.18, "W") "9.7 MW", (125e6, "W") "125 MW". */
void format_si(double value, const char *unit, sbuf *out);

/* Memory: GB from a billion bytes up, else MB, else KB (at least 1 KB);
 * one decimal below 10 ("3.5 GB"), else a grouped whole ("1,060 GB"). */
void format_bytes(double bytes, sbuf *out);

/* US dollars, whole: 2614019.245 "$2,614,019". */
void format_dollars(double value, sbuf *out);

/* A comma-separated list as stored ("China,China"), with repeated items
 * left out: "China". */
void format_list_unique(const char *list, sbuf *out);

/* Text on one line: every run of white space that holds a line break
 * becomes one space, and the ends are trimmed. */
void format_fold(const char *text, sbuf *out);

/* Lower-case the ASCII letter at out->data[from], if it is one. */
void format_lower_first(sbuf *out, size_t from);

/* Counts of a stored number or list of numbers (a rollup field,
 * norm_number_rollup(): "2260275840,2290000001"), each as format_count,
 * joined by ", ": "2.26B, 2.29B". 0, or -1 with nothing appended when an
 * item is not a number. */
int format_count_list(const char *text, sbuf *out);

/* Parse a stored number ("3.9e+24"): 0 and *value, or -1. */
int format_parse_number(const char *text, double *value);

/* A stored value of field as the pages show it, for the audit: a number
 * of a field the pages format (Parameters and dataset sizes as counts,
 * "40B"; training compute as a power of ten with " FLOP"; costs in
 * dollars; other numbers grouped) is formatted; any other value is
 * copied as it is. */
void format_field_value(const char *field, const char *value, sbuf *out);

#endif
