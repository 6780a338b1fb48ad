#include "publish/page.h"
#include "publish/frame.h"
#include "base/textout.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- writing ---- */

void page_render_text(const page *p, sbuf *out)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		const page_block *blk = &p->blocks[i];

		if (blk->html_only)
			continue;
		switch (blk->kind) {
		case PAGE_TITLE:
		case PAGE_HEADING:
		case PAGE_PARAGRAPH:
			sbuf_adds(out, blk->text);
			sbuf_addc(out, '\n');
			break;
		case PAGE_PAIR:
			sbuf_add(out, "- ", 2);
			sbuf_adds(out, blk->text);
			sbuf_add(out, "\n- ", 3);
			sbuf_adds(out, blk->value);
			sbuf_addc(out, '\n');
			break;
		case PAGE_LINK:
			sbuf_add(out, "- ", 2);
			sbuf_adds(out, blk->text);
			sbuf_addc(out, '\n');
			break;
		case PAGE_OPEN:
		case PAGE_CLOSE:
		case PAGE_RAW:
			break;
		}
	}
}

static const char page_style[] =
	"body{margin:0;font:16px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;"
	"color:#1b1b1b;background:#fff}\n"
	".page{max-width:44rem;margin:0 auto;padding:1rem}\n"
	"h1{font-size:1.7rem;line-height:1.2;margin:.5rem 0 1rem;overflow-wrap:anywhere}\n"
	"h2{font-size:1.3rem;margin:2rem 0 .5rem}\n"
	"h3{font-size:1.1rem;margin:1.5rem 0 .25rem}\n"
	"h4{font-size:1rem;margin:1rem 0 .25rem}\n"
	".hardware{border:1px solid #ccc;border-radius:.5rem;padding:.75rem 1rem;background:#f5f6f8}\n"
	".hardware h2{margin-top:.25rem}\n"
	".figure{font-size:1.5rem;font-weight:700;margin:0}\n"
	".band{display:inline-block;margin:1.5rem 0 0;padding:.1rem .7rem;border-radius:1rem;"
	"background:#e6edf7;font-size:.9rem}\n"
	".intro,.empty{color:#444}\n"
	"dl{display:grid;grid-template-columns:minmax(7rem,1fr) 2fr;gap:.3rem 1rem;margin:.75rem 0}\n"
	"dt{font-weight:600}\n"
	"dd{margin:0;overflow-wrap:anywhere}\n"
	".note{font-size:.92rem;color:#444;border-left:3px solid #d5d9e0;padding-left:.75rem;"
	"overflow-wrap:anywhere}\n"
	"a{color:#0b57d0}\n"
	"ul.models{padding-left:1.2rem}\n"
	/* charts (chart.h): a picture, a mark placed over it, the data's
	 * tables */
	".chart-frame{position:relative;max-width:480px}\n"
	/* the index's charts once their script runs (chartscript.h) */
	".chart-frame:focus-visible{outline:2px solid #0b57d0;outline-offset:2px}\n"
	".chart-ring{position:absolute;width:18px;height:18px;margin:-9px 0 0 -9px;"
	"border:2px solid #d93025;border-radius:50%;box-sizing:border-box;pointer-events:none}\n"
	".chart-tip{position:absolute;z-index:1;background:#fff;border:1px solid #8a929c;"
	"border-radius:.3rem;padding:.3rem .5rem;font-size:.9rem;line-height:1.4;width:max-content;"
	"max-width:14rem;box-shadow:0 1px 4px rgba(0,0,0,.25)}\n"
	".chart-tip a{font-weight:600;overflow-wrap:anywhere}\n"
	".chart-legend{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;"
	"gap:.2rem 1rem;font-size:.9rem;max-width:480px}\n"
	".chart-key{display:inline-block;width:14px;height:14px;vertical-align:-2px;"
	"margin-right:.3rem;background-repeat:no-repeat}\n"
	".chart-all summary{cursor:pointer;padding:.3rem 0}\n"
	".chart-frame img{display:block;width:100%;height:auto}\n"
	".chart-mark{position:absolute;width:14px;height:14px;margin:-7px 0 0 -7px;"
	"border-radius:50%;background:#d93025;border:2px solid #fff;box-sizing:border-box;"
	"box-shadow:0 0 0 1px #d93025}\n"
	".chart-data{overflow-x:auto}\n"
	".chart-data table{border-collapse:collapse;font-size:.92rem}\n"
	".chart-data caption{text-align:left;color:#444;padding-bottom:.5rem}\n"
	".chart-data th,.chart-data td{text-align:left;padding:.15rem .6rem .15rem 0;"
	"border-bottom:1px solid #e3e6ea;vertical-align:top}\n"
	".chart-data tbody th{font-weight:400}\n"
	".chart-data td{white-space:nowrap}\n"
	/* a list of links, each a target of its own (not laid out late: a
	 * placeholder of one line under an entry of two made links overlap) */
	"ul.models li{margin:.25rem 0}\n"
	/* the citation block (cite.h) */
	"@media (max-width:32rem){dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.5rem}"
	"h1{font-size:1.45rem}}\n"
	"@media print{body{font-size:11pt;color:#000}.page{max-width:none;padding:0}"
	".hardware{background:none}a{color:#000}"
	"a[href^=\"http\"]::after{content:\" <\" attr(href) \">\";font-size:.85em;overflow-wrap:anywhere}"
	"h2,h3,h4{break-after:avoid}dl,.note{break-inside:avoid}}\n";

static void html_text(sbuf *out, const char *s)
{
	textout_html(out, s, strlen(s));
}

int page_safe_href(const char *link)
{
	static const char plain[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_";
	const char *seg = link;

	if (!link || !*link)
		return 0;
	if (page_safe_url(link))
		return 1;
	for (;;) {
		size_t len = strspn(seg, plain);

		if (!len || (seg[0] == '.' && !(len == 2 && seg[1] == '.')))
			return 0;
		if (!seg[len])
			return 1;
		if (seg[len] != '/')
			return 0;
		seg += len + 1;
	}
}

static void html_link(sbuf *out, const char *text, const char *link)
{
	if (!page_safe_href(link)) {
		html_text(out, text);
		return;
	}
	sbuf_adds(out, "<a href=\"");
	html_text(out, link);
	sbuf_adds(out, page_safe_url(link) ? "\" rel=\"nofollow noopener noreferrer\">" : "\">");
	html_text(out, text);
	sbuf_adds(out, "</a>");
}

/* A paragraph's text; with a link, its last sentence (after the last
 * ". ") is the link. */
static void html_paragraph(sbuf *out, const page_block *blk)
{
	const char *last = NULL, *at = blk->text;
	char *head;

	if (!blk->link || !page_safe_href(blk->link)) {
		html_text(out, blk->text);
		return;
	}
	while ((at = strstr(at, ". ")))
		last = at++ + 2;
	if (!last) {
		html_link(out, blk->text, blk->link);
		return;
	}
	head = xstrndup(blk->text, (size_t)(last - blk->text));
	html_text(out, head);
	html_link(out, last, blk->link);
	free(head);
}

/* A list pair's items ("A, B": format_list_join()), each linked to its
 * page when it has one. */
static void html_items(sbuf *out, const page_block *blk)
{
	const char *v = blk->value;
	size_t i = 0;

	while (*v) {
		size_t len = strcspn(v, ",");
		char *item = xstrndup(v, len);

		if (i)
			sbuf_adds(out, ", ");
		if (i < blk->nitems && blk->item_links[i])
			html_link(out, item, blk->item_links[i]);
		else
			html_text(out, item);
		free(item);
		i++;
		v += len + (v[len] == ',');
		v += *v == ' ';
	}
}

/* open, the heading's level, close: two of these for every heading of
 * every page, most of them a single digit. */
static void heading_tag(sbuf *out, const char *open, int level, const char *close)
{
	sbuf_adds(out, open);
	if (level >= 0 && level <= 9)
		sbuf_addc(out, (char)('0' + level));
	else
		sbuf_addf(out, "%d", level);
	sbuf_adds(out, close);
}

const char page_index_hole[] = "";

static void render_html(const page *p, sbuf *out, size_t *hole);

void page_render_html(const page *p, sbuf *out)
{
	render_html(p, out, NULL);
}

void page_render_html_hole(const page *p, sbuf *out, size_t *hole)
{
	*hole = SIZE_MAX;
	render_html(p, out, hole);
}

static void render_html(const page *p, sbuf *out, size_t *hole)
{
	const char *title = "";
	size_t i;
	page_kind list = PAGE_OPEN;   /* PAGE_PAIR or PAGE_LINK while a list is open */

	for (i = 0; i < p->n; i++)
		if (p->blocks[i].kind == PAGE_TITLE) {
			title = p->blocks[i].text;
			break;
		}
	sbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"");
	html_text(out, p->lang);
	sbuf_adds(out, "\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<title>");
	html_text(out, title);
	sbuf_adds(out, "</title>\n");
	frame_head(p->frame, p->description, out);
	sbuf_adds(out, "<style>\n");
	sbuf_adds(out, page_style);
	sbuf_adds(out, cite_style);
	if (p->frame)
		sbuf_adds(out, frame_style);
	if (p->style)
		sbuf_adds(out, p->style);
	sbuf_adds(out, "</style>\n</head>\n<body>\n");
	frame_header(p->frame, out);
	sbuf_adds(out, "<div class=\"page\">\n");
	for (i = 0; i < p->n; i++) {
		const page_block *blk = &p->blocks[i];

		if (blk->text_only)
			continue;
		if (list != PAGE_OPEN && blk->kind != list) {
			sbuf_adds(out, list == PAGE_PAIR ? "</dl>\n" : "</ul>\n");
			list = PAGE_OPEN;
		}
		switch (blk->kind) {
		case PAGE_TITLE:
			sbuf_adds(out, "<h1>");
			html_text(out, blk->text);
			sbuf_adds(out, "</h1>\n");
			break;
		case PAGE_OPEN:
			sbuf_adds(out, "<div class=\"");
			html_text(out, blk->role ? blk->role : "part");
			sbuf_adds(out, "\">\n");
			break;
		case PAGE_CLOSE:
			sbuf_adds(out, "</div>\n");
			break;
		case PAGE_HEADING:
			heading_tag(out, "<h", blk->level, ">");
			html_text(out, blk->text);
			heading_tag(out, "</h", blk->level, ">\n");
			break;
		case PAGE_PARAGRAPH:
			if (blk->role) {
				sbuf_adds(out, "<p class=\"");
				html_text(out, blk->role);
				sbuf_adds(out, "\">");
			} else {
				sbuf_adds(out, "<p>");
			}
			html_paragraph(out, blk);
			sbuf_adds(out, "</p>\n");
			break;
		case PAGE_PAIR:
			if (list != PAGE_PAIR)
				sbuf_adds(out, "<dl>\n");
			list = PAGE_PAIR;
			sbuf_adds(out, "<dt>");
			html_text(out, blk->text);
			sbuf_adds(out, "</dt><dd>");
			if (blk->nitems)
				html_items(out, blk);
			else
				html_link(out, blk->value, blk->link);
			sbuf_adds(out, "</dd>\n");
			break;
		case PAGE_RAW:
			if (blk->hole && hole && *hole == SIZE_MAX)
				*hole = out->len;
			sbuf_adds(out, blk->text);
			break;
		case PAGE_LINK:
			if (list != PAGE_LINK)
				sbuf_adds(out, "<ul class=\"models\">\n");
			list = PAGE_LINK;
			sbuf_adds(out, "<li>");
			html_link(out, blk->text, blk->link);
			sbuf_adds(out, "</li>\n");
			break;
		}
	}
	if (list != PAGE_OPEN)
		sbuf_adds(out, list == PAGE_PAIR ? "</dl>\n" : "</ul>\n");
	sbuf_adds(out, "</div>\n</body>\n</html>\n");
}
