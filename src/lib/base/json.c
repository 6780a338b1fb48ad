#include "base/json.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

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

/* Read a JSON string starting at the opening quote into out; returns the
 * position after the closing quote, or NULL. */
static const char *read_string(const char *p, sbuf *out)
{
	if (*p++ != '"')
		return NULL;
	for (;;) {
		const char *start = p;

		while (*p && *p != '"' && *p != '\\')
			p++;
		sbuf_add(out, start, (size_t)(p - start));
		if (*p == '"')
			return p + 1;
		if (!*p)
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

int json_flat_parse(json_flat *obj, const char *text)
{
	const char *p = skip_space(text);
	size_t cap = 0;
	sbuf key, value;

	obj->pairs = NULL;
	obj->n = 0;
	sbuf_init(&key);
	sbuf_init(&value);
	if (*p++ != '{')
		goto fail;
	p = skip_space(p);
	if (*p == '}')
		goto done;
	for (;;) {
		sbuf_reset(&key);
		sbuf_reset(&value);
		p = read_string(skip_space(p), &key);
		if (!p)
			goto fail;
		p = skip_space(p);
		if (*p++ != ':')
			goto fail;
		p = read_string(skip_space(p), &value);
		if (!p)
			goto fail;
		if (obj->n == cap) {
			cap = cap ? cap * 2 : 16;
			obj->pairs = xrealloc(obj->pairs, cap * sizeof(*obj->pairs));
		}
		obj->pairs[obj->n].key = xstrndup(key.data, key.len);
		obj->pairs[obj->n].len = value.len;
		obj->pairs[obj->n].value = xstrndup(value.data, value.len);
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
	sbuf_release(&key);
	sbuf_release(&value);
	return 0;
fail:
	sbuf_release(&key);
	sbuf_release(&value);
	json_flat_release(obj);
	return -1;
}

void json_flat_release(json_flat *obj)
{
	size_t i;

	for (i = 0; i < obj->n; i++) {
		free(obj->pairs[i].key);
		free(obj->pairs[i].value);
	}
	free(obj->pairs);
	obj->pairs = NULL;
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
