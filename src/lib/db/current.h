/*
 * current: an export's live records (those whose current version is not a
 * tombstone), read as a stream, and a compact table of them by name for
 * telling unchanged rows before they are normalised.
 *
 * A load used to hold the export's live records as a list, each with its
 * name, and a string map over it: about 300 bytes a record, 175 MiB for
 * the 557,000 records of a 1 GB export. The stream holds one record at a
 * time; the table holds 32 bytes a slot (a 64-bit hash of the name and
 * occurrence, the version and record ids, the raw digest), about 24 MiB
 * for the same export.
 *
 * Errors: the functions that can fail return 0 or -1 and fill err, their
 * last parameter (base/error.h).
 */
#ifndef MODELCAT_CURRENT_H
#define MODELCAT_CURRENT_H

#include "db/catalogue.h"

#include <stdint.h>

/* One live record of an export, as current_scan() hands it over. */
typedef struct current_record {
	sqlite3_int64 record;        /* record id */
	sqlite3_int64 version;       /* its current version */
	const char *name;            /* its name (record.name) */
	sqlite3_int64 occurrence;    /* and occurrence */
	const unsigned char *raw;    /* the version's raw digest (16 bytes), or
					NULL when it has none */
} current_record;

/* Called once per live record; the pointers in rec are valid during the
 * call only. 0 goes on; any other value stops the scan, which returns it
 * (-1 with err filled for an error). */
typedef int current_fn(void *ctx, const current_record *rec, mc_err *err);

/*
 * Hand every live record of export_name to fn, in record id order. Two
 * scans joined here, by record id: the export's records (the record table
 * in id order) and every live version (the covering index version_current
 * in record order); a join in SQL would seek the index once per record,
 * several times slower on a large export. Nothing is held but the row at
 * hand. The catalogue must not be written during the scan. 0, -1, or
 * what fn returned to stop it.
 */
int current_scan(catalogue *cat, const char *export_name, current_fn *fn, void *ctx,
		 mc_err *err);

/* A slot of the table: 32 bytes. */
typedef struct current_entry {
	uint64_t key;                /* hash of (name, occurrence) */
	uint32_t version;            /* current version; 0: empty slot */
	uint32_t record;             /* its record; 0: two records share the
					key, which then never matches */
	unsigned char raw[16];       /* the version's raw digest */
} current_entry;

/* Live records by (name, occurrence): open addressing, linear probing. */
typedef struct current_table {
	current_entry *slots;        /* cap slots */
	size_t cap;                  /* slots */
	size_t count;                /* slots used */
} current_table;

/* An empty table sized for about expected records (it grows past them). */
void current_table_init(current_table *t, size_t expected);
/* Add a record: 0, or -1 when its ids do not fit in 32 bits (the table
 * cannot hold it; the caller drops the table). A second record under the
 * same key makes the key ambiguous: neither is found. */
int current_table_add(current_table *t, const char *name, size_t occurrence,
		      sqlite3_int64 version, sqlite3_int64 record, const unsigned char raw[16]);
/* The slot of (name, occurrence), or NULL when the table has none (or the
 * key is ambiguous). Valid until the table changes. */
const current_entry *current_table_find(const current_table *t, const char *name,
					size_t occurrence);
/* Free the slots; the table is empty afterwards. Accepts an empty table. */
void current_table_release(current_table *t);

#endif
