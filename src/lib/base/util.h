/*
 * util: small pieces every module uses: a growable byte buffer, checked
 * allocation, and formatted error messages.
 *
 * Ownership: an sbuf owns its bytes; sbuf_release() frees them and leaves
 * the buffer empty and reusable. sbuf.data is always NUL-terminated once
 * anything has been added (or after sbuf_init()), so it can be used as a
 * C string when the content has no NUL bytes.
 */
#ifndef MODELCAT_UTIL_H
#define MODELCAT_UTIL_H

#include <pthread.h>
#include <stddef.h>
#include <stdarg.h>
#include <string.h>

#include "base/error.h"

/* The program's version, printed by --version everywhere. */
#define MODELCAT_VERSION "0.1.0"

typedef struct sbuf {
	char *data;      /* bytes, NUL-terminated; never NULL after sbuf_init */
	size_t len;      /* bytes used, not counting the terminating NUL */
	size_t cap;      /* bytes allocated */
} sbuf;

/* Prepare an empty buffer (no allocation until first use). */
void sbuf_init(sbuf *sb);
/* Free the bytes; the buffer is empty again and may be reused. */
void sbuf_release(sbuf *sb);
/* Forget the content but keep the allocation. Inline: called for every
 * cell of every row. */
static inline void sbuf_reset(sbuf *sb)
{
	sb->len = 0;
	if (sb->cap)
		sb->data[0] = '\0';
}
/* Make room for at least extra more bytes (plus the NUL). */
void sbuf_grow(sbuf *sb, size_t extra);

/* Append bytes, a byte, a C string. Inline: they are called for every
 * value of every row and every piece of every page, and a call into
 * another file for each was a tenth of the parsing thread's work. */
static inline void sbuf_add(sbuf *sb, const void *bytes, size_t len)
{
	if (sb->cap - sb->len <= len)      /* len + 1 bytes do not fit */
		sbuf_grow(sb, len);
	if (len)
		memcpy(sb->data + sb->len, bytes, len);
	sb->len += len;
	sb->data[sb->len] = '\0';
}

static inline void sbuf_addc(sbuf *sb, char c)
{
	if (sb->len + 1 >= sb->cap)
		sbuf_grow(sb, 1);
	sb->data[sb->len++] = c;
	sb->data[sb->len] = '\0';
}

static inline void sbuf_adds(sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_addf(sbuf *sb, const char *fmt, ...) MC_PRINTF(2, 3);
void sbuf_vaddf(sbuf *sb, const char *fmt, va_list ap) MC_PRINTF(2, 0);
/* vsnprintf(), faster for the formats most calls pass (only %s, %c, %d,
 * %i, %u with l, ll or z, and %%): the same bytes and result. */
int mc_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap) MC_PRINTF(3, 0);
/* Take the bytes out: the caller frees the returned pointer; sb is empty. */
char *sbuf_detach(sbuf *sb, size_t *len);

/*
 * Allocation that never returns NULL. Out of memory is not an input error
 * a stage could report and carry on from: when an allocation fails, the
 * program stops at once (mc_out_of_memory) with exit status 3
 * (MC_EXIT_FAILURE), after
 * "PROGRAM: out of memory (allocating N bytes); stopped" on stderr and
 * the removal of the files registered with mc_cleanup_add(). Whatever was
 * being written is left as a crash leaves it, which every writer is made
 * to survive: an open catalogue transaction is rolled back by SQLite the
 * next time the catalogue is opened, a temporary file is removed, no file
 * is ever half-written under its final name.
 */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Room for need elements of size bytes in array p of *cap elements: p
 * itself when they fit, else p grown to at least twice *cap (*cap set).
 * An array grown an element at a time through xrealloc is copied at
 * every step where realloc cannot extend it in place (always, under
 * AddressSanitizer): quadratic in its length. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Free the n strings of v, then v itself. Accepts NULL. */
void mc_free_strings(char **v, size_t n);

/*
 * A pool of strings freed together: each copy is carved from blocks of
 * 1 KiB growing to 64 KiB (a longer string gets a block of its own), so
 * the many short strings of one owner (a map's keys, a model's values)
 * cost a few allocations instead of one each. A copy lives until
 * strpool_release(). A zeroed pool is empty.
 */
typedef struct strpool {
	char *block;          /* the newest block; it begins with a pointer
				 to the block before it (NULL: none) */
	size_t used;          /* bytes of it in use */
	size_t size;          /* its size in bytes */
} strpool;

/* A NUL-terminated copy of s[0..len) in p. */
char *strpool_add(strpool *p, const char *s, size_t len);
/* A copy of the C string s in p; NULL for NULL. */
char *strpool_dup(strpool *p, const char *s);
/* Move every copy of from into to (they live as long as to's own);
 * from is empty again. */
void strpool_adopt(strpool *to, strpool *from);
/* Free every copy; p is empty again. */
void strpool_release(strpool *p);

/* Report that n bytes could not be allocated, remove the registered
 * files, and end the process (_exit: no atexit handlers, no stdio flush,
 * so it is safe on any thread and with any lock held). */
__attribute__((noreturn)) void mc_out_of_memory(size_t n);

/*
 * Files to remove when the program stops short (out of memory, or the
 * signals stage_init() catches): a temporary file, or a catalogue the run
 * created. Each path is removed with its SQLite journals (-journal, -wal,
 * -shm). At most MC_CLEANUP_MAX paths at once; paths longer than PATH_MAX
 * are not kept. mc_cleanup_remove() forgets a path (the file is now
 * complete, or was renamed).
 */
#define MC_CLEANUP_MAX 8
void mc_cleanup_add(const char *path);
void mc_cleanup_remove(const char *path);
/* Remove the registered files now (async-signal-safe). */
void mc_cleanup_run(void);

/* Start a thread running fn(arg) that leaves SIGINT, SIGTERM and SIGHUP
 * to the calling thread (its handler cleans up, and the other threads
 * find that out by their next file): 0, or -1 when none started. */
int mc_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/* Append everything left to read of fd to out, read into room made for
 * its size (a 37 MB file is not grown into by copies): 0, or -1 (errno). */
int mc_read_fd(int fd, sbuf *out);

/* A piece of work run beside the caller's own: fn(arg, err) on a thread
 * of its own (mc_thread_start()), or on the calling thread. */
typedef struct mc_job {
	int (*fn)(void *arg, mc_err *err);
	void *arg;
	pthread_t thread;
	int live;                    /* on a thread not joined yet */
	int rc;                      /* fn's: 0, or -1 with err */
	mc_err err;
} mc_job;

/* Start fn(arg) on a thread when on_thread is set and one starts, else
 * run it here now. */
void mc_job_start(mc_job *j, int (*fn)(void *arg, mc_err *err), void *arg, int on_thread);
/* Wait for j: 0, or -1, with j's failure in *err unless the caller
 * failed first (rc set: its error stays). */
int mc_job_wait(mc_job *j, int rc, mc_err *err);

/* Remove a database file and its SQLite journals (-journal, -wal, -shm),
 * the journals first: a process killed in between leaves the database
 * file, which mc_remove_stale() finds again, never a journal alone, which
 * it passes over. Async-signal-safe. */
void mc_remove_with_journals(const char *path);

/*
 * Remove what killed runs left: the files in path's folder named
 * <basename of prefix><pid><anything> whose process <pid> no longer runs
 * (with their SQLite journals). prefix is e.g. "catalogue.db.reingest-".
 */
void mc_remove_stale(const char *prefix);

/* snprintf into a fixed buffer, always terminated, truncating if needed. */
void mc_fmt(char *buf, size_t len, const char *fmt, ...) MC_PRINTF(3, 4);

/* Does the string end with suffix? */
int mc_ends_with(const char *s, const char *suffix);

/* Parse a size: digits, optionally followed by k/K, M or G (KiB, MiB,
 * GiB), nothing else. 0 and *bytes, or -1 when text is not one or
 * overflows. */
int mc_parse_size(const char *text, unsigned long long *bytes);

/* Make s[0..len) one line of plain text for a message: line ends, tabs,
 * other control bytes and DEL (from a header, a name or a parser's excerpt
 * quoted in it) become spaces. */
void mc_one_line(char *s, size_t len);

/* Is [s, s+len) valid UTF-8? On failure *bad_offset is set to the first
 * offending byte. */
int mc_utf8_valid(const char *s, size_t len, size_t *bad_offset);
/* How many bytes [s, s+len) starts with that are ASCII (below 0x80),
 * tested eight at a time. */
size_t mc_ascii_run(const char *s, size_t len);

/* Append the decimal digits of n, at least width of them (zeros before),
 * to buf at *at, within len bytes (the last kept for a NUL, which is not
 * written). No stdio and no allocation: safe in a signal handler. Inline:
 * numbers and dates are written with it for every row. */
static inline void mc_put_decimal(char *buf, size_t len, size_t *at, unsigned long long n,
				  int width)
{
	char digits[24];
	int k = 0;

	do {
		digits[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (k < width && k < (int)sizeof(digits))
		digits[k++] = '0';
	while (k && *at + 1 < len)
		buf[(*at)++] = digits[--k];
}

/* The cores this process may run on: its CPU affinity (taskset, a
 * container's cpuset), else the cores online; at least 1. */
long mc_cores(void);

#endif
