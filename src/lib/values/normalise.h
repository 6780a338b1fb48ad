/*
 * normalise: one function per kind of value found in the exports. Each
 * reads a raw cell and writes its normalised text form, the form that is
 * stored, compared and exported (numbers are compared in a form of their
 * own, see below). Every function:
 *   - ignores leading and trailing white space in the cell, and a
 *     byte-order mark (U+FEFF) among the leading white space;
 *   - returns NORM_OK and appends the normalised text to *out,
 *     NORM_EMPTY for a cell that is empty after trimming (nothing appended),
 *     or NORM_INVALID when the cell cannot be read as that kind (nothing
 *     appended; a short reason is written to why, if why is not NULL);
 *   - never allocates except through the caller's sbuf.
 */
#ifndef MODELCAT_NORMALISE_H
#define MODELCAT_NORMALISE_H

#include <stddef.h>
#include "base/util.h"

enum norm_status { NORM_OK = 0, NORM_EMPTY = 1, NORM_INVALID = 2 };

/* Size of the buffer a caller passes as why. */
#define NORM_WHY_LEN 128

/* Date precision, as kept by norm_date_parse. */
enum norm_date_precision {
	DATE_YEAR = 1,      /* "2024" */
	DATE_MONTH = 2,     /* "2024-02" */
	DATE_DAY = 3,       /* "2024-02-23" */
	DATE_TIME = 4       /* "2024-02-23T09:12:44+00:00" */
};

/* A struct tag only, no typedef: the name norm_date is the function
 * below (tags and ordinary identifiers live in different name spaces). */
struct norm_date {
	int year, month, day;        /* month, day 0 when not known */
	int hour, minute, second;    /* with DATE_TIME */
	int utc_offset_minutes;      /* with DATE_TIME and has_utc_offset */
	int has_utc_offset;          /* with DATE_TIME: 1 when the text gave an
					offset ("Z" counts as +00:00); 0 when
					it gave none (no suffix is written) */
	enum norm_date_precision precision;
};

/*
 * Numbers in every notation seen: 3.9e+24, 3.9E+024, 5.0000000000000004e+22,
 * 3.9 × 10²⁴, 3.9x10^24, 530000000000.0, 1,234, -0.5, .5. Parsed to the
 * nearest double. A number a double cannot hold is NORM_INVALID ("number
 * out of range"): above DBL_MAX, and, when it is not zero, below DBL_MIN
 * (the smallest normal double: a subnormal keeps fewer than 15 significant
 * digits). -0 reads as 0.
 *
 * A number has two texts:
 *   - the stored text (norm_number_format): the shortest of "%.15g",
 *     "%.16g" and "%.17g" that reads back as the same double, so the value
 *     comes back exactly from the catalogue ("342212.3909614999",
 *     "1.7976931348623157e+308", "0.1");
 *   - the compared text (norm_number_compared): 15 significant digits, the
 *     shortest decimal that reads back as the value rounded half up,
 *     in "%.15g" layout (342212.3909614999 gives "342212.3909615").
 *     It decides whether a value changed: two numbers equal at 15
 *     significant digits are the same value.
 * Both are locale-independent; both are the same text when the stored one
 * has at most 15 significant digits.
 */
int norm_number_parse(const char *s, size_t len, double *value, char *why);
/* Append the stored text of value (see above). NaN and the infinities,
 * which norm_number_parse never gives, are written "nan", "inf", "-inf". */
void norm_number_format(double value, sbuf *out);
/* Append the compared text of value (see above). */
void norm_number_compared(double value, sbuf *out);
/* Parse s and append its stored text (as the other normalisers do). */
int norm_number(const char *s, size_t len, sbuf *out, char *why);
/*
 * A number cell of a field whose source rolls up one number per linked
 * record (Epoch's dataset size: "929000,929000"): a cell that reads as one
 * number (thousands separators included, as norm_number) is that number;
 * else, when every comma-separated item is a number, the items equal at 15
 * significant digits are one value: one value left is stored as a number,
 * several as their stored texts in cell order joined by ","
 * ("2590000000000,2592000000000"). Any other cell is NORM_INVALID with the
 * reason of the whole cell. unit: as norm_quantity (NULL: a bare number).
 */
struct norm_unit;
int norm_number_rollup(const struct norm_unit *unit, const char *s, size_t len, sbuf *out,
		       char *why);
/* Parse s (a stored text, or any number) and append its compared text;
 * the status of norm_number_parse (nothing appended unless NORM_OK). */
int norm_number_text_compared(const char *s, size_t len, sbuf *out);
/* Equal at 15 significant digits (the same compared text). */
int norm_number_equal(double a, double b);
/* 1 when the two texts are the same, or both are numbers equal at 15
 * significant digits; 0 otherwise. */
int norm_number_text_equal(const char *a, size_t alen, const char *b, size_t blen);

/*
 * Dates: 2024-02-23, 2/23/2024 (month/day/year), 23 February 2024,
 * February 2024, 2024-02, 2024, and date-times such as
 * 2025-05-25 09:12:44+00:00. Partial dates keep their precision:
 * "2024-02" stays "2024-02". Output: ISO 8601 (YYYY, YYYY-MM, YYYY-MM-DD,
 * YYYY-MM-DDTHH:MM:SS+HH:MM).
 */
int norm_date_parse(const char *s, size_t len, struct norm_date *date,
		    char *why);
void norm_date_format(const struct norm_date *date, sbuf *out);
int norm_date(const char *s, size_t len, sbuf *out, char *why);

/* Booleans: True/False, Yes/No, 1/0, case-insensitive. Output "True"/"False". */
int norm_bool(const char *s, size_t len, sbuf *out, char *why);

/*
 * Lists (organisations, countries, categories, domains, tasks...): split on
 * commas, each item trimmed, empty items dropped, order and repeats kept.
 * Output: items joined by "," with no spaces.
 */
int norm_list(const char *s, size_t len, sbuf *out, char *why);

/*
 * Enumerations: the trimmed value is compared with the known values
 * (case-sensitive first, then case-insensitively: then the known spelling
 * is written). A value outside the set is kept as given (trimmed) and
 * *unknown is set to 1, so the caller can report it; it is not an error.
 * known is a NULL-terminated array.
 */
int norm_enum(const char *s, size_t len, const char *const *known,
	      sbuf *out, int *unknown);

/* Text: outer white space trimmed, CRLF and lone CR turned into LF. */
int norm_text(const char *s, size_t len, sbuf *out);

/*
 * Compare two texts loosely: 1 when they are equal after trimming outer
 * white space, unifying line endings and folding every run of white space
 * (space, tab, CR, LF, VT, FF, U+00A0) into a single space; 0 otherwise.
 * Neither text is modified; nothing is allocated. A pointer may be NULL
 * when its length is 0.
 */
int norm_text_fold_equal(const char *a, size_t alen, const char *b,
			 size_t blen);

/*
 * Organisation alignment. Given the normalised lists of organisations,
 * their categories and their countries (each "a,b,c" as norm_list gives,
 * may be NULL or empty), say whether the categories and countries can be
 * paired with the organisations item by item: *categories_aligned is 1
 * when there are as many categories as organisations, likewise
 * *countries_aligned. Returns the number of organisations.
 */
size_t norm_org_align(const char *orgs, const char *categories,
		      const char *countries, int *categories_aligned,
		      int *countries_aligned);

/*
 * Quantities: a number column whose header names a unit (pipelines/
 * *-columns.tsv, flag unit=NAME). A cell is a bare number, read in the
 * header's unit ("80000000000.0" in "Memory (bytes)"), or a number with a
 * unit of the same kind and an SI prefix ("80 GB", "80GB", "3.35 TB/s",
 * "1.4 TFLOP/s", "2.1 GHz" in a MHz column, "4 nm", "$35,000",
 * "820 mm²"); binary prefixes too for bytes ("80 GiB" = 80 × 2³⁰).
 * The value is converted to the header's unit and stored as a number
 * (norm_number_format), so it round-trips and compares as every other
 * number (at 15 significant digits).
 *
 * Units (NAME: the header's unit; spellings): byte (B, byte, bytes),
 * FLOP/s (FLOP/s, FLOPS), OP/s (OP/s, OPS), byte/s (B/s, byte/s),
 * bit/s (bit/s, b/s, bps), bit (bit, bits), W (W, watt, watts),
 * USD (USD after, $ or US$ before; no prefix), mm2 (mm^2, mm², mm2;
 * no prefix), MHz (Hz with a prefix: kHz, MHz, GHz), nm (m with a
 * prefix: nm, µm, mm).
 */
typedef struct norm_unit norm_unit;

/* The unit of that NAME, or NULL. Units are static: never freed. */
const norm_unit *norm_unit_named(const char *name);
/* The NAMEs, separated by ", " (for messages). */
const char *norm_unit_names(void);
/* The NAME of unit. */
const char *norm_unit_name(const norm_unit *unit);
/* Parse a quantity cell into *value, in the unit's own terms. */
int norm_quantity_parse(const norm_unit *unit, const char *s, size_t len,
			double *value, char *why);
/* Parse s and append its stored number text (as the other normalisers). */
int norm_quantity(const norm_unit *unit, const char *s, size_t len, sbuf *out,
		  char *why);

#endif
