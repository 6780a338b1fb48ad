#include "cli/match.h"
#include "base/sbuf.h"
#include "base/alloc.h"
#include "base/unicode.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

void match_words_init(match_words *w)
{
	memset(w, 0, sizeof(*w));
	sbuf_init(&w->joined);
}

void match_words_release(match_words *w)
{
	sbuf_release(&w->joined);
	free(w->start);
	memset(w, 0, sizeof(*w));
}

/* What c is to the rules: 1 a letter or digit, 2 a mark (dropped, as the
 * fold drops accents), 0 a separator. */
static int char_class(utf8proc_int32_t c)
{
	utf8proc_category_t cat = utf8proc_category(c);

	if ((cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO) ||
	    (cat >= UTF8PROC_CATEGORY_ND && cat <= UTF8PROC_CATEGORY_NO))
		return 1;
	return cat >= UTF8PROC_CATEGORY_MN && cat <= UTF8PROC_CATEGORY_ME ? 2 : 0;
}

static void word_start(match_words *w)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 8;
		w->start = xrealloc(w->start, w->cap * sizeof(*w->start));
	}
	w->start[w->n++] = w->joined.len;
}

void match_words_of(match_words *w, const char *s, size_t len)
{
	sbuf key;
	const utf8proc_uint8_t *p, *end;
	int in_word = 0;

	sbuf_init(&key);
	unicode_search_key(s, len, &key);
	sbuf_reset(&w->joined);
	w->n = 0;
	p = (const utf8proc_uint8_t *)key.data;
	end = p + key.len;
	while (p < end) {
		utf8proc_int32_t c;
		utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &c);
		int what;

		if (n <= 0) {   /* not UTF-8 (the key is s, ASCII lowered): a byte */
			c = *p;
			n = 1;
			what = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80;
		} else {
			what = char_class(c);
		}
		if (what == 1) {
			if (!in_word)
				word_start(w);
			in_word = 1;
			sbuf_add(&w->joined, p, (size_t)n);
		} else if (what == 0) {
			in_word = 0;
		}
		p += n;
	}
	sbuf_release(&key);
}

int match_found(const match_words *t, const char *q, size_t qlen)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->joined.len - t->start[i] >= qlen &&
		    !memcmp(t->joined.data + t->start[i], q, qlen))
			return 1;
	return 0;
}

size_t match_word_len(const match_words *q, size_t i)
{
	return (i + 1 < q->n ? q->start[i + 1] : q->joined.len) - q->start[i];
}

