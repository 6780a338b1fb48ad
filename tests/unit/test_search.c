/*
 * The ranking of search and of "did you mean" (cli/suggest.h) on a small
 * table of models by the search rules (docs/search.md): exact, prefix,
 * all words, some words (more first); a name before a former name;
 * shorter names first within a rank; case, accents, punctuation and
 * spacing aside; close spellings for suggestions only, before some
 * words; at most the number asked for. And the words of texts
 * (cli/match.h): folded, cut at what is not a letter or digit, joined.
 */
#include "cli/suggest.h"
#include "cli/match.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

/* name, organisation, date, a former name */
static const char *const table[][4] = {
	{ "GPT-4 Turbo", "OpenAI", "2023-11-06", NULL },
	{ "GPT-4o", "OpenAI", "2024-05-13", NULL },
	{ "GPT-4", "OpenAI", "2023-03-15", NULL },
	{ "MiniGPT-4", "King Abdullah University", "2023-04-20", NULL },
	{ "GPT-1", "OpenAI", "2018-06-01", "GPT" },
	{ "Caf\xc3\xa9 LM", "Acme,Open Lab", NULL, NULL },
	{ "Gopher", "DeepMind", "2021-12-08", NULL },
	{ "GLM-4", "Zhipu AI", "2024-06-05", NULL },
};
#define NMODELS (sizeof(table) / sizeof(table[0]))

static search_model *models;

/* The models of the table, as db/search.h gives them. */
static search_model *models_new(void)
{
	search_model *m = xcalloc(NMODELS, sizeof(*m));
	size_t i;

	for (i = 0; i < NMODELS; i++) {
		m[i].name = xstrdup(table[i][0]);
		m[i].organization = table[i][1] ? xstrdup(table[i][1]) : NULL;
		m[i].date = table[i][2] ? xstrdup(table[i][2]) : NULL;
		if (table[i][3]) {
			m[i].formers = xcalloc(1, sizeof(char *));
			m[i].formers[0] = xstrdup(table[i][3]);
			m[i].nformers = 1;
		}
	}
	return m;
}

/* The names suggest_rank() finds for query, "|"-separated, with each
 * rank's first letter and what matched: "GPT-4:e:n|..." */
static void ranked(const char *query, int spelling, sbuf *out)
{
	static const char what[] = "nfo";
	suggest_match *m;
	size_t n, i;

	sbuf_reset(out);
	suggest_rank(query, models, NMODELS, spelling, &m, &n);
	for (i = 0; i < n; i++)
		sbuf_addf(out, "%s%s:%s:%c", i ? "|" : "", m[i].model->name,
			  suggest_rank_name(m[i].rank), what[m[i].what]);
	free(m);
}

static void expect(const char *query, int spelling, const char *want, const char *what)
{
	sbuf out;

	sbuf_init(&out);
	ranked(query, spelling, &out);
	CHECK_STR(out.data, want, "%s ('%s')", what, query);
	sbuf_release(&out);
}

/* The words of text (cli/match.h) as "joined/start,start,...". */
static void words(const char *text, const char *want)
{
	match_words w;
	sbuf got;
	size_t i;

	match_words_init(&w);
	sbuf_init(&got);
	match_words_of(&w, text, strlen(text));
	sbuf_addf(&got, "%s/", w.joined.len ? w.joined.data : "");
	for (i = 0; i < w.n; i++)
		sbuf_addf(&got, "%s%zu", i ? "," : "", w.start[i]);
	CHECK_STR(got.data, want, "the words of '%s'", text);
	sbuf_release(&got);
	match_words_release(&w);
}

int main(void)
{
	sbuf out;

	words("Llama 3.1-405B", "llama31405b/0,5,6,7");
	words("Llama 3.1 405B", "llama31405b/0,5,6,7");
	words("GPT4", "gpt4/0");
	words("N\xc3\x9cWA", "nuwa/0");                          /* NÜWA */
	words("NU\xcc\x88WA", "nuwa/0");                         /* NFD */
	words("POKE\xc2\xb4LLMON", "pokellmon/0,4");             /* a spacing accent */
	words("DALL\xc2\xb7" "E 3", "dalle3/0,4,5");              /* a middle dot */
	words("Stra\xc3\x9f" "e", "strasse/0");                  /* case folded */
	words("\xcf\x80" "0 (pi-zero)", "\xcf\x80" "0pizero/0,3,5"); /* π0: a letter */
	words("\xef\xbc\xa7\xef\xbc\xb0\xef\xbc\xb4", "gpt/0");  /* full-width */
	words(" -- ", "/");
	models = models_new();
	expect("gpt-4", 0,
	       "GPT-4:exact:n|GPT-4o:prefix:n|GPT-4 Turbo:prefix:n|GLM-4:some words:n|"
	       "GPT-1:some words:n|MiniGPT-4:some words:n",
	       "exact, then prefixes shorter first, then one word of two (gpt is no word of MiniGPT-4)");
	expect("GPT", 0,
	       "GPT-1:exact:f|GPT-4:prefix:n|GPT-4o:prefix:n|GPT-4 Turbo:prefix:n",
	       "a former name's exact match ranks first; case does not count");
	expect("turbo", 0, "GPT-4 Turbo:all words:n", "a word of the name");
	expect("cafe lm", 0, "Caf\xc3\xa9 LM:exact:n", "accents and case aside");
	expect("CAF\xc3\x89", 0, "Caf\xc3\xa9 LM:prefix:n", "an accented query");
	expect("open", 0,
	       "GPT-1:all words:o|GPT-4:all words:o|GPT-4o:all words:o|Caf\xc3\xa9 LM:all words:o|"
	       "GPT-4 Turbo:all words:o",
	       "organisations, each item of the list; shorter names first");
	expect("lab", 0, "Caf\xc3\xa9 LM:all words:o", "a word of the second organisation");
	expect("deepmind gopher", 0, "Gopher:all words:n", "name and organisation pooled");
	expect("4o gpt", 0,
	       "GPT-4o:all words:n|GPT-1:some words:n|GPT-4:some words:n|GPT-4 Turbo:some words:n",
	       "every word in any order, then some");
	expect("gpt 4 turbo", 0,
	       "GPT-4 Turbo:exact:n|GPT-4:some words:n|GPT-4o:some words:n|GLM-4:some words:n|"
	       "GPT-1:some words:n|MiniGPT-4:some words:n",
	       "spacing aside; more words found first");
	expect("gopher zhipu", 0, "GLM-4:some words:o|Gopher:some words:n",
	       "one word each: the shorter name first; what matched");
	expect("GPT4o", 0, "GPT-4o:exact:n", "a word runs over two ('gpt4o' in 'GPT-4o')");
	expect("ama", 0, "", "inside a word is no match");
	expect("gtp-4", 0,
	       "GLM-4:some words:n|GPT-4:some words:n|GPT-4o:some words:n|MiniGPT-4:some words:n|"
	       "GPT-4 Turbo:some words:n",
	       "no spelling in a search: only the models with a word of it");
	expect("gtp-4", 1,
	       "GPT-4:spelling:n|GLM-4:some words:n|GPT-4o:some words:n|MiniGPT-4:some words:n|"
	       "GPT-4 Turbo:some words:n",
	       "close spellings for suggestions, before some words");
	expect("gpt4", 1,
	       "GPT-4:exact:n|GPT-4o:prefix:n|GPT-4 Turbo:prefix:n|GPT-1:spelling:n",
	       "'gpt4' is GPT-4's words joined; up to 4 bytes, one edit");
	expect("gtp", 1, "GPT-1:spelling:f", "a close spelling of a former name");
	expect("pt-4", 1,
	       "GPT-4:spelling:n|GLM-4:some words:n|GPT-4o:some words:n|MiniGPT-4:some words:n|"
	       "GPT-4 Turbo:some words:n",
	       "a close spelling before some words");
	expect("", 1, "", "an empty query matches nothing");
	expect("zzzz", 1, "", "nothing close");

	sbuf_init(&out);
	CHECK(suggest_names("gpt-4", models, NMODELS, 2, &out) == 2, "at most 2 names");
	CHECK_STR(out.data, "GPT-4, GPT-4o", "the did-you-mean list");
	sbuf_reset(&out);
	CHECK(suggest_names("qqqqqqq", models, NMODELS, 5, &out) == 0, "none: 0");
	CHECK(out.len == 0, "none: nothing written");
	sbuf_release(&out);
	search_models_release(models, NMODELS);
	return unit_done();
}
