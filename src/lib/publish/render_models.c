#include "publish/render_internal.h"
#include "publish/render.h"
#include "base/sha256.h"
#include "publish/download.h"
#include "publish/history_page.h"
#include "publish/chart_peers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the pass over the models: index entries, keys, pages ---- */

/* The citation block of model m's page (cite.h): the files of c its
 * values come from (cited: room for c->n of them). */
static char *cite_block(const cite_set *c, const provenance_file **cited, const model_view *m,
			const char *stem, const page_texts *texts, const page_texts *english,
			const char *url)
{
	char key[160];
	size_t n = cite_model(c, m, cited);
	sbuf out;

	sbuf_init(&out);
	mc_fmt(key, sizeof(key), "epochai:%s", stem);
	cite_html(&out, 2, texts, english, key, url, cited, n, NULL);
	return sbuf_detach(&out, NULL);
}

/* (the BibTeX's url: the page's own address when the site's URL is known) */
static char *cite_of_model(render_run *r, const model_view *m, size_t lang, const char *stem)
{
	char path[300], *url, *block;

	mc_fmt(path, sizeof(path), "pages/%s/%s.html", r->langs[lang], stem);
	url = cite_page_url(r->site ? r->site->base_url : NULL, path);
	block = cite_block(&r->cite, r->cited, m, stem, &r->texts[lang], &r->texts[0], url);
	free(url);
	return block;
}

int render_page_cite(catalogue *cat, const char *name, const model_view *m,
		     const page_texts *texts, const page_texts *english, page *p, mc_err *err)
{
	const provenance_file **cited;
	char stem[128];
	cite_set c;

	if (cite_load(cat, m->as_of, &c, err))
		return -1;
	cited = xcalloc(c.n + 1, sizeof(*cited));
	render_file_stem(name, stem, sizeof(stem));
	page_add_raw(p, cite_block(&c, cited, m, stem, texts, english, NULL));
	free(cited);
	cite_release(&c);
	return 0;
}

/* Model m's JSON twin beside the downloads; r->frame_data (its path from
 * the site root, in twin) links it from the pages framed next. */
static int write_twin(render_run *r, const model_view *m, size_t i, char twin[200], mc_err *err)
{
	size_t n = cite_model(&r->cite, m, r->cited);

	download_twin_path(r->stems[i], twin, 200);
	r->frame_data = twin;
	return download_twin(r->site->downloads, m, r->stems[i], r->langs, r->nlangs, r->cited, n,
			     err);
}

/* Where the items of m's training hardware link from its pages (page.h's
 * hardware_links: item, href), and the hardware index from its closing
 * sentence. */
void render_models_hardware_links(const render_run *r, const model_view *m, page *p)
{
	const char *v = NULL;
	size_t i;

	for (i = 0; i < m->values.n && !v; i++)
		if (!strcmp(m->values.items[i].field, "Training hardware"))
			v = m->values.items[i].value;
	p->hardware_index = xstrdup("hardware/index.html");
	while (v && *v) {
		size_t len = strcspn(v, ",");
		char *item = xstrndup(v, len);
		const hwlink_card *c = hwlink_card_for(&r->links, item);

		if (c) {
			char stem[128];
			sbuf href;

			render_file_stem(c->name, stem, sizeof(stem));
			sbuf_init(&href);
			sbuf_addf(&href, "hardware/%s.html", stem);
			p->hardware_links = xrealloc(p->hardware_links, (p->nhardware_links + 1) * 2 *
						     sizeof(*p->hardware_links));
			p->hardware_links[2 * p->nhardware_links] = item;
			p->hardware_links[2 * p->nhardware_links + 1] = sbuf_detach(&href, NULL);
			p->nhardware_links++;
		} else {
			free(item);
		}
		v += len + (v[len] == ',');
	}
}

/* ---- pages made before (render_reuse) ---- */

/* A key being made: its bytes gathered and hashed a few kilobytes at a
 * time (a model's key is hundreds of short strings; hashing each on its
 * own cost more than the hash). The digest is that of the bytes in order. */
typedef struct key_hash {
	sha256_ctx sha;
	size_t fill;
	unsigned char buf[4096];
} key_hash;

static void key_init(key_hash *k)
{
	sha256_init(&k->sha);
	k->fill = 0;
}

/* Hash what the buffer holds. */
static void key_flush(key_hash *k)
{
	sha256_update(&k->sha, k->buf, k->fill);
	k->fill = 0;
}

static void key_bytes(key_hash *k, const void *data, size_t len)
{
	if (len > sizeof(k->buf) - k->fill) {
		key_flush(k);
		if (len >= sizeof(k->buf)) {
			sha256_update(&k->sha, data, len);
			return;
		}
	}
	memcpy(k->buf + k->fill, data, len);
	k->fill += len;
}

static void key_final(key_hash *k, unsigned char digest[32])
{
	key_flush(k);
	sha256_final(&k->sha, digest);
}

static void key_final_hex(key_hash *k, char hex[65])
{
	key_flush(k);
	sha256_final_hex(&k->sha, hex);
}

/* Add s to a key, told apart from the next string and from NULL. */
static void key_str(key_hash *h, const char *s)
{
	if (!s) {
		key_bytes(h, "n", 1);
		return;
	}
	key_bytes(h, "s", 1);
	key_bytes(h, s, strlen(s) + 1);
}

/* What every model's files are made from (render_reuse): this program,
 * the page texts, the languages, the site's URL, the data's citation. */
int render_models_global_key(render_run *r, mc_err *err)
{
	char exe[65];
	key_hash h;
	size_t i;

	if (sha256_file("/proc/self/exe", exe, NULL, err))
		return -1;
	key_init(&h);
	key_str(&h, "modelcat model files 1");
	key_str(&h, exe);
	key_str(&h, r->stats->texts_sha);
	for (i = 0; i < r->nlangs; i++)
		key_str(&h, r->langs[i]);
	key_str(&h, NULL);
	key_str(&h, r->site->base_url);
	key_str(&h, r->citation);
	key_str(&h, RENDER_AUDIT_ROOT);
	key_final(&h, r->global_key);
	return 0;
}

/* The model's values and sources, and the files they cite, into a key. */
static void key_values(render_run *r, const model_view *m, key_hash *h)
{
	size_t k, n = cite_model(&r->cite, m, r->cited);
	char num[64];

	key_str(h, m->name);
	key_str(h, m->last_updated);
	key_str(h, m->last_updated[0] ? NULL : m->as_of);
	for (k = 0; k < m->exports.n; k++)
		key_str(h, m->exports.items[k]);
	key_str(h, NULL);
	for (k = 0; k < m->values.n; k++) {
		const model_value *v = &m->values.items[k];

		key_str(h, v->field);
		key_str(h, v->value);
		key_str(h, v->export);
		key_str(h, v->since);
		mc_fmt(num, sizeof(num), "%lld", (long long)v->source);
		key_str(h, num);
	}
	key_str(h, NULL);
	for (k = 0; k < n; k++) {
		mc_fmt(num, sizeof(num), "%lld %llu", (long long)r->cited[k]->id,
		       r->cited[k]->bytes);
		key_str(h, num);
		key_str(h, r->cited[k]->export);
		key_str(h, r->cited[k]->day);
		key_str(h, r->cited[k]->sha256);
	}
	key_str(h, NULL);
}

/* Model i's history and former names, into a key. */
static void key_history(render_run *r, size_t i, key_hash *h)
{
	const timeline_model *life = timeline_find(&r->lives, r->names[i]);
	char *formerly = render_formerly(r->formers, r->nformers, r->names[i]);
	char num[32];
	size_t k;

	key_str(h, formerly);
	free(formerly);
	for (k = 0; life && k < life->n; k++) {
		const timeline_event *e = &life->events[k];

		mc_fmt(num, sizeof(num), "%d", (int)e->kind);
		key_str(h, e->date);
		key_str(h, num);
		key_str(h, e->export);
		key_str(h, e->field);
		key_str(h, e->old);
		key_str(h, e->new);
	}
	key_str(h, NULL);
}

/* All model i's files are made from but its chart (the index entries'
 * pass makes it, with the model at hand): into r->partial[i]. */
static void model_key_part(render_run *r, size_t i, const model_view *m)
{
	key_hash h;
	size_t j, k;

	key_init(&h);
	key_bytes(&h, r->global_key, sizeof(r->global_key));
	key_str(&h, r->names[i]);
	key_str(&h, r->stems[i]);
	key_values(r, m, &h);
	key_history(r, i, &h);
	/* (the citation block is made from what the key has already: the
	   page texts, the stem, the name and the files cited) */
	for (j = 0; j < r->nlangs; j++) {
		page p;

		page_init(&p, r->langs[j]);
		render_models_hardware_links(r, m, &p);
		key_str(&h, p.hardware_index);
		for (k = 0; k < 2 * p.nhardware_links; k++)
			key_str(&h, p.hardware_links[k]);
		key_str(&h, NULL);
		page_release(&p);
	}
	key_final(&h, r->partial[i]);
}

/* ---- the models, a chunk at a time ---- */

/* How many models an item of the passes over them takes (model_chunk()),
 * read by one scan (query_scan_open()) in one read transaction: each
 * statement outside one takes and drops the catalogue's shared lock, and
 * looks for a journal, on its own (a tenth of a publish); a writer waits
 * for the lock at most the time of this many models. */
#define RENDER_CHUNK 32

static int order_cmp(const void *a, const void *b, void *names)
{
	char **n = names;

	return strcmp(n[*(const size_t *)a], n[*(const size_t *)b]);
}

/* r->order: the places of r->names in the order of their bytes, the
 * order of the catalogue's index of names, which a scan reads. */
static void model_order(render_run *r)
{
	size_t i;

	r->order = xcalloc(r->nnames + 1, sizeof(*r->order));
	for (i = 0; i < r->nnames; i++)
		r->order[i] = i;
	qsort_r(r->order, r->nnames, sizeof(*r->order), order_cmp, r->names);
}

/* How many chunks of RENDER_CHUNK models r has. */
size_t render_models_chunks(const render_run *r)
{
	return (r->nnames + RENDER_CHUNK - 1) / RENDER_CHUNK;
}

/* Chunk k's places in r->order: [*lo, *hi). */
static void model_chunk(const render_run *r, size_t k, size_t *lo, size_t *hi)
{
	*lo = k * RENDER_CHUNK;
	*hi = *lo + RENDER_CHUNK < r->nnames ? *lo + RENDER_CHUNK : r->nnames;
}

/* Read the models from r->names[first] to r->names[last] (in r->order) by
 * one scan, as model_read() asks for them, until model_scan_end(). 0, or
 * -1 (err). */
static int model_scan_start(render_run *r, size_t first, size_t last, mc_err *err)
{
	return query_scan_open(r->cat, r->as_of, r->names[first], r->names[last], &r->scan, err);
}

static void model_scan_end(render_run *r)
{
	query_scan_close(r->scan);
	r->scan = NULL;
}

/* Model i into m, as query_model() reads it: from this thread's scan when
 * one is open (asked in r->order). */
static int model_read(render_run *r, size_t i, model_view *m, mc_err *err)
{
	return r->scan ? query_model_next(r->scan, r->names[i], m, err) :
			 query_model(r->cat, r->names[i], r->as_of, m, err);
}

/* Model i's index entry, made in r->entries[i] (entry_of[i] = i), or
 * entry_of[i] = SIZE_MAX when it has no page. 0, or -1 (err). */
static int entry_of_model(render_run *r, size_t i, mc_err *err)
{
	model_view m;
	int found = model_read(r, i, &m, err);

	r->entry_of[i] = SIZE_MAX;
	if (found == 0) {
		render_file_stem(r->names[i], r->stems[i], sizeof(r->stems[i]));
		page_index_entry_fill(&r->entries[i], &m);
		r->entry_of[i] = i;
		if (r->partial)
			model_key_part(r, i, &m);
	}
	model_view_release(&m);
	return found < 0 ? -1 : 0;
}

/* The index entries of chunk k's models (model_chunk()), read by one
 * scan. 0, or -1 (err). */
static int entry_chunk(render_run *r, size_t k, mc_err *err)
{
	size_t lo, hi;
	int rc = 0;

	model_chunk(r, k, &lo, &hi);
	if (model_scan_start(r, r->order[lo], r->order[hi - 1], err))
		return -1;
	for (; lo < hi && !rc; lo++)
		rc = entry_of_model(r, r->order[lo], err);
	model_scan_end(r);
	return rc;
}

/* Item i of the index entries' pass: with a site's downloads to write,
 * item 0 writes them (taken first: the longest), and item i the entries
 * of chunk i - 1; else item i is chunk i's. */
static int entry_item(render_run *r, size_t i, mc_err *err)
{
	const render_site *site = r->site;

	if (site && site->downloads_dir) {
		if (!i)
			return download_write(r->cat, r->as_of, site->downloads_dir, site->base_url,
					      site->out, site->downloads, err);
		i--;
	}
	return entry_chunk(r, i, err);
}

/* The former names of the model called name, tab-separated (the index's
 * filter finds a model by them), or NULL. */
static char *index_formerly(const render_run *r, const char *name)
{
	sbuf s;
	size_t i, j;

	sbuf_init(&s);
	for (i = 0; i < r->nformers; i++) {
		if (strcmp(r->formers[i].name, name))
			continue;
		/* each once (a rename in two exports is two rows) */
		for (j = 0; j < i; j++)
			if (!strcmp(r->formers[j].name, name) &&
			    !strcmp(r->formers[j].former, r->formers[i].former))
				break;
		if (j == i)
			sbuf_addf(&s, "%s%s", s.len ? "\t" : "", r->formers[i].former);
	}
	if (!s.len) {
		sbuf_release(&s);
		return NULL;
	}
	return sbuf_detach(&s, NULL);
}

/* Every model's index entry, before any page: a model page's chart
 * places its model among all of them (chart.h). Made on every core
 * (render_each), then moved down in the order of the names. */
int render_models_collect_entries(render_run *r, mc_err *err)
{
	size_t i, downloads = r->site && r->site->downloads_dir ? 1 : 0;

	/* every model is looked up (here and for its pages): their dates in
	   one pass, as the list of their names was read */
	if (r->as_of) {
		if (query_updated_read(r->cat, r->as_of, &r->updated, err))
			return -1;
		query_updated_use(r->cat, &r->updated);
	}
	if (!r->order)
		model_order(r);
	if (render_each(r, entry_item, downloads + render_models_chunks(r), err)) {
		/* the entries made before the failure, still where they were
		   made (entry_of[i] == i; one never made is zeroed) */
		for (i = 0; i < r->nnames; i++)
			if (r->entry_of[i] == i)
				page_index_entry_release(&r->entries[i]);
		return -1;
	}
	for (i = 0; i < r->nnames; i++) {
		if (r->entry_of[i] == SIZE_MAX)
			continue;
		r->entries[r->nentries] = r->entries[i];
		mc_fmt(r->files[r->nentries], sizeof(r->files[r->nentries]), "%s.html",
		       r->stems[i]);
		r->entries[r->nentries].name = r->names[i];
		r->entries[r->nentries].file = r->files[r->nentries];
		r->entries[r->nentries].formerly = index_formerly(r, r->names[i]);
		r->entry_of[i] = r->nentries++;
	}
	chart_catalogue_init(&r->charts, r->entries, r->nentries);
	return 0;
}

/* Model i's chart in language j (chart.h) for its page p. */
static int model_charts(render_run *r, size_t i, size_t j, page *p, mc_err *err)
{
	sbuf html;

	if (r->entry_of[i] == SIZE_MAX)
		return 0;
	sbuf_init(&html);
	if (chart_peers_model_figures(&r->charts, &r->entries[r->entry_of[i]], &r->texts[j],
				      &r->texts[0], &html, err)) {
		sbuf_release(&html);
		return -1;
	}
	p->charts = html.len ? sbuf_detach(&html, NULL) : NULL;
	sbuf_release(&html);
	return 0;
}

/* The key model i's files are made from (render_reuse), in hex: the
 * part its index entry's pass made, and its chart in every language,
 * left in charts[j] (NULL: none) for its pages when they are made. */
static int model_key(render_run *r, size_t i, char key[65], char **charts, mc_err *err)
{
	key_hash h;
	size_t j;

	key_init(&h);
	key_bytes(&h, r->partial[i], sizeof(r->partial[i]));
	for (j = 0; j < r->nlangs; j++) {
		page p;

		page_init(&p, r->langs[j]);
		if (model_charts(r, i, j, &p, err)) {
			page_release(&p);
			return -1;
		}
		key_str(&h, p.charts);
		charts[j] = p.charts;
		p.charts = NULL;
		page_release(&p);
	}
	key_final_hex(&h, key);
	return 0;
}

/* Take model i's files from the published version when it made them from
 * the same key (render_reuse), without reading the model again: 1 taken,
 * 0 not (they are to be made, with charts: model_key()), -1 (err). The key
 * is recorded either way. */
static int reuse_model(render_run *r, size_t i, char **charts, mc_err *err)
{
	const render_reuse *u = r->site->reuse;
	char key[65], **paths;
	const char *was;
	size_t n = 0, j;
	int rc;

	if (r->entry_of[i] == SIZE_MAX)
		return 0;   /* no entry: no page */
	if (model_key(r, i, key, charts, err))
		return -1;
	u->made(u->ctx, r->stems[i], key);
	was = u->prev_key(u->ctx, r->stems[i]);
	if (!was || strcmp(was, key))
		return 0;
	paths = xcalloc(2 * r->nlangs + 1, sizeof(*paths));
	for (j = 0; j < r->nlangs; j++) {
		sbuf path;

		if (!j && r->site->downloads) {
			sbuf_init(&path);
			download_twin_file(r->site->downloads, r->stems[i], &path);
			paths[n++] = sbuf_detach(&path, NULL);
		}
		sbuf_init(&path);
		sbuf_addf(&path, "%s/%s.txt", r->dirs[j], r->stems[i]);
		paths[n++] = sbuf_detach(&path, NULL);
		sbuf_init(&path);
		sbuf_addf(&path, "%s/%s.html", r->dirs[j], r->stems[i]);
		paths[n++] = sbuf_detach(&path, NULL);
	}
	rc = u->take(u->ctx, paths, n, err);
	mc_free_strings(paths, n);
	if (rc == 1) {
		r->stats->files += 2 * r->nlangs;
		r->stats->reused++;
	}
	return rc;
}

/* The pages of model i in every language (its index entry is made), with
 * charts[j] its chart in language j when its key was made (reuse_model();
 * the pages take them). */
static int render_model(render_run *r, size_t i, char **charts, mc_err *err)
{
	char twin[200];
	model_view m;
	size_t j;
	int found, rc = -1;

	found = model_read(r, i, &m, err);
	if (found < 0)
		goto out;
	render_file_stem(r->names[i], r->stems[i], sizeof(r->stems[i]));
	if (found == 0 && r->site && r->site->downloads && write_twin(r, &m, i, twin, err))
		goto out;
	for (j = 0; found == 0 && j < r->nlangs; j++) {
		page p;
		int failed;

		char *label = r->site ? render_word(&r->texts[j], &r->texts[0], PT_DOWNLOADS_PAGE) : NULL;

		page_init(&p, r->langs[j]);
		p.formerly = render_formerly(r->formers, r->nformers, r->names[i]);
		p.citation = r->citation ? xstrdup(r->citation) : NULL;
		render_models_hardware_links(r, &m, &p);
		/* (the key's charts, when the key was made) */
		p.charts = charts[j];
		charts[j] = NULL;
		failed = (!r->partial && model_charts(r, i, j, &p, err)) ||
			 page_build(&p, &m, &r->texts[j], &r->texts[0], err) ||
			 history_page_add(&p, timeline_find(&r->lives, r->names[i]), &m,
					  r->site ? RENDER_AUDIT_ROOT : NULL, &r->texts[j],
					  &r->texts[0], err);
		if (!failed)
			page_add_raw(&p, cite_of_model(r, &m, j, r->stems[i]));
		r->frame_data_label = label;
		failed = failed || render_files_write_page_framed(r, &p, j, r->stems[i], NULL, err);
		r->frame_data_label = NULL;
		free(label);
		page_release(&p);
		if (failed)
			goto out;
		r->stats->files += 2;
	}
	rc = 0;
out:
	r->frame_data = NULL;
	model_view_release(&m);
	return rc;
}

/* The pages of chunk k's models (model_chunk()): those whose files are
 * taken from the published version first (reuse_model()), then the
 * others, read by one scan when they are at least half the chunk (else
 * one by one: a scan reads the models between). 0, or -1 (err). */
int render_models_page_chunk(render_run *r, size_t k, mc_err *err)
{
	char **charts[RENDER_CHUNK];
	size_t lo, hi, j, first = SIZE_MAX, last = 0, made = 0;
	int rc = 0;

	model_chunk(r, k, &lo, &hi);
	for (j = lo; j < hi; j++) {
		int taken = 0;

		charts[j - lo] = xcalloc(r->nlangs + 1, sizeof(**charts));
		if (r->partial && !rc && (taken = reuse_model(r, r->order[j], charts[j - lo], err)) < 0)
			rc = -1;
		if (taken) {
			mc_free_strings(charts[j - lo], r->nlangs);
			charts[j - lo] = NULL;
			continue;
		}
		first = first == SIZE_MAX ? j : first;
		last = j;
		made++;
	}
	if (!rc && made && 2 * made >= hi - lo &&
	    model_scan_start(r, r->order[first], r->order[last], err))
		rc = -1;
	for (j = lo; j < hi; j++) {
		if (!charts[j - lo])
			continue;
		if (!rc)
			rc = render_model(r, r->order[j], charts[j - lo], err);
		mc_free_strings(charts[j - lo], r->nlangs);
	}
	if (r->scan)
		model_scan_end(r);
	return rc;
}

int render_page_history(catalogue *cat, page *p, const model_view *m, const char *name,
			const page_texts *texts, const page_texts *english, mc_err *err)
{
	timeline lives;
	const timeline_model *life;
	int rc;

	if (timeline_read(cat, m->as_of, name, &lives, err))
		return -1;
	life = timeline_find(&lives, name);
	if (!life && m->name)           /* asked by a former name */
		life = timeline_find(&lives, m->name);
	rc = history_page_add(p, life, m, NULL, texts, english, err);
	timeline_release(&lives);
	return rc;
}

/* Every model on record on as_of as index entries (name, file, weights,
 * parameters, the charts' values) into r->entries, for the hardware pages
 * and a model's chart. 0, or -1 (err). */
int render_models_entries(render_run *r, mc_err *err)
{
	if (query_models(r->cat, r->as_of, &r->names, &r->nnames, err))
		return -1;
	r->stems = xcalloc(r->nnames + 1, sizeof(*r->stems));
	r->files = xcalloc(r->nnames + 1, sizeof(*r->files));
	r->entries = xcalloc(r->nnames + 1, sizeof(*r->entries));
	r->entry_of = xcalloc(r->nnames + 1, sizeof(*r->entry_of));
	return render_models_collect_entries(r, err);
}
