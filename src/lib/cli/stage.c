#include "cli/stage.h"
#include "base/sbuf.h"
#include "base/textout.h"
#include "base/cleanup.h"
#include "base/version.h"
#include "cli/writelock.h"
#include "base/day.h"
#include "base/paths.h"
#include "base/unicode.h"
#include "db/catalogue.h"

#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Remove the registered files, then end by the signal as if uncaught. */
static void on_fatal_signal(int sig)
{
	mc_cleanup_run();
	signal(sig, SIG_DFL);
	raise(sig);
}

void stage_catch_signals(void (*handler)(int))
{
	static const int fatal[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	/* the others wait while one is handled: its cleanup runs once */
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction old;

		/* a signal ignored by whoever started us stays ignored */
		if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(fatal[i], &sa, NULL);
	}
}

void stage_init(void)
{
	catalogue_process_init();
	signal(SIGXFSZ, SIG_IGN);
	stage_catch_signals(on_fatal_signal);
}

void stage_error(const char *program, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	textout_vline(stderr, program, fmt, ap);
	va_end(ap);
}

int stage_usage_error(const char *program, const char *fmt, ...)
{
	sbuf msg;
	va_list ap;

	sbuf_init(&msg);
	va_start(ap, fmt);
	sbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	textout_line(stderr, "%s: %s (see %s --help)", program, msg.data, program);
	sbuf_release(&msg);
	return MC_EXIT_USAGE;
}

int stage_version(const char *program)
{
	printf("%s %s\n", program, MODELCAT_VERSION);
	return MC_EXIT_OK;
}

int stage_colmap(const char *program, colmap *map)
{
	char dir[PATH_MAX];
	mc_err err;

	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(map, dir, &err)) {
		stage_error(program, "%s", err.msg);
		return -1;
	}
	return 0;
}

int stage_catalogue(const char *program, catalogue *cat, const char *db, int flags)
{
	char dir[PATH_MAX];
	mc_err err;

	paths_data_file(dir, sizeof(dir), "sql");
	if (catalogue_open(cat, db, dir, flags, &err)) {
		stage_error(program, "%s", err.msg);
		return -1;
	}
	return 0;
}

int stage_status(unsigned long quarantined)
{
	return quarantined ? MC_EXIT_QUARANTINE : MC_EXIT_OK;
}

int stage_begin_load(const char *program, catalogue *cat, const char *day, int accept,
		     load **out)
{
	mc_err err;

	if (snapload_begin(cat, day, out, &err) || snapload_guards(*out, accept, &err)) {
		stage_error(program, "%s", err.msg);
		if (*out)
			load_abort(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

int stage_check_as_of(const char *program, const char *as_of, int allow_future)
{
	char tomorrow[11];

	if (!as_of[0] || allow_future)
		return 0;
	day_tomorrow(tomorrow);
	if (strcmp(as_of, tomorrow) <= 0)
		return 0;
	stage_error(program, "--as-of %s is after tomorrow (UTC); a snapshot dated in the future"
		    " would refuse every later one (--allow-future to load it anyway)", as_of);
	return MC_EXIT_USAGE;
}

int stage_load_snapshot(const char *program, const char *db, const char *as_of, long wait,
			const colmap *map, char *const *args, int n, snapload_fn *load_one,
			int accept, const char *const *accept_exports, size_t naccept,
			const char *store)
{
	snapload_job job = { db, as_of, map, args, n, load_one, accept, accept_exports, naccept,
			     program, store };
	snapload_result result;
	writelock lock;
	mc_err err;
	int status = writelock_stage(&lock, program, db, wait);

	if (status)
		return status;
	if (snapload_run(&job, stdout, stderr, &result, &err)) {
		stage_error(program, "%s", err.msg);
		if (result.aborted)
			stage_error(program, "nothing was written to the catalogue");
		status = MC_EXIT_FAILURE;
	} else {
		status = stage_status(result.quarantined + result.held);
	}
	writelock_release(&lock);
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

int stage_write_format(const char *program, const char *format, const sbuf *out)
{
	sbuf text;
	int status;

	if (strcmp(format, "text"))
		return stage_write_stdout(program, out);
	sbuf_init(&text);
	textout_text(&text, out->data ? out->data : "", out->len);
	status = stage_write_stdout(program, &text);
	sbuf_release(&text);
	return status;
}

char *stage_model_name(const char *arg)
{
	sbuf name;

	sbuf_init(&name);
	unicode_canonical(arg, strlen(arg), &name);
	return sbuf_detach(&name, NULL);
}
