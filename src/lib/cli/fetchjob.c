#include "cli/fetchjob.h"
#include "cli/stage.h"
#include "cli/writelock.h"
#include "base/paths.h"
#include "base/textout.h"
#include "store/fetch.h"
#include "store/naming.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The progress bar of one download (drawn only on a terminal). */
typedef struct progress {
	const char *program;       /* for the retry messages */
	const char *name;          /* the source */
	int tty;                   /* stderr is a terminal */
	int drawn;                 /* a bar is on the screen */
	struct timespec last;      /* when it was last drawn */
} progress;

/* What one fetch run works with. */
typedef struct fetch_run {
	const char *program;       /* for messages */
	source_list configured;    /* the sources file's sources */
	source_list chosen;        /* the sources to fetch, in order */
	http_request defaults;     /* the request settings */
	colmap map;                /* to examine bodies */
	store *st;                 /* the open store */
	catalogue cat;             /* the catalogue */
	writelock lock;            /* the catalogue's writer lock */
	int have_map, have_cat;    /* map and cat are open */
} fetch_run;

void fetchjob_init(fetch_settings *s)
{
	http_request req;

	memset(s, 0, sizeof(*s));
	http_request_init(&req);
	s->snapshots = "snapshots";
	s->max_size = req.max_bytes;
	s->retries = req.attempts - 1;
	s->timeout = req.timeout_ms / 1000;
	s->connect_timeout = req.connect_timeout_ms / 1000;
}

void fetchjob_options(fetch_settings *s, opt_spec table[FETCHJOB_OPTIONS + 1])
{
	const opt_spec options[FETCHJOB_OPTIONS + 1] = {
		{ .name = "config", .arg = "FILE", .type = OPT_STRING, .dest = &s->config,
		  .help = "the sources (default: pipelines/sources.tsv)" },
		{ .name = "snapshots", .arg = "DIR", .type = OPT_STRING, .dest = &s->snapshots,
		  .help = "the snapshot store (default: ./snapshots)" },
		{ .name = "source", .arg = "NAME[=URL]", .type = OPT_LIST, .dest = &s->sources,
		  .help = "fetch this configured source, or URL as source NAME\n"
			  "(http://, https://, file:// or a local file);\n"
			  "repeatable (default: all configured sources)" },
		{ .name = "max-size", .arg = "SIZE", .type = OPT_SIZE, .dest = &s->max_size,
		  .min = 1, .max = 1LL << 40,
		  .help = "refuse bodies larger than SIZE bytes, also once\n"
			  "decompressed (suffix k, M or G; default 128M)" },
		{ .name = "retries", .arg = "N", .type = OPT_INT, .dest = &s->retries,
		  .min = 0, .max = 10,
		  .help = "retries on timeouts, connection errors, 408, 429\n"
			  "and 5xx, with exponential backoff (default 3)" },
		{ .name = "timeout", .arg = "SECONDS", .type = OPT_INT, .dest = &s->timeout,
		  .min = 1, .max = 86400, .what = "a number of seconds",
		  .help = "limit on each attempt (default 600)" },
		{ .name = "connect-timeout", .arg = "SECONDS", .type = OPT_INT,
		  .dest = &s->connect_timeout, .min = 1, .max = 86400,
		  .what = "a number of seconds", .help = "limit on connecting (default 30)" },
		OPT_DONE
	};

	memcpy(table, options, sizeof(options));
}

/* ---- the progress bar ---- */

static double elapsed_ms(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1000.0 +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

/* "2.1 MB" */
static void human_size(unsigned long long bytes, char *buf, size_t len)
{
	if (bytes >= 1000000ULL)
		mc_fmt(buf, len, "%.1f MB", (double)bytes / 1e6);
	else if (bytes >= 1000ULL)
		mc_fmt(buf, len, "%.1f kB", (double)bytes / 1e3);
	else
		mc_fmt(buf, len, "%llu B", bytes);
}

static void progress_draw(void *ctx, unsigned long long now, unsigned long long total)
{
	progress *p = ctx;
	struct timespec ts;
	char done[32], all[32], bar[31];
	size_t fill, i;

	if (!p->tty)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (p->drawn && elapsed_ms(&p->last, &ts) < 100.0 && !(total && now >= total))
		return;
	p->last = ts;
	p->drawn = 1;
	human_size(now, done, sizeof(done));
	if (!total) {
		fprintf(stderr, "\r%-24.24s %12s", p->name, done);
		return;
	}
	human_size(total, all, sizeof(all));
	fill = now >= total ? 30 : (size_t)(now * 30 / total);
	for (i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	fprintf(stderr, "\r%-24.24s [%s] %3d%% %s of %s   ", p->name, bar,
		(int)(now >= total ? 100 : now * 100 / total), done, all);
}

static void progress_clear(progress *p)
{
	if (p->drawn)
		fprintf(stderr, "\r%79s\r", "");
	p->drawn = 0;
}

static void progress_retry(void *ctx, const char *why, int next_attempt, int attempts,
			   long delay_ms)
{
	progress *p = ctx;

	if (!p->tty)
		return;
	progress_clear(p);
	stage_error(p->program, "%s: %s; retrying in %.1f s (attempt %d of %d)", p->name, why,
		    (double)delay_ms / 1000.0, next_attempt, attempts);
}

/* ---- the run ---- */

/* Add the source --source text names to r->chosen: MC_EXIT_OK, or
 * MC_EXIT_USAGE (message printed). */
static int choose(fetch_run *r, const char *text, const char *config)
{
	const char *eq = strchr(text, '=');
	char *name = eq ? xstrndup(text, (size_t)(eq - text)) : xstrdup(text), *url = NULL;
	const source *known;
	size_t j;
	mc_err err;
	int status = MC_EXIT_USAGE;

	if (!naming_export_valid(name)) {
		stage_usage_error(r->program, "--source: '%s' is not a valid name"
				  " (letters, digits, _ and -)", name);
		goto out;
	}
	for (j = 0; j < r->chosen.n; j++) {
		if (!strcmp(r->chosen.items[j].name, name)) {
			stage_usage_error(r->program, "--source %s given twice", name);
			goto out;
		}
	}
	if (eq) {
		if (sources_url(eq + 1, &url, &err)) {
			stage_usage_error(r->program, "--source %s: %s", name, err.msg);
			goto out;
		}
		sources_add(&r->chosen, name, url, sources_guess_format(url));
		free(url);
		status = MC_EXIT_OK;
		goto out;
	}
	known = sources_find(&r->configured, name);
	if (!known) {
		stage_usage_error(r->program, "--source %s: no such source in %s"
				  " (write NAME=URL for another)", name, config);
		goto out;
	}
	sources_add(&r->chosen, known->name, known->url, known->format);
	status = MC_EXIT_OK;
out:
	free(name);
	return status;
}

/* The sources to fetch: configured ones by name, ad-hoc ones as NAME=URL.
 * The exit status so far: MC_EXIT_OK, USAGE or FAILURE (printed). */
static int choose_sources(fetch_run *r, const fetch_settings *s)
{
	const char *config = s->config;
	char path[PATH_MAX];
	int need_config = !s->sources.n, status;
	size_t i;
	mc_err err;

	for (i = 0; i < s->sources.n; i++)
		if (!strchr(s->sources.items[i], '='))
			need_config = 1;
	if (config || need_config) {
		if (!config) {
			paths_data_file(path, sizeof(path), "pipelines/sources.tsv");
			config = path;
		}
		if (sources_load(&r->configured, config, &err)) {
			stage_error(r->program, "%s", err.msg);
			return MC_EXIT_FAILURE;
		}
	}
	if (!s->sources.n) {
		for (i = 0; i < r->configured.n; i++)
			sources_add(&r->chosen, r->configured.items[i].name,
				    r->configured.items[i].url, r->configured.items[i].format);
		if (!r->chosen.n) {
			stage_error(r->program, "%s: no sources configured", config);
			return MC_EXIT_FAILURE;
		}
	}
	for (i = 0; i < s->sources.n; i++)
		if ((status = choose(r, s->sources.items[i], config)))
			return status;
	return MC_EXIT_OK;
}

/* Fetch every chosen source; the counts of stored and failed ones. */
static void fetch_all(fetch_run *r, unsigned long *stored, unsigned long *failed)
{
	fetch_outcome out;
	progress bar;
	mc_err err;
	size_t i;

	for (i = 0; i < r->chosen.n; i++) {
		memset(&bar, 0, sizeof(bar));
		bar.program = r->program;
		bar.name = r->chosen.items[i].name;
		bar.tty = isatty(STDERR_FILENO);
		r->defaults.progress = progress_draw;
		r->defaults.on_retry = progress_retry;
		r->defaults.ctx = &bar;
		if (fetch_source(r->st, &r->chosen.items[i], &r->map, &r->defaults, &out, &err)) {
			progress_clear(&bar);
			stage_error(r->program, "%s", err.msg);
			++*failed;
		} else {
			progress_clear(&bar);
			if (err.msg[0])
				stage_error(r->program, "%s", err.msg);
			textout_line(stdout, "%s", out.summary);
			*stored += out.result == FETCH_STORED;
		}
		fflush(stdout);
	}
}

/* Open what the run needs and fetch; the exit status. */
static int fetch_into(fetch_run *r, const fetch_settings *s, const char *db)
{
	unsigned long stored = 0, failed = 0, added;
	int existed, status;
	mc_err err;

	/* a --db that cannot be a catalogue fails before the store is made */
	if (catalogue_check_path(db, &err)) {
		stage_error(r->program, "%s", err.msg);
		return MC_EXIT_FAILURE;
	}
	if (stage_colmap(r->program, &r->map))
		return MC_EXIT_FAILURE;
	r->have_map = 1;
	if (store_open(&r->st, s->snapshots, &err)) {
		stage_error(r->program, "%s", err.msg);
		return MC_EXIT_FAILURE;
	}
	/* the manifest is recorded in the catalogue (and a new one made):
	 * under the writer lock, taken after the store's own lock, so that
	 * a second fetch is told the store is busy */
	status = writelock_stage(&r->lock, r->program, db, s->wait);
	if (status)
		return status;
	existed = !access(db, F_OK);
	if (stage_catalogue(r->program, &r->cat, db, 0))
		return MC_EXIT_FAILURE;
	r->have_cat = 1;
	if (http_global_init()) {
		stage_error(r->program, "cannot initialise libcurl");
		return MC_EXIT_FAILURE;
	}
	fetch_all(r, &stored, &failed);
	http_global_cleanup();
	if (store_sync_catalogue(r->st, &r->cat, &added, &err)) {
		stage_error(r->program, "%s", err.msg);
		failed++;
	}
	status = !failed ? MC_EXIT_OK : stored ? MC_EXIT_PARTIAL : MC_EXIT_FAILURE;
	if (status == MC_EXIT_FAILURE && !existed && !stored) {
		catalogue_close(&r->cat);
		r->have_cat = 0;
		catalogue_remove(db);
	}
	return status;
}

int fetchjob_run(const char *program, const fetch_settings *s, const char *db)
{
	const char *env = getenv("MODELCAT_RETRY_BASE_MS");
	fetch_run r;
	char *end;
	long value;
	int status;

	memset(&r, 0, sizeof(r));
	r.lock.fd = -1;
	r.program = program;
	sources_init(&r.configured);
	sources_init(&r.chosen);
	http_request_init(&r.defaults);
	errno = 0;
	value = env && *env ? strtol(env, &end, 10) : -1;
	if (env && *env && !errno && !*end && value >= 0 && value <= 600000)
		r.defaults.retry_base_ms = value;
	r.defaults.max_bytes = s->max_size;
	r.defaults.attempts = (int)s->retries + 1;
	r.defaults.timeout_ms = s->timeout * 1000;
	r.defaults.connect_timeout_ms = s->connect_timeout * 1000;
	status = choose_sources(&r, s);
	if (status == MC_EXIT_OK)
		status = fetch_into(&r, s, db);
	if (r.have_cat)
		catalogue_close(&r.cat);
	writelock_release(&r.lock);
	store_free(r.st);
	if (r.have_map)
		colmap_release(&r.map);
	sources_release(&r.configured);
	sources_release(&r.chosen);
	return status;
}
