/*
 * fuzz_xliff: the translation catalogue reader (libFuzzer).
 *
 * The input is the bytes of a catalogue file, as translate and render read
 * it (xliff_read_memory; xliff_read reads the file and calls the same).
 * The checks:
 *   - a refusal is one line naming the file ("fuzz.xlf: ..." or
 *     "fuzz.xlf:LINE: ..."), and leaves the catalogue empty;
 *   - a catalogue read has a source language; every unit has a non-empty,
 *     unique id that xliff_find finds, a line within the file, and a
 *     source (and perhaps a target) that is a valid template, UTF-8, with
 *     its white space folded (no tab, CR, LF, no double or outer space);
 *   - reading the same bytes again gives the same catalogue.
 * Any failed check aborts: libFuzzer keeps the input as a crash.
 */
#include "fuzz.h"
#include "publish/template.h"
#include "base/util.h"
#include "publish/xliff.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char name[] = "fuzz.xlf";

/* A text of a unit: a valid template, UTF-8, white space folded. */
static void check_text(const char *text)
{
	size_t len = strlen(text);
	mc_err err = { "" };

	REQUIRE(mc_utf8_valid(text, len, NULL));
	REQUIRE(template_check(text, NULL, NULL, &err) == 0);
	REQUIRE(!strpbrk(text, "\t\r\n"));
	REQUIRE(!strstr(text, "  "));
	REQUIRE(len == 0 || (text[0] != ' ' && text[len - 1] != ' '));
}

static int same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xliff_catalogue c, again;
	mc_err err = { "" }, err2 = { "" };
	size_t i, j, lines = 1;
	int rc;

	mc_err_clear(&err);
	rc = xliff_read_memory((const char *)data, size, name, &c, &err);
	REQUIRE(rc == 0 || rc == -1);
	if (rc) {
		if (strncmp(err.msg, name, sizeof(name) - 1) || err.msg[sizeof(name) - 1] != ':' ||
		    strpbrk(err.msg, "\r\n")) {
			fprintf(stderr, "fuzz_xliff: not a one-line message naming the file: %s\n",
				err.msg);
			abort();
		}
		REQUIRE(c.n == 0 && c.units == NULL && c.path == NULL);
		return 0;
	}
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	REQUIRE(c.path && !strcmp(c.path, name));
	REQUIRE(c.source_lang[0]);
	for (i = 0; i < c.n; i++) {
		const xliff_unit *u = &c.units[i];

		REQUIRE(u->id && u->id[0] && u->source);
		REQUIRE(xliff_find(&c, u->id) == u);
		REQUIRE(u->line >= 1 && (size_t)u->line <= lines);
		check_text(u->source);
		if (u->target) {
			REQUIRE(u->target[0]);
			check_text(u->target);
		}
	}

	/* the same bytes read again give the same catalogue */
	REQUIRE(xliff_read_memory((const char *)data, size, name, &again, &err2) == 0);
	REQUIRE(again.n == c.n && !strcmp(again.source_lang, c.source_lang) &&
		!strcmp(again.target_lang, c.target_lang));
	for (j = 0; j < c.n; j++)
		REQUIRE(!strcmp(again.units[j].id, c.units[j].id) &&
			again.units[j].line == c.units[j].line &&
			!strcmp(again.units[j].source, c.units[j].source) &&
			same_text(again.units[j].target, c.units[j].target));
	xliff_release(&again);
	xliff_release(&c);
	return 0;
}
