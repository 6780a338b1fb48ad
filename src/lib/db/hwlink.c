#include "db/hwlink.h"
#include "db/load.h"
#include "base/paths.h"
#include "values/colmap.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The versions on record on ?1 (the exports are narrowed by the caller,
 * against CATALOGUE_KEYED). */
#define HWLINK_CURRENT " FROM version v JOIN record r ON r.id = v.record_id" \
	" WHERE v.tombstone = 0 AND v.valid_from <= ?1" \
	" AND (v.valid_to IS NULL OR v.valid_to > ?1)"

void hwlink_key(const char *name, int hardware, sbuf *out)
{
	static const char *const vendors[] = { "nvidia", "amd", "google", "intel", "huawei" };
	const unsigned char *p;
	size_t i, from = 0;

	sbuf_reset(out);
	for (p = (const unsigned char *)name; *p; p++) {
		if (*p >= 'A' && *p <= 'Z')
			sbuf_addc(out, (char)(*p - 'A' + 'a'));
		else if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p >= 0x80)
			sbuf_addc(out, (char)*p);
		else if (hardware && !from && out->len)
			from = out->len;     /* the end of the first word */
	}
	if (!hardware || !from)
		return;
	for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++) {
		if (strlen(vendors[i]) == from && !memcmp(out->data, vendors[i], from) &&
		    out->len > from) {
			memmove(out->data, out->data + from, out->len - from + 1);
			out->len -= from;
			return;
		}
	}
}

int hwlink_aliases_read(const char *path, char ***pairs, size_t *n, mc_err *err)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	unsigned long lineno = 0;
	int rc = 0;

	*pairs = NULL;
	*n = 0;
	if (!f)
		return errno == ENOENT ? 0 : mc_error(err, "%s: cannot read: %s", path, strerror(errno));
	while (!rc && fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\r\n");
		char *tab;

		lineno++;
		line[len] = '\0';
		if (!len || line[0] == '#')
			continue;
		tab = strchr(line, '\t');
		if (!tab || strchr(tab + 1, '\t') || tab == line || !tab[1]) {
			rc = mc_error(err, "%s:%lu: expected a name, a TAB and the record's name",
				      path, lineno);
			break;
		}
		*pairs = xrealloc(*pairs, (*n + 1) * 2 * sizeof(**pairs));
		(*pairs)[2 * *n] = xstrndup(line, (size_t)(tab - line));
		(*pairs)[2 * *n + 1] = xstrdup(tab + 1);
		(*n)++;
	}
	fclose(f);
	if (rc) {
		mc_free_strings(*pairs, 2 * *n);
		*pairs = NULL;
		*n = 0;
	}
	return rc;
}

/* The key fields of the model and hardware families (hardware: NULL when
 * the column maps have no such family); the caller frees both. */
static int family_keys(char **model_key, char **hardware_key, mc_err *err)
{
	char dir[PATH_MAX];
	const colmap *hw;
	colmap map;

	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(&map, dir, err))
		return -1;
	hw = colmap_family(&map, "hardware");
	*model_key = xstrdup(map.key);
	*hardware_key = hw && hw->key ? xstrdup(hw->key) : NULL;
	colmap_release(&map);
	return 0;
}

/* Bind the date and key to st (the first two parameters). */
static int bind_day(catalogue *cat, sqlite3_stmt *st, const char *as_of, const char *key,
		    mc_err *err)
{
	if (sqlite3_bind_text(st, 1, as_of, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT) != SQLITE_OK)
		return catalogue_fail(cat, "binding the date", err);
	return 0;
}

/* A record's name as listed: NAME, or NAME#n for its n-th row. */
static char *listed_name(sqlite3_stmt *st, int name_col, int occurrence_col)
{
	const char *name = (const char *)sqlite3_column_text(st, name_col);
	sqlite3_int64 occurrence = sqlite3_column_int64(st, occurrence_col);
	sbuf s;

	if (!name)
		return NULL;
	sbuf_init(&s);
	sbuf_adds(&s, name);
	if (occurrence > 1)
		sbuf_addf(&s, "#%lld", (long long)occurrence);
	return sbuf_detach(&s, NULL);
}

static int card_cmp(const void *a, const void *b)
{
	return strcmp(((const hwlink_card *)a)->name, ((const hwlink_card *)b)->name);
}

/* Every card on record on as_of, sorted by name. */
static int read_cards(catalogue *cat, hwlink_day *d, const char *as_of, const char *key,
		      mc_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (catalogue_prepare(cat, &st, CATALOGUE_KEYED "SELECT v.name, r.occurrence, v.norm,"
			      " v.valid_from" HWLINK_CURRENT
			      " AND r.export IN (SELECT export FROM keyed WHERE field = ?2)", err))
		return -1;
	if (bind_day(cat, st, as_of, key, err)) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *norm = (const char *)sqlite3_column_text(st, 2);
		const char *since = (const char *)sqlite3_column_text(st, 3);
		char *name = listed_name(st, 0, 1);
		hwlink_card *c;

		if (!name)
			continue;
		d->cards = xrealloc(d->cards, (d->ncards + 1) * sizeof(*d->cards));
		c = &d->cards[d->ncards++];
		memset(c, 0, sizeof(*c));
		c->name = name;
		mc_fmt(c->since, sizeof(c->since), "%s", since ? since : "");
		if (json_flat_parse(&c->values, norm ? norm : "{}")) {
			sqlite3_finalize(st);
			return mc_error(err, "%s: the stored values of '%s' are not valid JSON",
					cat->path, name);
		}
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return catalogue_fail(cat, "listing the hardware", err);
	if (d->ncards)
		qsort(d->cards, d->ncards, sizeof(*d->cards), card_cmp);
	return 0;
}

/* Put key -> value + 1 in map, or 0 when another value already has it. */
static void key_add(strmap *map, const char *name, int hardware, size_t value, sbuf *key)
{
	size_t *at;
	int added;

	hwlink_key(name, hardware, key);
	if (!key->len)
		return;
	at = strmap_get_or_add(map, key->data, key->len, &added);
	*at = added || *at == value + 1 ? value + 1 : 0;
}

/* The record a name means among exact and keyed (exact name, key, alias):
 * its value + 1 in the maps, or 0. */
static size_t match(const hwlink_day *d, const strmap *exact, const strmap *keyed,
		    int hardware, const char *name)
{
	const size_t *at = strmap_find(exact, name, strlen(name));
	size_t i, found = 0;
	sbuf key;

	if (at)
		return *at;
	sbuf_init(&key);
	hwlink_key(name, hardware, &key);
	at = key.len ? strmap_find(keyed, key.data, key.len) : NULL;
	if (at)
		found = *at;
	for (i = 0; !found && i < d->naliases; i++)
		if (!strcmp(d->aliases[2 * i], name) &&
		    (at = strmap_find(exact, d->aliases[2 * i + 1], strlen(d->aliases[2 * i + 1]))))
			found = *at;
	sbuf_release(&key);
	return found;
}

const hwlink_card *hwlink_card_for(const hwlink_day *d, const char *item)
{
	size_t at = match(d, &d->card_exact, &d->card_key, 1, item);

	return at ? &d->cards[at - 1] : NULL;
}

const hwlink_card *hwlink_card_named(const hwlink_day *d, const char *name)
{
	const size_t *at = strmap_find(&d->card_exact, name, strlen(name));

	return at ? &d->cards[*at - 1] : NULL;
}

const char *hwlink_value(const hwlink_card *card, const char *field)
{
	const json_pair *p = json_flat_get(&card->values, field);

	return p && p->value && p->value[0] ? p->value : NULL;
}

static void add_link(hwlink_day *d, const char *model, size_t card)
{
	d->links = xrealloc(d->links, (d->nlinks + 1) * sizeof(*d->links));
	d->links[d->nlinks].model = xstrdup(model);
	d->links[d->nlinks].card = card;
	d->nlinks++;
}

static void add_unmatched(char ***list, size_t *n, const char *name)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = xstrdup(name);
}

/* Match each item of a stored list value ("A,B") with fn. */
static void each_item(const char *list, void (*fn)(hwlink_day *, const char *, const char *),
		      hwlink_day *d, const char *owner)
{
	while (list && *list) {
		size_t len = strcspn(list, ",");
		char *item = xstrndup(list, len);

		if (*item)
			fn(d, owner, item);
		free(item);
		list += len + (list[len] == ',');
	}
}

static void model_item(hwlink_day *d, const char *model, const char *item)
{
	const hwlink_card *c = hwlink_card_for(d, item);

	if (c)
		add_link(d, model, (size_t)(c - d->cards));
	else
		add_unmatched(&d->unmatched_hardware, &d->nunmatched_hardware, item);
}

static void card_item(hwlink_day *d, const char *card, const char *item)
{
	size_t at = match(d, &d->model_exact, &d->model_key, 0, item);
	const size_t *ci = strmap_find(&d->card_exact, card, strlen(card));

	if (at && ci)
		add_link(d, d->model_names[at - 1], *ci - 1);
	else if (!at)
		add_unmatched(&d->unmatched_models, &d->nunmatched_models, item);
}

/* Every model on record on as_of into d->model_names (and its maps); the
 * models' "Training hardware" values into *hardware (pairs: model, value). */
static int read_models(catalogue *cat, hwlink_day *d, const char *as_of, const char *key,
		       char ***hardware, size_t *nhardware, mc_err *err)
{
	sqlite3_stmt *st = NULL;
	sbuf k;
	int step;

	if (catalogue_prepare(cat, &st, CATALOGUE_KEYED "SELECT v.name, r.occurrence,"
			      " json_extract(v.norm, '$.\"Training hardware\"')" HWLINK_CURRENT
			      " AND r.export NOT IN (SELECT export FROM keyed WHERE field <> ?2)",
			      err))
		return -1;
	if (bind_day(cat, st, as_of, key, err)) {
		sqlite3_finalize(st);
		return -1;
	}
	sbuf_init(&k);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *hw = (const char *)sqlite3_column_text(st, 2);
		char *name = listed_name(st, 0, 1);
		int added;
		size_t *at;

		if (!name)
			continue;
		at = strmap_get_or_add(&d->model_exact, name, strlen(name), &added);
		if (added) {
			d->model_names = xrealloc(d->model_names,
						  (d->nmodel_names + 1) * sizeof(*d->model_names));
			d->model_names[d->nmodel_names] = xstrdup(name);
			*at = ++d->nmodel_names;
			key_add(&d->model_key, name, 0, d->nmodel_names - 1, &k);
		}
		if (hw && *hw) {
			*hardware = xrealloc(*hardware, (*nhardware + 1) * 2 * sizeof(**hardware));
			(*hardware)[2 * *nhardware] = name;
			(*hardware)[2 * *nhardware + 1] = xstrdup(hw);
			(*nhardware)++;
		} else {
			free(name);
		}
	}
	sbuf_release(&k);
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return catalogue_fail(cat, "listing the models' training hardware", err);
	return 0;
}

static int link_cmp(const void *a, const void *b)
{
	const hwlink_pair *x = a, *y = b;
	int c = strcmp(x->model, y->model);

	return c ? c : x->card < y->card ? -1 : x->card > y->card;
}

static int string_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort list and drop its repeats. */
static void sort_unique(char **list, size_t *n)
{
	size_t i, k = 0;

	if (!*n)
		return;
	qsort(list, *n, sizeof(*list), string_cmp);
	for (i = 0; i < *n; i++) {
		if (k && !strcmp(list[k - 1], list[i]))
			free(list[i]);
		else
			list[k++] = list[i];
	}
	*n = k;
}

/* Sort the links and drop their repeats. */
static void links_unique(hwlink_day *d)
{
	size_t i, k = 0;

	if (!d->nlinks)
		return;
	qsort(d->links, d->nlinks, sizeof(*d->links), link_cmp);
	for (i = 0; i < d->nlinks; i++) {
		if (k && !link_cmp(&d->links[k - 1], &d->links[i]))
			free(d->links[i].model);
		else
			d->links[k++] = d->links[i];
	}
	d->nlinks = k;
}

/* The card maps, then both directions of the links. */
static void link_all(hwlink_day *d, char **hardware, size_t nhardware)
{
	size_t i;
	sbuf k;

	sbuf_init(&k);
	for (i = 0; i < d->ncards; i++) {
		int added;

		*strmap_get_or_add(&d->card_exact, d->cards[i].name, strlen(d->cards[i].name),
				   &added) = i + 1;
		key_add(&d->card_key, d->cards[i].name, 1, i, &k);
	}
	sbuf_release(&k);
	for (i = 0; i < nhardware; i++)
		each_item(hardware[2 * i + 1], model_item, d, hardware[2 * i]);
	for (i = 0; i < d->ncards; i++)
		each_item(hwlink_value(&d->cards[i], "ML models"), card_item, d, d->cards[i].name);
	links_unique(d);
	sort_unique(d->unmatched_hardware, &d->nunmatched_hardware);
	sort_unique(d->unmatched_models, &d->nunmatched_models);
}

int hwlink_load(catalogue *cat, const char *as_of, hwlink_day *d, mc_err *err)
{
	char *model_key = NULL, *hardware_key = NULL, **hardware = NULL, path[PATH_MAX];
	size_t nhardware = 0;
	int rc = -1;

	memset(d, 0, sizeof(*d));
	strmap_init(&d->card_exact);
	strmap_init(&d->card_key);
	strmap_init(&d->model_exact);
	strmap_init(&d->model_key);
	paths_data_file(path, sizeof(path), "pipelines/hardware-aliases.tsv");
	if (family_keys(&model_key, &hardware_key, err) ||
	    hwlink_aliases_read(path, &d->aliases, &d->naliases, err))
		goto out;
	if (hardware_key && read_cards(cat, d, as_of, hardware_key, err))
		goto out;
	if (d->ncards && read_models(cat, d, as_of, model_key, &hardware, &nhardware, err))
		goto out;
	link_all(d, hardware, nhardware);
	rc = 0;
out:
	mc_free_strings(hardware, 2 * nhardware);
	free(model_key);
	free(hardware_key);
	return rc;
}

void hwlink_day_release(hwlink_day *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->ncards; i++) {
		free(d->cards[i].name);
		json_flat_release(&d->cards[i].values);
	}
	free(d->cards);
	for (i = 0; i < d->nlinks; i++)
		free(d->links[i].model);
	free(d->links);
	mc_free_strings(d->unmatched_hardware, d->nunmatched_hardware);
	mc_free_strings(d->unmatched_models, d->nunmatched_models);
	mc_free_strings(d->model_names, d->nmodel_names);
	mc_free_strings(d->aliases, 2 * d->naliases);
	strmap_release(&d->card_exact);
	strmap_release(&d->card_key);
	strmap_release(&d->model_exact);
	strmap_release(&d->model_key);
	memset(d, 0, sizeof(*d));
}

/* ", "-separated names after a label, into s. */
static void list_names(sbuf *s, const char *label, char *const *names, size_t n)
{
	size_t i;

	sbuf_addf(s, "%s (%zu): ", label, n);
	for (i = 0; i < n; i++)
		sbuf_addf(s, "%s%s", i ? ", " : "", names[i]);
}

int hwlink_note_unmatched(struct load *ld, const char *as_of, mc_err *err)
{
	hwlink_day d;
	sbuf s;
	int rc;

	if (hwlink_load(load_catalogue(ld), as_of, &d, err)) {
		hwlink_day_release(&d);
		return -1;
	}
	if (!d.ncards || (!d.nunmatched_hardware && !d.nunmatched_models)) {
		hwlink_day_release(&d);
		return 0;
	}
	sbuf_init(&s);
	sbuf_addf(&s, "hardware links on %s: ", as_of);
	list_names(&s, "training hardware matching no hardware record", d.unmatched_hardware,
		   d.nunmatched_hardware);
	sbuf_adds(&s, "; ");
	list_names(&s, "ML models matching no model", d.unmatched_models, d.nunmatched_models);
	rc = load_notice(ld, s.data, err);
	sbuf_release(&s);
	hwlink_day_release(&d);
	return rc;
}
