/*
 * writelock: the catalogue's writer lock. Every command that writes the
 * catalogue (ingest, load, reingest, translate, fetch, run, publish) holds
 * it for its whole write; readers take none. It is an flock() on
 * TARGET.lock, beside the file the catalogue is (catalogue_target(): a
 * symbolic link --db and its target share one lock), which holds the line
 * "pid N (PROGRAM) since TIME" while it is held and is removed when it is
 * let go.
 *
 * A job that holds the lock and runs stage programs (run: job_run()) hands
 * it on: the child inherits the locked descriptor and MODELCAT_LOCK_FD =
 * "N:DEV:INO"; a program whose descriptor N is open on that file counts as
 * holding the lock and does not take it again, whichever catalogue it
 * writes (run's stages write run's copy of the catalogue).
 *
 * Ownership: a writelock is a plain value on the caller's stack;
 * writelock_release() lets it go (the end of the process does too).
 */
#ifndef MODELCAT_WRITELOCK_H
#define MODELCAT_WRITELOCK_H

#include <limits.h>
#include "base/error.h"

/* The environment variable that hands the lock to a child. */
#define WRITELOCK_ENV "MODELCAT_LOCK_FD"

/* The longest --wait, in seconds. */
#define WRITELOCK_WAIT_MAX 86400

typedef struct writelock {
	int fd;                     /* the lock file, open and locked; -1: none */
	int inherited;              /* held by the job that started us */
	char path[PATH_MAX];        /* TARGET.lock */
} writelock;

/*
 * Take the writer lock of the catalogue db (its path, as the stage's
 * options worked it out), waiting up to wait seconds for another holder to let it go; program
 * names us in the holder's line. Checks db first (catalogue_target(): a
 * device, FIFO, socket or folder is refused before anything is written).
 * Returns 0 (held), 1 when another process still holds it (err: "PATH:
 * held by pid N (PROGRAM) since TIME"), or -1 (err).
 */
int writelock_take(writelock *l, const char *db, const char *program, long wait, mc_err *err);

/* Let the lock go (an inherited one stays with the job): the lock file is
 * removed first, while still held. Accepts a zeroed or failed lock. */
void writelock_release(writelock *l);

/*
 * For a stage's main(): writelock_take(), printing the error as one line
 * ("modelcat-NAME: message") on failure. Returns MC_EXIT_OK (held),
 * MC_EXIT_LOCKED or MC_EXIT_FAILURE.
 */
int writelock_stage(writelock *l, const char *program, const char *db, long wait);

/* In a child of ours between fork() and exec() (job_run()): hand it the
 * lock this process holds, if any: the descriptor stays open across exec
 * and WRITELOCK_ENV names it. Async-signal-safe. */
void writelock_hand_on(void);

#endif
