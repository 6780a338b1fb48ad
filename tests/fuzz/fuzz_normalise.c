/*
 * fuzz_normalise: every value normaliser on one cell (libFuzzer).
 *
 * The input is a cell's bytes (any bytes, NUL included). Each normaliser
 * reads it; the checks are the contract of normalise.h:
 *   - NORM_EMPTY and NORM_INVALID append nothing; NORM_INVALID says why in
 *     a terminated reason;
 *   - a normalised value is stable: normalising it again gives NORM_OK and
 *     the same text (values are stored, exported and read back);
 *   - the parse and format halves agree with the one-call forms;
 *   - the loose text comparison is reflexive and symmetric, and a text is
 *     loosely equal to its normalised form.
 * The input is also split at '|' into three lists for norm_org_align().
 * Any failed check aborts: libFuzzer keeps the input as a crash.
 */
#include "fuzz.h"
#include "values/normalise.h"
#include "base/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef int with_why_fn(const char *s, size_t len, sbuf *out, char *why);

/* Known values as pipelines/enumerations.tsv gives them for one field. */
static const char *const known[] = {
	"Confident", "Likely", "Speculative", "Unknown", "Open weights (unrestricted)",
	"Unreleased", "API access", NULL
};

static int enum_fn(const char *s, size_t len, sbuf *out, char *why)
{
	int unknown = 0;

	(void)why;
	return norm_enum(s, len, known, out, &unknown);
}

static int text_fn(const char *s, size_t len, sbuf *out, char *why)
{
	(void)why;
	return norm_text(s, len, out);
}

/* Run fn on the cell and check its contract; the normalised text (if any)
 * is left in out. */
static int check_one(const char *name, with_why_fn *fn, const char *s, size_t len, sbuf *out)
{
	char why[NORM_WHY_LEN], why2[NORM_WHY_LEN];
	int status, again;
	sbuf second;

	memset(why, 'x', sizeof(why));
	sbuf_reset(out);
	sbuf_addc(out, '#');          /* the functions append: keep a prefix */
	status = fn(s, len, out, why);
	REQUIRE(status == NORM_OK || status == NORM_EMPTY || status == NORM_INVALID);
	if (status != NORM_OK) {
		REQUIRE(out->len == 1);
		if (status == NORM_INVALID && fn != enum_fn && fn != text_fn)
			REQUIRE(memchr(why, '\0', sizeof(why)) != NULL && why[0] != '\0');
		return status;
	}
	REQUIRE(out->len > 1);
	REQUIRE(out->data[out->len] == '\0');
	/* stable: the normalised text reads back as itself */
	sbuf_init(&second);
	again = fn(out->data + 1, out->len - 1, &second, why2);
	if (again != NORM_OK || second.len != out->len - 1 ||
	    memcmp(second.data, out->data + 1, second.len)) {
		fprintf(stderr, "fuzz_normalise: %s is not stable: '%s' gives status %d '%s'\n",
			name, out->data + 1, again, second.data);
		abort();
	}
	sbuf_release(&second);
	return status;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	char *lists[3];
	struct norm_date date;
	double value;
	sbuf out, again, text;
	size_t i, start, part, n;
	int status, cat_ok, country_ok;

	sbuf_init(&out);
	sbuf_init(&again);
	sbuf_init(&text);

	/* numbers: the one-call form is parse then format */
	status = check_one("norm_number", norm_number, s, size, &out);
	REQUIRE(norm_number_parse(s, size, &value, NULL) == status);
	if (status == NORM_OK) {
		norm_number_format(value, &again);
		REQUIRE(!strcmp(again.data, out.data + 1));
		REQUIRE(norm_number_equal(value, value));
	}

	/* dates: likewise */
	status = check_one("norm_date", norm_date, s, size, &out);
	REQUIRE(norm_date_parse(s, size, &date, NULL) == status);
	if (status == NORM_OK) {
		sbuf_reset(&again);
		norm_date_format(&date, &again);
		REQUIRE(!strcmp(again.data, out.data + 1));
		REQUIRE(date.precision >= DATE_YEAR && date.precision <= DATE_TIME);
	}

	check_one("norm_bool", norm_bool, s, size, &out);
	check_one("norm_list", norm_list, s, size, &out);
	check_one("norm_enum", enum_fn, s, size, &out);

	/* text, and the loose comparison */
	status = check_one("norm_text", text_fn, s, size, &text);
	REQUIRE(norm_text_fold_equal(s, size, s, size));
	if (status == NORM_OK)
		REQUIRE(norm_text_fold_equal(s, size, text.data + 1, text.len - 1));
	else
		REQUIRE(norm_text_fold_equal(s, size, NULL, 0));
	part = size / 2;
	REQUIRE(norm_text_fold_equal(s, part, s + part, size - part) ==
		norm_text_fold_equal(s + part, size - part, s, part));

	/* organisations, categories and countries: three lists split at '|' */
	for (i = 0, start = 0; i < 3; i++) {
		const char *bar = start <= size ? memchr(s + start, '|', size - start) : NULL;

		n = (i < 2 && bar) ? (size_t)(bar - (s + start)) : size - start;
		if (start > size)
			n = 0;
		sbuf_reset(&out);
		if (start <= size)
			norm_list(s + start, n, &out, NULL);
		lists[i] = xstrdup(out.data);
		start += n + 1;
	}
	n = norm_org_align(lists[0], lists[1], lists[2], &cat_ok, &country_ok);
	REQUIRE(norm_org_align(lists[0], lists[0], NULL, &cat_ok, &country_ok) == n);
	REQUIRE(cat_ok == 1 && country_ok == (n == 0));
	for (i = 0; i < 3; i++)
		free(lists[i]);

	sbuf_release(&out);
	sbuf_release(&again);
	sbuf_release(&text);
	return 0;
}
