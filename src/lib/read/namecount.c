#include "read/namecount.h"
#include "base/sha256.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The spill file is records of namecount_entry, sorted by key, read by
 * blocks of BLOCK records (4080 bytes). */
#define BLOCK 204
#define WRITE_BLOCKS 16

_Static_assert(sizeof(namecount_entry) == 20, "a spilled record is 20 bytes");

void namecount_init(namecount *nc)
{
	memset(nc, 0, sizeof(*nc));
	nc->limit = NAMECOUNT_SLOTS;
	nc->fd = -1;
}

void namecount_limit(namecount *nc, size_t slots)
{
	/* slots are found by masking: a power of two, rounded up */
	for (nc->limit = 16; nc->limit < slots; nc->limit *= 2)
		;
}

void namecount_release(namecount *nc)
{
	size_t limit = nc->limit;

	free(nc->slots);
	free(nc->fence);
	free(nc->bloom);
	if (nc->fd >= 0)
		close(nc->fd);
	namecount_init(nc);
	nc->limit = limit;
}

/* Digests in memcmp()'s order, in two loads each (any one order would do
 * for the sorts, merges and searches, which all use this): a spill sorts
 * and merges its 98,304 entries by digest, which through memcmp() was a
 * twentieth of a parse's main thread at 1 GB. */
static int key_cmp(const unsigned char *a, const unsigned char *b)
{
	uint64_t x, y;

	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	if (x == y) {
		memcpy(&x, a + 8, 8);
		memcpy(&y, b + 8, 8);
		if (x == y)
			return 0;
	}
	x = __builtin_bswap64(x);       /* the first byte most significant */
	y = __builtin_bswap64(y);
	return x < y ? -1 : 1;
}

/* The slot of key: where it is, or the free slot where it would go. */
static size_t slot(const namecount *nc, const unsigned char key[16])
{
	uint64_t h;
	size_t i;

	memcpy(&h, key, sizeof(h));
	for (i = (size_t)h & (nc->cap - 1); nc->slots[i].count != NAMECOUNT_FREE;
	     i = (i + 1) & (nc->cap - 1))
		if (!memcmp(nc->slots[i].key, key, 16))
			break;
	return i;
}

static void empty_slots(namecount_entry *slots, size_t cap)
{
	size_t i;

	for (i = 0; i < cap; i++)
		slots[i].count = NAMECOUNT_FREE;
}

static void grow(namecount *nc)
{
	namecount_entry *old = nc->slots;
	size_t i, oldcap = nc->cap;

	nc->cap = oldcap ? oldcap * 2 : 1024;
	if (nc->cap > nc->limit)
		nc->cap = nc->limit;
	nc->slots = xmalloc(nc->cap * sizeof(*nc->slots));
	empty_slots(nc->slots, nc->cap);
	for (i = 0; i < oldcap; i++)
		if (old[i].count != NAMECOUNT_FREE)
			nc->slots[slot(nc, old[i].key)] = old[i];
	free(old);
}

/* The Bloom filter: four 24-bit positions from digest bytes 4..15 (bytes
 * 0..7 place the name in the table; any bits of SHA-256 will do). */
static uint32_t bloom_bit(const unsigned char key[16], int k)
{
	const unsigned char *b = key + 4 + 3 * k;

	return ((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16) &
	       (NAMECOUNT_BLOOM_BITS - 1);
}

static void bloom_add(namecount *nc, const unsigned char key[16])
{
	int k;

	for (k = 0; k < 4; k++) {
		uint32_t bit = bloom_bit(key, k);

		nc->bloom[bit / 64] |= (uint64_t)1 << (bit % 64);
	}
}

static int bloom_has(const namecount *nc, const unsigned char key[16])
{
	int k;

	for (k = 0; k < 4; k++) {
		uint32_t bit = bloom_bit(key, k);

		if (!(nc->bloom[bit / 64] & (uint64_t)1 << (bit % 64)))
			return 0;
	}
	return 1;
}

static const char *temp_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/* A new file no one else can reach: unnamed when the file system allows,
 * else made and unlinked at once. */
static int open_temp(mc_err *err)
{
	const char *dir = temp_dir();
	char path[4096];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	mc_fmt(path, sizeof(path), "%s/modelcat-names.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		return mc_error(err, "%s: cannot make a temporary file to count model "
				"names: %s", dir, strerror(errno));
	}
	unlink(path);
	return fd;
}

static int io_error(const char *what, int code, mc_err *err)
{
	return mc_error(err, "%s: cannot %s the temporary file of model names: %s",
			temp_dir(), what, code ? strerror(code) : "it ended early");
}

static int write_at(int fd, const void *buf, size_t len, off_t at, mc_err *err)
{
	const char *p = buf;

	while (len) {
		ssize_t w = pwrite(fd, p, len, at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return io_error("write", w < 0 ? errno : ENOSPC, err);
		p += w;
		len -= (size_t)w;
		at += w;
	}
	return 0;
}

static int read_at(int fd, void *buf, size_t len, off_t at, mc_err *err)
{
	char *p = buf;

	while (len) {
		ssize_t r = pread(fd, p, len, at);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return io_error("read", r < 0 ? errno : 0, err);
		p += r;
		len -= (size_t)r;
		at += r;
	}
	return 0;
}

static int by_key(const void *a, const void *b)
{
	return key_cmp(((const namecount_entry *)a)->key, ((const namecount_entry *)b)->key);
}

/* The records of the spill file, read in order. */
typedef struct reader {
	namecount_entry buf[BLOCK * WRITE_BLOCKS];
	unsigned long long next, total; /* next record of the file, records */
	size_t at, n;                   /* in buf */
} reader;

/* The next record, or NULL at the end or (r->next < r->total) when it
 * cannot be read (err says why). */
static const namecount_entry *reader_peek(namecount *nc, reader *r, mc_err *err)
{
	if (r->at == r->n) {
		unsigned long long left = r->total - r->next;

		if (!left)
			return NULL;
		r->n = left < BLOCK * WRITE_BLOCKS ? (size_t)left : BLOCK * WRITE_BLOCKS;
		r->at = 0;
		if (read_at(nc->fd, r->buf, r->n * sizeof(*r->buf),
			    (off_t)(r->next * sizeof(*r->buf)), err) < 0)
			return NULL;
		r->next += r->n;
	}
	return &r->buf[r->at];
}

/* The merged file, written by blocks, with the first key of each. */
typedef struct writer {
	namecount_entry buf[BLOCK * WRITE_BLOCKS];
	unsigned long long written;
	size_t n;
	int fd;
	unsigned char (*fence)[16];
	size_t nfence;
} writer;

static int writer_flush(writer *w, mc_err *err)
{
	if (!w->n)
		return 0;
	if (write_at(w->fd, w->buf, w->n * sizeof(*w->buf),
		     (off_t)(w->written * sizeof(*w->buf)), err) < 0)
		return -1;
	w->written += w->n;
	w->n = 0;
	return 0;
}

static int writer_put(writer *w, const namecount_entry *e, mc_err *err)
{
	if ((w->written + w->n) % BLOCK == 0)
		memcpy(w->fence[w->nfence++], e->key, 16);
	w->buf[w->n++] = *e;
	return w->n == BLOCK * WRITE_BLOCKS ? writer_flush(w, err) : 0;
}

/*
 * Merge the table into the spill file and empty it. A name in both has
 * the table's count: it was read from the file and counted on since.
 * On failure the counts are lost and every later call fails.
 */
static int spill(namecount *nc, mc_err *err)
{
	reader *r = xmalloc(sizeof(*r));
	writer *w = xmalloc(sizeof(*w));
	size_t i, m = 0, t = 0;
	const namecount_entry *f;
	int rc = -1;

	for (i = 0; i < nc->cap; i++)
		if (nc->slots[i].count != NAMECOUNT_FREE)
			nc->slots[m++] = nc->slots[i];
	qsort(nc->slots, m, sizeof(*nc->slots), by_key);
	if (!nc->bloom)
		nc->bloom = xcalloc(NAMECOUNT_BLOOM_BITS / 64, sizeof(*nc->bloom));
	for (i = 0; i < m; i++)
		bloom_add(nc, nc->slots[i].key);

	memset(r, 0, sizeof(*r));
	r->total = nc->fd >= 0 ? nc->spilled : 0;
	memset(w, 0, sizeof(*w));
	w->fence = xmalloc(((size_t)(r->total + m) / BLOCK + 1) * sizeof(*w->fence));
	w->fd = open_temp(err);
	if (w->fd < 0)
		goto out;
	for (;;) {
		int c;

		f = reader_peek(nc, r, err);
		if (!f && r->next < r->total)
			goto out;
		if (!f && t == m)
			break;
		c = !f ? 1 : t == m ? -1 : key_cmp(f->key, nc->slots[t].key);
		/* on equal keys the table's entry is the one written */
		if (writer_put(w, c < 0 ? f : &nc->slots[t], err) < 0)
			goto out;
		if (c <= 0)
			r->at++;
		if (c >= 0)
			t++;
	}
	if (writer_flush(w, err) < 0)
		goto out;
	if (nc->fd >= 0)
		close(nc->fd);
	nc->fd = w->fd;
	w->fd = -1;
	nc->spilled = w->written;
	free(nc->fence);
	nc->fence = w->fence;
	w->fence = NULL;
	nc->nfence = w->nfence;
	nc->spills++;
	empty_slots(nc->slots, nc->cap);
	nc->n = 0;
	rc = 0;
out:
	if (rc < 0)
		nc->failed = 1; /* the table is no longer one */
	if (w->fd >= 0)
		close(w->fd);
	free(w->fence);
	free(w);
	free(r);
	return rc;
}

/* The count of key in the spill file: 1 and *count when there, 0 when
 * not, -1 on a read error (err says why). */
static int find_spilled(namecount *nc, const unsigned char key[16], uint32_t *count,
			mc_err *err)
{
	namecount_entry block[BLOCK];
	size_t lo = 0, hi = nc->nfence, n;
	unsigned long long first;

	if (nc->fd < 0 || !bloom_has(nc, key))
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(nc->fence[mid], key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	first = (unsigned long long)(lo - 1) * BLOCK;
	n = nc->spilled - first < BLOCK ? (size_t)(nc->spilled - first) : BLOCK;
	if (read_at(nc->fd, block, n * sizeof(*block), (off_t)(first * sizeof(*block)), err) < 0)
		return -1;
	for (lo = 0, hi = n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(block[mid].key, key);

		if (!c) {
			*count = block[mid].count;
			return 1;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void namecount_digest(const char *name, size_t len, unsigned char digest[NAMECOUNT_DIGEST])
{
	unsigned char full[32];
	sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, name, len);
	sha256_final(&ctx, full);
	memcpy(digest, full, NAMECOUNT_DIGEST);
}

int namecount_get(namecount *nc, const char *name, size_t len, uint32_t **count,
		  mc_err *err)
{
	unsigned char digest[NAMECOUNT_DIGEST];

	namecount_digest(name, len, digest);
	return namecount_get_digest(nc, digest, count, err);
}

int namecount_get_digest(namecount *nc, const unsigned char digest[NAMECOUNT_DIGEST],
			 uint32_t **count, mc_err *err)
{
	uint32_t spilled = 0;
	size_t at;
	int found;

	*count = NULL;
	if (nc->failed)
		return mc_error(err, "%s: the counts of model names were lost when "
				"their temporary file failed", temp_dir());
	if (nc->cap) {
		at = slot(nc, digest);
		if (nc->slots[at].count != NAMECOUNT_FREE) {
			*count = &nc->slots[at].count;
			return 0;
		}
	}
	found = find_spilled(nc, digest, &spilled, err);
	if (found < 0)
		return -1;
	if ((nc->n + 1) * 4 > nc->cap * 3) {
		if (nc->cap < nc->limit)
			grow(nc);
		else if (spill(nc, err) < 0)
			return -1;
	}
	at = slot(nc, digest);
	memcpy(nc->slots[at].key, digest, 16);
	nc->slots[at].count = spilled;
	nc->n++;
	if (!found)
		nc->names++;
	*count = &nc->slots[at].count;
	return 0;
}
