/*
 * translation: the merged page texts kept in the catalogue
 * (sql/004_translations.sql): storing each language's merge, reading one
 * back, listing the languages. out/translate.c does the merging.
 *
 * Errors: the functions that can fail return 0 or -1 (1 where "none" is
 * a normal answer) and fill err, their last parameter (base/error.h).
 */
#ifndef MODELCAT_TRANSLATION_H
#define MODELCAT_TRANSLATION_H

#include "db/catalogue.h"

/* One merged text of a language. */
typedef struct translation_text {
	const char *key;             /* the text's key */
	const char *text;            /* template */
	const char *status;          /* source, translated, missing, stale, invalid */
	long line;                   /* line of its unit in the file, 0 if none */
} translation_text;

/* What a language's merge made of its catalogue (out/translate.h). */
typedef struct translation_counts {
	size_t entries;              /* English entries merged */
	size_t translated;           /* used as translated */
	size_t missing;              /* fell back: no translation */
	size_t stale;                /* fell back: English changed since */
	size_t invalid;              /* fell back: bad placeholders */
	size_t unknown;              /* ids English does not have */
} translation_counts;

/* One language's merge, with the counts of its catalogue. */
typedef struct translation_merge {
	const char *lang;            /* language code */
	const char *file;            /* the catalogue file */
	int store;                   /* 1: replace the stored merge; 0: keep it */
	const translation_text *texts; /* the texts (with store) */
	size_t ntexts;               /* entries in texts */
	translation_counts counts;   /* its counts */
} translation_merge;

/* In one transaction: replace the stored merge of each language of langs
 * with store set (stamped when, YYYY-MM-DDTHH:MM:SSZ), and forget those
 * of languages not in langs at all. 0 or -1 (nothing changed). */
int translation_store(catalogue *cat, const translation_merge *langs, size_t n,
		      const char *when, mc_err *err);

/* Hand each stored text of lang (key, text) to fn. 0; 1 when nothing is
 * stored for lang (or the catalogue predates translations); -1. */
int translation_load(catalogue *cat, const char *lang,
		     void (*fn)(void *ctx, const char *key, const char *text), void *ctx,
		     mc_err *err);

/* The languages stored, English first, then by code. The caller frees each
 * string and the array. 0 or -1. */
int translation_languages(catalogue *cat, char ***langs, size_t *n, mc_err *err);

/* Copy the page texts (the translation and translation_catalogue rows)
 * of the catalogue file from into cat, which has none: a rebuilt catalogue
 * keeps the texts the one it replaces had, so that it can be published
 * without merging the catalogues again. *langs counts the languages
 * carried (0 when from does not exist or has none). 0, or -1 (err: from
 * could not be read; cat is unchanged). */
int translation_carry(catalogue *cat, const char *from, size_t *langs, mc_err *err);

#endif
