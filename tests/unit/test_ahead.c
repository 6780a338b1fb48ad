/*
 * ahead: a file read on a thread of its own hands out its bytes in order,
 * in full blocks but the last, never overwrites a block the user holds,
 * reports a failed read, and stops when asked before the end; the input
 * that uses it gives the same bytes and hashes as the input that reads
 * the file itself; its thread leaves SIGINT, SIGTERM and SIGHUP to the
 * thread that started it.
 */
#include "read/ahead.h"
#include "read/input.h"
#include "base/sha256.h"
#include "base/util.h"
#include "unit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

static char dir[4096];

/* n bytes that differ block to block and byte to byte. */
static unsigned char *content(size_t n)
{
	unsigned char *p = xmalloc(n ? n : 1);
	unsigned long x = 12345;
	size_t i;

	for (i = 0; i < n; i++) {
		x = x * 1103515245UL + 12345UL;
		p[i] = (unsigned char)(x >> 16);
	}
	return p;
}

/* A file of the n bytes at data; its path in path. */
static void write_file(char *path, size_t len, const char *name, const unsigned char *data,
		       size_t n)
{
	FILE *f;

	mc_fmt(path, len, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(2);
	}
}

enum { MAX_THREADS = 64 };

/* The ids of this process's threads (/proc/self/task) into ids: their
 * count. */
static size_t thread_ids(long ids[MAX_THREADS])
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && n < MAX_THREADS)
			ids[n++] = atol(e->d_name);
	if (d)
		closedir(d);
	return n;
}

/* Of the threads started since before[0..nbefore) was taken, in *started,
 * those whose mask (SigBlk of /proc/self/task/TID/status) does not block
 * all of SIGINT, SIGTERM and SIGHUP are returned. */
static size_t new_threads_taking_stop_signals(const long *before, size_t nbefore,
					      size_t *started)
{
	unsigned long long want = (1ULL << (SIGINT - 1)) | (1ULL << (SIGTERM - 1)) |
				  (1ULL << (SIGHUP - 1));
	long now[MAX_THREADS];
	size_t n = thread_ids(now), i, k, taking = 0;

	*started = 0;
	for (i = 0; i < n; i++) {
		char path[256], line[256];
		unsigned long long blocked = 0;
		FILE *f;

		for (k = 0; k < nbefore && before[k] != now[i]; k++)
			;
		if (k < nbefore)
			continue;
		mc_fmt(path, sizeof(path), "/proc/self/task/%ld/status", now[i]);
		if (!(f = fopen(path, "r")))
			continue;   /* ended meanwhile */
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "SigBlk: %llx", &blocked) == 1)
				break;
		fclose(f);
		(*started)++;
		taking += (blocked & want) != want;
	}
	return taking;
}

/* Read all of fd through ahead: the bytes match data[0..n), every block
 * but the last is full, and the end is said twice. */
static void read_all(int fd, const unsigned char *data, size_t n, const char *what)
{
	ahead *a = ahead_start(fd);
	const unsigned char *block;
	size_t len, at = 0, blocks = 0, short_blocks = 0;
	int rc, error = 0, same = 1;

	CHECK(a != NULL, "%s: the reading thread starts", what);
	if (!a)
		return;
	while ((rc = ahead_next(a, &block, &len, &error)) == 1) {
		if (at + len > n || memcmp(block, data + at, len))
			same = 0;
		if (len < AHEAD_BLOCK)
			short_blocks++;
		if (len < AHEAD_BLOCK && at + len != n)
			same = 0;   /* a short block before the end */
		at += len;
		blocks++;
	}
	CHECK(rc == 0 && at == n && same, "%s: %zu bytes in order, as written (%zu of %zu, rc %d)",
	      what, n, at, n, rc);
	CHECK(blocks == (n + AHEAD_BLOCK - 1) / AHEAD_BLOCK && short_blocks == (n % AHEAD_BLOCK != 0),
	      "%s: %zu blocks, full but the last", what, blocks);
	CHECK(ahead_next(a, &block, &len, &error) == 0, "%s: the end, said again", what);
	ahead_stop(a);
}

/* The SHA-256 of data[0..n) in hex. */
static void sha_of(const unsigned char *data, size_t n, char hex[65])
{
	sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, data, n);
	sha256_final_hex(&ctx, hex);
}

int main(void)
{
	size_t big = 5 * AHEAD_BLOCK + AHEAD_BLOCK / 3 + 7;
	size_t whole = 3 * AHEAD_BLOCK;
	size_t many = 3 * AHEAD_BLOCKS * AHEAD_BLOCK + 11;
	unsigned char *data = content(many), *held;
	char path[4096], small[4096], want[65], got[65], plain[65];
	const unsigned char *block;
	unsigned long long bytes = 0;
	size_t len, nbefore;
	long before[MAX_THREADS];
	int fd, error = 0, rc;
	ahead *a;
	input *in = NULL;
	mc_err err;

	mc_fmt(dir, sizeof(dir), "%s/test_ahead.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		return 2;
	}

	write_file(path, sizeof(path), "big", data, big);
	fd = open(path, O_RDONLY);
	read_all(fd, data, big, "a file of 5 1/3 blocks");
	close(fd);

	write_file(path, sizeof(path), "whole", data, whole);
	fd = open(path, O_RDONLY);
	read_all(fd, data, whole, "a file of 3 whole blocks");
	close(fd);

	write_file(path, sizeof(path), "empty", data, 0);
	fd = open(path, O_RDONLY);
	read_all(fd, data, 0, "an empty file");
	close(fd);

	/* from where the offset is: the first 100 bytes read already */
	write_file(path, sizeof(path), "many", data, many);
	fd = open(path, O_RDONLY);
	CHECK(read(fd, held = xmalloc(100), 100) == 100, "100 bytes read before");
	free(held);
	read_all(fd, data + 100, many - 100, "the rest of a file of many blocks");
	close(fd);

	/* the block held is not written over while the reader fills the
	 * rest of the ring (it has time to fill all of it) */
	fd = open(path, O_RDONLY);
	nbefore = thread_ids(before);
	a = ahead_start(fd);
	rc = a ? ahead_next(a, &block, &len, &error) : -1;
	CHECK(rc == 1 && len == AHEAD_BLOCK, "the first block taken");
	{
		size_t started, taking = new_threads_taking_stop_signals(before, nbefore, &started);

		CHECK(started == 1 && taking == 0,
		      "the reading thread blocks SIGINT, SIGTERM and SIGHUP (%zu of %zu new threads "
		      "not)", taking, started);
	}
	if (rc == 1) {
		usleep(200 * 1000);
		CHECK(!memcmp(block, data, AHEAD_BLOCK), "the block held is still the file's first");
		rc = ahead_next(a, &block, &len, &error);
		CHECK(rc == 1 && !memcmp(block, data + AHEAD_BLOCK, AHEAD_BLOCK),
		      "then the second block");
	}
	ahead_stop(a);   /* before the end: the thread stops, nothing leaks */
	close(fd);

	/* a read that fails: said, and said again */
	fd = open(path, O_WRONLY);
	a = ahead_start(fd);
	rc = a ? ahead_next(a, &block, &len, &error) : 0;
	CHECK(rc == -1 && error == EBADF, "a failed read gives its errno (%d, %d)", rc, error);
	error = 0;
	rc = a ? ahead_next(a, &block, &len, &error) : 0;
	CHECK(rc == -1 && error == EBADF, "and again on the next call");
	ahead_stop(a);
	close(fd);

	/* the input: read ahead for a plain file of many blocks, the same
	 * hash as reading it itself and as the bytes' own */
	sha_of(data, many, want);
	CHECK(input_open(&in, path, &err) == 0 && input_read_ahead(in) == 1,
	      "input: a plain file of %zu bytes is read ahead", many);
	rc = in ? input_sha256(in, 0, got, &bytes, &err) : -1;
	CHECK(rc == 0 && bytes == many, "input read ahead: every byte (%llu)", bytes);
	CHECK_STR(got, want, "input read ahead: the bytes' SHA-256");
	input_free(in);
	in = NULL;
	CHECK(input_file_sha256_ahead(path, got, &bytes, &err) == 0 && bytes == many,
	      "input_file_sha256_ahead: every byte");
	CHECK_STR(got, want, "input_file_sha256_ahead: the bytes' SHA-256");
	CHECK(input_file_sha256(path, plain, &bytes, &err) == 0, "input_file_sha256");
	CHECK_STR(plain, want, "input_file_sha256: the same SHA-256");

	/* a file of a few blocks is read as before */
	write_file(small, sizeof(small), "small", data, AHEAD_BLOCK);
	CHECK(input_open(&in, small, &err) == 0 && input_read_ahead(in) == 0,
	      "input: a file of one block is not read ahead");
	input_free(in);
	in = NULL;
	sha_of(data, AHEAD_BLOCK, want);
	CHECK(input_file_sha256_ahead(small, got, &bytes, &err) == 0 && bytes == AHEAD_BLOCK,
	      "input_file_sha256_ahead of a small file");
	CHECK_STR(got, want, "input_file_sha256_ahead of a small file: its SHA-256");

	/* gzip: inflated as before, not read ahead */
	mc_fmt(small, sizeof(small), "%s/many.gz", dir);
	{
		gzFile gz = gzopen(small, "wb");

		CHECK(gz && gzwrite(gz, data, (unsigned)many) == (int)many && gzclose(gz) == Z_OK,
		      "a gzip file written");
	}
	sha_of(data, many, want);
	CHECK(input_open(&in, small, &err) == 0 && input_read_ahead(in) == 0,
	      "input: a gzip file is not read ahead");
	input_free(in);
	in = NULL;
	CHECK(input_file_sha256_ahead(small, got, &bytes, &err) == 0 && bytes == many,
	      "input_file_sha256_ahead of a gzip file: every inflated byte");
	CHECK_STR(got, want, "input_file_sha256_ahead of a gzip file: the content's SHA-256");
	unlink(small);
	mc_fmt(small, sizeof(small), "%s/small", dir);

	unlink(small);
	unlink(path);
	mc_fmt(path, sizeof(path), "%s/big", dir);
	unlink(path);
	mc_fmt(path, sizeof(path), "%s/whole", dir);
	unlink(path);
	mc_fmt(path, sizeof(path), "%s/empty", dir);
	unlink(path);
	rmdir(dir);
	free(data);
	return unit_done();
}
