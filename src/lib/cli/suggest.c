#include "cli/suggest.h"
#include "base/sbuf.h"
#include "base/alloc.h"
#include "cli/stage.h"
#include "base/unicode.h"
#include "base/textout.h"

#include <stdlib.h>
#include <string.h>

/* The most suggestions a "did you mean" lists. */
#define SUGGEST_MAX 5

const char *suggest_rank_name(enum suggest_rank rank)
{
	static const char *const names[] = { "exact", "prefix", "word prefix", "spelling",
					     "substring" };

	return names[rank];
}

static void key_of(const char *s, size_t len, sbuf *key)
{
	sbuf_reset(key);
	unicode_search_key(s, len, key);
}

/* Does a word of key (not its first) start at position i? */
static int word_start(const char *key, size_t i)
{
	unsigned char before = (unsigned char)key[i - 1];

	return before < 0x80 && !(before >= 'a' && before <= 'z') &&
	       !(before >= 'A' && before <= 'Z') && !(before >= '0' && before <= '9');
}

/* The rank of key for the query's key q, or -1 when it does not match. */
static int match_rank(const sbuf *key, const sbuf *q)
{
	size_t i;

	if (!q->len || key->len < q->len)
		return -1;
	if (key->len == q->len && !memcmp(key->data, q->data, q->len))
		return SUGGEST_EXACT;
	if (!memcmp(key->data, q->data, q->len))
		return SUGGEST_PREFIX;
	for (i = 1; i + q->len <= key->len; i++)
		if (word_start(key->data, i) && !memcmp(key->data + i, q->data, q->len))
			return SUGGEST_WORD;
	return strstr(key->data, q->data) ? SUGGEST_SUBSTRING : -1;
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

/* Keep candidate in *best when it ranks better than what *best holds. */
static void consider(suggest_match *best, int *found, enum suggest_rank rank, enum suggest_what what,
		     size_t distance, const char *text, size_t text_len)
{
	if (*found && (best->rank < rank || (best->rank == rank && (best->distance < distance ||
		       (best->distance == distance && best->what <= what)))))
		return;
	*found = 1;
	best->rank = rank;
	best->what = what;
	best->distance = distance;
	best->text = text;
	best->text_len = text_len;
}

/* The spelling limit for a query key of len bytes. */
static size_t spelling_limit(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

/* Match one text of a model (its key in key) against q into *best. */
static void match_text(suggest_match *best, int *found, const sbuf *key, const sbuf *q,
		       enum suggest_what what, const char *text, size_t len, int spelling)
{
	int rank = match_rank(key, q);
	size_t limit, distance;

	if (rank >= 0 && rank < SUGGEST_SPELLING) {
		consider(best, found, (enum suggest_rank)rank, what, 0, text, len);
		return;
	}
	if (spelling && what != SUGGEST_ORGANIZATION && q->len) {
		limit = spelling_limit(q->len);
		distance = edit_distance(key->data, key->len, q->data, q->len, limit);
		if (distance <= limit) {
			consider(best, found, SUGGEST_SPELLING, what, distance, text, len);
			return;
		}
	}
	if (rank >= 0)
		consider(best, found, (enum suggest_rank)rank, what, 0, text, len);
}

/* Match model m against q: 1 and *match filled when it matched. */
static int match_model(const search_model *m, const sbuf *q, int spelling, sbuf *key,
		       suggest_match *match)
{
	const char *p, *end;
	size_t i;
	int found = 0;

	memset(match, 0, sizeof(*match));
	match->model = m;
	key_of(m->name, strlen(m->name), key);
	match->key_len = key->len;
	match_text(match, &found, key, q, SUGGEST_NAME, m->name, strlen(m->name), spelling);
	for (i = 0; i < m->nformers; i++) {
		key_of(m->formers[i], strlen(m->formers[i]), key);
		match_text(match, &found, key, q, SUGGEST_FORMER, m->formers[i],
			   strlen(m->formers[i]), spelling);
	}
	for (p = m->organization; p && *p; p = *end ? end + 1 : end) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		while (p < end && *p == ' ')
			p++;
		key_of(p, (size_t)(end - p), key);
		match_text(match, &found, key, q, SUGGEST_ORGANIZATION, p, (size_t)(end - p), 0);
	}
	return found;
}

static int match_compare(const void *pa, const void *pb)
{
	const suggest_match *a = pa, *b = pb;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->distance != b->distance)
		return a->distance < b->distance ? -1 : 1;
	if (a->what != b->what)
		return a->what < b->what ? -1 : 1;
	if (a->key_len != b->key_len)
		return a->key_len < b->key_len ? -1 : 1;
	return strcmp(a->model->name, b->model->name);
}

void suggest_rank(const char *query, const search_model *models, size_t n, int spelling,
		  suggest_match **out, size_t *nout)
{
	sbuf q, key;
	size_t i;

	*out = NULL;
	*nout = 0;
	sbuf_init(&q);
	sbuf_init(&key);
	key_of(query, strlen(query), &q);
	for (i = 0; q.len && i < n; i++) {
		suggest_match match;

		if (!match_model(&models[i], &q, spelling, &key, &match))
			continue;
		*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
		(*out)[(*nout)++] = match;
	}
	if (*nout)
		qsort(*out, *nout, sizeof(**out), match_compare);
	sbuf_release(&q);
	sbuf_release(&key);
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

/* The number of characters (not bytes) of UTF-8 text s. */
static size_t text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* The width of s as a terminal line shows it (base/textout.h). */
static size_t term_width(sbuf *tmp, const char *s)
{
	sbuf_reset(tmp);
	textout_terms(tmp, s);
	return tmp->len ? text_width(tmp->data) : 0;
}

/* s escaped for the terminal, padded with spaces to width characters. */
static void add_padded(sbuf *out, const char *s, size_t width)
{
	size_t start = out->len, w;

	textout_terms(out, s);
	w = out->len > start ? text_width(out->data + start) : 0;
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
