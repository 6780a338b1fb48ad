/*
 * snapload: one snapshot loaded into the catalogue in one transaction:
 * opening the load (with the export precedence of
 * pipelines/precedence.tsv), loading each argument (an export file, a
 * staging file) into it, and committing, or leaving the catalogue as it
 * was.
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_SNAPLOAD_H
#define MODELCAT_SNAPLOAD_H

#include <stdio.h>
#include "ingest/ingest.h"

/* Open a load of a snapshot dated day on cat, with the export precedence
 * of pipelines/precedence.tsv; the caller commits or aborts *out. 0 or -1
 * (*out NULL). */
int snapload_begin(catalogue *cat, const char *day, load **out, mc_err *err);
/* Set the guards of pipelines/guards.tsv on ld (accept: see
 * load_set_guards). 0 or -1. */
int snapload_guards(load *ld, int accept, mc_err *err);

/* Load one argument (an export file, a staging file) into ctx->load; set
 * label to what the summary line calls it. 0 or -1. */
typedef int snapload_fn(ingest_ctx *ctx, const char *arg, load_stats *stats,
			char *label, size_t labellen, mc_err *err);

/* What snapload_run loads. */
typedef struct snapload_job {
	const char *db;             /* the catalogue (its path, worked out by the stage) */
	const char *as_of;          /* the snapshot's date; today when NULL or "" */
	const colmap *map;          /* column map; NULL when load_one does not parse */
	char *const *args;          /* the arguments */
	int n;                      /* their number */
	snapload_fn *load_one;      /* loads one of them */
	int accept;                 /* --accept: apply what a guard would hold */
	const char *const *accept_exports; /* --accept-export: only these exports' */
	size_t naccept_exports;     /* entries in accept_exports */
	const char *program;        /* prefixes the held lines, or NULL */
	const char *store;          /* the snapshot store whose acceptances its files
				       have (ingest --snapshots), or NULL: none */
} snapload_job;

/* How a snapshot's load went. */
typedef struct snapload_result {
	unsigned long quarantined;  /* rows quarantined (exports with new content) */
	int aborted;                /* 1: failed inside the transaction: nothing written */
	unsigned long held;         /* exports a guard held (nothing of them applied) */
} snapload_result;

/*
 * Load job->args as one snapshot into the catalogue job->db (created and
 * migrated when missing), in one transaction: one summary line per
 * argument and a last "snapshot DAY loaded into DB" line on out; an
 * export a guard held has its line on errors ("EXPORT: held for review:
 * REASON; ingest --accept to apply it"). These lines are printed once the
 * transaction has committed, never before. On failure nothing is written
 * and nothing of the summary printed (only quarantined rows' and notices'
 * lines, as they were met), and a catalogue the run created is removed.
 * 0 or -1.
 */
int snapload_run(const snapload_job *job, FILE *out, FILE *errors, snapload_result *result,
		 mc_err *err);

#endif
