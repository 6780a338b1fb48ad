#include "publish/frame.h"
#include "base/textout.h"

#include <string.h>

const char cite_style[] =
	".cite{margin-top:2rem;border-top:1px solid #d5d9e0}\n"
	".cite code,.cite pre{font-size:.85rem;overflow-wrap:anywhere}\n"
	".cite pre{white-space:pre-wrap;background:#f5f6f8;padding:.5rem .75rem}\n";

const char frame_style[] =
	".site{border-bottom:1px solid #d5d9e0;background:#f5f6f8}\n"
	".site .links{max-width:44rem;margin:0 auto;padding:.35rem 1rem;display:flex;"
	"flex-wrap:wrap;gap:0 1.25rem;align-items:baseline}\n"
	".site a{display:inline-block;padding:.4rem 0;color:#0b57d0}\n"
	".site a.home{font-weight:700;color:#1b1b1b;text-decoration:none;margin-right:auto}\n"
	".lead{max-width:44rem;margin:0 auto;padding:.5rem 1rem 0;font-size:.92rem}\n"
	".lead ul{margin:.25rem 0;padding-left:1.2rem}\n"
	/* a long URL or name breaks where it must: no page scrolls sideways
	   (a narrow screen, 400 px) */
	".page,.main,.lead{overflow-wrap:anywhere}\n"
	"@media print{.site{display:none}body{color:#000;background:#fff;font-size:11pt}"
	"a{color:#000}h2,h3,h4{break-after:avoid}dl,table,li{break-inside:avoid}}\n";

static void text(sbuf *out, const char *s)
{
	if (s)
		textout_html(out, s, strlen(s));
}

/* href="..." of path (from the site root) as seen from the page. */
static void href(sbuf *out, const frame *f, const char *path)
{
	sbuf_adds(out, "href=\"");
	text(out, f->root);
	text(out, path);
	sbuf_adds(out, "\"");
}

/* The absolute URL of path when the site's URL is known, else relative. */
static void alternate(sbuf *out, const frame *f, const char *lang, const char *path)
{
	sbuf_adds(out, "<link rel=\"alternate\" hreflang=\"");
	text(out, lang);
	sbuf_adds(out, "\" ");
	if (f->base_url && *f->base_url) {
		size_t n = strlen(f->base_url);

		sbuf_adds(out, "href=\"");
		text(out, f->base_url);
		if (f->base_url[n - 1] != '/')
			sbuf_addc(out, '/');
		text(out, path);
		sbuf_adds(out, "\"");
	} else {
		href(out, f, path);
	}
	sbuf_adds(out, ">\n");
}

void frame_head(const frame *f, const char *description, sbuf *out)
{
	size_t i;

	if (description && *description) {
		sbuf_adds(out, "<meta name=\"description\" content=\"");
		text(out, description);
		sbuf_adds(out, "\">\n");
	}
	if (!f)
		return;
	sbuf_adds(out, "<link rel=\"icon\" href=\"data:,\">\n");
	if (f->data) {
		sbuf_adds(out, "<link rel=\"alternate\" type=\"application/json\" ");
		href(out, f, f->data);
		sbuf_adds(out, ">\n");
	}
	if (!f->page)
		return;
	alternate(out, f, f->lang, f->page);
	for (i = 0; i < f->nalts; i++)
		if (f->alts[i].page)
			alternate(out, f, f->alts[i].lang, f->alts[i].page);
}

/* One link of the header. */
static void nav_link(sbuf *out, const frame *f, const char *path, const char *label,
		     const char *attributes)
{
	sbuf_adds(out, "<a ");
	href(out, f, path);
	if (attributes)
		sbuf_adds(out, attributes);
	sbuf_adds(out, ">");
	text(out, label);
	sbuf_adds(out, "</a>\n");
}

void frame_header(const frame *f, sbuf *out)
{
	size_t i;

	if (!f)
		return;
	/* header and nav as roles: xmllint --html (HTML 4) knows no such tags */
	sbuf_adds(out, "<div class=\"site\" role=\"banner\">\n"
		  "<div class=\"links\" role=\"navigation\" aria-label=\"");
	text(out, f->nav_label);
	sbuf_adds(out, "\">\n");
	nav_link(out, f, "index.html", f->site_name, " class=\"home\"");
	nav_link(out, f, f->index, f->index_label, NULL);
	if (f->hardware_label && f->hardware_index)
		nav_link(out, f, f->hardware_index, f->hardware_label, NULL);
	nav_link(out, f, f->audit_index ? f->audit_index : "audit/index.html", f->audit_label, NULL);
	for (i = 0; i < f->nalts; i++) {
		const frame_alt *a = &f->alts[i];
		sbuf attributes;

		sbuf_init(&attributes);
		sbuf_adds(&attributes, " hreflang=\"");
		text(&attributes, a->lang);
		sbuf_adds(&attributes, "\" lang=\"");
		text(&attributes, a->lang);
		sbuf_adds(&attributes, "\"");
		nav_link(out, f, a->page ? a->page : a->index, a->name, attributes.data);
		sbuf_release(&attributes);
	}
	if (f->data)
		nav_link(out, f, f->data, f->data_label ? f->data_label : "JSON",
			 " type=\"application/json\"");
	sbuf_adds(out, "</div>\n</div>\n");
	if (f->lead) {
		sbuf_adds(out, "<div class=\"lead\">\n");
		sbuf_adds(out, f->lead);
		sbuf_adds(out, "</div>\n");
	}
}

static const char root_style[] =
	"body{margin:0;font:16px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;"
	"color:#1b1b1b;background:#fff}\n"
	".main{max-width:44rem;margin:0 auto;padding:1rem}\n"
	"h1{font-size:1.7rem;line-height:1.2;margin:.5rem 0 1rem}\n"
	"h2{font-size:1.3rem;margin:2rem 0 .5rem}\n"
	".language{border-top:1px solid #d5d9e0}\n"
	"a{color:#0b57d0}\n"
	"li{margin:.35rem 0}\n";

/* One language's part of the root page. */
static void root_part(const frame_root_text *t, const char *day, sbuf *out)
{
	sbuf_adds(out, "<div class=\"language\" lang=\"");
	text(out, t->f->lang);
	sbuf_adds(out, "\">\n<h2>");
	text(out, t->name);
	sbuf_adds(out, "</h2>\n<p>");
	text(out, t->about);
	sbuf_adds(out, "</p>\n<p>");
	text(out, t->published);
	sbuf_adds(out, " ");
	text(out, day);
	sbuf_adds(out, "</p>\n<ul>\n<li><a ");
	href(out, t->f, t->f->index);
	sbuf_adds(out, ">");
	text(out, t->f->index_label);
	if (t->f->hardware_label && t->f->hardware_index) {
		sbuf_adds(out, "</a></li>\n<li><a ");
		href(out, t->f, t->f->hardware_index);
		sbuf_adds(out, ">");
		text(out, t->f->hardware_label);
	}
	sbuf_adds(out, "</a></li>\n<li><a ");
	href(out, t->f, t->f->audit_index ? t->f->audit_index : "audit/index.html");
	sbuf_adds(out, ">");
	text(out, t->f->audit_label);
	sbuf_adds(out, "</a></li>\n</ul>\n");
	if (t->more)
		sbuf_adds(out, t->more);
	sbuf_adds(out, "</div>\n");
}

void frame_root_html(const frame_root_text *t, size_t n, const char *published_day, sbuf *out)
{
	size_t i;

	if (!n)
		return;
	sbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"");
	text(out, t[0].f->lang);
	sbuf_adds(out, "\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<title>");
	text(out, t[0].f->site_name);
	sbuf_adds(out, "</title>\n");
	frame_head(t[0].f, t[0].about, out);
	/* the downloads and the citation block (cite.h) */
	sbuf_addf(out, "<style>\n%s%s%s</style>\n</head>\n<body>\n", root_style, cite_style,
		  frame_style);
	frame_header(t[0].f, out);
	sbuf_adds(out, "<div class=\"main\" role=\"main\">\n<h1>");
	text(out, t[0].f->site_name);
	sbuf_adds(out, "</h1>\n");
	for (i = 0; i < n; i++)
		root_part(&t[i], published_day, out);
	sbuf_adds(out, "</div>\n</body>\n</html>\n");
}
