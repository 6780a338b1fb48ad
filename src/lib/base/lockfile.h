/*
 * lockfile: the note a lock file carries of who holds it, shared by the
 * catalogue's writer lock (cli/writelock) and a site's publish lock
 * (publish/site_own). The lock itself is flock(2) on the file.
 */
#ifndef MODELCAT_LOCKFILE_H
#define MODELCAT_LOCKFILE_H

#include <stddef.h>

/* The holder's note of the lock file fd ("pid N (WHO) since TIME"), its
 * first line, into holder; "another process" when it has none. */
void lockfile_holder(int fd, char *holder, size_t len);
/* Write this process's note into the lock file fd, held: "pid N (who)
 * since TIME" in UTC. A note that cannot be written is left out: the lock
 * holds all the same. */
void lockfile_claim(int fd, const char *who);

#endif
