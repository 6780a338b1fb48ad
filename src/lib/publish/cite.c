#include "publish/cite.h"
#include "publish/template.h"
#include "db/credit.h"
#include "db/query.h"
#include "base/textout.h"
#include "base/sha256.h"

#include <stdlib.h>
#include <string.h>

int cite_load(catalogue *cat, const char *as_of, cite_set *c, mc_err *err)
{
	memset(c, 0, sizeof(*c));
	if (provenance_files(cat, as_of, &c->files, &c->n, err))
		return -1;
	if (credit_citation_upto(cat, as_of, &c->readme, err) < 0) {
		cite_release(c);
		return -1;
	}
	return 0;
}

void cite_release(cite_set *c)
{
	provenance_files_free(c->files, c->n);
	free(c->readme);
	memset(c, 0, sizeof(*c));
}

size_t cite_latest(const cite_set *c, const provenance_file **out)
{
	return cite_latest_on(c, NULL, out);
}

size_t cite_latest_on(const cite_set *c, const char *day, const provenance_file **out)
{
	size_t i, k = 0;

	/* by export, then date: the last of each export's run on or before day */
	for (i = 0; i < c->n; i++) {
		if (day && strcmp(c->files[i].day, day) > 0)
			continue;
		if (k && !strcmp(out[k - 1]->export, c->files[i].export))
			out[k - 1] = &c->files[i];
		else
			out[k++] = &c->files[i];
	}
	return k;
}

/* The file of v's version; else (no such id) export's latest file on or
 * before v's date. NULL when none. */
static const provenance_file *file_of(const cite_set *c, const model_value *v)
{
	const provenance_file *best = NULL;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const provenance_file *f = &c->files[i];

		if (v->source && f->id == v->source)
			return f;
		if (!strcmp(f->export, v->export) && (!v->since || strcmp(f->day, v->since) <= 0))
			best = f;
	}
	return best;
}

size_t cite_model(const cite_set *c, const model_view *m, const provenance_file **out)
{
	size_t i, j, k = 0;

	for (i = 0; i < m->values.n; i++) {
		const model_value *v = &m->values.items[i];
		const provenance_file *f;

		if (!v->export)
			continue;
		f = file_of(c, v);
		for (j = 0; f && j < k; j++)
			if (out[j] == f || !strcmp(out[j]->export, f->export))
				f = NULL;
		if (f && k < c->n)
			out[k++] = f;
	}
	return k;
}

void cite_day(const provenance_file *const *files, size_t n, char day[11])
{
	size_t i;

	day[0] = '\0';
	for (i = 0; i < n; i++)
		if (strcmp(files[i]->day, day) > 0)
			mc_fmt(day, 11, "%s", files[i]->day);
}

void cite_bibtex_escape(sbuf *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '\\':
			sbuf_adds(out, "\\textbackslash{}");
			break;
		case '{': case '}': case '%': case '&': case '$': case '#': case '_':
			sbuf_addc(out, '\\');
			sbuf_addc(out, (char)ch);
			break;
		case '^':
			sbuf_adds(out, "\\^{}");
			break;
		case '~':
			sbuf_adds(out, "\\~{}");
			break;
		default:
			sbuf_addc(out, ch < 0x20 || ch == 0x7f ? ' ' : (char)ch);
		}
	}
}

char *cite_page_url(const char *base_url, const char *path)
{
	size_t n = base_url ? strlen(base_url) : 0;
	sbuf s;

	if (!n)
		return NULL;
	sbuf_init(&s);
	sbuf_adds(&s, base_url);
	if (base_url[n - 1] != '/')
		sbuf_addc(&s, '/');
	sbuf_adds(&s, path);
	return sbuf_detach(&s, NULL);
}

void cite_short_hash(const provenance_file *const *files, size_t n, char hash[13])
{
	sha256_ctx h;
	char hex[65];
	size_t i;

	if (n == 1) {
		mc_fmt(hash, 13, "%.12s", files[0]->sha256);
		return;
	}
	sha256_init(&h);
	for (i = 0; i < n; i++) {
		sha256_update(&h, files[i]->export, strlen(files[i]->export));
		sha256_update(&h, " ", 1);
		sha256_update(&h, files[i]->sha256, strlen(files[i]->sha256));
		sha256_update(&h, "\n", 1);
	}
	sha256_final_hex(&h, hex);
	mc_fmt(hash, 13, "%.12s", hex);
}

/* A url field as it is (BibTeX styles and biblatex take it verbatim: a
 * TeX escape would end up in the link), but for what would break the
 * entry or the link, percent-encoded: braces, backslash, space, control
 * characters. */
static void bibtex_url(sbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '{' || ch == '}' || ch == '\\' || ch <= 0x20 || ch == 0x7f)
			sbuf_addf(out, "%%%02X", ch);
		else
			sbuf_addc(out, (char)ch);
	}
}

void cite_bibtex(sbuf *out, const char *key, const char *url,
		 const provenance_file *const *files, size_t n)
{
	char day[11], hash[13];

	cite_day(files, n, day);
	sbuf_adds(out, "@misc{");
	for (; key && *key; key++) {
		char ch = *key;
		int plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == ':';

		sbuf_addc(out, plain ? ch : '-');
	}
	sbuf_adds(out, ",\n  title = {{" CITE_TITLE "}},\n  author = {{" CITE_AUTHOR "}},\n  year = {");
	sbuf_addf(out, "%.4s", day);
	sbuf_adds(out, "},\n  url = {");
	bibtex_url(out, url && *url ? url : CITE_URL);
	sbuf_adds(out, "},\n  note = {" CITE_LICENCE ". Snapshot of ");
	cite_bibtex_escape(out, day);
	if (n) {
		cite_short_hash(files, n, hash);
		sbuf_adds(out, ", SHA-256 ");
		cite_bibtex_escape(out, hash);
	}
	sbuf_adds(out, "},\n  urldate = {");
	cite_bibtex_escape(out, day);
	sbuf_adds(out, "}\n}\n");
}

static void html(sbuf *out, const char *s)
{
	textout_html(out, s, strlen(s));
}

/* Text id (the language's, else English's) with {date}, HTML-escaped. */
static void text(sbuf *out, const page_texts *texts, const page_texts *english,
		 page_text_id id, const char *day)
{
	const char *const pairs[] = { "date", day, NULL };
	sbuf s;

	sbuf_init(&s);
	page_text_plain(texts, english, id, pairs, &s);
	html(out, s.data ? s.data : "");
	sbuf_release(&s);
}

void cite_html(sbuf *out, int level, const page_texts *texts, const page_texts *english,
	       const char *key, const char *url, const provenance_file *const *files, size_t n,
	       const char *readme)
{
	char day[11];
	size_t i;
	sbuf bib;

	cite_day(files, n, day);
	sbuf_adds(out, "<div class=\"cite\">\n");
	sbuf_addf(out, "<h%d>", level);
	text(out, texts, english, PT_CITE_HEADING, day);
	sbuf_addf(out, "</h%d>\n<p>", level);
	text(out, texts, english, PT_CITE_DATA, day);
	sbuf_adds(out, ", <a href=\"" CITE_LICENCE_URL "\" rel=\"license\">" CITE_LICENCE
		  "</a></p>\n");
	if (n) {
		sbuf_adds(out, "<p>");
		text(out, texts, english, PT_CITE_SNAPSHOT, day);
		sbuf_adds(out, "</p>\n<p>");
		text(out, texts, english, PT_CITE_SOURCES, day);
		sbuf_adds(out, "</p>\n<ul class=\"sources\">\n");
		for (i = 0; i < n; i++) {
			sbuf_adds(out, "<li>");
			html(out, files[i]->export);
			sbuf_adds(out, ", ");
			html(out, files[i]->day);
			sbuf_adds(out, ": <code>");
			html(out, files[i]->sha256);
			sbuf_adds(out, "</code></li>\n");
		}
		sbuf_adds(out, "</ul>\n");
	}
	/* Epoch's own citation text: the bundle README's, else the same words */
	sbuf_adds(out, "<p>");
	text(out, texts, english, PT_CITE_README, day);
	sbuf_adds(out, "</p>\n<p class=\"credit\">");
	html(out, readme && *readme ? readme : CITE_EPOCH);
	sbuf_adds(out, "</p>\n");
	sbuf_adds(out, "<p>");
	text(out, texts, english, PT_CITE_BIBTEX, day);
	sbuf_adds(out, "</p>\n<pre class=\"bibtex\">");
	sbuf_init(&bib);
	cite_bibtex(&bib, key, url, files, n);
	html(out, bib.data ? bib.data : "");
	sbuf_release(&bib);
	sbuf_adds(out, "</pre>\n</div>\n");
}
