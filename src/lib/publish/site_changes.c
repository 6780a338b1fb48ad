#include "publish/site_internal.h"
#include "publish/site.h"
#include "publish/site_fs.h"
#include "base/day.h"

#include <stdlib.h>
#include <string.h>

/* ---- what explains the changed pages (changes.h) ---- */

static int stem_explained(const publish *p, const char *name, size_t len)
{
	char stem[128], *copy = xstrndup(name, len);

	render_file_stem(copy, stem, sizeof(stem));
	free(copy);
	return strmap_find(&p->explained, stem, strlen(stem)) != NULL;
}

/* The first line of the page text root/rel: a model's name, or "OLD →
 * NEW: FILE" of a redirect. Is a name it gives explained? *name gets the
 * page's own name (malloc'd) when it has none yet. */
static int page_explained(const publish *p, const char *root, const char *rel, char **name)
{
	static const char arrow[] = " \xe2\x86\x92 ";
	char path[PATH_MAX];
	const char *a, *end;
	sbuf text;
	int ok = 0;

	mc_fmt(path, sizeof(path), "%s/%s", root, rel);
	sbuf_init(&text);
	if (!root[0] || site_fs_read_file(path, &text)) {
		sbuf_release(&text);
		return 0;
	}
	end = text.data + strcspn(text.data, "\n");
	a = strstr(text.data, arrow);
	if (a && a < end) {
		const char *to = a + strlen(arrow), *colon = strstr(to, ": ");

		ok = colon && colon < end && stem_explained(p, to, (size_t)(colon - to));
		end = a;
	}
	if (!*name)
		*name = xstrndup(text.data, (size_t)(end - text.data));
	sbuf_release(&text);
	return ok;
}

/* Is the page file rel ("pages/LANG/STEM.EXT", not an index) explained by
 * the new snapshots' audits? Its stem, else a name its text gives in the
 * new version or the published one. *name: the page's name. */
static int page_file_explained(const publish *p, const char *rel, char **name)
{
	const char *lang = rel + 6, *file = strchr(lang, '/'), *dot;
	char txt[PATH_MAX];

	if (!file || !(dot = strrchr(file, '.')))
		return 1;
	if (strmap_find(&p->explained, file + 1, (size_t)(dot - file - 1)))
		return 1;
	mc_fmt(txt, sizeof(txt), "%.*s.txt", (int)(dot - rel), rel);
	return page_explained(p, p->build, txt, name) || page_explained(p, p->prev, txt, name);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The page files that differ between the published version and the new
 * one (every one of a changed model's pages: text and HTML, every
 * language) whose model no new snapshot's audit names: one site-wide
 * change, with its reason, appended to p->changes. */
void site_changes_pages(publish *p)
{
	const site_manifest *m[2] = { &p->now, &p->old };
	site_change c;
	strmap seen;
	size_t k, i, w;
	sbuf reason;

	if (!p->prev_name[0])            /* a first publication changes nothing */
		return;
	memset(&c, 0, sizeof(c));
	strmap_init(&seen);
	for (k = 0; k < 2; k++)
		for (i = 0; i < m[k]->n; i++) {
			const char *rel = m[k]->paths[i], *had = site_manifest_find(m[!k], rel);
			const char *stem = strrchr(rel, '/');
			char *name = NULL;
			int added;

			/* a hardware page changes with its card or with the models
			   it lists: the audits name both */
			if (strncmp(rel, "pages/", 6) || (had && !strcmp(had, m[k]->sha[i])) ||
			    !strncmp(stem, "/index.", 7) || strstr(rel, "/hardware/"))
				continue;
			strmap_get_or_add(&seen, stem, strcspn(stem, "."), &added);
			if (!added || page_file_explained(p, rel, &name)) {
				free(name);
				continue;
			}
			c.names = xrealloc(c.names, (c.n + 1) * sizeof(*c.names));
			c.names[c.n++] = name ? name : xstrdup(stem + 1);
		}
	strmap_release(&seen);
	if (!c.n)
		return;
	qsort(c.names, c.n, sizeof(*c.names), name_cmp);
	sbuf_init(&reason);
	w = p->nwithdrawn - p->nwithdrawn_before;
	{
		char **labels = xcalloc(w + 1, sizeof(*labels));

		for (i = 0; i < w; i++)
			labels[i] = p->withdrawn[p->nwithdrawn_before + i].label;
		changes_reason(&p->stamp_was, &p->stamp_now, labels, w, &reason);
		free(labels);
	}
	c.reason = sbuf_detach(&reason, NULL);
	c.when = xcalloc(1, 32);
	day_now(c.when);
	c.snapshot = xstrdup(p->stats->label);
	site_note(p, "site-wide change: %s: the pages of %zu model%s", c.reason, c.n,
	     c.n == 1 ? "" : "s");
	p->changes = xrealloc(p->changes, (p->nchanges + 1) * sizeof(*p->changes));
	p->changes[p->nchanges++] = c;
}

/* render.tsv, changes.tsv and audit/site.{txt,json,html} of the build. */
int site_changes_write(publish *p)
{
	static const char *const kinds[] = { "render.tsv", "changes.tsv", "audit/site.txt",
					     "audit/site.json", "audit/site.html" };
	char path[PATH_MAX];
	sbuf out;
	size_t k;
	int rc = 0;

	sbuf_init(&out);
	for (k = 0; !rc && k < 5; k++) {
		sbuf_reset(&out);
		if (k == 0)
			changes_stamp_tsv(&p->stamp_now, &out);
		else if (k == 1)
			changes_tsv(p->changes, p->nchanges, &out);
		else if (k == 2)
			changes_text(p->changes, p->nchanges, &out);
		else if (k == 3)
			changes_json(p->changes, p->nchanges, &out);
		else
			changes_html(p->changes, p->nchanges, "../pages/en", site_audits_has_page, p,
				     &p->frame, p->cite_now, &out);
		mc_fmt(path, sizeof(path), "%s/%s", p->build, kinds[k]);
		rc = site_fs_write_file(path, out.data, out.len, p->err);
	}
	sbuf_release(&out);
	return rc;
}

/* The published version's render.tsv and changes.tsv (none: an empty
 * stamp, no changes). */
void site_changes_read(publish *p)
{
	char path[PATH_MAX];
	sbuf text;

	sbuf_init(&text);
	mc_fmt(path, sizeof(path), "%s/render.tsv", p->prev);
	if (!site_fs_read_file(path, &text))
		changes_stamp_parse(text.data, &p->stamp_was);
	sbuf_reset(&text);
	mc_fmt(path, sizeof(path), "%s/changes.tsv", p->prev);
	if (!site_fs_read_file(path, &text))
		changes_parse(text.data, &p->changes, &p->nchanges);
	sbuf_release(&text);
}
