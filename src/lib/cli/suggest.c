#include "cli/suggest.h"
#include "base/sbuf.h"
#include "base/text.h"
#include "base/alloc.h"
#include "cli/stage.h"
#include "cli/match.h"
#include "base/textout.h"

#include <stdlib.h>
#include <string.h>

/* The most suggestions a "did you mean" lists. */
#define SUGGEST_MAX 5

const char *suggest_rank_name(enum suggest_rank rank)
{
	static const char *const names[] = { "exact", "prefix", "all words", "spelling",
					     "some words" };

	return names[rank];
}

/* The edits (optimal string alignment) from a to b, or limit + 1 when
 * more than limit. */
static size_t edit_distance(const char *a, size_t na, const char *b, size_t nb, size_t limit)
{
	size_t *rows, *prev2, *prev, *cur, i, j, result;

	if ((na > nb ? na - nb : nb - na) > limit)
		return limit + 1;
	rows = xcalloc(3 * (nb + 1), sizeof(*rows));
	prev2 = rows;
	prev = rows + nb + 1;
	cur = rows + 2 * (nb + 1);
	for (j = 0; j <= nb; j++)
		prev[j] = j;
	for (i = 1; i <= na; i++) {
		size_t *t;

		cur[0] = i;
		for (j = 1; j <= nb; j++) {
			size_t cost = a[i - 1] != b[j - 1], best = prev[j - 1] + cost;

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	result = prev[nb] > limit ? limit + 1 : prev[nb];
	free(rows);
	return result;
}

/* The spelling limit for a query key of len bytes. */
static size_t spelling_limit(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

/* What one model's texts gave so far (match_model). */
typedef struct model_scan {
	const match_words *q;        /* the query's words */
	match_words t;               /* the text being looked at */
	unsigned char *hit;          /* hit[i]: query word i found in some text */
	size_t most;                 /* the most query words one text held */
	int spelling;                /* with close spellings */
	size_t distance;             /* the closest spelling (limit + 1: none) */
	const char *close;           /* the name of that spelling */
	size_t close_len;            /* its length in bytes */
	enum suggest_what close_what; /* name or former name */
} model_scan;

/* Look at one text of the model: its rank as a name (exact or prefix, for
 * a name or former name), the query words it holds, its spelling. */
static void scan_text(model_scan *s, suggest_match *best, enum suggest_what what,
		      const char *text, size_t len)
{
	const match_words *q = s->q;
	size_t i, count = 0, d;
	int rank = -1;

	match_words_of(&s->t, text, len);
	if (what != SUGGEST_ORGANIZATION && s->t.joined.len >= q->joined.len &&
	    !memcmp(s->t.joined.data, q->joined.data, q->joined.len))
		rank = s->t.joined.len == q->joined.len ? SUGGEST_EXACT : SUGGEST_PREFIX;
	if (rank >= 0 && (enum suggest_rank)rank < best->rank) {
		best->rank = (enum suggest_rank)rank;
		best->what = what;
		best->text = text;
		best->text_len = len;
	}
	for (i = 0; i < q->n; i++)
		if (match_found(&s->t, q->joined.data + q->start[i], match_word_len(q, i))) {
			s->hit[i] = 1;
			count++;
		}
	if (best->rank > SUGGEST_PREFIX && count > s->most) {
		s->most = count;
		best->what = what;
		best->text = text;
		best->text_len = len;
	}
	if (s->spelling && what != SUGGEST_ORGANIZATION) {
		d = edit_distance(s->t.joined.data, s->t.joined.len, q->joined.data, q->joined.len,
				  spelling_limit(q->joined.len));
		if (d < s->distance) {
			s->distance = d;
			s->close = text;
			s->close_len = len;
			s->close_what = what;
		}
	}
}

/* Match model m against the query's words q: 1 and *match filled when it
 * matched; *key gets the name's joined words (malloc'd) for the order. */
static int match_model(const search_model *m, const match_words *q, int spelling,
		       suggest_match *match, char **key)
{
	model_scan s;
	const char *p, *end;
	size_t i;

	memset(match, 0, sizeof(*match));
	memset(&s, 0, sizeof(s));
	match->model = m;
	match->rank = SUGGEST_SOME + 1;
	s.q = q;
	s.spelling = spelling;
	s.distance = spelling_limit(q->joined.len) + 1;
	s.hit = xcalloc(q->n, 1);
	match_words_init(&s.t);
	scan_text(&s, match, SUGGEST_NAME, m->name, strlen(m->name));
	*key = xstrdup(s.t.joined.data ? s.t.joined.data : "");
	match->key_len = mc_utf8_chars(*key, strlen(*key));
	for (i = 0; i < m->nformers; i++)
		scan_text(&s, match, SUGGEST_FORMER, m->formers[i], strlen(m->formers[i]));
	for (p = m->organization; p && *p; p = *end ? end + 1 : end) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		while (p < end && *p == ' ')
			p++;
		scan_text(&s, match, SUGGEST_ORGANIZATION, p, (size_t)(end - p));
	}
	for (i = 0; i < q->n; i++)
		match->found += s.hit[i];
	if (match->rank > SUGGEST_PREFIX) {
		if (match->found == q->n) {
			match->rank = SUGGEST_ALL;
		} else if (s.close) {
			match->rank = SUGGEST_SPELLING;
			match->distance = s.distance;
			match->what = s.close_what;
			match->text = s.close;
			match->text_len = s.close_len;
		} else if (match->found) {
			match->rank = SUGGEST_SOME;
		}
	}
	free(s.hit);
	match_words_release(&s.t);
	if (match->rank > SUGGEST_SOME) {
		free(*key);
		*key = NULL;
		return 0;
	}
	return 1;
}

/* A match and its name's joined words, while they are sorted. */
typedef struct keyed_match {
	suggest_match m;             /* the match */
	char *key;                   /* the name's joined words (malloc'd) */
} keyed_match;

/* The order of docs/search.md: rank; closer spellings; more query words
 * found; for exact and prefix a name before a former name; then the
 * shorter name (its joined words, in characters), the name's joined words
 * and the name itself in code point order. */
static int match_compare(const void *pa, const void *pb)
{
	const keyed_match *ka = pa, *kb = pb;
	const suggest_match *a = &ka->m, *b = &kb->m;
	int c;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->distance != b->distance)
		return a->distance < b->distance ? -1 : 1;
	if (a->found != b->found)
		return a->found > b->found ? -1 : 1;
	if (a->rank <= SUGGEST_PREFIX && (a->what == SUGGEST_NAME) != (b->what == SUGGEST_NAME))
		return a->what == SUGGEST_NAME ? -1 : 1;
	if (a->key_len != b->key_len)
		return a->key_len < b->key_len ? -1 : 1;
	if ((c = strcmp(ka->key, kb->key)))
		return c;
	return strcmp(a->model->name, b->model->name);
}

void suggest_rank(const char *query, const search_model *models, size_t n, int spelling,
		  suggest_match **out, size_t *nout)
{
	match_words q;
	keyed_match *found = NULL;
	size_t i, nfound = 0;

	*out = NULL;
	*nout = 0;
	match_words_init(&q);
	match_words_of(&q, query, strlen(query));
	for (i = 0; q.n && i < n; i++) {
		keyed_match k;

		if (!match_model(&models[i], &q, spelling, &k.m, &k.key))
			continue;
		found = xrealloc(found, (nfound + 1) * sizeof(*found));
		found[nfound++] = k;
	}
	if (nfound) {
		qsort(found, nfound, sizeof(*found), match_compare);
		*out = xcalloc(nfound, sizeof(**out));
		for (i = 0; i < nfound; i++) {
			(*out)[i] = found[i].m;
			free(found[i].key);
		}
		*nout = nfound;
	}
	free(found);
	match_words_release(&q);
}

size_t suggest_names(const char *query, const search_model *models, size_t n, size_t max,
		     sbuf *out)
{
	suggest_match *matches;
	size_t nmatches, i;

	suggest_rank(query, models, n, 1, &matches, &nmatches);
	for (i = 0; i < nmatches && i < max; i++)
		sbuf_addf(out, "%s%s", i ? ", " : "", matches[i].model->name);
	free(matches);
	return i;
}

void suggest_did_you_mean(const char *program, catalogue *cat, const char *name,
			  const char *as_of)
{
	suggest_did_you_mean_family(program, cat, name, as_of, NULL);
}

void suggest_did_you_mean_family(const char *program, catalogue *cat, const char *name,
				 const char *as_of, const char *family)
{
	search_model *models;
	size_t n;
	mc_err err;
	sbuf out;

	if (search_models_family(cat, as_of, family, &models, &n, &err))
		return;
	sbuf_init(&out);
	if (suggest_names(name, models, n, SUGGEST_MAX, &out))
		stage_error(program, "did you mean: %s", out.data);
	sbuf_release(&out);
	search_models_release(models, n);
}

/* ---- the listing of a search ---- */

static const char *const what_words[] = { "name", "former name", "organization" };

/* The width of s as a terminal line shows it (base/textout.h). */
static size_t term_width(sbuf *tmp, const char *s)
{
	sbuf_reset(tmp);
	textout_terms(tmp, s);
	return tmp->len ? mc_utf8_chars(tmp->data, tmp->len) : 0;
}

/* s escaped for the terminal, padded with spaces to width characters. */
static void add_padded(sbuf *out, const char *s, size_t width)
{
	size_t start = out->len, w;

	textout_terms(out, s);
	w = out->len > start ? mc_utf8_chars(out->data + start, out->len - start) : 0;
	while (w++ < width)
		sbuf_addc(out, ' ');
}

/* The organisations as people read them: "A, B"; "-" when none. */
static void add_organizations(sbuf *out, const char *list)
{
	const char *p;

	if (!list || !*list) {
		sbuf_addc(out, '-');
		return;
	}
	for (p = list; *p; p++)
		if (*p == ',')
			sbuf_adds(out, ", ");
		else
			sbuf_addc(out, *p);
}

void suggest_text(const suggest_match *m, size_t n, sbuf *out)
{
	size_t i, w, name_width = 0, org_width = 0;
	sbuf org, tmp;

	sbuf_init(&org);
	sbuf_init(&tmp);
	for (i = 0; i < n; i++) {
		sbuf_reset(&org);
		add_organizations(&org, m[i].model->organization);
		if ((w = term_width(&tmp, m[i].model->name)) > name_width)
			name_width = w;
		if ((w = term_width(&tmp, org.data)) > org_width)
			org_width = w;
	}
	name_width = name_width > 40 ? 40 : name_width;
	org_width = org_width > 40 ? 40 : org_width;
	for (i = 0; i < n; i++) {
		add_padded(out, m[i].model->name, name_width);
		sbuf_adds(out, "  ");
		sbuf_reset(&org);
		add_organizations(&org, m[i].model->organization);
		add_padded(out, org.data, org_width);
		sbuf_addf(out, "  %-10s  ", m[i].model->date ? m[i].model->date : "-");
		if (m[i].what == SUGGEST_FORMER || m[i].what == SUGGEST_ORGANIZATION) {
			sbuf_adds(out, m[i].what == SUGGEST_FORMER ? "formerly " : "organisation ");
			textout_term(out, m[i].text, m[i].text_len);
		} else {
			sbuf_adds(out, "name");
		}
		sbuf_addf(out, " (%s)", suggest_rank_name(m[i].rank));
		/* a card says so; a model's line is as it was */
		if (m[i].model->family && strcmp(m[i].model->family, "model"))
			sbuf_addf(out, "  [%s]", m[i].model->family);
		sbuf_addc(out, '\n');
	}
	sbuf_release(&org);
	sbuf_release(&tmp);
}

/* The organisations as a JSON array of strings. */
static void json_organizations(sbuf *out, const char *list)
{
	const char *p = list, *end;

	sbuf_addc(out, '[');
	while (p && *p) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (p != list)
			sbuf_adds(out, ", ");
		textout_json_string(out, p, (size_t)(end - p));
		p = *end ? end + 1 : end;
	}
	sbuf_addc(out, ']');
}

void suggest_json(const suggest_match *m, size_t n, sbuf *out)
{
	size_t i;

	sbuf_addc(out, '[');
	for (i = 0; i < n; i++) {
		sbuf_adds(out, i ? ",\n {\"name\": " : "\n {\"name\": ");
		textout_json_string(out, m[i].model->name, strlen(m[i].model->name));
		sbuf_adds(out, ", \"organizations\": ");
		json_organizations(out, m[i].model->organization);
		sbuf_adds(out, ", \"publication_date\": ");
		if (m[i].model->date)
			textout_json_string(out, m[i].model->date, strlen(m[i].model->date));
		else
			sbuf_adds(out, "null");
		sbuf_addf(out, ", \"matched\": \"%s\", \"text\": ", what_words[m[i].what]);
		textout_json_string(out, m[i].text, m[i].text_len);
		sbuf_addf(out, ", \"rank\": \"%s\", \"kind\": ", suggest_rank_name(m[i].rank));
		textout_json_string(out, m[i].model->family ? m[i].model->family : "model",
				    strlen(m[i].model->family ? m[i].model->family : "model"));
		sbuf_addc(out, '}');
	}
	sbuf_adds(out, n ? "\n]\n" : "]\n");
}
