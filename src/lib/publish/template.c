#include "publish/template.h"

#include <stdlib.h>
#include <string.h>

enum token_kind { TOKEN_TEXT, TOKEN_PLACEHOLDER, TOKEN_BEGIN, TOKEN_END, TOKEN_EOF, TOKEN_BAD };

typedef struct token {
	enum token_kind kind;        /* what it is */
	const char *s;               /* text or placeholder name */
	size_t len;                  /* its length */
	const char *why;             /* TOKEN_BAD: the reason */
} token;

int template_valid_name(const char *name, size_t len)
{
	size_t i;

	if (len == 0 || len > 32)
		return 0;
	for (i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
		      name[i] == '_'))
			return 0;
	return 1;
}

/* Read the token at *p and advance past it. */
static token token_next(const char **p)
{
	const char *s = *p, *close;
	token t = { TOKEN_EOF, s, 0, NULL };

	if (!*s)
		return t;
	if (*s != '{') {
		t.kind = TOKEN_TEXT;
		t.len = (size_t)(strchrnul(s, '{') - s);
		*p = s + t.len;
		return t;
	}
	if (s[1] == '{') {
		t.kind = TOKEN_TEXT;
		t.s = s + 1;
		t.len = 1;
		*p = s + 2;
		return t;
	}
	if (!strncmp(s, "{[}", 3) || !strncmp(s, "{]}", 3)) {
		t.kind = s[1] == '[' ? TOKEN_BEGIN : TOKEN_END;
		*p = s + 3;
		return t;
	}
	close = strchr(s, '}');
	if (!close || !template_valid_name(s + 1, (size_t)(close - s - 1))) {
		t.kind = TOKEN_BAD;
		t.why = "a '{' that starts no placeholder (write '{{' for a brace)";
		return t;
	}
	t.kind = TOKEN_PLACEHOLDER;
	t.s = s + 1;
	t.len = (size_t)(close - s - 1);
	*p = close + 1;
	return t;
}

/* The template's structure at token t, with in_group whether a group is
 * open before it (updated): what is wrong, or NULL. A TOKEN_EOF says
 * whether the template ends well. template_check() and template_expand()
 * both go by it. */
static const char *token_fault(const token *t, int *in_group)
{
	switch (t->kind) {
	case TOKEN_BAD:
		return t->why;
	case TOKEN_BEGIN:
		if (*in_group)
			return "optional groups do not nest";
		*in_group = 1;
		return NULL;
	case TOKEN_END:
		if (!*in_group)
			return "an optional group ends that never began";
		*in_group = 0;
		return NULL;
	case TOKEN_EOF:
		return *in_group ? "an optional group is not closed" : NULL;
	default:
		return NULL;
	}
}

int template_check(const char *tmpl, template_each_fn *each, void *ctx, mc_err *err)
{
	const char *p = tmpl, *why;
	int in_group = 0;
	token t;

	do {
		t = token_next(&p);
		if ((why = token_fault(&t, &in_group)))
			return mc_error(err, "%s", why);
		if (t.kind == TOKEN_PLACEHOLDER && each)
			each(ctx, t.s, t.len);
	} while (t.kind != TOKEN_EOF);
	return 0;
}

/* Cut out back to len bytes. */
static void truncate_to(sbuf *out, size_t len)
{
	out->len = len;
	if (out->cap)
		out->data[len] = '\0';
}

struct template_compiled {
	size_t n;                    /* tokens, the last TOKEN_EOF or TOKEN_BAD */
	token t[];
};

template_compiled *template_compile(const char *tmpl)
{
	size_t cap = 16;
	template_compiled *c = xmalloc(sizeof(*c) + cap * sizeof(token));
	const char *p = tmpl;
	token t;

	c->n = 0;
	do {
		t = token_next(&p);
		if (c->n == cap) {
			cap *= 2;
			c = xrealloc(c, sizeof(*c) + cap * sizeof(token));
		}
		c->t[c->n++] = t;
	} while (t.kind != TOKEN_EOF && t.kind != TOKEN_BAD);
	return c;
}

void template_compiled_free(template_compiled *c)
{
	free(c);
}

/* Where expand() takes its tokens: a template's text, or its tokens. */
typedef struct cursor {
	const char *p;               /* the text (when t is NULL) */
	const token *t;              /* the next token made before */
} cursor;

static token cursor_next(cursor *c)
{
	return c->t ? *c->t++ : token_next(&c->p);
}

/* One pass: the template is read to its end even after a missing value
 * (1), since a template at fault (-1) says so first; what was written is
 * cut out again in both cases. */
static int expand(cursor *c, template_lookup_fn *lookup, void *ctx, sbuf *out)
{
	size_t start = out->len, group_start = 0;
	int in_group = 0, group_ok = 1, rc = 0;
	token t;

	do {
		const char *value;

		t = cursor_next(c);
		if (token_fault(&t, &in_group)) {
			rc = -1;   /* (a TOKEN_BAD does not move on) */
			break;
		}
		switch (t.kind) {
		case TOKEN_TEXT:
			/* one full stop: a value that ends a sentence with its
			 * own ("Inc.", a note) takes the text's place */
			if (!rc && t.len && t.s[0] == '.' && out->len > start &&
			    out->data[out->len - 1] == '.')
				sbuf_add(out, t.s + 1, t.len - 1);
			else if (!rc)
				sbuf_add(out, t.s, t.len);
			break;
		case TOKEN_BEGIN:
			group_ok = 1;
			group_start = out->len;
			break;
		case TOKEN_END:
			if (!group_ok && !rc)
				truncate_to(out, group_start);
			break;
		case TOKEN_PLACEHOLDER:
			if (rc)
				break;
			value = lookup(ctx, t.s, t.len);
			if (value && *value)
				sbuf_adds(out, value);
			else if (in_group)
				group_ok = 0;
			else
				rc = 1;
			break;
		default:
			break;
		}
	} while (t.kind != TOKEN_EOF);
	if (rc)
		truncate_to(out, start);
	return rc;
}

int template_expand(const char *tmpl, template_lookup_fn *lookup, void *ctx, sbuf *out)
{
	cursor c = { tmpl, NULL };

	return expand(&c, lookup, ctx, out);
}

int template_expand_compiled(const template_compiled *tc, template_lookup_fn *lookup, void *ctx,
			     sbuf *out)
{
	cursor c = { NULL, tc->t };

	return expand(&c, lookup, ctx, out);
}

/* The placeholders of a template, as one string "|a|b|" for searching. */
static void collect_name(void *ctx, const char *name, size_t len)
{
	sbuf *names = ctx;

	if (!names->len)
		sbuf_addc(names, '|');
	sbuf_add(names, name, len);
	sbuf_addc(names, '|');
}

static void require_name(void *ctx, const char *name, size_t len)
{
	struct { const sbuf *names; int ok; } *state = ctx;
	char key[40];

	mc_fmt(key, sizeof(key), "|%.*s|", (int)len, name);
	if (!state->names->len || !strstr(state->names->data, key))
		state->ok = 0;
}

int template_placeholders_within(const char *sub, const char *super)
{
	sbuf names;
	struct { const sbuf *names; int ok; } state;

	sbuf_init(&names);
	if (template_check(super, collect_name, &names, NULL)) {
		sbuf_release(&names);
		return -1;
	}
	state.names = &names;
	state.ok = 1;
	if (template_check(sub, require_name, &state, NULL))
		state.ok = -1;
	sbuf_release(&names);
	return state.ok;
}

void template_add_text(sbuf *out, const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (text[i] == '{')
			sbuf_addc(out, '{');
		sbuf_addc(out, text[i]);
	}
}

void template_add_placeholder(sbuf *out, const char *name)
{
	sbuf_addf(out, "{%s}", name);
}

void template_begin_group(sbuf *out)
{
	sbuf_adds(out, "{[}");
}

void template_end_group(sbuf *out)
{
	sbuf_adds(out, "{]}");
}

void template_fold_space(sbuf *s)
{
	size_t i, n = 0;
	int space = 0;

	for (i = 0; i < s->len; i++) {
		char c = s->data[i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			space = 1;
			continue;
		}
		if (space && n)
			s->data[n++] = ' ';
		space = 0;
		s->data[n++] = c;
	}
	s->len = n;
	if (s->cap)
		s->data[n] = '\0';
}

const char *template_pairs(void *ctx, const char *name, size_t len)
{
	const char *const *pairs = ctx;

	for (; pairs && pairs[0]; pairs += 2)
		if (strlen(pairs[0]) == len && !memcmp(pairs[0], name, len))
			return pairs[1];
	return NULL;
}
