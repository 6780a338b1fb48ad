/*
 * match: the search rules (docs/search.md), the C half of the one
 * matcher; the index's filter script (publish/indexscript.c) is the other
 * half and follows the same rules, step for step.
 *
 * A text is folded (base/unicode.h's search key: compatibility forms,
 * case and accents aside) and cut into its words: its runs of letters and
 * digits (Unicode categories L and N); everything else only separates
 * them. What is compared is the words joined without spaces and where
 * each word starts in that joined text, so "GPT4", "gpt-4" and "GPT 4"
 * are one text, and so are "Llama 3.1 405B" and "Llama 3.1-405B".
 *
 * A word of the query is found in a text when the text's joined words,
 * from the start of one of its words on, begin with it: "llama" and "405"
 * are found in "Llama 3.1-405B", "gpt4" in "GPT-4o" (it runs over two
 * words), "ama" is not.
 *
 * A model's rank for a query (best first):
 *   exact       the query's joined words equal the name's or a former name's
 *   prefix      they begin the name's or a former name's
 *   all words   every word of the query is found in one of the model's
 *               texts: its name, former names and organisations, pooled
 *               ("deepmind gemini" finds Google DeepMind's Gemini models)
 *   some words  some are (more found first)
 * A model with no word found is not listed; a query with no word finds
 * nothing.
 *
 * Ownership: a match_words owns its buffers; release it.
 */
#ifndef MODELCAT_MATCH_H
#define MODELCAT_MATCH_H

#include <stddef.h>
#include "base/sbuf.h"

enum match_rank {
	MATCH_EXACT = 0,             /* joined words equal a name's */
	MATCH_PREFIX,                /* they begin a name's */
	MATCH_ALL,                   /* every word found */
	MATCH_SOME,                  /* some words found */
	MATCH_NONE                   /* none */
};

/* A text's words: joined, and the offset in joined where each starts. */
typedef struct match_words {
	sbuf joined;                 /* the folded words without separators */
	size_t *start;               /* start[i]: byte offset of word i */
	size_t n;                    /* words */
	size_t cap;                  /* entries allocated in start */
} match_words;

void match_words_init(match_words *w);
void match_words_release(match_words *w);

/* Make w the words of s[0..len) (what w held is dropped). */
void match_words_of(match_words *w, const char *s, size_t len);

/* Is the query word q[0..qlen) found in t (from one of its word starts)? */
int match_found(const match_words *t, const char *q, size_t qlen);

/* The length of the query's word i in bytes. */
size_t match_word_len(const match_words *q, size_t i);


#endif
