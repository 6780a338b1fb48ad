/*
 * json_flat_parse(): the stored values' objects read back key by key,
 * escapes decoded, every key and value inside the object's one block, and
 * anything but a flat object of strings refused. A quote or escape at
 * every offset of a long value (the 16-byte scan's edges) reads back as
 * written.
 */
#include "base/json.h"
#include "base/util.h"
#include "unit.h"

#include <stdlib.h>

/* Does every key and value of obj lie inside its block, which is no
 * larger than the text? */
static int in_block(const json_flat *obj, const char *text)
{
	size_t size = strlen(text) + 1, i;

	for (i = 0; i < obj->n; i++) {
		const json_pair *p = &obj->pairs[i];

		if (p->key < obj->block || p->key + strlen(p->key) >= obj->block + size ||
		    p->value < obj->block || p->value + p->len >= obj->block + size ||
		    p->value[p->len])
			return 0;
	}
	return 1;
}

static void refused(const char *text, const char *what)
{
	json_flat obj;

	CHECK(json_flat_parse(&obj, text) == -1 && !obj.n && !obj.pairs && !obj.block,
	      "refused, and left empty: %s", what);
}

int main(void)
{
	static const char plain[] =
		" {\"Model\" : \"GPT-4\",\"Parameters\":\"1.8e12\", \"Notes\":\"\"}\n";
	static const char escaped[] =
		"{\"a\\\"b\":\"x\\\\y\\/z\\b\\f\\n\\r\\t\",\"\\u00e9t\\u00E9\":\"\\ud83d\\ude00 \\u20ac\","
		"\"nul\":\"a\\u0000b\",\"A\":\"\\u0041\\u0042\"}";
	json_flat obj;
	sbuf big;
	size_t i, bad;
	int rc;

	rc = json_flat_parse(&obj, plain);
	CHECK(rc == 0 && obj.n == 3, "three pairs read (%d, %zu)", rc, obj.n);
	CHECK_STR(obj.pairs[0].key, "Model", "first key");
	CHECK_STR(obj.pairs[0].value, "GPT-4", "first value");
	CHECK(obj.pairs[1].len == 6, "a value's length (%zu)", obj.pairs[1].len);
	CHECK_STR(obj.pairs[2].value, "", "an empty value");
	CHECK(obj.pairs[2].len == 0, "an empty value's length is 0");
	CHECK(json_flat_get(&obj, "Parameters") == &obj.pairs[1], "found by key");
	CHECK(!json_flat_get(&obj, "parameters"), "keys are told apart by case");
	CHECK(in_block(&obj, plain), "keys and values in the one block");
	json_flat_release(&obj);
	CHECK(!obj.n && !obj.pairs && !obj.block, "released: empty");

	rc = json_flat_parse(&obj, escaped);
	CHECK(rc == 0 && obj.n == 4, "escaped: four pairs (%d, %zu)", rc, obj.n);
	CHECK_STR(obj.pairs[0].key, "a\"b", "a quote in a key");
	CHECK_STR(obj.pairs[0].value, "x\\y/z\b\f\n\r\t", "the one-letter escapes");
	CHECK_STR(obj.pairs[1].key, "\xc3\xa9t\xc3\xa9", "\\u escapes in either case, as UTF-8");
	CHECK_STR(obj.pairs[1].value, "\xf0\x9f\x98\x80 \xe2\x82\xac",
		  "a surrogate pair as one four-byte character, then a three-byte one");
	CHECK(obj.pairs[2].len == 3 && !memcmp(obj.pairs[2].value, "a\0b", 4),
	      "a NUL inside a value kept, told by its length (%zu)", obj.pairs[2].len);
	CHECK_STR(obj.pairs[3].value, "AB", "six bytes of escape to one byte each");
	CHECK(in_block(&obj, escaped), "escaped: keys and values in the one block");
	json_flat_release(&obj);

	rc = json_flat_parse(&obj, "{\"k\":\"first\",\"k\":\"second\"}");
	CHECK(rc == 0 && obj.n == 2, "a repeated key: both pairs, in order");
	CHECK_STR(json_flat_get(&obj, "k")->value, "first", "a repeated key: the first found");
	json_flat_release(&obj);

	rc = json_flat_parse(&obj, " { } ");
	CHECK(rc == 0 && obj.n == 0, "an empty object");
	json_flat_release(&obj);

	/* many pairs: the block and the pairs grow past their first size */
	sbuf_init(&big);
	sbuf_addc(&big, '{');
	for (i = 0; i < 5000; i++)
		sbuf_addf(&big, "%s\"field %zu\":\"value \\u00e9 %zu\"", i ? "," : "", i, i * 7);
	sbuf_addc(&big, '}');
	rc = json_flat_parse(&obj, big.data);
	CHECK(rc == 0 && obj.n == 5000, "5,000 pairs read (%zu)", obj.n);
	for (i = 0, bad = 0; i < obj.n; i++) {
		char key[64], value[64];

		mc_fmt(key, sizeof(key), "field %zu", i);
		mc_fmt(value, sizeof(value), "value \xc3\xa9 %zu", i * 7);
		bad += strcmp(obj.pairs[i].key, key) || strcmp(obj.pairs[i].value, value) ||
		       obj.pairs[i].len != strlen(value);
	}
	CHECK(bad == 0, "every one of 5,000 pairs as written (%zu differ)", bad);
	CHECK(in_block(&obj, big.data), "5,000 pairs in the one block");
	json_flat_release(&obj);
	sbuf_release(&big);

	/* a value of 40 to 72 bytes with one escaped byte at each offset */
	for (i = 0, bad = 0; i < 72 * 6; i++) {
		static const char escapes[][3] = { "\\\"", "\\\\", "\\n", "\\/", "\\t", "\\u" };
		static const char decoded[] = "\"\\\n/\t\xc3\xa9";
		size_t len = 40 + i % 33, at = i / 6 % len, k = i % 6;
		char want[80];

		sbuf_init(&big);
		sbuf_adds(&big, "{\"k\":\"");
		for (rc = 0; (size_t)rc < len; rc++) {
			if ((size_t)rc == at)
				sbuf_adds(&big, k == 5 ? "\\u00e9" : escapes[k]);
			else
				sbuf_addc(&big, (char)('a' + rc % 26));
		}
		sbuf_adds(&big, "\"}");
		for (rc = 0; (size_t)rc < len; rc++)
			want[rc] = (char)('a' + rc % 26);
		want[len] = '\0';
		if (k == 5) {
			memmove(want + at + 2, want + at + 1, len - at);
			memcpy(want + at, "\xc3\xa9", 2);
		} else {
			want[at] = decoded[k];
		}
		bad += json_flat_parse(&obj, big.data) || obj.n != 1 ||
		       strcmp(obj.pairs[0].value, want);
		json_flat_release(&obj);
		sbuf_release(&big);
	}
	CHECK(bad == 0, "an escape at every offset of a long value (%zu of 432 differ)", bad);
	refused("{\"a\":\"0123456789abcdef0123456789", "a long unterminated string");
	refused("{\"a\":\"0123456789abcdef0123456789\\", "a long string ending in a backslash");

	refused("", "nothing");
	refused("[\"a\"]", "an array");
	refused("{\"a\":1}", "a number value");
	refused("{\"a\":null}", "a null value");
	refused("{\"a\":\"b\"", "no closing brace");
	refused("{\"a\":\"b}", "an unterminated string");
	refused("{\"a\" \"b\"}", "no colon");
	refused("{\"a\":\"b\",}", "a comma before the brace");
	refused("{\"a\":\"b\"} x", "text after the object");
	refused("{\"a\":\"\\x\"}", "an unknown escape");
	refused("{\"a\":\"\\u00g0\"}", "a \\u escape that is not hexadecimal");
	refused("{\"a\":\"b\",\"c\":\"d\" \"e\":\"f\"}", "a missing comma after good pairs");
	return unit_done();
}
