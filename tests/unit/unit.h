/*
 * unit: the smallest test harness that does the job. Each check prints a
 * TAP line ("ok N - what" or "not ok N - what"); unit_done() prints the
 * plan and returns the exit status. tests/run counts the lines.
 */
#ifndef MODELCAT_UNIT_H
#define MODELCAT_UNIT_H

#include <stdio.h>
#include <string.h>
#include <stdarg.h>

static int unit_count, unit_failures;

__attribute__((format(printf, 4, 5)))
static int unit_check(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	unit_count++;
	if (!ok)
		unit_failures++;
	printf("%sok %d - ", ok ? "" : "not ", unit_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok)
		printf(" (%s:%d)", file, line);
	printf("\n");
	return ok;
}

/* CHECK(condition, "printf-like description", ...) */
#define CHECK(cond, ...) unit_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* CHECK_STR(actual, expected, "description", ...): compares C strings and
 * shows both on failure. */
#define CHECK_STR(actual, expected, ...) do { \
	const char *unit_a_ = (actual), *unit_e_ = (expected); \
	if (!CHECK(unit_a_ && unit_e_ && !strcmp(unit_a_, unit_e_), __VA_ARGS__)) \
		printf("#   got      \"%s\"\n#   expected \"%s\"\n", \
		       unit_a_ ? unit_a_ : "(null)", unit_e_ ? unit_e_ : "(null)"); \
} while (0)

/* Write text into the file dir/name (a test's own folder); a failure
 * shows in the checks that read it back. */
static inline void unit_put_file(const char *dir, const char *name, const char *text)
{
	char path[8192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int unit_done(void)
{
	printf("1..%d\n", unit_count);
	return unit_failures ? 1 : 0;
}

#endif
