#include "ingest/snapload.h"
#include "base/textout.h"
#include "ingest/accepting.h"
#include "base/paths.h"
#include "base/day.h"
#include "store/naming.h"
#include "db/hwlink.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int snapload_begin(catalogue *cat, const char *day, load **out, mc_err *err)
{
	char dir[PATH_MAX];
	char **names = NULL;
	size_t n;
	int rc = -1;

	*out = NULL;
	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_precedence(dir, &names, &n, err))
		goto out;
	if (load_begin(cat, out, day, err) || load_precedence(*out, names, n, err)) {
		load_abort(*out);
		*out = NULL;
		goto out;
	}
	rc = 0;
out:
	colmap_free_list(names);
	return rc;
}

int snapload_guards(load *ld, int accept, mc_err *err)
{
	char dir[PATH_MAX];
	load_guards g;

	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_guards_read(dir, &g, err))
		return -1;
	load_set_guards(ld, &g, accept);
	return 0;
}

/* An argument applied with --accept although a guard held it. */
typedef struct accepted_arg {
	int arg;                    /* its index in job->args */
	char reason[256];           /* the guard's sentence */
} accepted_arg;

/* Load every argument into ld, a summary line each on out; the ones
 * --accept applied although a guard held them into *accepted (*naccepted
 * of them, the caller frees the array). 0 or -1. */
static int load_args(const snapload_job *job, load *ld, FILE *out, FILE *errors,
		     snapload_result *result, accepted_arg **accepted, size_t *naccepted,
		     mc_err *err)
{
	char label[1024];
	int i;

	for (i = 0; i < job->n; i++) {
		ingest_ctx ctx = { ld, job->map, stderr, 0 };  /* load_one sets verbose */
		load_stats stats;
		char name[NAMING_EXPORT_MAX + 1];
		const char *path;
		size_t k;
		int accept = job->accept;

		if (job->naccept_exports && !naming_split_arg(job->args[i], name, sizeof(name), &path))
			for (k = 0; k < job->naccept_exports && !accept; k++)
				accept = !strcmp(name, job->accept_exports[k]);
		load_set_accept(ld, accept);
		if (job->load_one(&ctx, job->args[i], &stats, label, sizeof(label), err))
			return -1;
		ingest_describe(label, &stats, out);
		if (stats.accepted && accept) {
			*accepted = xrealloc(*accepted, (*naccepted + 1) * sizeof(**accepted));
			(*accepted)[*naccepted].arg = i;
			mc_fmt((*accepted)[(*naccepted)++].reason, sizeof((*accepted)->reason), "%s",
			       stats.held_reason);
		}
		if (stats.held) {
			textout_line(errors, "%s%s%s: held for review: %s; ingest --accept to apply it",
				job->program ? job->program : "", job->program ? ": " : "", label,
				stats.held_reason);
			result->held++;
			continue;
		}
		if (!stats.same_content)
			result->quarantined += stats.quarantined;
	}
	return 0;
}

/* The lines of a load's summary, held until its commit: a load that fails
 * says its error only, not what it would have done. */
typedef struct summary {
	FILE *out, *errors;         /* in memory: the lines for out and errors */
	char *out_text, *errors_text;
	size_t out_len, errors_len;
} summary;

/* Close s, writing its lines to out and errors when they are not NULL;
 * again, nothing. */
static void summary_close(summary *s, FILE *out, FILE *errors)
{
	if (s->out && !fclose(s->out) && out)
		fwrite(s->out_text, 1, s->out_len, out);
	if (s->errors && !fclose(s->errors) && errors)
		fwrite(s->errors_text, 1, s->errors_len, errors);
	free(s->out_text);
	free(s->errors_text);
	memset(s, 0, sizeof(*s));
}

static int summary_open(summary *s, mc_err *err)
{
	memset(s, 0, sizeof(*s));
	s->out = open_memstream(&s->out_text, &s->out_len);
	s->errors = open_memstream(&s->errors_text, &s->errors_len);
	if (s->out && s->errors)
		return 0;
	summary_close(s, NULL, NULL);
	return mc_error(err, "cannot hold the summary: %s", strerror(errno));
}

int snapload_run(const snapload_job *job, FILE *out, FILE *errors, snapload_result *result,
		 mc_err *err)
{
	const char *path = job->db;
	catalogue cat;
	load *ld = NULL;
	accepted_arg *accepted = NULL;
	char day[11], sqldir[PATH_MAX];
	size_t naccepted = 0, i;
	int existed, rc = -1;
	summary sum;

	memset(result, 0, sizeof(*result));
	if (summary_open(&sum, err))
		return -1;
	if (job->as_of && *job->as_of)
		mc_fmt(day, sizeof(day), "%s", job->as_of);
	else
		day_today(day);
	existed = !access(path, F_OK);
	if (!existed)
		mc_cleanup_add(path);
	paths_data_file(sqldir, sizeof(sqldir), "sql");
	if (catalogue_open(&cat, path, sqldir, 0, err)) {
		mc_cleanup_remove(path);
		if (!existed)
			catalogue_remove(path);
		summary_close(&sum, NULL, NULL);
		return -1;
	}
	if (snapload_begin(&cat, day, &ld, err))
		goto out;
	/* files of a snapshot store that someone accepted are applied again */
	if (snapload_guards(ld, job->accept, err) ||
	    accepting_import_args(&cat, job->store, job->args, job->n, err) ||
	    load_args(job, ld, sum.out, sum.errors, result, &accepted, &naccepted, err)) {
		result->aborted = 1;
		load_abort(ld);
		goto out;
	}
	/* one notice of the training hardware and models no link matched */
	if (hwlink_note_unmatched(ld, day, err)) {
		result->aborted = 1;
		load_abort(ld);
		goto out;
	}
	if (load_commit(ld, err)) {
		result->aborted = 1;
		goto out;
	}
	mc_cleanup_remove(path);
	/* the summary of what was committed, only now that it was */
	summary_close(&sum, out, errors);
	textout_line(out, "snapshot %s loaded into %s", day, cat.path);
	rc = 0;
	/* committed: the store remembers what was accepted, for its rebuilds;
	 * a store that cannot be written is said, the snapshot stands */
	for (i = 0; i < naccepted; i++) {
		mc_err record_err;

		if (accepting_record(&cat, job->store, job->args[accepted[i].arg], accepted[i].reason, out,
				     &record_err))
			textout_line(errors, "%s%s%s; a rebuild from the store will hold the file again",
				job->program ? job->program : "", job->program ? ": " : "",
				record_err.msg);
	}
out:
	summary_close(&sum, NULL, NULL);
	free(accepted);
	catalogue_close(&cat);
	if (rc && !existed) {
		mc_cleanup_remove(path);
		catalogue_remove(path);
	}
	return rc;
}
