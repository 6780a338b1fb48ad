#include "publish/render.h"
#include "publish/render_internal.h"
#include "db/credit.h"
#include "db/query.h"
#include "base/sha256.h"
#include "publish/translate.h"
#include "db/translation.h"
#include "base/textout.h"
#include "publish/template.h"
#include "publish/cite.h"
#include "publish/download.h"
#include "publish/hwpage.h"
#include "publish/chart.h"
#include "publish/chart_peers.h"
#include "publish/history_page.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void render_file_stem(const char *name, char *buf, size_t len)
{
	sha256_ctx hash;
	char hex[65], slug[61];
	size_t n = 0;
	const char *p;

	for (p = name; *p && n < sizeof(slug) - 1; p++) {
		char c = *p;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			slug[n++] = c;
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = '\0';
	sha256_init(&hash);
	sha256_update(&hash, name, strlen(name));
	sha256_final_hex(&hash, hex);
	mc_fmt(buf, len, "%s-%.10s", n ? slug : "model", hex);
}

/* The SHA-256 of every language's page texts (code, then each text by
 * its number) into r->stats->texts_sha: what the site compares to tell
 * pages changed by new texts. */
static void texts_digest(render_run *r)
{
	sha256_ctx h;
	size_t i, k;

	sha256_init(&h);
	for (i = 0; i < r->nlangs; i++) {
		sha256_update(&h, r->langs[i], strlen(r->langs[i]) + 1);
		for (k = 0; k < PT_COUNT; k++) {
			const char *t = r->texts[i].text[k] ? r->texts[i].text[k] : "";

			sha256_update(&h, &k, sizeof(k));
			sha256_update(&h, t, strlen(t) + 1);
		}
	}
	sha256_final_hex(&h, r->stats->texts_sha);
}

/* Load every stored language's texts and make its folder under outdir. */
static int load_languages(render_run *r, const char *outdir, mc_err *err)
{
	size_t i;

	if (translation_languages(r->cat, &r->langs, &r->nlangs, err))
		return -1;
	if (!r->nlangs || strcmp(r->langs[0], "en"))
		return mc_error(err, "%s: no page texts stored (run modelcat translate first)",
				r->cat->path);
	r->texts = xcalloc(r->nlangs, sizeof(*r->texts));
	r->dirs = xcalloc(r->nlangs, sizeof(*r->dirs));
	for (i = 0; i < r->nlangs; i++) {
		sbuf dir;

		if (translate_load(r->cat, r->langs[i], &r->texts[i], NULL))
			return mc_error(err, "%s: cannot load the page texts of %s", r->cat->path,
					r->langs[i]);
		sbuf_init(&dir);
		sbuf_addf(&dir, "%s/%s", outdir, r->langs[i]);
		r->dirs[i] = sbuf_detach(&dir, NULL);
		if (render_files_make_dirs(r->dirs[i], err))
			return -1;
		render_files_remove_stale_temps(r->dirs[i]);
	}
	texts_digest(r);
	return 0;
}

/* Text id of texts (else of english) with no placeholder filled in; a
 * text neither has: its key, so that a missing one shows. */
char *render_word(const page_texts *texts, const page_texts *english, page_text_id id)
{
	return page_text_string(texts, english, id, NULL);
}

static void words_of(const page_texts *texts, const page_texts *english, render_words *w)
{
	mc_fmt(w->lang, sizeof(w->lang), "%s", texts->lang);
	mc_fmt(w->index, sizeof(w->index), "pages/%s/index.html", texts->lang);
	w->name = render_word(texts, english, PT_SITE_LANGUAGE);
	w->site = render_word(texts, english, PT_SITE_NAME);
	w->nav = render_word(texts, english, PT_NAV_LABEL);
	w->index_label = render_word(texts, english, PT_NAV_INDEX);
	w->audit = render_word(texts, english, PT_NAV_AUDIT);
	w->about = render_word(texts, english, PT_SITE_ABOUT);
	w->published = render_word(texts, english, PT_SITE_PUBLISHED);
	w->hardware_label = render_word(texts, english, PT_NAV_HARDWARE);
	mc_fmt(w->hardware_index, sizeof(w->hardware_index), "pages/%s/hardware/index.html",
	       texts->lang);
	if (strcmp(texts->lang, "en"))
		mc_fmt(w->audit_index, sizeof(w->audit_index), "audit/%s/index.html", texts->lang);
	else
		mc_fmt(w->audit_index, sizeof(w->audit_index), "audit/index.html");
}

void render_words_free(render_words *words, size_t n)
{
	size_t i;

	for (i = 0; words && i < n; i++) {
		free(words[i].name);
		free(words[i].site);
		free(words[i].nav);
		free(words[i].index_label);
		free(words[i].audit);
		free(words[i].about);
		free(words[i].published);
		free(words[i].hardware_label);
	}
	free(words);
}

int render_words_load(catalogue *cat, render_words **words, size_t *n, mc_err *err)
{
	char **langs = NULL;
	page_texts *texts;
	size_t nlangs = 0, i;
	int rc = 0;

	*words = NULL;
	*n = 0;
	if (translation_languages(cat, &langs, &nlangs, err))
		return -1;
	if (!nlangs || strcmp(langs[0], "en")) {
		mc_free_strings(langs, nlangs);
		return mc_error(err, "%s: no page texts stored (run modelcat translate first)",
				cat->path);
	}
	texts = xcalloc(nlangs, sizeof(*texts));
	for (i = 0; !rc && i < nlangs; i++)
		if (translate_load(cat, langs[i], &texts[i], NULL))
			rc = mc_error(err, "%s: cannot load the page texts of %s", cat->path, langs[i]);
	if (!rc) {
		*words = xcalloc(nlangs, sizeof(**words));
		for (i = 0; i < nlangs; i++)
			words_of(&texts[i], &texts[0], &(*words)[i]);
		*n = nlangs;
	}
	for (i = 0; i < nlangs; i++)
		page_texts_release(&texts[i]);
	free(texts);
	mc_free_strings(langs, nlangs);
	return rc;
}

void render_frame(frame *f, frame_alt *alts, const render_words *words, size_t n, size_t lang,
		  const char *root, const char *base_url)
{
	size_t i, k = 0;

	memset(f, 0, sizeof(*f));
	f->lang = words[lang].lang;
	f->root = root;
	f->base_url = base_url;
	f->site_name = words[lang].site;
	f->nav_label = words[lang].nav;
	f->index_label = words[lang].index_label;
	f->audit_label = words[lang].audit;
	f->index = words[lang].index;
	f->hardware_label = words[lang].hardware_label;
	f->hardware_index = words[lang].hardware_index;
	f->audit_index = words[lang].audit_index;
	for (i = 0; i < n; i++) {
		if (i == lang)
			continue;
		alts[k].lang = words[i].lang;
		alts[k].name = words[i].name;
		alts[k].page = NULL;
		alts[k].index = words[i].index;
		k++;
	}
	f->alts = alts;
	f->nalts = k;
}

int render_texts_digest(catalogue *cat, char sha[65], mc_err *err)
{
	render_run r;
	render_stats stats;
	size_t i;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.stats = &stats;
	if (translation_languages(cat, &r.langs, &r.nlangs, err))
		return -1;
	r.texts = xcalloc(r.nlangs + 1, sizeof(*r.texts));
	for (i = 0; !rc && i < r.nlangs; i++)
		if (translate_load(cat, r.langs[i], &r.texts[i], NULL))
			rc = mc_error(err, "%s: cannot load the page texts of %s", cat->path,
				      r.langs[i]);
	if (!rc) {
		texts_digest(&r);
		mc_fmt(sha, 65, "%s", stats.texts_sha);
	}
	for (i = 0; i < r.nlangs; i++)
		page_texts_release(&r.texts[i]);
	free(r.texts);
	mc_free_strings(r.langs, r.nlangs);
	return rc;
}

char *render_formerly(const former_name *formers, size_t n, const char *name)
{
	sbuf s;
	size_t i;

	sbuf_init(&s);
	for (i = 0; i < n; i++)
		if (!strcmp(formers[i].name, name))
			sbuf_addf(&s, "%s%s", s.len ? ", " : "", formers[i].former);
	if (!s.len) {
		sbuf_release(&s);
		return NULL;
	}
	return sbuf_detach(&s, NULL);
}

/* ---- every model on every core ---- */

#define RENDER_THREADS_ENV "MODELCAT_RENDER_THREADS"
#define RENDER_THREADS_MAX 8

/* The items (models, and the indexes with them) not yet taken, shared
 * by the workers, and what is done with each. */
typedef struct model_queue {
	atomic_size_t next;          /* the next item to take */
	size_t n;                    /* how many there are */
	atomic_int failed;           /* a worker failed: the others stop */
	int (*each)(render_run *, size_t, mc_err *);
} model_queue;

/* A worker beside the calling thread: a copy of the run with a connection,
 * counts and room for the cited files of its own. */
typedef struct render_worker {
	render_run run;
	catalogue cat;
	render_stats stats;
	model_queue *queue;
	pthread_t thread;
	mc_err err;
	int rc;
} render_worker;

/* Take the items the queue gives until none is left or one fails; when
 * the connection has no transaction open, each in a read transaction of
 * its own. */
static int render_queued(render_run *r, model_queue *q, mc_err *err)
{
	int own = 1, rc = 0;
	size_t i;

	while (!atomic_load(&q->failed) && (i = atomic_fetch_add(&q->next, 1)) < q->n) {
		int open = 0;

		if (own && (open = catalogue_read_begin(r->cat, err)) < 0) {
			rc = -1;
			break;
		}
		own = open;         /* a transaction of the caller's: none of ours */
		rc = q->each(r, i, err);
		if (open && catalogue_read_end(r->cat, rc ? NULL : err))
			rc = -1;
		if (rc)
			break;
	}
	if (rc)
		atomic_store(&q->failed, 1);
	return rc;
}

static void *worker_main(void *arg)
{
	render_worker *w = arg;

	w->rc = render_queued(&w->run, w->queue, &w->err);
	return NULL;
}

int render_threads_check(mc_err *err)
{
	const char *env = getenv(RENDER_THREADS_ENV);
	char *end;
	long n;

	if (!env || !*env)
		return 0;
	errno = 0;
	n = strtol(env, &end, 10);
	if (errno || *end || end == env || n < 1 || n > RENDER_THREADS_MAX)
		return mc_error(err, RENDER_THREADS_ENV "=%s: not a whole number from 1 to %d", env,
				RENDER_THREADS_MAX);
	return 0;
}

/* How many threads render the model pages: MODELCAT_RENDER_THREADS (1 to
 * 8; render_threads_check()), else the cores it may run on (mc_cores()),
 * at most 4; 1 unless the pages go to a site's file_out (thread-safe, no
 * temporary names) from a catalogue file that a second connection sees as
 * this one does (no transaction open). */
static size_t render_threads(const render_run *r)
{
	const char *env = getenv(RENDER_THREADS_ENV);
	long n = env && *env ? strtol(env, NULL, 10) : mc_cores();

	if (!env || !*env)
		n = n > 4 ? 4 : n;
	if (n < 1 || !r->site || !r->site->out || !r->cat->path || !r->cat->path[0] ||
	    !strcmp(r->cat->path, ":memory:") || catalogue_in_transaction(r->cat))
		return 1;
	return n > RENDER_THREADS_MAX ? RENDER_THREADS_MAX : (size_t)n;
}

/* Start worker w on q: 0, or -1 when it cannot be (the calling thread
 * does its share then). */
static int worker_start(render_worker *w, const render_run *r, model_queue *q)
{
	memset(w, 0, sizeof(*w));
	if (catalogue_open(&w->cat, r->cat->path, NULL, CATALOGUE_READONLY, &w->err))
		return -1;
	if (r->cat->default_key)
		w->cat.default_key = xstrdup(r->cat->default_key);
	query_updated_use(&w->cat, r->cat->updated);
	w->run = *r;
	w->run.cat = &w->cat;
	w->run.stats = &w->stats;
	w->run.cited = xcalloc(r->cite.n + 1, sizeof(*w->run.cited));
	w->queue = q;
	/* SIGINT, SIGTERM and SIGHUP go to the calling thread only: its
	 * handler removes the version being built (site_signal_cleanup()),
	 * whose file_out then refuses the workers' files, so they stop */
	if (mc_thread_start(&w->thread, worker_main, w)) {
		free(w->run.cited);
		catalogue_close(&w->cat);
		return -1;
	}
	return 0;
}

/* each(r, i) for every item i < n, on the threads render_threads() gives:
 * each takes the next item not taken; what each() does with item i
 * depends on nothing another does, so the result is one thread's,
 * whatever the order. 0, or -1 (err: the first failure). */
int render_each(render_run *r, int (*each)(render_run *, size_t, mc_err *), size_t n_items,
		mc_err *err)
{
	render_worker w[RENDER_THREADS_MAX - 1];
	model_queue q;
	size_t n = render_threads(r), started = 0, k;
	int rc;

	atomic_init(&q.next, 0);
	atomic_init(&q.failed, 0);
	q.n = n_items;
	q.each = each;
	while (started + 1 < n && !worker_start(&w[started], r, &q))
		started++;
	rc = render_queued(r, &q, err);
	for (k = 0; k < started; k++) {
		pthread_join(w[k].thread, NULL);
		if (w[k].rc && !rc) {
			*err = w[k].err;
			rc = -1;
		}
		r->stats->files += w[k].stats.files;
		r->stats->reused += w[k].stats.reused;
		free(w[k].run.cited);
		catalogue_close(&w[k].cat);
	}
	return rc;
}

/* Item i of the pages' pass: the index of language i for the first
 * nlangs (the largest pages, taken first so that no thread is left
 * making one at the end), then chunk i - nlangs of the models. */
static int render_item(render_run *r, size_t i, mc_err *err)
{
	return i < r->nlangs ? render_index_write(r, i, err) :
			       render_models_page_chunk(r, i - r->nlangs, err);
}

void render_run_release(render_run *r)
{
	size_t i;

	for (i = 0; r->texts && i < r->nlangs; i++)
		page_texts_release(&r->texts[i]);
	free(r->texts);
	mc_free_strings(r->dirs, r->nlangs);
	mc_free_strings(r->langs, r->nlangs);
	mc_free_strings(r->names, r->nnames);
	free(r->stems);
	free(r->files);
	for (i = 0; r->entries && i < r->nentries; i++)
		page_index_entry_release(&r->entries[i]);
	free(r->entries);
	free(r->entry_of);
	free(r->order);
	free(r->partial);
	chart_catalogue_release(&r->charts);
	former_names_release(r->formers, r->nformers);
	free(r->citation);
	render_words_free(r->words, r->words ? r->nlangs : 0);
	cite_release(&r->cite);
	free(r->cited);
	hwlink_day_release(&r->links);
	timeline_release(&r->lives);
	if (r->cat && r->cat->updated == &r->updated)
		query_updated_use(r->cat, NULL);
	query_updated_release(&r->updated);
}

/* ---- the reads beside the list of models ---- */

/* Every model's history, read on a connection and a thread of its own
 * while render_all() reads the list of models and the rest: one after the
 * other they were 0.14 and 0.15 s of a publication at the bench's size,
 * on one core (on a fresh connection, the history takes 0.19 s). */
typedef struct histories {
	render_run *r;               /* r->lives is read into */
	catalogue cat;               /* the thread's connection, when open */
	int own;                     /* cat is open */
} histories;

static int histories_read(void *arg, mc_err *err)
{
	histories *h = arg;

	return timeline_read(h->own ? &h->cat : h->r->cat, h->r->as_of, NULL, &h->r->lives, err);
}

/* Start reading r's histories into r->lives (h, j): on a thread and a
 * connection of their own when r's pages are made on more than one
 * (render_threads()), else here at once. r->lives is not to be touched
 * before mc_job_wait(j). */
static void histories_start(histories *h, mc_job *j, render_run *r)
{
	mc_err ignored;

	h->r = r;
	h->own = render_threads(r) > 1 &&
		 !catalogue_open(&h->cat, r->cat->path, NULL, CATALOGUE_READONLY, &ignored);
	mc_job_start(j, histories_read, h, h->own);
}

int render_all(catalogue *cat, const char *as_of, const char *outdir, const render_site *site,
	       render_stats *stats, mc_err *err)
{
	render_run r;
	histories lives;
	mc_job read_lives;
	size_t i;
	int failed, rc = -1;

	memset(stats, 0, sizeof(*stats));
	memset(&r, 0, sizeof(r));
	r.cat = cat;
	r.as_of = as_of;
	r.stats = stats;
	r.site = site;
	histories_start(&lives, &read_lives, &r);
	failed = mc_job_wait(&read_lives,
			 load_languages(&r, outdir, err) ||
				 query_models(cat, as_of, &r.names, &r.nnames, err) ||
				 query_former_names(cat, as_of, &r.formers, &r.nformers, err) ||
				 credit_citation_upto(cat, as_of, &r.citation, err) < 0 ||
				 cite_load(cat, as_of, &r.cite, err) ||
				 hwlink_load(cat, as_of, &r.links, err),
			 err);
	if (lives.own)
		catalogue_close(&lives.cat);
	if (failed)
		goto out;
	r.cited = xcalloc(r.cite.n + 1, sizeof(*r.cited));
	if (site) {
		r.words = xcalloc(r.nlangs, sizeof(*r.words));
		for (i = 0; i < r.nlangs; i++)
			words_of(&r.texts[i], &r.texts[0], &r.words[i]);
	}
	r.stems = xcalloc(r.nnames + 1, sizeof(*r.stems));
	r.files = xcalloc(r.nnames + 1, sizeof(*r.files));
	r.entries = xcalloc(r.nnames + 1, sizeof(*r.entries));
	r.entry_of = xcalloc(r.nnames + 1, sizeof(*r.entry_of));
	if (site && site->reuse) {
		if (render_models_global_key(&r, err))
			goto out;
		r.partial = xcalloc(r.nnames + 1, sizeof(*r.partial));
	}
	if (render_models_collect_entries(&r, err))
		goto out;
	if (render_each(&r, render_item, r.nlangs + render_models_chunks(&r), err))
		goto out;
	stats->models = r.nentries;
	if (render_files_redirects(&r, err) || render_index_hardware_pages(&r, err))
		goto out;
	stats->languages = r.nlangs;
	if (site && site->keep_names) {
		stats->names = r.names;   /* (the entries that point into them are freed) */
		stats->nnames = r.nnames;
		r.names = NULL;
	}
	rc = 0;
out:
	render_run_release(&r);
	return rc;
}

int render_page_extras(catalogue *cat, const model_view *m, const char *name,
		       const page_texts *texts, const page_texts *english, page *p, mc_err *err)
{
	render_run r;
	render_stats stats;
	size_t i, at = SIZE_MAX;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.cat = cat;
	r.as_of = m->as_of;
	r.stats = &stats;
	if (render_models_entries(&r, err) || hwlink_load(cat, m->as_of, &r.links, err)) {
		render_run_release(&r);
		return -1;
	}
	render_models_hardware_links(&r, m, p);
	for (i = 0; i < r.nnames && at == SIZE_MAX; i++)
		if (!strcmp(r.names[i], name) || (m->name && !strcmp(r.names[i], m->name)))
			at = r.entry_of[i];
	if (at != SIZE_MAX) {
		sbuf html;

		sbuf_init(&html);
		rc = chart_peers_model_figures(&r.charts, &r.entries[at], texts, english, &html, err);
		if (!rc && html.len) {
			free(p->charts);
			p->charts = sbuf_detach(&html, NULL);
		}
		sbuf_release(&html);
	}
	render_run_release(&r);
	return rc ? -1 : 0;
}
