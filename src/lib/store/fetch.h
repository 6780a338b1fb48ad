/*
 * fetch: one source into the snapshot store. The body is requested
 * conditionally on the validators of the source's last fetch, examined,
 * and stored only when it is complete, an export the column map knows and
 * new; every fetch is noted in the store's manifest. See docs/store.md.
 *
 * Ownership: the caller owns everything passed in; a fetch_outcome is a
 * plain value.
 */
#ifndef MODELCAT_FETCH_H
#define MODELCAT_FETCH_H

#include "base/error.h"
#include "values/colmap.h"
#include "store/http.h"
#include "store/sources.h"
#include "store/store.h"

/* What happened to one source that did not fail. */
enum fetch_result {
	FETCH_STORED,               /* a new snapshot was stored */
	FETCH_UNCHANGED             /* 304, or the same content as the latest snapshot */
};

/* The outcome of fetch_source(). */
typedef struct fetch_outcome {
	enum fetch_result result;   /* stored or unchanged */
	char summary[8192];         /* the line to print for the source, no newline:
				       "NAME: stored DIR/FILE (...)" */
} fetch_outcome;

/*
 * Fetch src into st with the settings of defaults (its url, etag and
 * last_modified are replaced by the source's; its progress callbacks are
 * called during the download). Returns 0 with out filled in; err then
 * holds a message when the snapshot was stored but could not be noted in
 * the manifest (the snapshot stands), else it is left alone. Returns -1
 * with err ("NAME: ...; nothing stored") when nothing was stored.
 */
int fetch_source(store *st, const source *src, const colmap *map,
		 const http_request *defaults, fetch_outcome *out, mc_err *err);

#endif
