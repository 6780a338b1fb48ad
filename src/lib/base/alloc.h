/*
 * alloc: allocation that never returns NULL. Out of memory is not an
 * input error a stage could report and carry on from: when an allocation
 * fails, the program stops at once (mc_out_of_memory) with exit status 3
 * (MC_EXIT_FAILURE), after
 * "PROGRAM: out of memory (allocating N bytes); stopped" on stderr and
 * the removal of the files registered with mc_cleanup_add()
 * (base/cleanup.h). Whatever was being written is left as a crash leaves
 * it, which every writer is made to survive: an open catalogue
 * transaction is rolled back by SQLite the next time the catalogue is
 * opened, a temporary file is removed, no file is ever half-written under
 * its final name.
 */
#ifndef MODELCAT_ALLOC_H
#define MODELCAT_ALLOC_H

#include <stddef.h>

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

/* Report that n bytes could not be allocated, remove the registered
 * files, and end the process (_exit: no atexit handlers, no stdio flush,
 * so it is safe on any thread and with any lock held). */
__attribute__((noreturn)) void mc_out_of_memory(size_t n);

#endif
