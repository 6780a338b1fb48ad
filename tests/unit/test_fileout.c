/*
 * test_fileout: a file written in parts (file_part) holds every part in
 * order, its SHA-256 and size are those of the whole, the file_out's
 * placed() hears of it once, with that hash and size, after it is whole;
 * a file already at the path is replaced, never written through (a hard
 * link elsewhere keeps its bytes); a file given up is removed; a part
 * that cannot be written is an error naming the path. file_write_new()
 * shares the same rules.
 */
#include "base/fileout.h"
#include "base/sha256.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct heard {
	int calls;
	char path[512];
	char sha[65];
	unsigned long long len;
	int whole_then;              /* the file held len bytes when told */
} heard;

static int on_placed(void *ctx, const char *path, const char *sha, unsigned long long len,
		     mc_err *err)
{
	heard *h = ctx;
	struct stat st;

	(void)err;
	h->calls++;
	snprintf(h->path, sizeof(h->path), "%s", path);
	snprintf(h->sha, sizeof(h->sha), "%s", sha);
	h->len = len;
	h->whole_then = !stat(path, &st) && (unsigned long long)st.st_size == len;
	return 0;
}

/* The file at path into buf (at most cap bytes); its length, or -1. */
static long slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, cap, f);
	fclose(f);
	return (long)n;
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512], path[600], other[600], want_sha[65], sha[65];
	static char whole[3 * 70000], back[3 * 70000 + 16];
	heard h;
	file_out out = { NULL, on_placed, &h };
	file_part f;
	sha256_ctx ctx;
	mc_err err;
	size_t i, at;
	long n;

	snprintf(dir, sizeof(dir), "%s/modelcat-test-fileout.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!CHECK(mkdtemp(dir) != NULL, "a scratch folder"))
		return unit_done();
	for (i = 0; i < sizeof(whole); i++)
		whole[i] = (char)('a' + (i * 7 + i / 251) % 26);
	sha256_init(&ctx);
	sha256_update(&ctx, whole, sizeof(whole));
	sha256_final_hex(&ctx, want_sha);

	/* parts of uneven sizes, one of them empty */
	memset(&h, 0, sizeof(h));
	snprintf(path, sizeof(path), "%s/a.csv", dir);
	CHECK(file_part_open(&f, &out, path, &err) == 0, "a file in parts opens (%s)", err.msg);
	for (at = 0, i = 0; at < sizeof(whole); i++) {
		size_t len = i == 2 ? 0 : (i * 37 + 1) % 70001;

		if (len > sizeof(whole) - at)
			len = sizeof(whole) - at;
		if (file_part_write(&f, whole + at, len, &err))
			break;
		at += len;
	}
	CHECK(at == sizeof(whole), "every part written (%zu of %zu bytes)", at, sizeof(whole));
	CHECK(h.calls == 0, "placed() is not told before the end");
	CHECK(file_part_close(&f, sha, &err) == 0, "it closes (%s)", err.msg);
	n = slurp(path, back, sizeof(back));
	CHECK(n == (long)sizeof(whole) && !memcmp(back, whole, sizeof(whole)),
	      "the file holds the parts in order (%ld bytes)", n);
	CHECK_STR(sha, want_sha, "its SHA-256 is the whole's");
	CHECK(h.calls == 1, "placed() told once (%d)", h.calls);
	CHECK_STR(h.path, path, "with its path");
	CHECK_STR(h.sha, want_sha, "with the whole's SHA-256");
	CHECK(h.len == sizeof(whole), "with its size (%llu)", h.len);
	CHECK(h.whole_then, "after the file was whole");

	/* a file already there, hard-linked elsewhere: replaced, the other
	 * name keeps the old bytes */
	snprintf(other, sizeof(other), "%s/kept.csv", dir);
	CHECK(link(path, other) == 0, "a second name for the file");
	CHECK(file_part_open(&f, NULL, path, &err) == 0, "the path opens again, no file_out");
	CHECK(file_part_write(&f, "new\n", 4, &err) == 0, "a part");
	CHECK(file_part_close(&f, NULL, &err) == 0, "closes");
	n = slurp(path, back, sizeof(back));
	CHECK(n == 4 && !memcmp(back, "new\n", 4), "the path holds the new bytes (%ld)", n);
	n = slurp(other, back, sizeof(back));
	CHECK(n == (long)sizeof(whole) && !memcmp(back, whole, sizeof(whole)),
	      "the other name still holds the old ones: replaced, not written through");

	/* given up: removed, placed() not told */
	memset(&h, 0, sizeof(h));
	snprintf(path, sizeof(path), "%s/b.json", dir);
	CHECK(file_part_open(&f, &out, path, &err) == 0, "another file opens");
	CHECK(file_part_write(&f, "{\"rows\": [", 10, &err) == 0, "a part");
	file_part_abort(&f);
	CHECK(access(path, F_OK) != 0, "a file given up is removed");
	CHECK(h.calls == 0, "and placed() never hears of it");

	/* a path that cannot be written */
	snprintf(path, sizeof(path), "%s/no/such/folder/c.csv", dir);
	CHECK(file_part_open(&f, &out, path, &err) == -1, "a path in no folder fails");
	CHECK(strstr(err.msg, path) != NULL && strstr(err.msg, "cannot write") != NULL,
	      "naming the path (%s)", err.msg);

	/* file_write_new() over a linked file, too */
	snprintf(path, sizeof(path), "%s/a.csv", dir);
	CHECK(file_write_new(path, "whole\n", 6, &err) == 0, "file_write_new over the path");
	n = slurp(path, back, sizeof(back));
	CHECK(n == 6 && !memcmp(back, "whole\n", 6), "holds its bytes");
	n = slurp(other, back, sizeof(back));
	CHECK(n == (long)sizeof(whole), "the other name is untouched (%ld)", n);

	unlink(path);
	unlink(other);
	rmdir(dir);
	return unit_done();
}
