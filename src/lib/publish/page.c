#include "publish/page.h"
#include "publish/template.h"
#include "values/format.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PAGE_TEXT_KEY(id, key) key,
static const char *const text_keys[PT_COUNT] = { PAGE_TEXTS(PAGE_TEXT_KEY) };
#undef PAGE_TEXT_KEY

/* Every placeholder the page builder fills in. */
static const char *const placeholders[] = {
	"name", "organisations", "countries", "month", "org_type", "domain", "task",
	"compute", "hardware", "notability", "params", "params_notes", "mem4", "mem8",
	"mem16", "licence", "day", "month_name", "year", "hours", "days", "percent",
	"size", "unit", "count", "date", "names", "memory", "precision", "bits", "shown", "from", "to",
	"field", "old", "new", "export", "reason", "start", "factor", "value", "title",
};

const char *page_text_key(page_text_id id)
{
	return id < PT_COUNT ? text_keys[id] : "";
}

int page_text_find(const char *key, page_text_id *id)
{
	size_t i;

	for (i = 0; i < PT_COUNT; i++) {
		if (!strcmp(text_keys[i], key)) {
			*id = (page_text_id)i;
			return 0;
		}
	}
	return -1;
}

int page_placeholder_known(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(placeholders) / sizeof(placeholders[0]); i++)
		if (strlen(placeholders[i]) == len && !memcmp(placeholders[i], name, len))
			return 1;
	return 0;
}

void page_texts_init(page_texts *t, const char *lang)
{
	memset(t, 0, sizeof(*t));
	mc_fmt(t->lang, sizeof(t->lang), "%s", lang);
}

void page_texts_release(page_texts *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < PT_COUNT; i++) {
		free(t->text[i]);
		template_compiled_free(t->compiled[i]);
	}
	memset(t, 0, sizeof(*t));
}

void page_init(page *p, const char *lang)
{
	memset(p, 0, sizeof(*p));
	mc_fmt(p->lang, sizeof(p->lang), "%s", lang);
}

void page_release(page *p)
{
	size_t i;

	if (!p)
		return;
	free(p->formerly);
	free(p->citation);
	free(p->description);
	mc_free_strings(p->hardware_links, 2 * p->nhardware_links);
	free(p->hardware_index);
	free(p->charts);
	for (i = 0; i < p->n; i++)
		mc_free_strings(p->blocks[i].item_links, p->blocks[i].nitems);
	free(p->blocks);
	strpool_release(&p->texts);
	memset(p, 0, sizeof(*p));
}

int page_safe_url(const char *url)
{
	const unsigned char *p;
	size_t scheme;

	if (!url)
		return 0;
	if (!strncasecmp(url, "https://", 8))
		scheme = 8;
	else if (!strncasecmp(url, "http://", 7))
		scheme = 7;
	else
		return 0;
	if (!url[scheme])
		return 0;
	for (p = (const unsigned char *)url; *p; p++)
		if (*p <= 0x20 || *p == 0x7F || strchr("\"'<>\\`", *p))
			return 0;
	return 1;
}

page_block *page_grow(page *p, size_t more)
{
	if (p->n + more > p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;

		while (cap < p->n + more)
			cap *= 2;
		p->blocks = xrealloc(p->blocks, cap * sizeof(*p->blocks));
		p->cap = cap;
	}
	return &p->blocks[p->n];
}

char *page_strdup(page *p, const char *s)
{
	return strpool_dup(&p->texts, s);
}

page_block *page_add(page *p, page_kind kind, int level, const char *role, const char *text)
{
	page_block *blk = page_grow(p, 1);

	p->n++;
	memset(blk, 0, sizeof(*blk));
	blk->kind = kind;
	blk->level = level;
	blk->role = role;
	blk->text = page_strdup(p, text);
	return blk;
}

void page_add_raw(page *p, char *html)
{
	page_block *blk = page_grow(p, 1);

	p->n++;
	memset(blk, 0, sizeof(*blk));
	blk->kind = PAGE_RAW;
	blk->text = page_strdup(p, html);
	blk->html_only = 1;
	free(html);
}

void page_format_lang(const page_texts *texts, const page_texts *english, format_lang *l)
{
	const char *t;
	int i;

	format_lang_init(l, texts ? texts->lang : "en");
	for (i = 0; i < 12; i++)
		if ((t = page_text_of(texts, english, (page_text_id)(PT_VALUE_MONTH_1 + i))))
			l->month[i] = t;
	if ((t = page_text_of(texts, english, PT_VALUE_YES)))
		l->yes = t;
	if ((t = page_text_of(texts, english, PT_VALUE_NO)))
		l->no = t;
}

const char *page_text_of(const page_texts *texts, const page_texts *english, page_text_id id)
{
	if (texts && texts->text[id])
		return texts->text[id];
	if (english && english->text[id])
		return english->text[id];
	return NULL;
}

void page_text_set(page_texts *texts, page_text_id id, const char *text)
{
	free(texts->text[id]);
	template_compiled_free(texts->compiled[id]);
	texts->text[id] = xstrdup(text);
	texts->compiled[id] = template_compile(texts->text[id]);
}

int page_text_expand(const page_texts *texts, const page_texts *english, page_text_id id,
		     template_lookup_fn *lookup, void *ctx, sbuf *out)
{
	const page_texts *from = texts && texts->text[id] ? texts :
				 english && english->text[id] ? english : NULL;

	if (from && from->compiled[id])
		return template_expand_compiled(from->compiled[id], lookup, ctx, out);
	return template_expand(from ? from->text[id] : "", lookup, ctx, out);
}

void page_text_plain(const page_texts *texts, const page_texts *english, page_text_id id,
		     const char *const *pairs, sbuf *out)
{
	const char *t = page_text_of(texts, english, id);

	if (!t || page_text_expand(texts, english, id, template_pairs, (void *)pairs, out))
		sbuf_adds(out, page_text_key(id));
}

char *page_text_string(const page_texts *texts, const page_texts *english, page_text_id id,
		       const char *const *pairs)
{
	sbuf s;

	sbuf_init(&s);
	page_text_plain(texts, english, id, pairs, &s);
	return sbuf_detach(&s, NULL);
}
