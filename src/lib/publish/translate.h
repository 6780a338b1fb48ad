/*
 * translate: merging the translation catalogues over the English base and
 * keeping the result in the catalogue database (sql/004_translations.sql),
 * where the page renderer reads it.
 *
 * A catalogue folder holds en.xlf (the English base: every text pages use,
 * as <source>) and one LANG.xlf per other language (each <trans-unit> with
 * the English <source> it was translated from and its <target>). For each
 * language every English entry is:
 *   translated  the target is used;
 *   missing     no unit or no target: English is used;
 *   stale       the unit's <source> is not the current English text (the
 *               English changed since it was translated): English is used;
 *   invalid     the target names a placeholder its source does not have:
 *               English is used;
 * and a unit whose id English does not have is unknown (ignored).
 */
#ifndef MODELCAT_TRANSLATE_H
#define MODELCAT_TRANSLATE_H

#include <stdio.h>
#include "db/catalogue.h"
#include "db/translation.h"
#include "publish/page.h"

typedef struct translate_report {
	char lang[36];               /* language code (from the file name) */
	char *path;                  /* the catalogue file */
	int loaded;                  /* 0: refused (malformed); its earlier
					merge, if any, is kept */
	char error[1024];            /* why it was refused */
	translation_counts counts;   /* what the merge made of it */
} translate_report;

typedef struct translate_result {
	translate_report *langs;     /* English first, then by code */
	size_t n;                    /* number of languages */
	size_t skipped;              /* .xlf files whose name is no language code */
} translate_result;

void translate_result_release(translate_result *r);

/*
 * Read every catalogue in dir, merge each language over English and
 * store the merges in cat, in one transaction. Each problem with an entry
 * is written to problems as one line ("file:line: ..."). A malformed
 * catalogue other than English is reported in its translate_report and
 * the others still load. Returns 0 (see the reports), or -1 with err set
 * when nothing could be stored (English unreadable or incomplete, a
 * database error).
 */
int translate_catalogues(catalogue *cat, const char *dir, FILE *problems,
			 translate_result *result, mc_err *err);

/*
 * Load the stored page text of lang into texts (page_texts_init done by
 * this call). Returns 0; 1 when nothing is stored for lang (never
 * translated); -1 on error (err). The stored languages are listed by
 * translation_languages() (db/translation.h).
 */
int translate_load(catalogue *cat, const char *lang, page_texts *texts, mc_err *err);

/* Is s a language code modelcat accepts (two or three lower-case letters,
 * then optional -SUBTAGs of letters and digits)? */
int translate_valid_lang(const char *s);

#endif
