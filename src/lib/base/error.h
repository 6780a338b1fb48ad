/*
 * error: the one error convention of modelcat, and its exit statuses.
 *
 * A function that can fail returns 0 on success and -1 on failure (1
 * where "none" is a normal answer, as "no such model"), and takes an
 * mc_err pointer as its last parameter. The message is written once,
 * where the failure is known, with mc_error() ("return mc_error(err,
 * ...)"), as one line that names what failed: the file, the line and the
 * field where there are any. A caller that adds context does so with
 * mc_error_prefix(). Only a stage's main() turns an error into an exit
 * status and prints it; library code never exits (out of memory aside,
 * see util.h).
 *
 * Not failures: a value parser that tells why a value is not valid
 * (normalise's `char *why`, mc_parse_size) answers a question about its
 * input; its caller decides whether that is an error and writes it.
 *
 * Ownership: an mc_err is a plain value (a fixed buffer), usually on the
 * caller's stack; nothing to free. err may be NULL where the caller does
 * not want the message.
 */
#ifndef MODELCAT_ERROR_H
#define MODELCAT_ERROR_H

#include <stdarg.h>

#define MC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

/* Longest message kept, with its NUL (a longer one is cut). */
#define MC_ERR_MAX 2048

typedef struct mc_err {
	char msg[MC_ERR_MAX];       /* one line, NUL-terminated; "" when none */
} mc_err;

/* Exit statuses of every modelcat program (docs: README, "Exit status"). */
enum mc_exit {
	MC_EXIT_OK = 0,             /* success */
	MC_EXIT_QUARANTINE = 1,     /* ran; bad input quarantined, the rest loaded */
	MC_EXIT_USAGE = 2,          /* usage error */
	MC_EXIT_FAILURE = 3,        /* failure; nothing written */
	MC_EXIT_PARTIAL = 4,        /* some of the work was done, some failed */
	MC_EXIT_LOCKED = 75         /* another writer holds the lock (EX_TEMPFAIL) */
};

/* Empty the message. */
void mc_err_clear(mc_err *err);
/* Set the message (printf-style); returns -1. */
int mc_error(mc_err *err, const char *fmt, ...) MC_PRINTF(2, 3);
int mc_verror(mc_err *err, const char *fmt, va_list ap) MC_PRINTF(2, 0);
/* Put "PREFIX: " before the message already set; returns -1. */
int mc_error_prefix(mc_err *err, const char *fmt, ...) MC_PRINTF(2, 3);

#endif
