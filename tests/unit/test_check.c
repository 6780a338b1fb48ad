/*
 * test_check: the checked store (store/check.h) and what a run catches up
 * (store/catchup.h), on a store made in a scratch folder:
 *
 *   DIR/MANIFEST.tsv        lines for a/2024-01-01.csv and a/2024-01-02.csv
 *   DIR/a/2024-01-01.csv    as recorded
 *   DIR/a/2024-01-02.csv    as recorded, then overwritten
 *   DIR/a/2024-01-02T120000Z-<sha12>.csv   named by its hash, no line
 *   DIR/b/2024-01-02.csv    no record at all
 */
#include "unit.h"
#include "store/check.h"
#include "store/catchup.h"
#include "base/sha256.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[4096];

static void write_file(const char *rel, const char *text)
{
	unit_put_file(dir, rel, text);
}

static void sha_of(const char *text, char hex[65])
{
	sha256_ctx c;

	sha256_init(&c);
	sha256_update(&c, text, strlen(text));
	sha256_final_hex(&c, hex);
}

static void manifest_line(FILE *f, const char *file, const char *text)
{
	char sha[65];

	sha_of(text, sha);
	fprintf(f, "2024-01-01T00:00:00Z\ta\tstored\t%s\tfile:///x\t0\t\t\t%s\tcsv\t1\t1\t1\t1\n",
		file, sha);
}

static const char ONE[] = "Model\nAlpha\n", TWO[] = "Model\nBeta\n", THREE[] = "Model\nGamma\n";

static void make_store(char *named, size_t len)
{
	char path[8192], sha[65];
	FILE *f;

	mc_fmt(path, sizeof(path), "%s/a", dir);
	mkdir(path, 0755);
	mc_fmt(path, sizeof(path), "%s/b", dir);
	mkdir(path, 0755);
	mc_fmt(path, sizeof(path), "%s/MANIFEST.tsv", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("fetched_at\tsource\tevent\tfile\turl\tstatus\tetag\tlast_modified\tsha256"
		      "\tformat\tbytes\tstored_bytes\tdownload_bytes\trows\n", f);
		manifest_line(f, "a/2024-01-01.csv", ONE);
		manifest_line(f, "a/2024-01-02.csv", TWO);
		fclose(f);
	}
	write_file("a/2024-01-01.csv", ONE);
	write_file("a/2024-01-02.csv", THREE);   /* not what was recorded */
	sha_of(THREE, sha);
	mc_fmt(named, len, "a/2024-01-02T120000Z-%.12s.csv", sha);
	write_file(named, THREE);
	write_file("b/2024-01-02.csv", ONE);
}

static void test_check(void)
{
	char named[256], sha[65], want[65], path[8192], msg[8192];
	store_check sc;
	mc_err err;
	int recorded = -1;

	make_store(named, sizeof(named));
	if (!CHECK(store_check_open(&sc, dir, &err) == 0, "the store's records read (%s)", err.msg))
		return;
	sha_of(ONE, want);
	CHECK_STR(store_check_recorded(&sc, "a/2024-01-01.csv"), want, "the manifest's hash");
	CHECK(store_check_recorded(&sc, "b/2024-01-02.csv") == NULL, "no line: no hash");
	CHECK(store_check_file(&sc, "a/2024-01-01.csv", sha, &recorded, &err) == 0 && recorded == 1,
	      "a file as recorded passes");
	CHECK_STR(sha, want, "with its hash");
	CHECK(store_check_file(&sc, "a/2024-01-02.csv", sha, NULL, &err) == -1,
	      "an overwritten file fails");
	sha_of(TWO, want);
	sha_of(THREE, sha);
	mc_fmt(msg, sizeof(msg), "%s/a/2024-01-02.csv: content does not match its recorded SHA-256"
	       " (manifest: %s, file: %s)", dir, want, sha);
	CHECK_STR(err.msg, msg, "in one line naming it and both hashes");
	CHECK(store_check_file(&sc, named, sha, &recorded, &err) == 0 && recorded == 1,
	      "a file named by its hash passes (%s)", err.msg);
	CHECK(store_check_file(&sc, "b/2024-01-02.csv", sha, &recorded, &err) == 0 && recorded == 0,
	      "a file with no record passes, recorded 0");
	write_file(named, ONE);
	CHECK(store_check_file(&sc, named, sha, NULL, &err) == -1 &&
	      strstr(err.msg, "content does not match its recorded SHA-256 (name: ") != NULL,
	      "a file whose name's hash differs fails (%s)", err.msg);
	write_file(named, THREE);
	mc_fmt(path, sizeof(path), "%s/a/2024-01-03.csv", dir);
	if (mkfifo(path, 0644) == 0) {
		CHECK(store_check_entry(&sc, "a/2024-01-03.csv", &err) == -1 &&
		      strstr(err.msg, "2024-01-03.csv: not a regular file (a FIFO)") != NULL,
		      "a FIFO is refused without being opened (%s)", err.msg);
		unlink(path);
	}
	if (symlink("/dev/zero", path) == 0) {
		CHECK(store_check_entry(&sc, "a/2024-01-03.csv", &err) == -1 &&
		      strstr(err.msg, "not a regular file (a device)") != NULL, "a link to /dev/zero too");
		unlink(path);
	}
	if (symlink("2024-01-01.csv", path) == 0) {
		CHECK(store_check_entry(&sc, "a/2024-01-03.csv", &err) == 0,
		      "a link to a file inside the store passes (%s)", err.msg);
		unlink(path);
	}
	mc_fmt(msg, sizeof(msg), "%s/../outside.csv", dir);
	write_file("../outside.csv", ONE);
	if (symlink(msg, path) == 0) {
		CHECK(store_check_entry(&sc, "a/2024-01-03.csv", &err) == -1 &&
		      strstr(err.msg, "a symbolic link out of the snapshot store") != NULL,
		      "a link out of the store is refused");
		unlink(path);
	}
	unlink(msg);
	store_check_release(&sc);
	mc_fmt(path, sizeof(path), "%s/a/2024-01-02.csv", dir);
	CHECK(store_check_path(path, sha, &err) == -1, "store_check_path checks a file of a store");
	CHECK(store_check_path("/etc/hostname", sha, &err) == 0 && !sha[0],
	      "and lets any other path through");
}

static void test_catchup(void)
{
	catalogue none;
	catchup_plan plan;
	mc_err err;

	memset(&none, 0, sizeof(none));
	write_file("a/2024-01-02.csv", TWO);   /* as recorded again */
	if (!CHECK(catchup_find(dir, &none, &plan, &err) == 0, "catch-up of an empty catalogue (%s)",
		   err.msg))
		return;
	CHECK(plan.n == 3, "three files: a's two days (the day's latest), b's one (%zu)", plan.n);
	if (plan.n == 3) {
		CHECK_STR(plan.files[0].file, "a/2024-01-01.csv", "oldest first");
		CHECK(!strncmp(plan.files[1].file, "a/2024-01-02T", 13), "the day's latest content");
		CHECK_STR(plan.files[2].file, "b/2024-01-02.csv", "then by export");
	}
	catchup_release(&plan);
	write_file("a/2024-01-01.csv", TWO);
	CHECK(catchup_find(dir, &none, &plan, &err) == -1 &&
	      strstr(err.msg, "a/2024-01-01.csv: content does not match") != NULL,
	      "a tampered file is an error, nothing planned (%s)", err.msg);
	CHECK(plan.n == 0, "the plan is empty");
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[8300];

	mc_fmt(dir, sizeof(dir), "%s/test_check.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!CHECK(mkdtemp(dir) != NULL, "a scratch folder"))
		return unit_done();
	mkdir(dir, 0755);
	{
		/* the store one level down, so that a link can point out of it */
		char inner[4200];

		mc_fmt(inner, sizeof(inner), "%s/store", dir);
		mkdir(inner, 0755);
		mc_fmt(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		mc_fmt(dir, sizeof(dir), "%s", inner);
	}
	test_check();
	test_catchup();
	if (system(cmd) != 0)
		printf("# could not remove the scratch folder\n");
	return unit_done();
}
