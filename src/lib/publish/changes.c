#include "publish/changes.h"
#include "publish/render.h"
#include "base/textout.h"

#include <stdlib.h>
#include <string.h>

/* ---- the stamp ---- */

void changes_stamp_tsv(const render_stamp *s, sbuf *out)
{
	sbuf_addf(out, "version\t%s\ntexts\t%s\n", s->version, s->texts);
}

void changes_stamp_parse(const char *text, render_stamp *s)
{
	const char *line;

	memset(s, 0, sizeof(*s));
	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t len = strcspn(line, "\n");

		if (len > 8 && !strncmp(line, "version\t", 8) && len - 8 < sizeof(s->version))
			mc_fmt(s->version, sizeof(s->version), "%.*s", (int)(len - 8), line + 8);
		else if (len == 6 + 64 && !strncmp(line, "texts\t", 6))
			mc_fmt(s->texts, sizeof(s->texts), "%.*s", 64, line + 6);
	}
}

void changes_reason(const render_stamp *was, const render_stamp *now, char *const *withdrawn,
		    size_t nw, sbuf *out)
{
	size_t start = out->len, i;

	if (nw) {
		sbuf_addf(out, "snapshot%s ", nw == 1 ? "" : "s");
		for (i = 0; i < nw; i++)
			sbuf_addf(out, "%s%s", i ? (i + 1 == nw ? " and " : ", ") : "", withdrawn[i]);
		sbuf_addf(out, " withdrawn from the catalogue");
	}
	if (strcmp(was->texts, now->texts))
		sbuf_addf(out, "%sthe page texts changed (modelcat translate)",
			  out->len > start ? "; " : "");
	if (strcmp(was->version, now->version)) {
		sbuf_addf(out, "%s", out->len > start ? "; " : "");
		if (was->version[0])
			sbuf_addf(out, "pages rendered by modelcat %s (they were by %s)", now->version,
				  was->version);
		else
			sbuf_addf(out, "pages rendered by modelcat %s (the version before is not on"
				       " record)", now->version);
	}
	if (out->len == start)
		sbuf_adds(out, "no known cause");
}

/* ---- changes.tsv ---- */

static void add_escaped(sbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			sbuf_adds(out, "\\t");
		else if (*s == '\n')
			sbuf_adds(out, "\\n");
		else if (*s == '\\')
			sbuf_adds(out, "\\\\");
		else
			sbuf_addc(out, *s);
	}
}

void changes_tsv(const site_change *c, size_t n, sbuf *out)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		add_escaped(out, c[i].when);
		sbuf_addc(out, '\t');
		add_escaped(out, c[i].snapshot);
		sbuf_addc(out, '\t');
		add_escaped(out, c[i].reason);
		for (k = 0; k < c[i].n; k++) {
			sbuf_addc(out, '\t');
			add_escaped(out, c[i].names[k]);
		}
		sbuf_addc(out, '\n');
	}
}

/* The field at *p (up to a tab or the end of the line), unescaped; *p
 * moves past it and its tab. */
static char *field_at(const char **p)
{
	sbuf f;
	const char *s = *p;

	sbuf_init(&f);
	for (; *s && *s != '\t' && *s != '\n'; s++) {
		if (*s == '\\' && (s[1] == 't' || s[1] == 'n' || s[1] == '\\')) {
			s++;
			sbuf_addc(&f, *s == 't' ? '\t' : *s == 'n' ? '\n' : '\\');
		} else {
			sbuf_addc(&f, *s);
		}
	}
	*p = *s == '\t' ? s + 1 : s;
	sbuf_addc(&f, 0);
	return sbuf_detach(&f, NULL);
}

void changes_parse(const char *text, site_change **list, size_t *n)
{
	const char *p = text;

	while (p && *p) {
		site_change c;
		size_t tabs = 0;
		const char *end = strchr(p, '\n'), *q;

		for (q = p; *q && *q != '\n'; q++)
			tabs += *q == '\t';
		if (tabs < 2) {
			p = end ? end + 1 : NULL;
			continue;
		}
		memset(&c, 0, sizeof(c));
		c.when = field_at(&p);
		c.snapshot = field_at(&p);
		c.reason = field_at(&p);
		while (*p && *p != '\n') {
			c.names = xrealloc(c.names, (c.n + 1) * sizeof(*c.names));
			c.names[c.n++] = field_at(&p);
		}
		*list = xrealloc(*list, (*n + 1) * sizeof(**list));
		(*list)[(*n)++] = c;
		p = *p ? p + 1 : NULL;
	}
}

/* ---- what is published ---- */

void changes_text(const site_change *c, size_t n, sbuf *out)
{
	size_t i, k;

	sbuf_adds(out, "Site-wide changes: pages changed for a reason no snapshot's audit gives\n");
	if (!n)
		sbuf_adds(out, "\nNone.\n");
	for (i = n; i > 0; i--) {
		const site_change *e = &c[i - 1];

		sbuf_addf(out, "\n%s, publishing snapshot %s: %s\n", e->when, e->snapshot, e->reason);
		sbuf_addf(out, "%zu model%s:\n", e->n, e->n == 1 ? "" : "s");
		for (k = 0; k < e->n; k++)
			sbuf_addf(out, "  %s\n", e->names[k]);
	}
}

static void json_str(sbuf *out, const char *s)
{
	textout_json_string(out, s, strlen(s));
}

void changes_json(const site_change *c, size_t n, sbuf *out)
{
	size_t i, k;

	sbuf_adds(out, "{\"site_changes\": [");
	for (i = n; i > 0; i--) {
		const site_change *e = &c[i - 1];

		sbuf_adds(out, i < n ? ",\n  {" : "\n  {");
		sbuf_adds(out, "\"published\": ");
		json_str(out, e->when);
		sbuf_adds(out, ", \"snapshot\": ");
		json_str(out, e->snapshot);
		sbuf_adds(out, ", \"reason\": ");
		json_str(out, e->reason);
		sbuf_adds(out, ", \"models\": [");
		for (k = 0; k < e->n; k++) {
			if (k)
				sbuf_adds(out, ", ");
			json_str(out, e->names[k]);
		}
		sbuf_adds(out, "]}");
	}
	sbuf_adds(out, n ? "\n]}\n" : "]}\n");
}

static void html_str(sbuf *out, const char *s)
{
	textout_html(out, s, strlen(s));
}

void changes_html(const site_change *c, size_t n, const char *pages,
		  int (*has_page)(void *arg, const char *name), void *arg, const frame *f,
		  const char *cite, sbuf *out)
{
	size_t i, k;
	char stem[128];

	sbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<title>Site-wide changes</title>\n");
	frame_head(f, "Pages of the catalogue of AI models that changed for a reason no"
		   " snapshot's audit gives: new page texts, a new renderer, withdrawn snapshots.", out);
	sbuf_addf(out, "<style>body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;"
		  "max-width:40em;padding:1em;overflow-wrap:anywhere;color:#222}a{color:#0b57d0}"
		  ".site{margin:-1em -1em 0}%s%s</style>\n</head>\n<body>\n", f ? frame_style : "",
		  cite ? cite_style : "");
	frame_header(f, out);
	sbuf_adds(out, "<p><a href=\"index.html\">All audits</a></p>\n<h1>Site-wide changes</h1>\n"
		  "<p>Pages that changed for a reason no snapshot's audit gives: new page texts, a"
		  " new version of the renderer, or snapshots withdrawn. Each is stated once, with"
		  " the models whose pages it changed.</p>\n");
	if (!n)
		sbuf_adds(out, "<p>None.</p>\n");
	for (i = n; i > 0; i--) {
		const site_change *e = &c[i - 1];

		sbuf_adds(out, "<h2>");
		html_str(out, e->when);
		sbuf_adds(out, "</h2>\n<p>Publishing snapshot <a href=\"");
		html_str(out, e->snapshot);
		sbuf_adds(out, ".html\">");
		html_str(out, e->snapshot);
		sbuf_adds(out, "</a>: ");
		html_str(out, e->reason);
		sbuf_addf(out, ". %zu model%s:</p>\n<ul>\n", e->n, e->n == 1 ? "" : "s");
		for (k = 0; k < e->n; k++) {
			sbuf_adds(out, "<li>");
			if (has_page && has_page(arg, e->names[k])) {
				render_file_stem(e->names[k], stem, sizeof(stem));
				sbuf_adds(out, "<a href=\"");
				html_str(out, pages);
				sbuf_addf(out, "/%s.html\">", stem);
				html_str(out, e->names[k]);
				sbuf_adds(out, "</a>");
			} else {
				html_str(out, e->names[k]);
			}
			sbuf_adds(out, "</li>\n");
		}
		sbuf_adds(out, "</ul>\n");
	}
	if (cite)
		sbuf_adds(out, cite);
	sbuf_adds(out, "</body>\n</html>\n");
}

void changes_release(site_change *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(c[i].when);
		free(c[i].snapshot);
		free(c[i].reason);
		mc_free_strings(c[i].names, c[i].n);
	}
	free(c);
}
