/*
 * modelcat-reingest: rebuild the catalogue from every stored snapshot,
 * oldest first. The new catalogue is built beside the old one and renamed
 * over it only when complete, so a failure leaves the old one as it was.
 */
#include "ingest/ingest.h"
#include "store/naming.h"
#include "cli/stage.h"
#include "base/paths.h"
#include "store/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char program[] = "modelcat-reingest";

/* One stored export file. */
typedef struct stored {
	char date[11];                        /* snapshot date */
	char export_name[NAMING_EXPORT_MAX + 1]; /* export */
	char *path;                           /* file */
} stored;

static void usage(void)
{
	printf("usage: modelcat reingest [--db PATH] [--snapshots DIR] [--strict]\n"
	       "\n"
	       "Rebuilds the catalogue from every stored snapshot in DIR (default:\n"
	       "./snapshots if it exists, else the installed snapshots), oldest first.\n"
	       "DIR holds <export>/<YYYY-MM-DD>.csv.gz (or .csv, .zip); the files of one\n"
	       "date form one snapshot. When fetch stored several contents of an export\n"
	       "on one day (<date>T<time>Z-<sha>.csv.gz), the latest is used. The new\n"
	       "catalogue replaces the old one only when every snapshot has loaded.\n"
	       "Prints a line per export and a summary.\n"
	       "Rows quarantined in stored snapshots (reported when each was first\n"
	       "ingested) are quarantined again, counted in the summary and kept in the\n"
	       "quarantine table; they do not fail the rebuild unless --strict.\n"
	       "\n"
	       "  --db PATH         the catalogue (default $MODELCAT_DB, else ./modelcat.db)\n"
	       "  --snapshots DIR   the snapshot store\n"
	       "  --strict          exit 1 when any row was quarantined\n"
	       "  --help, --version\n"
	       "\n"
	       "Exit: 0 rebuilt; 1 rebuilt with rows quarantined (--strict only); 2 usage;\n"
	       "3 failure, the old catalogue unchanged.\n");
}

/* By date, then export, then file name: the last file of an export and
 * date is its latest content that day. */
static int stored_cmp(const void *a, const void *b)
{
	const stored *x = a, *y = b;
	int c = strcmp(x->date, y->date);

	if (!c)
		c = strcmp(x->export_name, y->export_name);
	return c ? c : strcmp(x->path, y->path);
}

/* Is name a stored snapshot: "<date>.csv", "<date>.csv.gz", "<date>.zip",
 * or one that fetch stored later the same day,
 * "<date>T<HHMMSS>Z-<sha12>.csv.gz"? Copies the date. */
static int snapshot_file(const char *name, char date[11])
{
	return naming_snapshot_file(name, date);
}

/* Keep only the last file of each export and date (sorted). */
static void keep_latest(stored *files, size_t *n)
{
	size_t i, kept = 0;

	for (i = 0; i < *n; i++) {
		if (i + 1 < *n && !strcmp(files[i].date, files[i + 1].date) &&
		    !strcmp(files[i].export_name, files[i + 1].export_name)) {
			free(files[i].path);
			continue;
		}
		files[kept++] = files[i];
	}
	*n = kept;
}

static int scan(const char *dir, stored **out, size_t *n)
{
	DIR *top = opendir(dir), *sub;
	struct dirent *e, *f;
	char path[PATH_MAX];

	*out = NULL;
	*n = 0;
	if (!top) {
		stage_error(program, "%s: cannot open the snapshot store: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(top))) {
		if (e->d_name[0] == '.' || !naming_export_valid(e->d_name))
			continue;
		mc_fmt(path, sizeof(path), "%s/%s", dir, e->d_name);
		sub = opendir(path);
		if (!sub)
			continue;
		while ((f = readdir(sub))) {
			stored *s;
			char date[11];

			if (!snapshot_file(f->d_name, date))
				continue;
			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			s = &(*out)[(*n)++];
			mc_fmt(s->date, sizeof(s->date), "%s", date);
			mc_fmt(s->export_name, sizeof(s->export_name), "%s", e->d_name);
			mc_fmt(path, sizeof(path), "%s/%s/%s", dir, e->d_name, f->d_name);
			s->path = xstrdup(path);
		}
		closedir(sub);
	}
	closedir(top);
	if (*n)
		qsort(*out, *n, sizeof(**out), stored_cmp);
	keep_latest(*out, n);
	return 0;
}

/*
 * May the rebuild replace path? Yes when there is no file, or an empty
 * one, or a SQLite database (a catalogue, damaged or not: the rebuild is
 * how a damaged one is recovered); no for any other file, which the
 * --db option may name by mistake.
 */
static int replaceable(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n == 0 || (n == (ssize_t)sizeof(head) && !memcmp(head, magic, sizeof(head)));
}

static const char *default_store(void)
{
	static char path[PATH_MAX];
	struct stat st;

	if (!stat("snapshots", &st) && S_ISDIR(st.st_mode))
		return "snapshots";
	paths_data_file(path, sizeof(path), "snapshots");
	return path;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "snapshots", required_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *snapshot_dir = NULL, *target;
	char tmp[PATH_MAX];
	mc_err err;
	stored *files = NULL;
	size_t nfiles = 0, i, j, snapshots = 0;
	unsigned long quarantined = 0, loaded = 0;
	catalogue cat;
	colmap map;
	int opt, status = MC_EXIT_FAILURE, opened = 0, strict = 0;

	stage_init();
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'd': db = optarg; break;
		case 's': snapshot_dir = optarg; break;
		case 'S': strict = 1; break;
		case 'h': usage(); return MC_EXIT_OK;
		case 'V': return stage_version(program);
		default: return stage_usage_error(program, "unknown option");
		}
	}
	if (optind < argc)
		return stage_usage_error(program, "unexpected argument '%s'", argv[optind]);
	if (!snapshot_dir)
		snapshot_dir = default_store();
	if (scan(snapshot_dir, &files, &nfiles))
		return MC_EXIT_FAILURE;
	if (!nfiles) {
		stage_error(program, "%s: no stored snapshots (<export>/<YYYY-MM-DD>.csv.gz)",
			    snapshot_dir);
		free(files);
		return MC_EXIT_FAILURE;
	}
	if (stage_colmap(program, &map)) {
		free(files);
		return MC_EXIT_FAILURE;
	}
	target = paths_db(db);
	if (!replaceable(target)) {
		stage_error(program, "%s: not a SQLite database; not replaced (move it away to"
			    " rebuild the catalogue there)", target);
		for (i = 0; i < nfiles; i++)
			free(files[i].path);
		free(files);
		colmap_release(&map);
		return MC_EXIT_FAILURE;
	}
	/* a rebuild that was killed left its copy: it goes first */
	mc_fmt(tmp, sizeof(tmp), "%s.reingest-", target);
	mc_remove_stale(tmp);
	mc_fmt(tmp, sizeof(tmp), "%s.reingest-%ld", target, (long)getpid());
	catalogue_remove(tmp);
	mc_cleanup_add(tmp);
	if (stage_catalogue(program, &cat, tmp, 0))
		goto out;
	opened = 1;
	for (i = 0; i < nfiles; i = j) {
		load *ld = NULL;

		if (stage_begin_load(program, &cat, files[i].date, &ld))
			goto out;
		printf("snapshot %s\n", files[i].date);
		for (j = i; j < nfiles && !strcmp(files[j].date, files[i].date); j++) {
			ingest_ctx ctx = { ld, &map, stderr };
			load_stats stats;

			if (ingest_file(&ctx, files[j].export_name, files[j].path, &stats,
					&err)) {
				stage_error(program, "%s", err.msg);
				load_abort(ld);
				goto out;
			}
			printf("  ");
			ingest_describe(files[j].export_name, &stats, stdout);
			if (!stats.same_content) {
				quarantined += stats.quarantined;
				loaded += stats.loaded;
			}
		}
		if (load_commit(ld, &err)) {
			stage_error(program, "%s", err.msg);
			goto out;
		}
		snapshots++;
	}
	catalogue_close(&cat);
	opened = 0;
	if (rename(tmp, target)) {
		stage_error(program, "cannot replace %s: %s", target, strerror(errno));
		goto out;
	}
	printf("rebuilt %s from %zu snapshots (%zu export files): %lu rows loaded,"
	       " %lu quarantined%s\n", target, snapshots, nfiles, loaded, quarantined,
	       quarantined ? " (listed in the quarantine table)" : "");
	status = strict ? stage_status(quarantined) : MC_EXIT_OK;
out:
	if (opened)
		catalogue_close(&cat);
	mc_cleanup_remove(tmp);
	if (status == MC_EXIT_FAILURE) {
		catalogue_remove(tmp);
		stage_error(program, "the catalogue %s was left as it was", target);
	}
	for (i = 0; i < nfiles; i++)
		free(files[i].path);
	free(files);
	colmap_release(&map);
	return status;
}
