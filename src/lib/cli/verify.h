/*
 * verify: `modelcat verify` checks, without writing or locking anything,
 *   - the snapshot store: every entry of its export folders a regular
 *     file inside it, every snapshot file's content matching the SHA-256
 *     recorded for it (manifest and name, store/check.h); a file with no
 *     recorded hash (the bundled history, files copied in by hand) is
 *     read and counted, not a problem;
 *   - the catalogue: PRAGMA integrity_check, and every snapshot's export
 *     file present in the store with the content the snapshot loaded;
 *   - the published site (--out DIR), through verify_site().
 * Each problem is one line naming the file and what differs; the caller
 * prints the summary.
 */
#ifndef MODELCAT_VERIFY_H
#define MODELCAT_VERIFY_H

#include <stdio.h>
#include "base/error.h"
#include "db/catalogue.h"

/* What verify found. */
typedef struct verify_result {
	size_t files;                /* store files checked */
	size_t unrecorded;           /* of which had no recorded hash */
	size_t snapshot_files;       /* snapshot exports checked against the store */
	size_t problems;             /* lines written */
	void *hashes;                /* internal: the store files' hashes */
} verify_result;

void verify_init(verify_result *v);
void verify_release(verify_result *v);

/* Check the store at dir, a problem a line to report. 0, or -1 when it
 * cannot be checked at all (err). */
int verify_store(const char *dir, FILE *report, verify_result *v, mc_err *err);
/* Check the catalogue (and its snapshots' files against the store that
 * verify_store() checked, dir). 0, or -1 when it cannot be checked (err). */
int verify_catalogue(catalogue *cat, const char *dir, FILE *report, verify_result *v,
		     mc_err *err);
/* Check the site published in out. 0, or -1 when it cannot be checked. */
int verify_site(const char *out, FILE *report, verify_result *v, mc_err *err);

#endif
