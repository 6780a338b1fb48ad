/*
 * modelcat-fetch: download each configured export into the snapshot store.
 * A download is stored only when it is complete, valid and new; the same
 * content again stores nothing; a failure leaves the store as it was.
 */
#include "store/http.h"
#include "store/naming.h"
#include "base/paths.h"
#include "store/sources.h"
#include "cli/stage.h"
#include "store/store.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char program[] = "modelcat-fetch";

/* Exit status when some sources failed and others were stored. */

/* What happened to one source. */
enum fetch_result {
	FETCH_STORED,       /* a new snapshot was stored */
	FETCH_UNCHANGED,    /* 304, or the same content as the latest snapshot */
	FETCH_FAILED        /* nothing stored */
};

/* The progress bar of one download (drawn only on a terminal). */
typedef struct progress {
	const char *name;          /* the source */
	int tty;                   /* stderr is a terminal */
	int drawn;                 /* a bar is on the screen */
	struct timespec last;      /* when it was last drawn */
} progress;

static void usage(void)
{
	printf("usage: modelcat fetch [--db PATH] [--config FILE] [--snapshots DIR]\n"
	       "                      [--source NAME[=URL]]... [options]\n"
	       "\n"
	       "Downloads each source into the snapshot store DIR and records it in the\n"
	       "store's MANIFEST.tsv and the catalogue (table fetch_manifest). A body is\n"
	       "stored only when it is complete and an export the column map knows (CSV,\n"
	       "or gzip or zip holding CSV), gzip-compressed, as DIR/NAME/<date>.csv.gz\n"
	       "(a later different content of the same day: <date>T<time>Z-<sha>.csv.gz).\n"
	       "Requests are conditional on the last validators (ETag, Last-Modified):\n"
	       "a 304, or the same content as the latest snapshot, stores nothing.\n"
	       "Prints one line per source; a progress bar on stderr when it is a\n"
	       "terminal. See docs/store.md.\n"
	       "\n"
	       "  --db PATH              the catalogue (default $MODELCAT_DB, else ./modelcat.db)\n"
	       "  --config FILE          the sources (default: pipelines/sources.tsv)\n"
	       "  --snapshots DIR        the snapshot store (default: ./snapshots)\n"
	       "  --source NAME          fetch this configured source (repeatable; default:\n"
	       "                         all of them)\n"
	       "  --source NAME=URL      fetch URL as source NAME (http://, https://,\n"
	       "                         file:// or a local file)\n"
	       "  --max-size SIZE        refuse bodies larger than SIZE bytes, also once\n"
	       "                         decompressed (suffix k, M or G; default 128M)\n"
	       "  --retries N            retries on timeouts, connection errors, 408, 429\n"
	       "                         and 5xx, with exponential backoff (default 3)\n"
	       "  --timeout SECONDS      limit on each attempt (default 600)\n"
	       "  --connect-timeout SECONDS  limit on connecting (default 30)\n"
	       "  --help, --version\n"
	       "\n"
	       "The first retry waits about $MODELCAT_RETRY_BASE_MS milliseconds (default\n"
	       "1000), doubling each time, or as long as the server's Retry-After says.\n"
	       "\n"
	       "Exit: 0 every source fetched (stored or unchanged); 2 usage; 3 failure,\n"
	       "nothing stored; 4 some sources failed (nothing stored for them), others\n"
	       "were stored.\n");
}

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
	stage_error(program, "%s: %s; retrying in %.1f s (attempt %d of %d)", p->name, why,
		    (double)delay_ms / 1000.0, next_attempt, attempts);
}

/* Parse a --max-size: a size (mc_parse_size) from 1 byte to 1 TiB; 0 or -1. */
static int parse_size(const char *text, unsigned long long *out)
{
	unsigned long long value;

	if (mc_parse_size(text, &value) || !value || value > 1ULL << 40)
		return -1;
	*out = value;
	return 0;
}

/* Parse a whole number of seconds 1..86400 (or 0..limit for counts). */
static int parse_count(const char *text, long min, long max, long *out)
{
	char *end;
	long value;

	errno = 0;
	value = strtol(text, &end, 10);
	if (errno || end == text || *end || value < min || value > max)
		return -1;
	*out = value;
	return 0;
}

static const char *format_word(enum input_format format)
{
	switch (format) {
	case INPUT_GZIP: return "gzip";
	case INPUT_ZIP: return "zip";
	default: return "csv";
	}
}

/* Does the body's format match what the source declares? */
static int format_matches(enum source_format want, enum input_format got)
{
	switch (want) {
	case SOURCE_CSV: return got == INPUT_PLAIN;
	case SOURCE_GZIP: return got == INPUT_GZIP;
	case SOURCE_ZIP: return got == INPUT_ZIP;
	default: return 1;
	}
}

static const char *format_phrase(enum input_format format)
{
	switch (format) {
	case INPUT_GZIP: return "a gzip file";
	case INPUT_ZIP: return "a zip archive";
	default: return "plain CSV";
	}
}

/* Fetch one source into the store; prints its summary line (stdout) or
 * its error (stderr). */
static enum fetch_result fetch_one(store *st, const source *src, const colmap *map,
				   const http_request *defaults)
{
	const store_entry *last;
	http_request req = *defaults;
	http_response resp;
	store_content content;
	store_entry note;
	progress bar;
	char err[2048], fetched_at[21], latest_sha[65];
	mc_err herr;
	char *latest = NULL, *file = NULL;
	unsigned long long stored_bytes = 0;
	enum fetch_result result = FETCH_FAILED;
	time_t when;
	int rc;

	memset(&bar, 0, sizeof(bar));
	bar.name = src->name;
	bar.tty = isatty(STDERR_FILENO);
	http_response_init(&resp);
	memset(&note, 0, sizeof(note));
	last = store_last_fetch(st, src->name, src->url);
	req.url = src->url;
	req.etag = last ? last->etag : NULL;
	req.last_modified = last ? last->last_modified : NULL;
	req.progress = progress_draw;
	req.on_retry = progress_retry;
	req.ctx = &bar;
	rc = http_get(&req, &resp, &herr);
	progress_clear(&bar);
	when = time(NULL);
	store_format_time(when, fetched_at);
	note.fetched_at = fetched_at;
	note.source = src->name;
	note.url = src->url;
	note.status = resp.status;
	note.etag = resp.etag ? resp.etag : "";
	note.last_modified = resp.last_modified ? resp.last_modified : "";
	note.download_bytes = resp.wire_bytes;
	if (rc == HTTP_FAILED) {
		stage_error(program, "%s: %s: %s; nothing stored", src->name, src->url, herr.msg);
		goto out;
	}
	if (rc == HTTP_NOT_MODIFIED) {
		/* the content is the one the validators came with */
		note.event = "not-modified";
		note.file = last->file;
		note.sha256 = last->sha256;
		note.format = last->format;
		note.bytes = last->bytes;
		note.stored_bytes = last->stored_bytes;
		note.rows = last->rows;
		if (!resp.etag)
			note.etag = last->etag;
		if (!resp.last_modified)
			note.last_modified = last->last_modified;
		latest = xstrdup(last->file);   /* last is not valid after store_note() */
		if (store_note(st, &note, err, sizeof(err))) {
			stage_error(program, "%s: %s", src->name, err);
			goto out;
		}
		printf("%s: not modified (HTTP 304); nothing stored; latest %s/%s\n", src->name,
		       store_dir(st), latest);
		result = FETCH_UNCHANGED;
		goto out;
	}
	if (store_examine(resp.body.data, resp.body.len, src->url, map, defaults->max_bytes,
			  &content, err, sizeof(err))) {
		stage_error(program, "%s: %s; nothing stored", src->name, err);
		goto out;
	}
	if (!format_matches(src->format, content.format)) {
		stage_error(program, "%s: %s: expected %s, got %s (see the source's format in"
			    " sources.tsv); nothing stored", src->name, src->url,
			    src->format == SOURCE_GZIP ? "a gzip file" :
			    src->format == SOURCE_ZIP ? "a zip archive" : "plain CSV",
			    format_phrase(content.format));
		goto out;
	}
	note.sha256 = content.sha256;
	note.format = format_word(content.format);
	note.bytes = content.bytes;
	note.rows = content.rows;
	rc = store_latest(st, src->name, &latest, latest_sha, err, sizeof(err));
	if (rc < 0) {
		stage_error(program, "%s: %s; nothing stored", src->name, err);
		goto out;
	}
	if (rc == 0 && !strcmp(latest_sha, content.sha256)) {
		char path[PATH_MAX];
		struct stat sb;

		mc_fmt(path, sizeof(path), "%s/%s", store_dir(st), latest);
		note.event = "seen";
		note.file = latest;
		note.stored_bytes = stat(path, &sb) ? 0 : (unsigned long long)sb.st_size;
		if (store_note(st, &note, err, sizeof(err))) {
			stage_error(program, "%s: %s", src->name, err);
			goto out;
		}
		printf("%s: unchanged, same content as %s (sha256 %.12s); nothing stored\n",
		       src->name, path, content.sha256);
		result = FETCH_UNCHANGED;
		goto out;
	}
	if (store_put(st, src->name, resp.body.data, resp.body.len, &content, when, &file,
		      &stored_bytes, err, sizeof(err))) {
		stage_error(program, "%s: %s; nothing stored", src->name, err);
		goto out;
	}
	note.event = "stored";
	note.file = file;
	note.stored_bytes = stored_bytes;
	if (store_note(st, &note, err, sizeof(err))) {
		/* the snapshot is in place: a file without a manifest line is
		 * still a valid snapshot (its hash is computed when needed) */
		stage_error(program, "%s: %s (the snapshot %s/%s is stored)", src->name, err,
			    store_dir(st), file);
	}
	printf("%s: stored %s/%s (%lu rows, %llu bytes, sha256 %.12s%s)\n", src->name,
	       store_dir(st), file, content.rows, content.bytes, content.sha256,
	       resp.attempts > 1 ? ", after retries" : "");
	result = FETCH_STORED;
out:
	free(latest);
	free(file);
	http_response_release(&resp);
	fflush(stdout);
	return result;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "snapshots", required_argument, NULL, 's' },
		{ "source", required_argument, NULL, 'S' },
		{ "max-size", required_argument, NULL, 'm' },
		{ "retries", required_argument, NULL, 'r' },
		{ "timeout", required_argument, NULL, 't' },
		{ "connect-timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *config = NULL, *dir = "snapshots", *env;
	char **picked = NULL, path[PATH_MAX], err[2048];
	size_t npicked = 0, i, j;
	source_list configured, chosen;
	http_request defaults;
	store *st = NULL;
	catalogue cat;
	mc_err cerr;
	colmap map;
	unsigned long stored = 0, failed = 0, added;
	int opt, status = MC_EXIT_FAILURE, need_config = 0, have_map = 0, have_cat = 0;
	int http_ready = 0, existed;
	long value;

	stage_init();
	sources_init(&configured);
	sources_init(&chosen);
	http_request_init(&defaults);
	env = getenv("MODELCAT_RETRY_BASE_MS");
	if (env && *env && !parse_count(env, 0, 600000, &value))
		defaults.retry_base_ms = value;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': db = optarg; break;
		case 'c': config = optarg; break;
		case 's': dir = optarg; break;
		case 'S':
			picked = xrealloc(picked, (npicked + 1) * sizeof(*picked));
			picked[npicked++] = optarg;
			break;
		case 'm':
			if (parse_size(optarg, &defaults.max_bytes)) {
				status = stage_usage_error(program, "--max-size '%s' is not a size"
							   " (bytes, or with k, M or G)", optarg);
				goto out;
			}
			break;
		case 'r':
			if (parse_count(optarg, 0, 10, &value)) {
				status = stage_usage_error(program, "--retries '%s' is not a number"
							   " from 0 to 10", optarg);
				goto out;
			}
			defaults.attempts = (int)value + 1;
			break;
		case 't':
		case 'T':
			if (parse_count(optarg, 1, 86400, &value)) {
				status = stage_usage_error(program, "--%s '%s' is not a number of"
							   " seconds", opt == 't' ? "timeout" :
							   "connect-timeout", optarg);
				goto out;
			}
			if (opt == 't')
				defaults.timeout_ms = value * 1000;
			else
				defaults.connect_timeout_ms = value * 1000;
			break;
		case 'h': usage(); status = MC_EXIT_OK; goto out;
		case 'V': status = stage_version(program); goto out;
		default: status = stage_usage_error(program, "unknown option"); goto out;
		}
	}
	if (optind < argc) {
		status = stage_usage_error(program, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	/* the sources: configured ones by name, ad-hoc ones as NAME=URL */
	for (i = 0; i < npicked; i++)
		if (!strchr(picked[i], '='))
			need_config = 1;
	if (config || !npicked || need_config) {
		if (!config) {
			paths_data_file(path, sizeof(path), "pipelines/sources.tsv");
			config = path;
		}
		if (sources_load(&configured, config, err, sizeof(err))) {
			stage_error(program, "%s", err);
			goto out;
		}
	}
	if (!npicked) {
		for (i = 0; i < configured.n; i++)
			sources_add(&chosen, configured.items[i].name, configured.items[i].url,
				    configured.items[i].format);
		if (!chosen.n) {
			stage_error(program, "%s: no sources configured", config);
			goto out;
		}
	}
	for (i = 0; i < npicked; i++) {
		char *eq = strchr(picked[i], '='), *url = NULL;
		const source *known;

		if (eq)
			*eq = '\0';
		if (!naming_export_valid(picked[i])) {
			status = stage_usage_error(program, "--source: '%s' is not a valid name"
						   " (letters, digits, _ and -)", picked[i]);
			goto out;
		}
		for (j = 0; j < chosen.n; j++) {
			if (!strcmp(chosen.items[j].name, picked[i])) {
				status = stage_usage_error(program, "--source %s given twice",
							   picked[i]);
				goto out;
			}
		}
		if (eq) {
			if (sources_url(eq + 1, &url, err, sizeof(err))) {
				status = stage_usage_error(program, "--source %s: %s", picked[i], err);
				goto out;
			}
			sources_add(&chosen, picked[i], url, sources_guess_format(url));
			free(url);
			continue;
		}
		known = sources_find(&configured, picked[i]);
		if (!known) {
			status = stage_usage_error(program, "--source %s: no such source in %s"
						   " (write NAME=URL for another)", picked[i],
						   config);
			goto out;
		}
		sources_add(&chosen, known->name, known->url, known->format);
	}
	if (stage_colmap(program, &map))
		goto out;
	have_map = 1;
	if (store_open(&st, dir, err, sizeof(err))) {
		stage_error(program, "%s", err);
		goto out;
	}
	existed = !access(paths_db(db), F_OK);
	if (stage_catalogue(program, &cat, db, 0))
		goto out;
	have_cat = 1;
	if (http_global_init()) {
		stage_error(program, "cannot initialise libcurl");
		goto out;
	}
	http_ready = 1;
	for (i = 0; i < chosen.n; i++) {
		switch (fetch_one(st, &chosen.items[i], &map, &defaults)) {
		case FETCH_STORED: stored++; break;
		case FETCH_UNCHANGED: break;
		case FETCH_FAILED: failed++; break;
		}
	}
	if (store_sync_catalogue(st, &cat, &added, &cerr)) {
		stage_error(program, "%s", cerr.msg);
		failed++;
	}
	status = !failed ? MC_EXIT_OK : stored ? MC_EXIT_PARTIAL : MC_EXIT_FAILURE;
	if (status == MC_EXIT_FAILURE && !existed && !stored) {
		catalogue_close(&cat);
		have_cat = 0;
		catalogue_remove(paths_db(db));
	}
out:
	if (http_ready)
		http_global_cleanup();
	if (have_cat)
		catalogue_close(&cat);
	store_free(st);
	if (have_map)
		colmap_release(&map);
	sources_release(&configured);
	sources_release(&chosen);
	free(picked);
	return status;
}
