/*
 * manifest: the catalogue's copy of a snapshot store's manifest, table
 * fetch_manifest (sql/003_fetch_manifest.sql): what was fetched, when, and
 * what it held. store/store.c hands its manifest lines over as rows.
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_MANIFEST_H
#define MODELCAT_MANIFEST_H

#include "db/catalogue.h"

/* One line of a store's manifest; store/store.h calls it store_entry.
 * The strings are never NULL ("" when empty) and belong to whoever filled
 * the row (a store owns its entries'); manifest_record() only reads them. */
typedef struct manifest_row {
	unsigned long line;                 /* line in MANIFEST.tsv (1: the header) */
	const char *fetched_at;             /* UTC, YYYY-MM-DDTHH:MM:SSZ */
	const char *source;                 /* the source's name */
	const char *event;                  /* "stored", "seen" or "not-modified" */
	const char *file;                   /* the snapshot holding the content,
					       relative to the store */
	const char *url;                    /* the URL requested */
	long status;                        /* HTTP status; 0 for file:// */
	const char *etag;                   /* validators of the response */
	const char *last_modified;
	const char *sha256;                 /* of the decompressed content */
	const char *format;                 /* the body as served: csv, gzip, zip */
	unsigned long long bytes;           /* decompressed content bytes */
	unsigned long long stored_bytes;    /* size of the snapshot file */
	unsigned long long download_bytes;  /* bytes received */
	unsigned long rows;                 /* data rows */
} manifest_row;

/* Add the rows of the store at store_dir (its absolute path) that the
 * catalogue does not hold yet, in one transaction; *added gets their
 * count. 0, or -1 ("db: recording the fetch manifest: why"). */
int manifest_record(catalogue *cat, const char *store_dir, const manifest_row *rows, size_t n,
		    unsigned long *added, mc_err *err);

#endif
