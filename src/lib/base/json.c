#include "base/json.h"
#include "base/sbuf.h"
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void add_utf8(sbuf *out, unsigned cp)
{
	if (cp < 0x80) {
		sbuf_addc(out, (char)cp);
	} else if (cp < 0x800) {
		sbuf_addc(out, (char)(0xC0 | (cp >> 6)));
		sbuf_addc(out, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		sbuf_addc(out, (char)(0xE0 | (cp >> 12)));
		sbuf_addc(out, (char)(0x80 | ((cp >> 6) & 0x3F)));
		sbuf_addc(out, (char)(0x80 | (cp & 0x3F)));
	} else {
		sbuf_addc(out, (char)(0xF0 | (cp >> 18)));
		sbuf_addc(out, (char)(0x80 | ((cp >> 12) & 0x3F)));
		sbuf_addc(out, (char)(0x80 | ((cp >> 6) & 0x3F)));
		sbuf_addc(out, (char)(0x80 | (cp & 0x3F)));
	}
}

/* Length of the run at p, before end, that holds no quote and no
 * backslash: 16 bytes at a time where the CPU has SSE2 (the stored
 * values are read back for every model a publication makes). */
static size_t string_run(const char *p, const char *end)
{
	const char *s = p;

#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');

	for (; end - s >= 16; s += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)s);
		int mask = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote),
							  _mm_cmpeq_epi8(v, backslash)));

		if (mask)
			return (size_t)(s - p) + (size_t)__builtin_ctz((unsigned)mask);
	}
#endif
	while (s < end && *s != '"' && *s != '\\')
		s++;
	return (size_t)(s - p);
}

/* Read the JSON string at p (its opening quote), of a text that ends (its
 * NUL) at end, into out: the position after its closing quote, or NULL. */
static const char *read_string(const char *p, const char *end, sbuf *out)
{
	if (*p++ != '"')
		return NULL;
	for (;;) {
		size_t run = string_run(p, end);

		sbuf_add(out, p, run);
		p += run;
		if (*p == '"')
			return p + 1;
		if (p == end)
			return NULL;
		p++;
		switch (*p) {
		case '"': sbuf_addc(out, '"'); break;
		case '\\': sbuf_addc(out, '\\'); break;
		case '/': sbuf_addc(out, '/'); break;
		case 'b': sbuf_addc(out, '\b'); break;
		case 'f': sbuf_addc(out, '\f'); break;
		case 'n': sbuf_addc(out, '\n'); break;
		case 'r': sbuf_addc(out, '\r'); break;
		case 't': sbuf_addc(out, '\t'); break;
		case 'u': {
			unsigned cp, low;

			if (hex4(p + 1, &cp))
				return NULL;
			p += 4;
			if (cp >= 0xD800 && cp < 0xDC00 && p[1] == '\\' && p[2] == 'u' &&
			    !hex4(p + 3, &low) && low >= 0xDC00 && low < 0xE000) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
				p += 6;
			}
			add_utf8(out, cp);
			break;
		}
		default:
			return NULL;
		}
		p++;
	}
}

/* Where pair i's key and value start in a json_flat's block while it is
 * read: the pairs point into the block once it is whole. */
typedef struct pair_at {
	size_t key, value;
} pair_at;

int json_flat_parse(json_flat *obj, const char *text)
{
	const char *p = skip_space(text), *end = text + strlen(text);
	size_t cap = 0, i;
	pair_at *at = NULL;
	sbuf block;

	obj->pairs = NULL;
	obj->n = 0;
	obj->block = NULL;
	/* every key and value, NUL-terminated, one after another in one
	 * block: no larger than the text (a string's two quotes hold its
	 * NUL, and an escape is never shorter than what it stands for) */
	sbuf_init(&block);
	sbuf_grow(&block, (size_t)(end - text) + 1);
	if (*p++ != '{')
		goto fail;
	p = skip_space(p);
	if (*p == '}')
		goto done;
	for (;;) {
		size_t key = block.len, value;

		p = read_string(skip_space(p), end, &block);
		if (!p)
			goto fail;
		sbuf_addc(&block, '\0');
		value = block.len;
		p = skip_space(p);
		if (*p++ != ':')
			goto fail;
		p = read_string(skip_space(p), end, &block);
		if (!p)
			goto fail;
		if (obj->n == cap) {
			at = xgrow(at, &cap, obj->n + 1, sizeof(*at));
			obj->pairs = xrealloc(obj->pairs, cap * sizeof(*obj->pairs));
		}
		at[obj->n].key = key;
		at[obj->n].value = value;
		obj->pairs[obj->n].len = block.len - value;
		sbuf_addc(&block, '\0');
		obj->n++;
		p = skip_space(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '}')
			break;
		goto fail;
	}
done:
	p = skip_space(p + 1);
	if (*p)
		goto fail;
	obj->block = sbuf_detach(&block, NULL);
	for (i = 0; i < obj->n; i++) {
		obj->pairs[i].key = obj->block + at[i].key;
		obj->pairs[i].value = obj->block + at[i].value;
	}
	free(at);
	return 0;
fail:
	sbuf_release(&block);
	free(at);
	free(obj->pairs);
	obj->pairs = NULL;
	obj->n = 0;
	return -1;
}

void json_flat_release(json_flat *obj)
{
	free(obj->pairs);
	free(obj->block);
	obj->pairs = NULL;
	obj->block = NULL;
	obj->n = 0;
}

const json_pair *json_flat_get(const json_flat *obj, const char *key)
{
	size_t i;

	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->pairs[i].key, key))
			return &obj->pairs[i];
	return NULL;
}
