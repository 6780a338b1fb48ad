#include "db/translation.h"

#include <stdlib.h>
#include <string.h>

/* The migration that made the translation tables. */
enum { TRANSLATION_SCHEMA = 4 };

static int bind_text(catalogue *cat, sqlite3_stmt *st, int i, const char *s, mc_err *err)
{
	if (sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) != SQLITE_OK)
		return catalogue_fail(cat, "binding a value", err);
	return 0;
}

static int bind_int(catalogue *cat, sqlite3_stmt *st, int i, sqlite3_int64 v, mc_err *err)
{
	if (sqlite3_bind_int64(st, i, v) != SQLITE_OK)
		return catalogue_fail(cat, "binding a value", err);
	return 0;
}

/* Run a prepared statement to completion and reset it. */
static int step_done(catalogue *cat, sqlite3_stmt *st, const char *what, mc_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (sqlite3_clear_bindings(st) != SQLITE_OK || rc != SQLITE_DONE)
		return catalogue_fail(cat, what, err);
	return 0;
}

/* Remove what is stored of lang; what names the step in messages. */
static int forget_language(catalogue *cat, const char *lang, const char *what_texts,
			   const char *what_merge, mc_err *err)
{
	static const char *const tables[] = {
		"DELETE FROM translation WHERE lang = ?",
		"DELETE FROM translation_catalogue WHERE lang = ?",
	};
	const char *what[] = { what_texts, what_merge };
	size_t j;

	for (j = 0; j < 2; j++) {
		sqlite3_stmt *st;

		if (catalogue_prepare(cat, &st, tables[j], err))
			return -1;
		if (bind_text(cat, st, 1, lang, err) || step_done(cat, st, what[j], err)) {
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_finalize(st);
	}
	return 0;
}

/* Replace the stored merge of one language. */
static int store_language(catalogue *cat, const translation_merge *m, const char *when,
			  mc_err *err)
{
	sqlite3_stmt *ins = NULL, *ins_cat = NULL;
	size_t i;
	int rc = -1;

	if (forget_language(cat, m->lang, "removing old texts", "removing an old merge", err) ||
	    catalogue_prepare(cat, &ins, "INSERT INTO translation(lang, key, text, status, line)"
			      " VALUES (?, ?, ?, ?, ?)", err) ||
	    catalogue_prepare(cat, &ins_cat, "INSERT INTO translation_catalogue(lang, file,"
			      " merged_at, entries, translated, missing, stale, invalid, unknown)"
			      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", err))
		goto out;
	for (i = 0; i < m->ntexts; i++) {
		const translation_text *t = &m->texts[i];

		if (bind_text(cat, ins, 1, m->lang, err) || bind_text(cat, ins, 2, t->key, err) ||
		    bind_text(cat, ins, 3, t->text, err) || bind_text(cat, ins, 4, t->status, err) ||
		    (t->line ? bind_int(cat, ins, 5, t->line, err) : 0) ||
		    step_done(cat, ins, "storing a text", err))
			goto out;
	}
	if (bind_text(cat, ins_cat, 1, m->lang, err) || bind_text(cat, ins_cat, 2, m->file, err) ||
	    bind_text(cat, ins_cat, 3, when, err) ||
	    bind_int(cat, ins_cat, 4, (sqlite3_int64)m->counts.entries, err) ||
	    bind_int(cat, ins_cat, 5, (sqlite3_int64)m->counts.translated, err) ||
	    bind_int(cat, ins_cat, 6, (sqlite3_int64)m->counts.missing, err) ||
	    bind_int(cat, ins_cat, 7, (sqlite3_int64)m->counts.stale, err) ||
	    bind_int(cat, ins_cat, 8, (sqlite3_int64)m->counts.invalid, err) ||
	    bind_int(cat, ins_cat, 9, (sqlite3_int64)m->counts.unknown, err) ||
	    step_done(cat, ins_cat, "storing a merge", err))
		goto out;
	rc = 0;
out:
	sqlite3_finalize(ins);
	sqlite3_finalize(ins_cat);
	return rc;
}

/* Forget the stored merges of languages that are not in langs. */
static int forget_removed(catalogue *cat, const translation_merge *langs, size_t nlangs,
			  mc_err *err)
{
	char **stored = NULL;
	size_t n = 0, i, j;
	int rc = -1;

	if (translation_languages(cat, &stored, &n, err))
		return -1;
	for (i = 0; i < n; i++) {
		int present = 0;

		for (j = 0; j < nlangs; j++)
			present |= !strcmp(langs[j].lang, stored[i]);
		if (!present && forget_language(cat, stored[i], "removing a language",
						"removing a language", err))
			goto out;
	}
	rc = 0;
out:
	mc_free_strings(stored, n);
	return rc;
}

int translation_store(catalogue *cat, const translation_merge *langs, size_t n,
		      const char *when, mc_err *err)
{
	size_t i;

	if (catalogue_exec(cat, "BEGIN IMMEDIATE", err))
		return -1;
	for (i = 0; i < n; i++)
		if (langs[i].store && store_language(cat, &langs[i], when, err))
			goto rollback;
	if (forget_removed(cat, langs, n, err) || catalogue_exec(cat, "COMMIT", err))
		goto rollback;
	return 0;
rollback:
	sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int translation_load(catalogue *cat, const char *lang,
		     void (*fn)(void *ctx, const char *key, const char *text), void *ctx,
		     mc_err *err)
{
	sqlite3_stmt *st = NULL;
	size_t rows = 0;
	int step, rc = -1;

	if (cat->schema_version < TRANSLATION_SCHEMA)
		return 1;
	if (catalogue_prepare(cat, &st, "SELECT key, text FROM translation WHERE lang = ?", err) ||
	    bind_text(cat, st, 1, lang, err))
		goto out;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *text = (const char *)sqlite3_column_text(st, 1);

		rows++;
		if (key && text)
			fn(ctx, key, text);
	}
	if (step != SQLITE_DONE) {
		catalogue_fail(cat, "reading the page texts", err);
		goto out;
	}
	rc = rows ? 0 : 1;
out:
	sqlite3_finalize(st);
	return rc;
}

int translation_languages(catalogue *cat, char ***langs, size_t *n, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	*langs = NULL;
	*n = 0;
	if (cat->schema_version < TRANSLATION_SCHEMA)
		return 0;
	if (catalogue_prepare(cat, &st, "SELECT lang FROM translation_catalogue"
			      " ORDER BY lang <> 'en', lang", err))
		return -1;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		*langs = xrealloc(*langs, (*n + 1) * sizeof(**langs));
		(*langs)[(*n)++] = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		size_t i;

		for (i = 0; i < *n; i++)
			free((*langs)[i]);
		free(*langs);
		*langs = NULL;
		*n = 0;
		return catalogue_fail(cat, "listing the languages", err);
	}
	return 0;
}

int translation_carry(catalogue *cat, const char *from, size_t *langs, mc_err *err)
{
	static const char *const tables[] = { "translation", "translation_catalogue" };
	size_t copied[2];

	*langs = 0;
	if (catalogue_carry(cat, from, tables, 2, copied, err))
		return -1;
	*langs = copied[1];     /* a translation_catalogue row per language */
	return 0;
}
