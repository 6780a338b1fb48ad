/*
 * Unit tests of the snapshot store and the sources file: snapshot names,
 * examination of bodies, naming of several contents in one day, the
 * manifest (escaping, a partial last line left by a crash), the listing
 * of a store's folders, and pipelines/sources.tsv parsing.
 */
/* zlib's next_in is then a pointer to const */
#define ZLIB_CONST
#include "unit.h"
#include "store/naming.h"
#include "values/colmap.h"
#include "store/sources.h"
#include "store/listing.h"
#include "store/store.h"
#include "base/util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static char scratch[256];

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void remove_tree(const char *dir)
{
	char cmd[512];

	mc_fmt(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

static void test_names(void)
{
	static const struct {
		const char *name;   /* file name */
		int ok;             /* a snapshot file? */
	} cases[] = {
		{ "2024-07-16.csv.gz", 1 },
		{ "2024-07-16.csv", 1 },
		{ "2024-07-16.zip", 1 },
		{ "2024-07-16T010203Z-0123456789ab.csv.gz", 1 },
		{ "2024-02-30.csv.gz", 0 },
		{ "2024-07-16T010203Z-0123456789AB.csv.gz", 0 },
		{ "2024-07-16T010203Z-0123456789a.csv.gz", 0 },
		{ "2024-07-16T0102Z-0123456789ab.csv.gz", 0 },
		{ "2024-07-16.gz", 0 },
		{ "notes.csv.gz", 0 },
		{ ".tmp-123-abcdef", 0 },
		{ "MANIFEST.tsv", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char date[11] = "";

		CHECK(naming_snapshot_file(cases[i].name, date) == cases[i].ok,
		      "snapshot name %s: %s", cases[i].name, cases[i].ok ? "yes" : "no");
		if (cases[i].ok)
			CHECK_STR(date, "2024-07-16", "date of %s", cases[i].name);
	}
}

static const char body_ok[] = "Model,Organization,Parameters\nA,Org,1e9\n\"B, 2\",Org,\"2\"\n";

static void test_examine(const colmap *map)
{
	static const struct {
		const char *body;   /* the body */
		const char *error;  /* expected in the message, or NULL when valid */
	} cases[] = {
		{ body_ok, NULL },
		{ "", "empty body" },
		{ "  <!DOCTYPE html><html></html>", "HTML page" },
		{ "Name,Colour\nx,red\n", "no model name column" },
		{ "Model,Organization\n", "no data rows" },
		{ "Model,Organization\nA,\"cut off", "ends inside a quoted field" },
		{ "\"Model,Organization\nA,B\n", "ends inside a quoted field of the header" },
	};
	store_content content;
	mc_err errbuf;
	char *err = errbuf.msg;
	unsigned char gz[256];
	uLongf gzlen = sizeof(gz);
	size_t i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		rc = store_examine(cases[i].body, strlen(cases[i].body), "body", map, 1 << 20,
				   &content, &errbuf);
		if (!cases[i].error) {
			CHECK(rc == 0, "body %zu is valid (%s)", i, err);
			continue;
		}
		CHECK(rc == -1 && strstr(err, cases[i].error), "body %zu refused: '%s' in '%s'",
		      i, cases[i].error, err);
	}
	rc = store_examine(body_ok, strlen(body_ok), "body", map, 1 << 20, &content, &errbuf);
	CHECK(rc == 0 && content.rows == 2 && content.columns == 3 && content.known_columns == 3,
	      "rows and columns counted (%lu rows, %zu columns)", content.rows, content.columns);
	CHECK(content.bytes == strlen(body_ok), "content bytes");
	rc = store_examine(body_ok, strlen(body_ok), "body", map, 10, &content, &errbuf);
	CHECK(rc == -1 && strstr(err, "size cap"), "a body over the cap is refused: %s", err);
	/* a zlib stream is not gzip: make one with the gzip wrapper by hand */
	{
		z_stream zs;

		memset(&zs, 0, sizeof(zs));
		if (deflateInit2(&zs, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK) {
			zs.next_in = (const Bytef *)body_ok;
			zs.avail_in = (uInt)strlen(body_ok);
			zs.next_out = gz;
			zs.avail_out = sizeof(gz);
			rc = deflate(&zs, Z_FINISH);
			gzlen = sizeof(gz) - zs.avail_out;
			deflateEnd(&zs);
			CHECK(rc == Z_STREAM_END, "gzip test body made");
		}
	}
	{
		store_content plain;

		store_examine(body_ok, strlen(body_ok), "plain", map, 1 << 20, &plain, &errbuf);
		rc = store_examine(gz, gzlen, "gz", map, 1 << 20, &content, &errbuf);
		CHECK(rc == 0 && content.format == INPUT_GZIP, "a gzip body is examined (%s)", err);
		CHECK_STR(content.sha256, plain.sha256, "its hash is of the decompressed content");
	}
}

static int count_snapshots(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char date[11];
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (naming_snapshot_file(e->d_name, date))
			n++;
	closedir(d);
	return n;
}

static void test_put_and_manifest(const colmap *map)
{
	static const char body2[] = "Model,Organization\nC,Org\n";
	static const char body3[] = "Model,Organization\nD,Org\n";
	char dir[300], path[400], sha[65], *file = NULL, *latest = NULL;
	mc_err errbuf;
	char *err = errbuf.msg;
	unsigned long long stored_bytes;
	store_content c1, c2, c3;
	const store_entry *entries;
	store_entry note;
	store *st = NULL;
	time_t noon = 1721131200;   /* 2024-07-16T12:00:00Z */
	size_t n;
	FILE *f;

	mc_fmt(dir, sizeof(dir), "%s/store", scratch);
	CHECK(store_open(&st, dir, &errbuf) == 0, "a new store opens (%s)", err);
	if (!st)
		return;
	CHECK(store_latest(st, "src", &latest, sha, &errbuf) == 1,
	      "a new source has no latest snapshot");
	store_examine(body_ok, strlen(body_ok), "b1", map, 1 << 20, &c1, &errbuf);
	store_examine(body2, strlen(body2), "b2", map, 1 << 20, &c2, &errbuf);
	store_examine(body3, strlen(body3), "b3", map, 1 << 20, &c3, &errbuf);

	CHECK(store_put(st, "src", body_ok, strlen(body_ok), &c1, noon, &file, &stored_bytes,
			&errbuf) == 0, "first content stored (%s)", err);
	CHECK_STR(file, "src/2024-07-16.csv.gz", "first content of the day: <date>.csv.gz");
	free(file);
	CHECK(store_put(st, "src", body2, strlen(body2), &c2, noon, &file, &stored_bytes,
			&errbuf) == 0, "second content stored");
	mc_fmt(path, sizeof(path), "src/2024-07-16T120000Z-%.12s.csv.gz", c2.sha256);
	CHECK_STR(file, path, "a later content: <date>T<time>Z-<sha12>.csv.gz");
	free(file);
	/* the same second again, a third content: its name must still sort last */
	CHECK(store_put(st, "src", body3, strlen(body3), &c3, noon, &file, &stored_bytes,
			&errbuf) == 0, "third content stored");
	mc_fmt(path, sizeof(path), "src/2024-07-16T120001Z-%.12s.csv.gz", c3.sha256);
	CHECK_STR(file, path, "the same second: the time moves on by one second");
	free(file);
	CHECK(store_latest(st, "src", &latest, sha, &errbuf) == 0 &&
	      !strcmp(sha, c3.sha256), "the latest snapshot is the third");
	free(latest);
	mc_fmt(path, sizeof(path), "%s/src", dir);
	CHECK(count_snapshots(path) == 3, "three files");

	memset(&note, 0, sizeof(note));
	note.fetched_at = "2024-07-16T12:00:00Z";
	note.source = "src";
	note.event = "stored";
	note.file = "src/2024-07-16.csv.gz";
	note.url = "http://example.invalid/a.csv";
	note.status = 200;
	note.etag = "W/\"odd\tetag\\with\nescapes\"";
	note.last_modified = "Tue, 16 Jul 2024 12:00:00 GMT";
	note.sha256 = c1.sha256;
	note.format = "csv";
	note.bytes = c1.bytes;
	note.rows = c1.rows;
	CHECK(store_note(st, &note, &errbuf) == 0, "a manifest line is written");
	note.event = "seen";
	CHECK(store_note(st, &note, &errbuf) == 0, "a second one");
	store_free(st);
	st = NULL;

	/* a crash in the middle of an append leaves a partial line */
	mc_fmt(path, sizeof(path), "%s/%s", dir, STORE_MANIFEST);
	f = fopen(path, "ab");
	if (f) {
		fputs("2024-07-17T00:00:00Z\tsrc\tsto", f);
		fclose(f);
	}
	CHECK(store_open(&st, dir, &errbuf) == 0, "the store opens again");
	if (!st)
		return;
	entries = store_entries(st, &n);
	CHECK(n == 2, "two manifest lines read back; the partial one ignored (%zu)", n);
	if (n == 2) {
		CHECK_STR(entries[0].etag, note.etag, "tabs, newlines and backslashes survive");
		CHECK(entries[0].line == 2 && entries[1].line == 3, "line numbers (header is 1)");
		CHECK_STR(entries[1].event, "seen", "the second line's event");
		CHECK(entries[0].status == 200 && entries[0].rows == 2, "numbers read back");
	}
	note.event = "not-modified";
	CHECK(store_note(st, &note, &errbuf) == 0, "appending after a partial line");
	store_free(st);
	st = NULL;
	CHECK(store_open(&st, dir, &errbuf) == 0, "and once more");
	if (!st)
		return;
	entries = store_entries(st, &n);
	CHECK(n == 3 && !strcmp(entries[2].event, "not-modified") && entries[2].line == 4,
	      "the partial line was replaced by the new one");
	/* validators: only when the line's file is the source's latest snapshot */
	CHECK(store_last_fetch(st, "src", "http://example.invalid/a.csv") == NULL,
	      "no validators when the last fetch's file is not the latest snapshot");
	store_free(st);

	/* a second store_open while one holds the lock fails */
	CHECK(store_open(&st, dir, &errbuf) == 0, "opened");
	{
		store *other = NULL;

		CHECK(store_open(&other, dir, &errbuf) == -1 &&
		      strstr(err, "another modelcat fetch"), "a second writer is refused");
		store_free(other);
	}
	store_free(st);
}

static void test_sources(void)
{
	char path[300], *url = NULL;
	mc_err errbuf;
	char *err = errbuf.msg;
	source_list list;
	const source *s;

	mc_fmt(path, sizeof(path), "%s/sources.tsv", scratch);
	write_text(path, "# comment\n\nnotable\thttps://e.invalid/notable.csv\tcsv\n"
			 "zipped\thttps://e.invalid/x.zip\n"
			 "gz\tfile:///data/x.csv.gz\tany\n");
	sources_init(&list);
	CHECK(sources_load(&list, path, &errbuf) == 0 && list.n == 3,
	      "sources file read (%s)", err);
	s = sources_find(&list, "zipped");
	CHECK(s && s->format == SOURCE_ZIP, "format guessed from the URL");
	s = sources_find(&list, "gz");
	CHECK(s && s->format == SOURCE_ANY, "format as declared");
	sources_add(&list, "notable", "http://127.0.0.1:1/n.csv", SOURCE_CSV);
	s = sources_find(&list, "notable");
	CHECK(list.n == 3 && s && !strcmp(s->url, "http://127.0.0.1:1/n.csv"),
	      "adding a known name replaces its URL");
	sources_release(&list);

	write_text(path, "good\thttp://x.invalid/a.csv\nbad name\thttp://x.invalid/b.csv\n");
	CHECK(sources_load(&list, path, &errbuf) == -1 && strstr(err, "sources.tsv:2:"),
	      "a bad name is refused with file and line: %s", err);
	sources_release(&list);
	write_text(path, "x\tftp://x.invalid/a.csv\n");
	CHECK(sources_load(&list, path, &errbuf) == -1 && strstr(err, ":1:"),
	      "an unsupported scheme is refused: %s", err);
	sources_release(&list);
	write_text(path, "x\thttp://x.invalid/a.csv\tcsv\textra\n");
	CHECK(sources_load(&list, path, &errbuf) == -1, "too many fields: %s", err);
	sources_release(&list);
	write_text(path, "x\thttp://x.invalid/a.csv\txlsx\n");
	CHECK(sources_load(&list, path, &errbuf) == -1 && strstr(err, "unknown format"),
	      "an unknown format: %s", err);
	sources_release(&list);
	write_text(path, "x\thttp://x.invalid/a.csv\nx\thttp://x.invalid/b.csv\n");
	CHECK(sources_load(&list, path, &errbuf) == -1 && strstr(err, "twice"),
	      "a name declared twice: %s", err);
	sources_release(&list);

	CHECK(sources_url("https://e.invalid/a.csv", &url, &errbuf) == 0 &&
	      !strcmp(url, "https://e.invalid/a.csv"), "an https URL is kept");
	free(url);
	CHECK(sources_url("gopher://e.invalid/a.csv", &url, &errbuf) == -1,
	      "another scheme is refused");
	mc_fmt(path, sizeof(path), "%s/a file.csv", scratch);
	write_text(path, "Model\nA\n");
	CHECK(sources_url(path, &url, &errbuf) == 0 && url &&
	      !strncmp(url, "file:///", 8) && strstr(url, "/a%20file.csv"),
	      "a local path becomes a file:// URL: %s", url ? url : err);
	free(url);
	CHECK(sources_guess_format("https://e.invalid/a.csv.gz?x=1") == SOURCE_GZIP,
	      "guess ignores the query");
}

/* store_list(): export folders by name, snapshot files by name with their
 * dates, temporaries apart, other names and folders left out. */
static void test_listing(void)
{
	static const char *const files[] = {
		"b/2024-01-02.csv.gz", "b/2024-01-01.csv", "b/2024-01-01T120000Z-0123456789ab.csv.gz",
		"b/notes.txt", "b/.tmp-42-abcdef", "a/2023-12-31.zip",
	};
	char dir[300], path[400];
	store_listing l;
	mc_err errbuf;
	size_t i;

	mc_fmt(dir, sizeof(dir), "%s/listing", scratch);
	mkdir(dir, 0755);
	mc_fmt(path, sizeof(path), "%s/a", dir);
	mkdir(path, 0755);
	mc_fmt(path, sizeof(path), "%s/b", dir);
	mkdir(path, 0755);
	mc_fmt(path, sizeof(path), "%s/not a name", dir);
	mkdir(path, 0755);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		mc_fmt(path, sizeof(path), "%s/%s", dir, files[i]);
		write_text(path, "x\n");
	}
	mc_fmt(path, sizeof(path), "%s/MANIFEST.tsv", dir);
	write_text(path, "x\n");
	CHECK(store_list(dir, NULL, &l, &errbuf) == 0 && l.n == 2, "two export folders listed");
	if (l.n == 2) {
		CHECK_STR(l.folders[0].name, "a", "folders sorted by name");
		CHECK(l.folders[1].n == 3 && l.folders[1].ntemps == 1,
		      "three snapshot files and one temporary in b");
		CHECK(l.folders[1].n == 3 &&
		      !strcmp(l.folders[1].files[1].name, "2024-01-01T120000Z-0123456789ab.csv.gz") &&
		      !strcmp(l.folders[1].files[1].date, "2024-01-01"),
		      "a later content sorts after the first of its day");
		CHECK(store_folder_latest(&l.folders[1]) &&
		      !strcmp(store_folder_latest(&l.folders[1])->name, "2024-01-02.csv.gz"),
		      "the latest is the last by name");
	}
	store_listing_release(&l);
	CHECK(store_list(dir, "b", &l, &errbuf) == 0 && l.n == 1 && l.folders[0].n == 3,
	      "one folder listed by name");
	store_listing_release(&l);
	CHECK(store_list(dir, "c", &l, &errbuf) == 0 && l.n == 0, "a missing folder lists none");
	mc_fmt(path, sizeof(path), "%s/none", dir);
	CHECK(store_list(path, NULL, &l, &errbuf) == -1 &&
	      strstr(errbuf.msg, "cannot open the snapshot store"), "a missing store is an error");
}

int main(void)
{
	char dir[300];
	mc_err err = { "" };
	colmap map;
	char *made;

	mc_fmt(scratch, sizeof(scratch), "%s/modelcat-unit-store.XXXXXX",
	       getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	made = mkdtemp(scratch);
	if (!made) {
		printf("not ok 1 - cannot make a scratch folder\n");
		return 1;
	}
	test_names();
	mc_fmt(dir, sizeof(dir), "pipelines");
	if (!CHECK(colmap_load(&map, dir, &err) == 0, "column map loads (%s)", err.msg))
		return unit_done();
	test_examine(&map);
	test_put_and_manifest(&map);
	test_listing();
	test_sources();
	colmap_release(&map);
	remove_tree(scratch);
	return unit_done();
}
