/*
 * hwlink: models and the hardware they were trained on, linked on a date.
 *
 * A model's "Training hardware" items are matched to the records of the
 * hardware family (ml_hardware, keyed by "Hardware name"), and a card's
 * "ML models" items to the models: first by exact name, then by the
 * names' keys (hwlink_key: case, spaces and punctuation aside; for
 * hardware also a leading vendor word), then through the alias table
 * pipelines/hardware-aliases.tsv (a name as one export writes it, TAB,
 * the record's name in the other). docs/pages.md, "Hardware pages".
 *
 * hwlink_load() reads a date's links in two queries (one per family) and
 * merges both directions: a model is linked to a card when either names
 * the other. What matched nothing is listed too, and stored as one notice
 * per snapshot (hwlink_note_unmatched).
 *
 * Ownership: a hwlink_day owns every string and array in it
 * (hwlink_day_release); pointers into it stay valid until then.
 */
#ifndef MODELCAT_HWLINK_H
#define MODELCAT_HWLINK_H

#include <stddef.h>
#include "base/json.h"
#include "base/strmap.h"
#include "db/catalogue.h"

struct load;

/* One card (a hardware record) on the date. */
typedef struct hwlink_card {
	char *name;                  /* its name ("NAME#2" for a repeated name's second row) */
	json_flat values;            /* its normalised values, by canonical field */
	char since[11];              /* the date its current version was opened */
} hwlink_card;

/* A model linked to a card. */
typedef struct hwlink_pair {
	char *model;                 /* the model's name, as query_models lists it */
	size_t card;                 /* the card: an index into hwlink_day.cards */
} hwlink_pair;

/* The links of one date. */
typedef struct hwlink_day {
	hwlink_card *cards;          /* every card on record, sorted by name */
	size_t ncards;               /* entries in cards */
	hwlink_pair *links;          /* sorted by model, then card; no repeats */
	size_t nlinks;               /* entries in links */
	char **unmatched_hardware;   /* "Training hardware" items no card matched,
					sorted, no repeats */
	size_t nunmatched_hardware;  /* entries in unmatched_hardware */
	char **unmatched_models;     /* "ML models" items no model matched */
	size_t nunmatched_models;    /* entries in unmatched_models */
	/* the matching tables (hwlink_card_for) */
	strmap card_exact;           /* card name -> index + 1 */
	strmap card_key;             /* card key -> index + 1, 0 when two cards share it */
	strmap model_exact;          /* model name -> 1 */
	strmap model_key;            /* model key -> index into model_names + 1, or 0 */
	char **model_names;          /* every model on record */
	size_t nmodel_names;         /* entries in model_names */
	char **aliases;              /* pairs: name as written, the record's name */
	size_t naliases;             /* pairs in aliases */
} hwlink_day;

/* The matching key of name into out (replacing its content): ASCII
 * letters lower-cased, every byte that is not an ASCII letter or digit
 * dropped (bytes of other characters kept); with hardware, a leading
 * vendor word (NVIDIA, AMD, Google, Intel, Huawei) dropped first.
 * "NVIDIA GeForce RTX-4090" and "geforce rtx 4090" -> "geforcertx4090". */
void hwlink_key(const char *name, int hardware, sbuf *out);

/* The alias table at path into *pairs (2 * *n strings: name, record
 * name). Lines starting with '#' and empty lines are skipped; a line
 * without exactly one TAB is an error naming file and line. A missing
 * file is no alias. 0, or -1 (err). */
int hwlink_aliases_read(const char *path, char ***pairs, size_t *n, mc_err *err);

/* The links on as_of (YYYY-MM-DD) into d (released by the caller with
 * hwlink_day_release, also on failure). Aliases come from the installed
 * pipelines/hardware-aliases.tsv. 0, or -1 (err). */
int hwlink_load(catalogue *cat, const char *as_of, hwlink_day *d, mc_err *err);
void hwlink_day_release(hwlink_day *d);

/* The card a "Training hardware" item means, or NULL. */
const hwlink_card *hwlink_card_for(const hwlink_day *d, const char *item);
/* The card listed under name (as in d->cards), or NULL. */
const hwlink_card *hwlink_card_named(const hwlink_day *d, const char *name);
/* The card's value of field, or NULL when it has none. */
const char *hwlink_value(const hwlink_card *card, const char *field);

/* Store, in the snapshot ld is loading (its date as_of), one notice
 * listing the names that matched nothing on that date, when the
 * catalogue holds hardware and something is unmatched. 0, or -1 (err). */
int hwlink_note_unmatched(struct load *ld, const char *as_of, mc_err *err);

#endif
