/*
 * cleanup: files to remove when the program stops short (out of memory,
 * or the signals stage_init() catches): a temporary file, or a catalogue
 * the run created; a database file removed with its SQLite journals; and
 * what killed runs left behind.
 */
#ifndef MODELCAT_CLEANUP_H
#define MODELCAT_CLEANUP_H

/*
 * Each path registered is removed with its SQLite journals (-journal,
 * -wal, -shm). At most MC_CLEANUP_MAX paths at once; paths longer than
 * PATH_MAX are not kept. mc_cleanup_remove() forgets a path (the file is
 * now complete, or was renamed).
 */
#define MC_CLEANUP_MAX 8
void mc_cleanup_add(const char *path);
void mc_cleanup_remove(const char *path);
/* Remove the registered files now (async-signal-safe). */
void mc_cleanup_run(void);

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

#endif
