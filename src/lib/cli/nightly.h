/*
 * nightly: the steps of `modelcat run`, the nightly job. One run at a
 * time, and no other writer meanwhile (the catalogue's writer lock,
 * cli/writelock.h, handed on to its stages); fetch every source (modelcat-fetch);
 * ingest what is new as one snapshot; merge the translations; re-render
 * the pages; publish the audit of the snapshot, its index and an Atom
 * feed. Every log line has a timestamp; the last one is a summary.
 *
 * The catalogue is changed on a copy that is copied into it only at the end
 * (catalogue_install(): not when another program changed it meanwhile), and
 * the site (pages, audits, feed) is built as a new version and published
 * in one switch (out/site.h) only when everything before succeeded: a
 * failed or interrupted run (SIGINT, SIGTERM, SIGHUP: exit 128 + signal)
 * leaves the catalogue and the published site as they were. With nothing
 * new to ingest, the site is published again when it was not published
 * from the catalogue as it is (after a rollback).
 *
 * Ownership: the caller owns the settings and the option table; the
 * nightly struct owns what a run finds and frees it in nightly_run().
 */
#ifndef MODELCAT_NIGHTLY_H
#define MODELCAT_NIGHTLY_H

#include <limits.h>
#include "base/error.h"
#include "cli/options.h"
#include "db/catalogue.h"

/* One file of the store that the catalogue does not have yet. */
typedef struct nightly_fresh {
	char day[11];                 /* snapshot date from its name */
	char *arg;                    /* EXPORT=PATH for ingest; owned */
} nightly_fresh;

/* A run: its settings (set by the caller) and what it found. */
typedef struct nightly {
	const char *program;          /* for the log lines */
	const char *db;               /* the catalogue, as the options worked it out */
	const char *store;            /* the snapshot store */
	const char *out;              /* where pages and audits are published */
	const char *catalogues;       /* translation catalogues, or NULL */
	const opt_spec *fetch_options; /* fetch's options as given: passed on */
	long wait;                    /* --wait: seconds to wait for the writer lock */
	const char *const *accept;    /* --accept: exports whose held file ingest
					 applies (ingest --accept-export) */
	size_t naccept;               /* entries in accept */
	const char *base_url;         /* --base-url: the site's URL, or NULL */
	int verbose;                  /* --verbose: ingest lists each column not in
					 the column map (ingest --verbose) */
	/* what the run finds */
	nightly_fresh *fresh;         /* new content to ingest, oldest first */
	size_t nfresh;                /* entries in fresh */
	char target[PATH_MAX];        /* the file db names (a symbolic link's target):
					 the copy is made beside it and installed into it */
	char work[PATH_MAX];          /* the catalogue copy this run changes */
	unsigned long sources;        /* sources fetched */
	unsigned long pages;          /* page files written */
	size_t added, removed, renamed, changed, quarantined; /* the audit's counts */
	mc_err err;                   /* the failure */
} nightly;

/*
 * Run the job with r's settings (the fields above "what the run finds";
 * zero the rest). Logs every step on stderr and a summary last. Returns
 * the exit status: OK, QUARANTINE (done, rows were quarantined), FAILURE
 * or fetch's status of 3 or more (nothing changed), LOCKED (another run
 * holds the lock).
 */
int nightly_run(nightly *r);

#endif
