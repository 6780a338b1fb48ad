#include "out/translate.h"
#include "out/template.h"
#include "out/xliff.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Catalogue entries whose texts use a placeholder pages do not fill in
 * are reported through this state. */
typedef struct placeholder_check {
	char bad[40];                /* the first unknown placeholder */
} placeholder_check;

static void check_placeholder(void *ctx, const char *name, size_t len)
{
	placeholder_check *c = ctx;

	if (!c->bad[0] && !page_placeholder_known(name, len))
		mc_fmt(c->bad, sizeof(c->bad), "%.*s", (int)len, name);
}

int translate_valid_lang(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz");

	if (n < 2 || n > 3)
		return 0;
	s += n;
	while (*s == '-') {
		n = strspn(s + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
		if (n < 1 || n > 8)
			return 0;
		s += n + 1;
	}
	return *s == '\0';
}

void translate_result_release(translate_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		free(r->langs[i].path);
	free(r->langs);
	memset(r, 0, sizeof(*r));
}

/* One merged text of a language. */
typedef struct merged {
	const char *text;            /* template (borrowed from a catalogue) */
	const char *status;          /* source, translated, missing, stale, invalid */
	long line;                   /* line of the unit, 0 if none */
} merged;

static int lang_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	if (!strcmp(x, "en") || !strcmp(y, "en"))
		return strcmp(x, "en") ? 1 : strcmp(y, "en") ? -1 : 0;
	return strcmp(x, y);
}

/* The language codes of the catalogues in dir (name.xlf), English first.
 * Files whose name is not a language code are reported and skipped. */
static int list_languages(const char *dir, FILE *problems, char ***langs, size_t *n,
			  size_t *skipped, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *ent;

	*langs = NULL;
	*n = 0;
	if (!d) {
		mc_fmt(err, errlen, "%s: cannot open the catalogue folder: %s", dir, strerror(errno));
		return -1;
	}
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		char code[64];

		if (len < 5 || !mc_ends_with(ent->d_name, ".xlf"))
			continue;
		mc_fmt(code, sizeof(code), "%.*s", (int)(len - 4), ent->d_name);
		if (!translate_valid_lang(code)) {
			fprintf(problems, "%s/%s: the name is not a language code (like nl.xlf or "
				"pt-BR.xlf); skipped\n", dir, ent->d_name);
			(*skipped)++;
			continue;
		}
		*langs = xrealloc(*langs, (*n + 1) * sizeof(**langs));
		(*langs)[(*n)++] = xstrdup(code);
	}
	closedir(d);
	if (*n)
		qsort(*langs, *n, sizeof(**langs), lang_cmp);
	if (!*n || strcmp((*langs)[0], "en")) {
		mc_fmt(err, errlen, "%s: no en.xlf (the English base catalogue)", dir);
		return -1;
	}
	return 0;
}

/* Check the English base: languages, every text pages use, placeholders. */
static int check_english(const xliff_catalogue *en, FILE *problems, translate_report *rep,
			 char *err, size_t errlen)
{
	size_t i;

	if (strcmp(en->source_lang, "en") || en->target_lang[0]) {
		mc_fmt(err, errlen, "%s: the base catalogue must have source-language \"en\" and "
		       "no target-language", en->path);
		return -1;
	}
	for (i = 0; i < PT_COUNT; i++) {
		if (!xliff_find(en, page_text_key((page_text_id)i))) {
			mc_fmt(err, errlen, "%s: no entry '%s', which the pages use", en->path,
			       page_text_key((page_text_id)i));
			return -1;
		}
	}
	for (i = 0; i < en->n; i++) {
		const xliff_unit *u = &en->units[i];
		placeholder_check c = { "" };
		mc_err why;
		page_text_id id;

		if (template_check(u->source, check_placeholder, &c, &why)) {
			mc_fmt(err, errlen, "%s:%ld: '%s': %s", en->path, u->line, u->id, why.msg);
			return -1;
		}
		if (c.bad[0]) {
			mc_fmt(err, errlen, "%s:%ld: '%s': the pages have no placeholder '%s'",
			       en->path, u->line, u->id, c.bad);
			return -1;
		}
		if (page_text_find(u->id, &id)) {
			fprintf(problems, "%s:%ld: '%s' is not used by the pages (ignored)\n",
				en->path, u->line, u->id);
			rep->unknown++;
		}
	}
	rep->entries = PT_COUNT;
	return 0;
}

/* Merge one language's catalogue over English into texts[PT_COUNT]. */
static void merge_language(const xliff_catalogue *en, const xliff_catalogue *tr,
			   FILE *problems, translate_report *rep, merged *texts)
{
	size_t i;

	for (i = 0; i < PT_COUNT; i++) {
		const char *key = page_text_key((page_text_id)i);
		const xliff_unit *source = xliff_find(en, key);
		const xliff_unit *u = xliff_find(tr, key);

		texts[i].text = source->source;
		texts[i].line = u ? u->line : 0;
		if (!u || !u->target) {
			texts[i].status = "missing";
			rep->missing++;
			if (u)
				fprintf(problems, "%s:%ld: '%s' has no translation (missing: English "
					"is used)\n", tr->path, u->line, key);
			else
				fprintf(problems, "%s: '%s' is missing (English is used)\n", tr->path,
					key);
		} else if (strcmp(u->source, source->source)) {
			texts[i].status = "stale";
			rep->stale++;
			fprintf(problems, "%s:%ld: '%s' is stale: the English text changed since it "
				"was translated (English is used until the translation is "
				"updated)\n", tr->path, u->line, key);
		} else if (template_placeholders_within(u->target, source->source) != 1) {
			texts[i].status = "invalid";
			rep->invalid++;
			fprintf(problems, "%s:%ld: '%s': the translation names a placeholder the "
				"English text does not have, or is not a valid template (English is "
				"used)\n", tr->path, u->line, key);
		} else {
			texts[i].text = u->target;
			texts[i].status = "translated";
			rep->translated++;
		}
	}
	rep->entries = PT_COUNT;
	for (i = 0; i < tr->n; i++) {
		if (!xliff_find(en, tr->units[i].id)) {
			rep->unknown++;
			fprintf(problems, "%s:%ld: '%s' is unknown: English has no such entry "
				"(ignored)\n", tr->path, tr->units[i].line, tr->units[i].id);
		}
	}
}

static int bind_text(catalogue *cat, sqlite3_stmt *st, int i, const char *s)
{
	if (sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) != SQLITE_OK)
		return catalogue_fail(cat, "binding a value");
	return 0;
}

static int bind_int(catalogue *cat, sqlite3_stmt *st, int i, sqlite3_int64 v)
{
	if (sqlite3_bind_int64(st, i, v) != SQLITE_OK)
		return catalogue_fail(cat, "binding a value");
	return 0;
}

/* Run a prepared statement to completion and reset it. */
static int step_done(catalogue *cat, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (sqlite3_clear_bindings(st) != SQLITE_OK || rc != SQLITE_DONE)
		return catalogue_fail(cat, what);
	return 0;
}

/* Replace the stored merge of one language. */
static int store_language(catalogue *cat, const translate_report *rep, const merged *texts,
			  const char *when)
{
	sqlite3_stmt *del = NULL, *del_cat = NULL, *ins = NULL, *ins_cat = NULL;
	size_t i;
	int rc = -1;

	if (catalogue_prepare(cat, &del, "DELETE FROM translation WHERE lang = ?") ||
	    catalogue_prepare(cat, &del_cat, "DELETE FROM translation_catalogue WHERE lang = ?") ||
	    catalogue_prepare(cat, &ins, "INSERT INTO translation(lang, key, text, status, line)"
			      " VALUES (?, ?, ?, ?, ?)") ||
	    catalogue_prepare(cat, &ins_cat, "INSERT INTO translation_catalogue(lang, file,"
			      " merged_at, entries, translated, missing, stale, invalid, unknown)"
			      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"))
		goto out;
	if (bind_text(cat, del, 1, rep->lang) || step_done(cat, del, "removing old texts") ||
	    bind_text(cat, del_cat, 1, rep->lang) ||
	    step_done(cat, del_cat, "removing an old merge"))
		goto out;
	for (i = 0; i < PT_COUNT; i++) {
		if (bind_text(cat, ins, 1, rep->lang) ||
		    bind_text(cat, ins, 2, page_text_key((page_text_id)i)) ||
		    bind_text(cat, ins, 3, texts[i].text) || bind_text(cat, ins, 4, texts[i].status) ||
		    (texts[i].line ? bind_int(cat, ins, 5, texts[i].line) : 0) ||
		    step_done(cat, ins, "storing a text"))
			goto out;
	}
	if (bind_text(cat, ins_cat, 1, rep->lang) || bind_text(cat, ins_cat, 2, rep->path) ||
	    bind_text(cat, ins_cat, 3, when) || bind_int(cat, ins_cat, 4, (sqlite3_int64)rep->entries) ||
	    bind_int(cat, ins_cat, 5, (sqlite3_int64)rep->translated) ||
	    bind_int(cat, ins_cat, 6, (sqlite3_int64)rep->missing) ||
	    bind_int(cat, ins_cat, 7, (sqlite3_int64)rep->stale) ||
	    bind_int(cat, ins_cat, 8, (sqlite3_int64)rep->invalid) ||
	    bind_int(cat, ins_cat, 9, (sqlite3_int64)rep->unknown) ||
	    step_done(cat, ins_cat, "storing a merge"))
		goto out;
	rc = 0;
out:
	sqlite3_finalize(del);
	sqlite3_finalize(del_cat);
	sqlite3_finalize(ins);
	sqlite3_finalize(ins_cat);
	return rc;
}

/* Forget the stored merges of languages that have no catalogue any more. */
static int forget_removed(catalogue *cat, const translate_result *result)
{
	char **stored = NULL;
	size_t n = 0, i, j;
	int rc = -1;

	if (translate_languages(cat, &stored, &n))
		return -1;
	for (i = 0; i < n; i++) {
		static const char *const tables[] = {
			"DELETE FROM translation WHERE lang = ?",
			"DELETE FROM translation_catalogue WHERE lang = ?",
		};
		int present = 0;

		for (j = 0; j < result->n; j++)
			present |= !strcmp(result->langs[j].lang, stored[i]);
		for (j = 0; !present && j < 2; j++) {
			sqlite3_stmt *st;

			if (catalogue_prepare(cat, &st, tables[j]))
				goto out;
			if (bind_text(cat, st, 1, stored[i]) || step_done(cat, st, "removing a language")) {
				sqlite3_finalize(st);
				goto out;
			}
			sqlite3_finalize(st);
		}
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(stored[i]);
	free(stored);
	return rc;
}

int translate_catalogues(catalogue *cat, const char *dir, FILE *problems,
			 translate_result *result, char *err, size_t errlen)
{
	xliff_catalogue *cats = NULL;
	merged *texts = NULL;
	char **langs = NULL, when[32];
	size_t n = 0, skipped = 0, i;
	int rc = -1;

	memset(result, 0, sizeof(*result));
	if (list_languages(dir, problems, &langs, &n, &skipped, err, errlen))
		goto out;
	cats = xcalloc(n, sizeof(*cats));
	texts = xcalloc(n * PT_COUNT, sizeof(*texts));
	result->langs = xcalloc(n, sizeof(*result->langs));
	result->n = n;
	result->skipped = skipped;
	for (i = 0; i < n; i++) {
		translate_report *rep = &result->langs[i];
		mc_err xerr;
		sbuf path;

		sbuf_init(&path);
		sbuf_addf(&path, "%s/%s.xlf", dir, langs[i]);
		mc_fmt(rep->lang, sizeof(rep->lang), "%s", langs[i]);
		rep->path = sbuf_detach(&path, NULL);
		if (xliff_read(rep->path, &cats[i], &xerr)) {
			mc_fmt(rep->error, sizeof(rep->error), "%s", xerr.msg);
			if (i == 0) {
				mc_fmt(err, errlen, "%s", rep->error);
				goto out;
			}
			fprintf(problems, "%s (the %s catalogue is not loaded)\n", rep->error, rep->lang);
			continue;
		}
		if (i == 0) {
			size_t k;

			if (check_english(&cats[0], problems, rep, err, errlen))
				goto out;
			for (k = 0; k < PT_COUNT; k++) {
				texts[k].text = xliff_find(&cats[0], page_text_key((page_text_id)k))->source;
				texts[k].status = "source";
				texts[k].line = xliff_find(&cats[0], page_text_key((page_text_id)k))->line;
			}
			rep->loaded = 1;
			continue;
		}
		if (strcmp(cats[i].source_lang, "en") || strcmp(cats[i].target_lang, rep->lang)) {
			mc_fmt(rep->error, sizeof(rep->error), "%s: source-language must be \"en\" and "
			       "target-language \"%s\" (the file's name), not \"%s\" and \"%s\"",
			       rep->path, rep->lang, cats[i].source_lang, cats[i].target_lang);
			fprintf(problems, "%s (the %s catalogue is not loaded)\n", rep->error, rep->lang);
			xliff_release(&cats[i]);
			continue;
		}
		merge_language(&cats[0], &cats[i], problems, rep, texts + i * PT_COUNT);
		rep->loaded = 1;
	}

	catalogue_now(when);
	if (catalogue_exec(cat, "BEGIN IMMEDIATE"))
		goto fail;
	for (i = 0; i < n; i++)
		if (result->langs[i].loaded &&
		    store_language(cat, &result->langs[i], texts + i * PT_COUNT, when))
			goto rollback;
	if (forget_removed(cat, result) || catalogue_exec(cat, "COMMIT"))
		goto rollback;
	rc = 0;
	goto out;
rollback:
	sqlite3_exec(cat->db, "ROLLBACK", NULL, NULL, NULL);
fail:
	mc_fmt(err, errlen, "%s", cat->err);
out:
	for (i = 0; i < n; i++) {
		if (cats)
			xliff_release(&cats[i]);
		free(langs[i]);
	}
	free(cats);
	free(texts);
	free(langs);
	if (rc)
		translate_result_release(result);
	return rc;
}

int translate_load(catalogue *cat, const char *lang, page_texts *texts)
{
	sqlite3_stmt *st = NULL;
	size_t rows = 0;
	int step, rc = -1;

	page_texts_init(texts, lang);
	if (cat->schema_version < 4)
		return 1;
	if (catalogue_prepare(cat, &st, "SELECT key, text FROM translation WHERE lang = ?") ||
	    bind_text(cat, st, 1, lang))
		goto out;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *text = (const char *)sqlite3_column_text(st, 1);
		page_text_id id;

		rows++;
		if (key && text && page_text_find(key, &id) == 0) {
			free(texts->text[id]);
			texts->text[id] = xstrdup(text);
		}
	}
	if (step != SQLITE_DONE) {
		catalogue_fail(cat, "reading the page texts");
		goto out;
	}
	rc = rows ? 0 : 1;
out:
	sqlite3_finalize(st);
	return rc;
}

int translate_languages(catalogue *cat, char ***langs, size_t *n)
{
	sqlite3_stmt *st = NULL;
	int step;

	*langs = NULL;
	*n = 0;
	if (cat->schema_version < 4)
		return 0;
	if (catalogue_prepare(cat, &st, "SELECT lang FROM translation_catalogue"
			      " ORDER BY lang <> 'en', lang"))
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
		return catalogue_fail(cat, "listing the languages");
	}
	return 0;
}
