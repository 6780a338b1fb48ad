/*
 * suggest: ranking the models for a text, for `modelcat search` and for
 * the "did you mean" of show, history and render (docs/man/modelcat-search.1).
 *
 * The rules are docs/search.md's (cli/match.h): texts folded and cut into
 * words, a model matched through its name, former names and
 * organisations, at the ranks
 *
 *   exact        the query's joined words equal the name's or a former
 *                name's
 *   prefix       they begin the name's or a former name's
 *   all words    every query word is found in the model's texts (pooled)
 *   spelling     (suggestions only) the name or a former name is a few
 *                edits from the query (joined words): one for queries up
 *                to 4 bytes, two up to 8, three beyond (insertion,
 *                deletion, substitution, or two neighbours swapped)
 *   some words   some query words are found
 *
 * Best first: by rank, closer spellings first, more query words found
 * first; for exact and prefix a match of the name before a former name;
 * then shorter names (their joined words, in characters), then the
 * names' joined words, then the names, in code point order. (A close
 * spelling ranks before some words: "gtp-4" suggests GPT-4 before every
 * model with a word starting with 4.)
 *
 * Ownership: matches point into the models they were ranked from and
 * live as long as those; the array is the caller's to free().
 */
#ifndef MODELCAT_SUGGEST_H
#define MODELCAT_SUGGEST_H

#include <stddef.h>
#include "db/search.h"

enum suggest_rank {
	SUGGEST_EXACT = 0,           /* joined words equal a name's */
	SUGGEST_PREFIX,              /* they begin a name's */
	SUGGEST_ALL,                 /* every query word found */
	SUGGEST_SPELLING,            /* a few edits away (suggestions only) */
	SUGGEST_SOME                 /* some query words found */
};

enum suggest_what {
	SUGGEST_NAME = 0,            /* the model's name */
	SUGGEST_FORMER,              /* a name it had before */
	SUGGEST_ORGANIZATION         /* one of its organisations */
};

/* One model found, and how (what and text: for exact and prefix the
 * name matched; else the text holding the most query words, the first of
 * name, former names, organisations). */
typedef struct suggest_match {
	const search_model *model;   /* the model */
	enum suggest_rank rank;      /* how well */
	enum suggest_what what;      /* through what */
	const char *text;            /* the text that matched (in model) */
	size_t text_len;             /* its length in bytes */
	size_t distance;             /* SUGGEST_SPELLING: the edits */
	size_t found;                /* the query words found */
	size_t key_len;              /* the name's joined words, in characters */
} suggest_match;

/* The rank's word for people ("exact", "prefix", ...). */
const char *suggest_rank_name(enum suggest_rank rank);

/*
 * Rank models[0..n) against query, best first, into *out (allocated; the
 * caller frees it) and *nout; with spelling, close spellings of names
 * too. A query with no word matches nothing.
 */
void suggest_rank(const char *query, const search_model *models, size_t n, int spelling,
		  suggest_match **out, size_t *nout);

/* Append up to max of the best names for query, ", "-separated, to out
 * (close spellings included); returns how many. */
size_t suggest_names(const char *query, const search_model *models, size_t n, size_t max,
		     sbuf *out);

/* Append matches[0..n) as text, one line each: name, organisations,
 * publication date and what matched with its rank ("formerly GPT
 * (exact)"), the first two columns aligned. */
void suggest_text(const suggest_match *matches, size_t n, sbuf *out);
/* The same as a JSON array of objects: name, organizations (an array),
 * publication_date (null when none), matched ("name", "former name",
 * "organization"), text (what matched), rank and kind (its family:
 * "model", "hardware"); in text a card's line ends in "[hardware]". */
void suggest_json(const suggest_match *matches, size_t n, sbuf *out);

/*
 * After a stage reported no model called name: print "PROGRAM: did you
 * mean: A, B, C" (at most five) on stderr when the catalogue has names
 * close to it, on as_of (YYYY-MM-DD), or with as_of NULL ever. Prints
 * nothing when there are none or the catalogue cannot be read.
 */
void suggest_did_you_mean(const char *program, catalogue *cat, const char *name,
			  const char *as_of);
/* The same among the records of one family (pipelines/families.tsv:
 * "model", "hardware"); NULL: every family. */
void suggest_did_you_mean_family(const char *program, catalogue *cat, const char *name,
				 const char *as_of, const char *family);

#endif
