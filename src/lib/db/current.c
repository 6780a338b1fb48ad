#include "db/current.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

enum { DIGEST_LEN = 16 };

/* Step the version scan to the next live version: 1 with *record set, 0 at
 * the end, -1 on error. */
static int next_live(sqlite3_stmt *st, sqlite3_int64 *record)
{
	int step = sqlite3_step(st);

	if (step == SQLITE_ROW) {
		*record = sqlite3_column_int64(st, 0);
		return 1;
	}
	return step == SQLITE_DONE ? 0 : -1;
}

int current_scan(catalogue *cat, const char *export_name, current_fn *fn, void *ctx,
		 mc_err *err)
{
	sqlite3_stmt *records = NULL, *live = NULL;
	sqlite3_int64 live_record = 0;
	int step = SQLITE_DONE, more, stop, rc = -1;

	if (catalogue_prepare(cat, &records, "SELECT id, name, occurrence FROM record NOT INDEXED"
			      " WHERE export = ? ORDER BY id", err) ||
	    catalogue_prepare(cat, &live, "SELECT record_id, id, raw_digest FROM version INDEXED BY"
			      " version_current WHERE valid_to IS NULL AND tombstone = 0"
			      " ORDER BY record_id", err))
		goto out;
	if (sqlite3_bind_text(records, 1, export_name, -1, SQLITE_TRANSIENT) != SQLITE_OK)
		goto fail;
	more = next_live(live, &live_record);
	while (more > 0 && (step = sqlite3_step(records)) == SQLITE_ROW) {
		current_record rec;
		sqlite3_int64 id = sqlite3_column_int64(records, 0);
		unsigned char raw[DIGEST_LEN];
		int has_raw = 0;

		while (more > 0 && live_record < id)
			more = next_live(live, &live_record);
		if (more <= 0 || live_record != id)
			continue;
		memset(&rec, 0, sizeof(rec));
		rec.record = id;
		rec.name = (const char *)sqlite3_column_text(records, 1);
		rec.occurrence = sqlite3_column_int64(records, 2);
		/* one live version a record; should there be more, the last */
		while (more > 0 && live_record == id) {
			rec.version = sqlite3_column_int64(live, 1);
			has_raw = sqlite3_column_bytes(live, 2) == DIGEST_LEN;
			if (has_raw)
				memcpy(raw, sqlite3_column_blob(live, 2), DIGEST_LEN);
			more = next_live(live, &live_record);
		}
		rec.raw = has_raw ? raw : NULL;
		if (!rec.name)
			goto fail;
		stop = fn(ctx, &rec, err);
		if (stop) {
			rc = stop;
			goto out;
		}
	}
	if (more < 0 || (step != SQLITE_DONE && step != SQLITE_ROW))
		goto fail;
	rc = 0;
	goto out;
fail:
	catalogue_fail(cat, "reading the export's current records", err);
out:
	sqlite3_finalize(records);
	sqlite3_finalize(live);
	return rc;
}

/* The table's key of (name, occurrence): FNV-1a over the name, a unit
 * separator and the occurrence's 8 bytes, then a final mix so that the
 * low bits spread. */
static uint64_t table_key(const char *name, size_t occurrence)
{
	const unsigned char *p = (const unsigned char *)name;
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	h = (h ^ 0x1f) * 0x100000001b3ULL;
	for (i = 0; i < 8; i++)
		h = (h ^ ((uint64_t)occurrence >> (8 * i) & 0xff)) * 0x100000001b3ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

/*
 * cap empty slots, their pages written now: calloc()'s fresh pages read
 * as the shared zero page until written, and a first write after a
 * probe's read then costs a copy-on-write fault and a flush of the other
 * cores' TLBs, as the loader fills the table beside the parsing threads
 * (3 % of the loading thread after a 1 % change).
 */
static current_entry *empty_slots(size_t cap)
{
	current_entry *slots = xcalloc(cap, sizeof(*slots));

	memset(slots, 0, cap * sizeof(*slots));
	return slots;
}

void current_table_init(current_table *t, size_t expected)
{
	t->cap = expected + expected / 3 + 16;
	t->slots = empty_slots(t->cap);
	t->count = 0;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t table_index(const current_table *t, uint64_t key)
{
	size_t i = (size_t)(key % t->cap);

	while (t->slots[i].version && t->slots[i].key != key)
		i = i + 1 == t->cap ? 0 : i + 1;
	return i;
}

/* Grow to twice the slots, when nine in ten are used. */
static void table_grow(current_table *t)
{
	current_table bigger;
	size_t i;

	bigger.cap = t->cap * 2;
	bigger.slots = empty_slots(bigger.cap);
	bigger.count = t->count;
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].version)
			bigger.slots[table_index(&bigger, t->slots[i].key)] = t->slots[i];
	free(t->slots);
	*t = bigger;
}

int current_table_add(current_table *t, const char *name, size_t occurrence,
		      sqlite3_int64 version, sqlite3_int64 record, const unsigned char raw[16])
{
	uint64_t key = table_key(name, occurrence);
	current_entry *slot;

	if (version < 1 || version > UINT32_MAX || record < 1 || record > UINT32_MAX)
		return -1;
	if ((t->count + 1) * 10 > t->cap * 9)
		table_grow(t);
	slot = &t->slots[table_index(t, key)];
	if (slot->version) {
		slot->record = 0;   /* two records, one key: neither is found */
		return 0;
	}
	slot->key = key;
	slot->version = (uint32_t)version;
	slot->record = (uint32_t)record;
	memcpy(slot->raw, raw, DIGEST_LEN);
	t->count++;
	return 0;
}

const current_entry *current_table_find(const current_table *t, const char *name,
					size_t occurrence)
{
	const current_entry *slot;

	if (!t->cap)
		return NULL;
	slot = &t->slots[table_index(t, table_key(name, occurrence))];
	return slot->version && slot->record ? slot : NULL;
}

void current_table_release(current_table *t)
{
	free(t->slots);
	t->slots = NULL;
	t->cap = t->count = 0;
}
