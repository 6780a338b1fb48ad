#include "publish/site_internal.h"
#include "publish/site.h"
#include "publish/site_fs.h"
#include "publish/audit.h"
#include "publish/feed.h"
#include "publish/hwaudit.h"
#include "db/credit.h"
#include "db/query.h"
#include "base/day.h"
#include "base/paths.h"
#include "base/sha256.h"
#include "values/colmap.h"
#include "values/format.h"
#include "base/textout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the audits of a publish, and its feed ---- */

static const char *const audit_kinds[] = { "txt", "json", "html" };

/* The audits' format: a new one makes every audit again. */
#define AUDIT_FORMAT "audit-9"   /* 5: the citation block; 6: the hardware pages;
				    7: the BibTeX's title, url and note; 8: sized
				    for reading, in every language; 9: the Dutch
				    audit's every section Dutch, a quarantined
				    row's field named once, the counts' words
				    whole, folds a finger's size, days as the
				    language writes dates */

/* One language of the audits: its words, where its pages go (audit/ for
 * English, audit/LANG/ for another) and their frames. */
typedef struct audit_lang {
	page_texts texts;
	char dir[48];                /* "audit", "audit/nl" */
	char pages[48], pages_sub[48]; /* the model pages, from an audit and from
					  one of its pages of their own */
	char root[16], root_sub[16];
	frame f, fsub;
	frame_alt *alts, *alts_sub;
} audit_lang;

/* The languages of the audits, from the frame's words: 0, or -1 (p->err). */
static int langs_load(publish *p)
{
	size_t i;

	p->alangs = xcalloc(p->nwords + 1, sizeof(*p->alangs));
	for (i = 0; i < p->nwords; i++) {
		audit_lang *a = &p->alangs[i];
		const char *lang = p->words[i].lang;
		int en = !strcmp(lang, "en");

		p->nalangs++;
		if (translate_load(p->cat, lang, &a->texts, p->err) < 0)
			return -1;
		mc_fmt(a->dir, sizeof(a->dir), en ? "audit" : "audit/%s", lang);
		mc_fmt(a->root, sizeof(a->root), "%s", en ? "../" : "../../");
		mc_fmt(a->root_sub, sizeof(a->root_sub), "%s", en ? "../../" : "../../../");
		mc_fmt(a->pages, sizeof(a->pages), "%spages/%s", a->root, lang);
		mc_fmt(a->pages_sub, sizeof(a->pages_sub), "%spages/%s", a->root_sub, lang);
		a->alts = xcalloc(p->nwords, sizeof(*a->alts));
		a->alts_sub = xcalloc(p->nwords, sizeof(*a->alts_sub));
		render_frame(&a->f, a->alts, p->words, p->nwords, i, a->root, p->base_url);
		render_frame(&a->fsub, a->alts_sub, p->words, p->nwords, i, a->root_sub, p->base_url);
	}
	return 0;
}

void site_audits_release(publish *p)
{
	size_t i;

	for (i = 0; i < p->nalangs; i++) {
		page_texts_release(&p->alangs[i].texts);
		free(p->alangs[i].alts);
		free(p->alangs[i].alts_sub);
	}
	free(p->alangs);
	p->alangs = NULL;
	p->nalangs = 0;
}

/* What snapshot i's audit depends on: it, the snapshots before and after
 * it (its links), the volatile fields, the audit's format, the site's URL
 * (its BibTeX's url) and the words of its header (frame_load: every
 * language's name, English labels). (Which of
 * the models it names have a page: entries/LABEL.links, audit_reuse.) */
static void fingerprint(const publish *p, size_t i, char fp[65])
{
	sha256_ctx h;
	const snapshot_entry *s = &p->snaps[i], *b = i ? &p->snaps[i - 1] : NULL;
	size_t k;

	sha256_init(&h);
	sha256_update(&h, s->label, strlen(s->label));
	sha256_update(&h, s->content, strlen(s->content));
	if (b) {
		sha256_update(&h, b->label, strlen(b->label));
		sha256_update(&h, b->content, strlen(b->content));
	}
	sha256_update(&h, "\n", 1);
	if (i + 1 < p->nsnaps)
		sha256_update(&h, p->snaps[i + 1].label, strlen(p->snaps[i + 1].label));
	sha256_update(&h, AUDIT_FORMAT, strlen(AUDIT_FORMAT));
	sha256_update(&h, p->models_sha, strlen(p->models_sha));
	sha256_update(&h, p->base_url, strlen(p->base_url) + 1);
	for (k = 0; k < p->nwords; k++) {
		const render_words *w = &p->words[k];
		const char *const parts[] = { w->lang, w->name, w->site, w->nav, w->index_label,
					      w->audit, w->hardware_label };
		size_t j;

		for (j = 0; j < sizeof(parts) / sizeof(parts[0]); j++)
			sha256_update(&h, parts[j], strlen(parts[j]) + 1);
	}
	for (k = 0; k < p->nalangs; k++) {
		int id;

		for (id = PT_AUDIT_TITLE; id <= PT_AUDIT_INDEX_ITEM; id++) {
			const char *w = page_text_of(&p->alangs[k].texts, &p->english, (page_text_id)id);

			sha256_update(&h, w ? w : "", w ? strlen(w) + 1 : 1);
		}
	}
	sha256_final_hex(&h, fp);
}

int site_audits_has_page(void *arg, const char *name)
{
	const publish *p = arg;

	return strmap_find(&p->models, name, strlen(name)) != NULL;
}

/* The models on record (they have pages) into p->models: names[0..n),
 * which render_all() read (render_stats.names); the volatile fields of
 * the column map, and their hash into p->models_sha. */
static int models_load(publish *p, char *const *names, size_t n)
{
	char dir[PATH_MAX];
	size_t i;
	sha256_ctx h;
	colmap map;
	int added;

	memset(&map, 0, sizeof(map));
	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(&map, dir, p->err))
		return -1;
	sha256_init(&h);
	for (i = 0; i < map.nfields; i++) {
		if (!map.fields[i].is_volatile)
			continue;
		p->volatile_fields = xrealloc(p->volatile_fields,
					      (p->nvolatile + 1) * sizeof(*p->volatile_fields));
		p->volatile_fields[p->nvolatile++] = xstrdup(map.fields[i].name);
		sha256_update(&h, map.fields[i].name, strlen(map.fields[i].name) + 1);
	}
	colmap_release(&map);
	sha256_update(&h, "\n", 1);
	strmap_reserve(&p->models, n);
	for (i = 0; i < n; i++)
		strmap_get_or_add(&p->models, names[i], strlen(names[i]), &added);
	sha256_final_hex(&h, p->models_sha);
	return 0;
}

/* The models an audit names with a link when they have a page, as lines
 * "1<TAB>NAME" (has a page: linked) or "0<TAB>NAME" into out. */
static void links_of(publish *p, const diff_result *d, sbuf *out)
{
	const diff_model *items[3] = { d->added.items, d->renamed.items, d->changed.items };
	size_t n[3] = { d->added.n, d->renamed.n, d->changed.n }, k, i;

	for (k = 0; k < 3; k++)
		for (i = 0; i < n[k]; i++)
			sbuf_addf(out, "%d\t%s\n", site_audits_has_page(p, items[k][i].name), items[k][i].name);
}

/* Do the models the published audit of label names have a page now as
 * they had then (entries/LABEL.links)? 1 or 0. */
static int links_same(publish *p, const char *label)
{
	char path[PATH_MAX], *line, *nl;
	sbuf text;
	int same = 1;

	mc_fmt(path, sizeof(path), "%s/entries/%s.links", p->prev, label);
	sbuf_init(&text);
	if (site_fs_read_file(path, &text)) {
		sbuf_release(&text);
		return 0;
	}
	for (line = text.data; same && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = 0;
		same = strlen(line) > 2 && line[1] == '\t' &&
		       (line[0] == '1') == site_audits_has_page(p, line + 2);
	}
	sbuf_release(&text);
	return same;
}

/* Link the file rel (from the site root) of the published version into
 * the build, its folder made when missing: 0, or -1. */
static int reuse_one(publish *p, const char *rel)
{
	char from[PATH_MAX], to[PATH_MAX], *slash;

	mc_fmt(from, sizeof(from), "%s/%s", p->prev, rel);
	mc_fmt(to, sizeof(to), "%s/%s", p->build, rel);
	unlink(to);
	if (!link(from, to))
		return 0;
	if (errno != ENOENT || !(slash = strrchr(to, '/')))
		return -1;
	*slash = 0;
	if (site_fs_make_dir(to, NULL)) {
		char parent[PATH_MAX], *s2;

		mc_fmt(parent, sizeof(parent), "%s", to);
		if (!(s2 = strrchr(parent, '/')))
			return -1;
		*s2 = 0;
		if (site_fs_make_dir(parent, NULL) || site_fs_make_dir(to, NULL))
			return -1;
	}
	*slash = '/';
	return link(from, to) ? -1 : 0;
}

/* Link snapshot label's audit and entry from the published version when
 * it was published with the same fingerprint and the models it names
 * have pages as they had: its files, its entry and the files its
 * entries/LABEL.files names. 1 linked, 0 not. */
static int audit_reuse(publish *p, const char *label, const char *fp)
{
	char rel[PATH_MAX], *line, *nl;
	size_t i, k;
	sbuf list;
	int rc = 1;

	for (i = 0; i < p->npublished; i++)
		if (!strcmp(p->published[i].label, label) && !strcmp(p->published[i].third, fp))
			break;
	if (i == p->npublished || !p->prev_name[0] || !links_same(p, label))
		return 0;
	sbuf_init(&list);
	mc_fmt(rel, sizeof(rel), "%s/entries/%s.files", p->prev, label);
	if (site_fs_read_file(rel, &list)) {
		sbuf_release(&list);
		return 0;
	}
	for (k = 0; rc && k < 6; k++) {
		if (k < 3)
			mc_fmt(rel, sizeof(rel), "audit/%s.%s", label, audit_kinds[k]);
		else
			mc_fmt(rel, sizeof(rel), "entries/%s%s", label,
			       k == 4 ? ".links" : k == 5 ? ".files" : "");
		rc = !reuse_one(p, rel);
	}
	line = strchr(list.data, '\n');
	for (line = line ? line + 1 : NULL; rc && line && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = 0;
		rc = !strstr(line, "..") && line[0] != '/' && !reuse_one(p, line);
	}
	sbuf_release(&list);
	return rc;
}

/* Was s published, with this content, by the published version? */
static int was_published(const publish *p, const snapshot_entry *s)
{
	size_t i;

	for (i = 0; i < p->npublished; i++)
		if (!strcmp(p->published[i].label, s->label) &&
		    !strcmp(p->published[i].content, s->content))
			return 1;
	return 0;
}

static void explain_name(publish *p, const char *name)
{
	char stem[128];
	int added;

	if (!name)
		return;
	render_file_stem(name, stem, sizeof(stem));
	strmap_get_or_add(&p->explained, stem, strlen(stem), &added);
}

/* The pages of every model d names (added, removed, returned, renamed,
 * changed, held or quarantined, given or losing a column's value) are
 * explained by it. */
static void explain(publish *p, const diff_result *d)
{
	const diff_model *items[4] = { d->added.items, d->removed.items, d->renamed.items,
				       d->changed.items };
	size_t n[4] = { d->added.n, d->removed.n, d->renamed.n, d->changed.n }, k, i;

	for (k = 0; k < 4; k++)
		for (i = 0; i < n[k]; i++) {
			explain_name(p, items[k][i].name);
			explain_name(p, items[k][i].old_name);
		}
	for (i = 0; i < d->held_models.n; i++)
		explain_name(p, d->held_models.items[i].name);
	/* a quarantined row is a "held" line in its model's History */
	for (i = 0; i < d->quarantined.n; i++)
		explain_name(p, d->quarantined.items[i].name);
	for (k = 0; k < d->column_values.n; k++)
		for (i = 0; i < d->column_values.items[k].n; i++)
			explain_name(p, d->column_values.items[k].names[i]);
}

/* The hardware pages whose lists snapshot i changed into *hw: the pages
 * are made by date, so the last snapshot of a day names what its day
 * changed since the day before (the last earlier snapshot's), and the
 * others of the day nothing. 0, or -1 (p->err). */
static int hardware_of(publish *p, size_t i, hwaudit *hw)
{
	const snapshot_entry *s = &p->snaps[i];
	size_t j = i;

	memset(hw, 0, sizeof(*hw));
	if (i + 1 < p->nsnaps && !strcmp(p->snaps[i + 1].day, s->day))
		return 0;
	while (j > 0 && !strcmp(p->snaps[j - 1].day, s->day))
		j--;
	return hwaudit_compare(p->cat, j ? p->snaps[j - 1].day : NULL, s->day, hw, p->err);
}

/* Snapshot i's HTML audit in every language, its pages of their own
 * beside it (audit/LABEL/, audit/LANG/LABEL/), with the citation block of
 * files[0..nfiles); every path written after the first line of *files.
 * 0, or -1 (p->err). */
static int audit_html_write(publish *p, size_t i, const diff_result *d, audit_links *links,
			    const provenance_file **files, size_t nfiles, sbuf *list)
{
	const snapshot_entry *s = &p->snaps[i];
	char path[PATH_MAX], key[40], own[96];
	size_t k, j;
	int rc = 0;

	mc_fmt(key, sizeof(key), "epochai:%s", s->day);
	for (k = 0; !rc && k < p->nalangs; k++) {
		audit_lang *a = &p->alangs[k];
		audit_pages pages = { NULL, 0 };
		sbuf cite;
		char *url;

		sbuf_init(&cite);
		mc_fmt(own, sizeof(own), "%s/%s.html", a->dir, s->label);
		url = cite_page_url(p->base_url, own);
		cite_html(&cite, 2, &a->texts, &p->english, key, url, files, nfiles, NULL);
		free(url);
		links->cite = cite.data;
		links->lang = a->texts.lang;
		links->texts = &a->texts;
		links->frame = &a->f;
		links->frame_sub = &a->fsub;
		links->pages = a->pages;
		links->pages_sub = a->pages_sub;
		audit_html_site(d, links, &pages);
		if (k) {
			mc_fmt(path, sizeof(path), "%s/%s", p->build, a->dir);
			rc = site_fs_make_dir(path, p->err);
			sbuf_addf(list, "%s\n", own);
		}
		if (!rc && pages.n > 1) {
			mc_fmt(path, sizeof(path), "%s/%s/%s", p->build, a->dir, s->label);
			rc = site_fs_make_dir(path, p->err);
		}
		for (j = 0; !rc && j < pages.n; j++) {
			if (j)
				mc_fmt(own, sizeof(own), "%s/%s", a->dir, pages.v[j].name);
			mc_fmt(path, sizeof(path), "%s/%s", p->build, own);
			if (j)
				sbuf_addf(list, "%s\n", own);
			rc = site_fs_write_file(path, pages.v[j].html.data, pages.v[j].html.len, p->err);
		}
		audit_pages_release(&pages);
		sbuf_release(&cite);
	}
	links->cite = NULL;
	return rc;
}

/* Compute snapshot i's audit (from the snapshot before it) and its feed
 * entry text ("TITLE\nTEXT") into the build; entries/LABEL.files: the
 * number of models the audit names, then the files beside
 * audit/LABEL.{txt,json,html} it wrote. */
static int audit_make(publish *p, size_t i)
{
	const snapshot_entry *s = &p->snaps[i];
	char path[PATH_MAX];
	diff_result d;
	hwaudit hw;
	sbuf text, list;
	size_t k;
	int rc = 0;
	audit_links links = { i ? p->snaps[i - 1].label : NULL,
			      i + 1 < p->nsnaps ? p->snaps[i + 1].label : NULL, 1, "../pages/en",
			      site_audits_has_page, p, p->volatile_fields, p->nvolatile, NULL, NULL, &p->frame,
			      NULL, NULL, "en", &p->english, &p->english, s->label, NULL, NULL };
	char *citation = NULL;
	const provenance_file **files = xcalloc(p->cite.n + 1, sizeof(*files));
	audit_order order;
	size_t nfiles = cite_latest_on(&p->cite, s->day, files);

	if (credit_citation(p->cat, s->id, &citation, p->err) < 0) {
		free(files);
		return -1;
	}
	links.citation = citation;
	if (query_diff_snapshots(p->cat, i ? p->snaps[i - 1].id : 0, s->id, &d, p->err)) {
		free(citation);
		free(files);
		return -1;
	}
	if (hardware_of(p, i, &hw))
		rc = -1;
	links.hardware = &hw;
	if (!was_published(p, s))
		explain(p, &d);
	audit_order_make(&order, &d);
	links.order = &order;
	sbuf_init(&text);
	sbuf_init(&list);
	sbuf_addf(&list, "%zu\n", d.added.n + d.removed.n + d.renamed.n + audit_changed_count(&d));
	for (k = 0; !rc && k < 4; k++) {
		sbuf_reset(&text);
		if (k == 0)
			audit_text_with(&d, &links, &text);
		else if (k == 1)
			audit_json_with(&d, &links, &text);
		else if (k == 2) {
			rc = audit_html_write(p, i, &d, &links, files, nfiles, &list);
			continue;
		}
		if (k < 3) {
			mc_fmt(path, sizeof(path), "%s/audit/%s.%s", p->build, s->label, audit_kinds[k]);
		} else {
			feed_entry_title(s->label, &d, &text);
			sbuf_addc(&text, '\n');
			feed_entry_text(&d, &text);
			mc_fmt(path, sizeof(path), "%s/entries/%s", p->build, s->label);
		}
		rc = site_fs_write_file(path, text.data, text.len, p->err);
	}
	if (!rc) {
		sbuf_reset(&text);
		links_of(p, &d, &text);
		mc_fmt(path, sizeof(path), "%s/entries/%s.links", p->build, s->label);
		rc = site_fs_write_file(path, text.data, text.len, p->err);
	}
	if (!rc) {
		mc_fmt(path, sizeof(path), "%s/entries/%s.files", p->build, s->label);
		rc = site_fs_write_file(path, list.data, list.len, p->err);
	}
	sbuf_release(&text);
	sbuf_release(&list);
	audit_order_release(&order);
	hwaudit_release(&hw);
	diff_result_release(&d);
	free(citation);
	free(files);
	p->stats->audits++;
	return rc;
}

/* Every snapshot's audit: linked when unchanged, computed otherwise; and
 * the rows of published.tsv. */

int site_audits_build(publish *p, site_row *rows, const render_stats *rs)
{
	size_t i;
	int rc = 0;

	if (models_load(p, rs->names, rs->nnames) || langs_load(p))
		return -1;
	for (i = 0; !rc && i < p->nsnaps; i++) {
		site_row *r = &rows[i];

		mc_fmt(r->label, sizeof(r->label), "%s", p->snaps[i].label);
		mc_fmt(r->content, sizeof(r->content), "%s", p->snaps[i].content);
		mc_fmt(r->loaded, sizeof(r->loaded), "%s", p->snaps[i].loaded);
		fingerprint(p, i, r->third);
		if (!audit_reuse(p, r->label, r->third) && audit_make(p, i))
			rc = -1;
	}
	return rc;
}

/* The published snapshots no longer in the catalogue join the withdrawn. */
void site_audits_find_withdrawn(publish *p)
{
	char now[32];
	size_t i, j;

	day_now(now);
	for (i = 0; i < p->npublished; i++) {
		const site_row *r = &p->published[i];

		for (j = 0; j < p->nsnaps; j++)
			if (!strcmp(p->snaps[j].label, r->label) &&
			    !strcmp(p->snaps[j].content, r->content))
				break;
		if (j < p->nsnaps)
			continue;
		for (j = 0; j < p->nwithdrawn; j++)
			if (!strcmp(p->withdrawn[j].label, r->label) &&
			    !strcmp(p->withdrawn[j].content, r->content))
				break;
		if (j < p->nwithdrawn)
			continue;
		p->withdrawn = xrealloc(p->withdrawn, (p->nwithdrawn + 1) * sizeof(*p->withdrawn));
		p->withdrawn[p->nwithdrawn] = *r;
		mc_fmt(p->withdrawn[p->nwithdrawn].third, sizeof(r->third), "%s", now);
		p->nwithdrawn++;
		p->stats->withdrawn++;
		site_note(p, "snapshot %s is no longer in the catalogue: withdrawn", r->label);
	}
}

/* A feed entry with the strings it owns. */
typedef struct owned_entry {
	feed_entry e;
	char id[160];
	char link[40];
	sbuf title, text;
} owned_entry;

static int entry_newer(const void *a, const void *b)
{
	const owned_entry *x = a, *y = b;

	return strcmp(y->e.updated, x->e.updated);
}

/* Snapshot i's entry, from the entry text in the build. */
static int entry_of_snapshot(publish *p, size_t i, owned_entry *o)
{
	const snapshot_entry *s = &p->snaps[i];
	char path[PATH_MAX], *nl;
	sbuf text;

	mc_fmt(path, sizeof(path), "%s/entries/%s", p->build, s->label);
	sbuf_init(&text);
	if (site_fs_read_file(path, &text)) {
		sbuf_release(&text);
		return mc_error(p->err, "%s: cannot read: %s", path, strerror(errno));
	}
	nl = strchr(text.data, '\n');
	sbuf_add(&o->title, text.data, nl ? (size_t)(nl - text.data) : text.len);
	sbuf_adds(&o->text, nl ? nl + 1 : "");
	sbuf_release(&text);
	mc_fmt(o->id, sizeof(o->id), "urn:modelcat:%s:snapshot:%s:%.12s", p->id, s->label, s->content);
	mc_fmt(o->link, sizeof(o->link), "%s.html", s->label);
	o->e.link = o->link;
	o->e.updated = s->loaded;
	return 0;
}

static void entry_of_withdrawal(publish *p, const site_row *r, owned_entry *o)
{
	sbuf_addf(&o->title, "Snapshot %s withdrawn", r->label);
	sbuf_addf(&o->text, "The snapshot %s (loaded %s) is no longer in the catalogue: its"
		  " audit was removed and the pages were published again without it.",
		  r->label, r->loaded);
	mc_fmt(o->id, sizeof(o->id), "urn:modelcat:%s:withdrawn:%s:%.12s", p->id, r->label,
	       r->content);
	o->e.link = NULL;
	o->e.updated = r->third;
}

/* The audit index of language a (not English), audit/LANG/index.html:
 * every audit, newest first, with its date and how many models it names
 * (entries/LABEL.files). 0, or -1 (p->err). */
static int index_lang(publish *p, const audit_lang *a)
{
	char path[PATH_MAX], title[256];
	const format_lang *fl = format_lang_of(a->texts.lang);
	sbuf out, s;
	size_t i;
	int rc;

	sbuf_init(&out);
	sbuf_init(&s);
	page_text_plain(&a->texts, &p->english, PT_AUDIT_INDEX_TITLE, NULL, &s);
	mc_fmt(title, sizeof(title), "%s", s.data ? s.data : "");
	sbuf_reset(&s);
	page_text_plain(&a->texts, &p->english, PT_AUDIT_INDEX_INTRO, NULL, &s);
	sbuf_addf(&out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
		  a->texts.lang);
	textout_html(&out, title, strlen(title));
	sbuf_adds(&out, "</title>\n");
	frame_head(&a->f, s.data, &out);
	sbuf_addf(&out, "<style>body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60em;"
		  "padding:1em;color:#222;overflow-wrap:anywhere}.site{margin:-1em -1em 0}%s</style>\n"
		  "</head>\n<body>\n", frame_style);
	frame_header(&a->f, &out);
	sbuf_adds(&out, "<h1>");
	textout_html(&out, title, strlen(title));
	sbuf_adds(&out, "</h1>\n<p>");
	textout_html(&out, s.data ? s.data : "", s.len);
	sbuf_adds(&out, "</p>\n<ul>\n");
	for (i = p->nsnaps; i > 0; i--) {
		const snapshot_entry *e = &p->snaps[i - 1];
		sbuf date, count, item, file;
		const char *pairs[] = { "date", "", "count", "", NULL };

		sbuf_init(&date);
		sbuf_init(&count);
		sbuf_init(&item);
		sbuf_init(&file);
		format_date(fl, e->day, 0, &date);
		if (strcmp(e->label, e->day))
			sbuf_addf(&date, " (%s)", e->label);
		mc_fmt(path, sizeof(path), "%s/entries/%s.files", p->build, e->label);
		if (site_fs_read_file(path, &file))
			sbuf_adds(&file, "0\n");
		format_decimal(fl, strtod(file.data, NULL), 0, 0, &count);
		pairs[1] = date.data;
		pairs[3] = count.data;
		page_text_plain(&a->texts, &p->english, PT_AUDIT_INDEX_ITEM, pairs, &item);
		sbuf_adds(&out, "<li><a href=\"");
		textout_html(&out, e->label, strlen(e->label));
		sbuf_adds(&out, ".html\">");
		textout_html(&out, item.data, item.len);
		sbuf_adds(&out, "</a></li>\n");
		sbuf_release(&date);
		sbuf_release(&count);
		sbuf_release(&item);
		sbuf_release(&file);
	}
	sbuf_adds(&out, "</ul>\n</body>\n</html>\n");
	mc_fmt(path, sizeof(path), "%s/%s", p->build, a->dir);
	rc = site_fs_make_dir(path, p->err);
	mc_fmt(path, sizeof(path), "%s/%s/index.html", p->build, a->dir);
	if (!rc)
		rc = site_fs_write_file(path, out.data, out.len, p->err);
	sbuf_release(&out);
	sbuf_release(&s);
	return rc;
}

/* audit/feed.atom and audit/index.html of the build. */
int site_audits_feed(publish *p)
{
	size_t n = 0, i, max = FEED_ENTRIES + p->nwithdrawn;
	owned_entry *o = xcalloc(max + 1, sizeof(*o));
	char **labels = xcalloc(p->nsnaps + 1, sizeof(*labels));
	char **gone = xcalloc(p->nwithdrawn + 1, sizeof(*gone));
	char path[PATH_MAX], feed_id[64];
	feed_entry *e = xcalloc(max + 1, sizeof(*e));
	sbuf *counts = xcalloc(p->nsnaps + 1, sizeof(*counts));
	const char **sums = xcalloc(p->nsnaps + 1, sizeof(*sums));
	feed_site site = { NULL, p->base_url };
	sbuf out;
	int rc = 0;

	for (i = 0; i < max; i++) {
		sbuf_init(&o[i].title);
		sbuf_init(&o[i].text);
	}
	for (i = p->nsnaps; !rc && i > 0 && n < FEED_ENTRIES; i--)
		rc = entry_of_snapshot(p, i - 1, &o[n++]);
	for (i = 0; i < p->nwithdrawn; i++)
		entry_of_withdrawal(p, &p->withdrawn[i], &o[n++]);
	qsort(o, n, sizeof(*o), entry_newer);
	for (i = 0; i < n; i++) {
		e[i] = o[i].e;
		e[i].id = o[i].id;
		e[i].title = o[i].title.data;
		e[i].text = o[i].text.data;
	}
	for (i = 0; i < p->nsnaps; i++) {
		char *nl;

		labels[i] = p->snaps[p->nsnaps - 1 - i].label;
		sbuf_init(&counts[i]);
		mc_fmt(path, sizeof(path), "%s/entries/%s", p->build, labels[i]);
		if (!site_fs_read_file(path, &counts[i]) && (nl = strchr(counts[i].data, '\n')))
			counts[i].len = (size_t)(nl - counts[i].data), *nl = 0;
		sums[i] = counts[i].data;
	}
	for (i = 0; i < p->nwithdrawn; i++)
		gone[i] = p->withdrawn[p->nwithdrawn - 1 - i].label;
	sbuf_init(&out);
	mc_fmt(feed_id, sizeof(feed_id), "urn:modelcat:%s:audit", p->id);
	if (!rc)
		site.id = feed_id, rc = feed_atom(&site, e, n, &out, p->err);
	mc_fmt(path, sizeof(path), "%s/audit/feed.atom", p->build);
	if (!rc)
		rc = site_fs_write_file(path, out.data, out.len, p->err);
	sbuf_reset(&out);
	feed_index_html(labels, sums, p->nsnaps, gone, p->nwithdrawn, p->nchanges, &p->frame,
			p->cite_now, &out);
	mc_fmt(path, sizeof(path), "%s/audit/index.html", p->build);
	if (!rc)
		rc = site_fs_write_file(path, out.data, out.len, p->err);
	sbuf_release(&out);
	for (i = 1; !rc && i < p->nalangs; i++)
		rc = index_lang(p, &p->alangs[i]);
	for (i = 0; i < max; i++) {
		sbuf_release(&o[i].title);
		sbuf_release(&o[i].text);
	}
	free(o);
	free(e);
	for (i = 0; i < p->nsnaps; i++)
		sbuf_release(&counts[i]);
	free(counts);
	free(sums);
	free(labels);
	free(gone);
	return rc;
}
