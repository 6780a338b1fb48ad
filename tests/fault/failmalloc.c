/*
 * failmalloc: an LD_PRELOAD library that makes one memory allocation
 * fail, to see what a program does when memory runs out at that point.
 *
 *   FAILMALLOC_AT=N      the Nth call to malloc, calloc or realloc in the
 *                        process (counted from 1, every thread) returns
 *                        NULL with errno ENOMEM; the others succeed.
 *                        Unset or 0: none fails.
 *   FAILMALLOC_COUNT=F   when the process exits normally, write the number
 *                        of calls it made to the file F (to learn how many
 *                        points there are to fail).
 *
 * The calls go on to glibc's own allocator (__libc_malloc and friends), so
 * the library needs nothing but libc. It does not work under
 * AddressSanitizer or valgrind, which bring their own allocators.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *p, size_t n);

void *malloc(size_t n);
void *calloc(size_t count, size_t size);
void *realloc(void *p, size_t n);

static unsigned long calls;     /* allocations so far */
static unsigned long fail_at;   /* the one to fail; 0: none */
static int ready;               /* fail_at was read */

/* Count this call; 1 when it is the one to fail. getenv and strtoul do
 * not allocate, so they may run here. */
static int failing(void)
{
	unsigned long n;

	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		const char *at = getenv("FAILMALLOC_AT");

		fail_at = at ? strtoul(at, NULL, 10) : 0;
		__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	}
	n = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	if (fail_at && n == fail_at) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *malloc(size_t n)
{
	return failing() ? NULL : __libc_malloc(n);
}

void *calloc(size_t count, size_t size)
{
	return failing() ? NULL : __libc_calloc(count, size);
}

void *realloc(void *p, size_t n)
{
	return failing() ? NULL : __libc_realloc(p, n);
}

/* Write the count, with nothing that allocates. */
__attribute__((destructor)) static void failmalloc_report(void)
{
	const char *path = getenv("FAILMALLOC_COUNT");
	char digits[24], text[24];
	unsigned long n = __atomic_load_n(&calls, __ATOMIC_RELAXED);
	size_t k = 0, i;
	int fd;

	if (!path || !*path)
		return;
	do {
		digits[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	for (i = 0; i < k; i++)
		text[i] = digits[k - 1 - i];
	text[k++] = '\n';
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, text, k) < 0)
		k = 0;
	close(fd);
}
