#include "publish/translate.h"
#include "publish/template.h"
#include "publish/xliff.h"
#include "db/translation.h"
#include "base/day.h"
#include "base/textout.h"

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
			  size_t *skipped, mc_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *ent;

	*langs = NULL;
	*n = 0;
	if (!d) {
		mc_error(err, "%s: cannot open the catalogue folder: %s", dir, strerror(errno));
		return -1;
	}
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		char code[64];

		if (len < 5 || !mc_ends_with(ent->d_name, ".xlf"))
			continue;
		mc_fmt(code, sizeof(code), "%.*s", (int)(len - 4), ent->d_name);
		if (!translate_valid_lang(code)) {
			textout_line(problems, "%s/%s: the name is not a language code (like nl.xlf or "
				"pt-BR.xlf); skipped", dir, ent->d_name);
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
		mc_error(err, "%s: no en.xlf (the English base catalogue)", dir);
		return -1;
	}
	return 0;
}

/* Check the English base: languages, every text pages use, placeholders. */
static int check_english(const xliff_catalogue *en, FILE *problems, translate_report *rep,
			 mc_err *err)
{
	size_t i;

	if (strcmp(en->source_lang, "en") || en->target_lang[0]) {
		mc_error(err, "%s: the base catalogue must have source-language \"en\" and "
			 "no target-language", en->path);
		return -1;
	}
	for (i = 0; i < PT_COUNT; i++) {
		if (!xliff_find(en, page_text_key((page_text_id)i))) {
			mc_error(err, "%s: no entry '%s', which the pages use", en->path,
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
			mc_error(err, "%s:%ld: '%s': %s", en->path, u->line, u->id, why.msg);
			return -1;
		}
		if (c.bad[0]) {
			mc_error(err, "%s:%ld: '%s': the pages have no placeholder '%s'",
				 en->path, u->line, u->id, c.bad);
			return -1;
		}
		if (page_text_find(u->id, &id)) {
			textout_line(problems, "%s:%ld: '%s' is not used by the pages (ignored)",
				en->path, u->line, u->id);
			rep->counts.unknown++;
		}
	}
	rep->counts.entries = PT_COUNT;
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
			rep->counts.missing++;
			if (u)
				textout_line(problems, "%s:%ld: '%s' has no translation (missing: English "
					"is used)", tr->path, u->line, key);
			else
				textout_line(problems, "%s: '%s' is missing (English is used)", tr->path,
					key);
		} else if (strcmp(u->source, source->source)) {
			texts[i].status = "stale";
			rep->counts.stale++;
			textout_line(problems, "%s:%ld: '%s' is stale: the English text changed since it "
				"was translated (English is used until the translation is "
				"updated)", tr->path, u->line, key);
		} else if (template_placeholders_within(u->target, source->source) != 1) {
			texts[i].status = "invalid";
			rep->counts.invalid++;
			textout_line(problems, "%s:%ld: '%s': the translation names a placeholder the "
				"English text does not have, or is not a valid template (English is "
				"used)", tr->path, u->line, key);
		} else {
			texts[i].text = u->target;
			texts[i].status = "translated";
			rep->counts.translated++;
		}
	}
	rep->counts.entries = PT_COUNT;
	for (i = 0; i < tr->n; i++) {
		if (!xliff_find(en, tr->units[i].id)) {
			rep->counts.unknown++;
			textout_line(problems, "%s:%ld: '%s' is unknown: English has no such entry "
				"(ignored)", tr->path, tr->units[i].line, tr->units[i].id);
		}
	}
}

/* Store the merges of the languages that loaded (texts: PT_COUNT per
 * language) and forget those of languages whose catalogue is gone. */
static int store_merges(catalogue *cat, const translate_result *result, const merged *texts,
			mc_err *err)
{
	translation_merge *m = xcalloc(result->n ? result->n : 1, sizeof(*m));
	translation_text *t = xcalloc(result->n * PT_COUNT + 1, sizeof(*t));
	char when[32];
	size_t i, k;
	int rc;

	for (i = 0; i < result->n; i++) {
		const translate_report *rep = &result->langs[i];

		for (k = 0; k < PT_COUNT; k++) {
			t[i * PT_COUNT + k].key = page_text_key((page_text_id)k);
			t[i * PT_COUNT + k].text = texts[i * PT_COUNT + k].text;
			t[i * PT_COUNT + k].status = texts[i * PT_COUNT + k].status;
			t[i * PT_COUNT + k].line = texts[i * PT_COUNT + k].line;
		}
		m[i].lang = rep->lang;
		m[i].file = rep->path;
		m[i].store = rep->loaded;
		m[i].texts = t + i * PT_COUNT;
		m[i].ntexts = PT_COUNT;
		m[i].counts = rep->counts;
	}
	day_now(when);
	rc = translation_store(cat, m, result->n, when, err);
	free(t);
	free(m);
	return rc;
}

int translate_catalogues(catalogue *cat, const char *dir, FILE *problems,
			 translate_result *result, mc_err *err)
{
	xliff_catalogue *cats = NULL;
	merged *texts = NULL;
	char **langs = NULL;
	size_t n = 0, skipped = 0, i;
	int rc = -1;

	memset(result, 0, sizeof(*result));
	if (list_languages(dir, problems, &langs, &n, &skipped, err))
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
				mc_error(err, "%s", rep->error);
				goto out;
			}
			textout_line(problems, "%s (the %s catalogue is not loaded)", rep->error, rep->lang);
			continue;
		}
		if (i == 0) {
			size_t k;

			if (check_english(&cats[0], problems, rep, err))
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
			textout_line(problems, "%s (the %s catalogue is not loaded)", rep->error, rep->lang);
			xliff_release(&cats[i]);
			continue;
		}
		merge_language(&cats[0], &cats[i], problems, rep, texts + i * PT_COUNT);
		rep->loaded = 1;
	}

	if (store_merges(cat, result, texts, err))
		goto out;
	rc = 0;
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

/* Put one stored text into the page_texts ctx (unknown keys are skipped). */
static void take_text(void *ctx, const char *key, const char *text)
{
	page_texts *texts = ctx;
	page_text_id id;

	if (page_text_find(key, &id) == 0)
		page_text_set(texts, id, text);
}

int translate_load(catalogue *cat, const char *lang, page_texts *texts, mc_err *err)
{
	page_texts_init(texts, lang);
	return translation_load(cat, lang, take_text, texts, err);
}
