/*
 * site_verify() on a published site made by hand: whole, then a file
 * changed, a file missing, DIR/pages not the link, no site at all; one
 * problem line for each.
 */
#include "publish/site.h"
#include "base/sha256.h"
#include "unit.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static size_t verify(const char *dir, char *report, size_t len)
{
	FILE *f = fmemopen(report, len, "w");
	size_t problems = 99;
	mc_err err;

	memset(report, 0, len);
	CHECK(site_verify(dir, f, &problems, &err) == 0, "site_verify %s runs", dir);
	fclose(f);
	return problems;
}

int main(void)
{
	char dir[] = "/tmp/modelcat-test-site.XXXXXX", path[512], manifest[512], report[4096];
	char sha_a[65], sha_b[65];
	sha256_ctx h;

	if (!mkdtemp(dir))
		return 1;
	CHECK(verify(dir, report, sizeof(report)) == 1, "no site: one problem");
	CHECK(strstr(report, "no published site") != NULL, "it says so");

	snprintf(path, sizeof(path), "%s/.modelcat", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.modelcat/site-1", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.modelcat/site-1/pages", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.modelcat/site-1/audit", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.modelcat/site-1/pages/a.html", dir);
	put(path, "a\n");
	snprintf(path, sizeof(path), "%s/.modelcat/site-1/audit/b.json", dir);
	put(path, "{}\n");
	sha256_init(&h);
	sha256_update(&h, "a\n", 2);
	sha256_final_hex(&h, sha_a);
	sha256_init(&h);
	sha256_update(&h, "{}\n", 3);
	sha256_final_hex(&h, sha_b);
	snprintf(manifest, sizeof(manifest), "%s  audit/b.json\n%s  pages/a.html\n", sha_b, sha_a);
	snprintf(path, sizeof(path), "%s/.modelcat/site-1/MANIFEST", dir);
	put(path, manifest);
	snprintf(path, sizeof(path), "%s/.modelcat/current", dir);
	CHECK(symlink("site-1", path) == 0, "current made");
	snprintf(path, sizeof(path), "%s/pages", dir);
	CHECK(symlink(".modelcat/current/pages", path) == 0, "DIR/pages made");
	snprintf(path, sizeof(path), "%s/audit", dir);
	CHECK(symlink(".modelcat/current/audit", path) == 0, "DIR/audit made");

	CHECK(verify(dir, report, sizeof(report)) == 0, "a whole site: no problem");

	snprintf(path, sizeof(path), "%s/.modelcat/site-1/pages/a.html", dir);
	put(path, "changed\n");
	CHECK(verify(dir, report, sizeof(report)) == 1, "a changed file: one problem");
	CHECK(strstr(report, "/pages/a.html: SHA-256") != NULL, "naming it");

	unlink(path);
	CHECK(verify(dir, report, sizeof(report)) == 1, "a missing file: one problem");
	CHECK(strstr(report, "pages/a.html: missing") != NULL, "naming it");

	snprintf(path, sizeof(path), "%s/audit", dir);
	unlink(path);
	mkdir(path, 0755);
	CHECK(verify(dir, report, sizeof(report)) == 2, "and DIR/audit a folder: two problems");
	CHECK(strstr(report, "audit: not the symbolic link") != NULL, "naming it");

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		printf("# could not remove %s\n", dir);
	return unit_done();
}
