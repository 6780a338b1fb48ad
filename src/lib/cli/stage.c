#include "cli/stage.h"
#include "base/paths.h"

#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Remove the registered files, then end by the signal as if uncaught. */
static void on_fatal_signal(int sig)
{
	mc_cleanup_run();
	signal(sig, SIG_DFL);
	raise(sig);
}

void stage_init(void)
{
	static const int fatal[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	signal(SIGXFSZ, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction old;

		/* a signal ignored by whoever started us stays ignored */
		if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(fatal[i], &sa, NULL);
	}
}

void stage_error(const char *program, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int stage_usage_error(const char *program, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s --help)\n", program);
	return MC_EXIT_USAGE;
}

int stage_version(const char *program)
{
	printf("%s %s\n", program, MODELCAT_VERSION);
	return MC_EXIT_OK;
}

int stage_colmap(const char *program, colmap *map)
{
	char dir[PATH_MAX], err[1024];

	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(map, dir, err, sizeof(err))) {
		stage_error(program, "%s", err);
		return -1;
	}
	return 0;
}

int stage_catalogue(const char *program, catalogue *cat, const char *db_option, int flags)
{
	char dir[PATH_MAX];

	paths_data_file(dir, sizeof(dir), "sql");
	if (catalogue_open(cat, paths_db(db_option), dir, flags)) {
		stage_error(program, "%s", cat->err);
		return -1;
	}
	return 0;
}

int stage_status(unsigned long quarantined)
{
	return quarantined ? MC_EXIT_QUARANTINE : MC_EXIT_OK;
}

int stage_begin_load(const char *program, catalogue *cat, const char *day, load **out)
{
	char dir[PATH_MAX], err[1024];
	char **names = NULL;
	size_t n;

	*out = NULL;
	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_precedence(dir, &names, &n, err, sizeof(err))) {
		stage_error(program, "%s", err);
		colmap_free_list(names);
		return -1;
	}
	if (load_begin(cat, out, day) || load_precedence(*out, names, n)) {
		stage_error(program, "%s", cat->err);
		load_abort(*out);
		*out = NULL;
		colmap_free_list(names);
		return -1;
	}
	colmap_free_list(names);
	return 0;
}

int stage_load_snapshot(const char *program, const char *db, const char *as_of,
			const colmap *map, char *const *args, int n, stage_load_fn *load_one)
{
	catalogue cat;
	load *ld = NULL;
	char day[11], err[2048], label[1024];
	unsigned long quarantined = 0;
	int i, existed, status = MC_EXIT_FAILURE;

	if (as_of && *as_of)
		mc_fmt(day, sizeof(day), "%s", as_of);
	else
		catalogue_today(day);
	existed = !access(paths_db(db), F_OK);
	if (!existed)
		mc_cleanup_add(paths_db(db));
	if (stage_catalogue(program, &cat, db, 0)) {
		mc_cleanup_remove(paths_db(db));
		if (!existed)
			catalogue_remove(paths_db(db));
		return MC_EXIT_FAILURE;
	}
	if (stage_begin_load(program, &cat, day, &ld))
		goto out;
	for (i = 0; i < n; i++) {
		ingest_ctx ctx = { ld, map, stderr };
		load_stats stats;

		if (load_one(&ctx, args[i], &stats, label, sizeof(label), err, sizeof(err))) {
			stage_error(program, "%s", err);
			stage_error(program, "nothing was written to the catalogue");
			load_abort(ld);
			goto out;
		}
		ingest_describe(label, &stats, stdout);
		if (!stats.same_content)
			quarantined += stats.quarantined;
	}
	if (load_commit(ld)) {
		stage_error(program, "%s", cat.err);
		stage_error(program, "nothing was written to the catalogue");
		goto out;
	}
	mc_cleanup_remove(paths_db(db));
	printf("snapshot %s loaded into %s\n", day, cat.path);
	status = stage_status(quarantined);
out:
	catalogue_close(&cat);
	if (status == MC_EXIT_FAILURE && !existed) {
		mc_cleanup_remove(paths_db(db));
		catalogue_remove(paths_db(db));
	}
	return status;
}

int stage_write_stdout(const char *program, const sbuf *out)
{
	if (fwrite(out->data, 1, out->len, stdout) != out->len || fflush(stdout)) {
		stage_error(program, "cannot write to standard output");
		return MC_EXIT_FAILURE;
	}
	return MC_EXIT_OK;
}
