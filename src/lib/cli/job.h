/*
 * job: what the nightly job needs around the stages (its lock: the
 * catalogue's writer lock, cli/writelock.h): timestamped log lines,
 * running a stage program with its output logged and the writer lock
 * handed on, and publishing a freshly built folder over the published
 * one by replacing only the files that changed.
 */
#ifndef MODELCAT_JOB_H
#define MODELCAT_JOB_H

#include <stddef.h>
#include "base/util.h"

/* Write "YYYY-MM-DDTHH:MM:SSZ program: message" on stderr. */
void job_log(const char *program, const char *fmt, ...) MC_PRINTF(2, 3);

/*
 * Run bindir/argv[0] with argv, its environment plus the NULL-terminated
 * "NAME=VALUE" strings of env, and log each line it prints (stdout and
 * stderr) with a timestamp under its name. A writer lock this process
 * holds is handed on to it (writelock_hand_on()). Lines it prints on stdout are
 * also appended to out, when out is not NULL. Returns its exit status, or
 * -1 when it could not be run (err).
 */
int job_run(const char *bindir, char *const *argv, char *const *env, sbuf *out, mc_err *err);

/*
 * Make the folder dest hold what src holds: each file whose content differs
 * (or is new) is copied beside its destination and renamed into place, so a
 * reader never sees half a file and an unchanged file keeps its time;
 * files under dest that src does not have are removed when prune is set.
 * *written counts the files written. 0, or -1 (err).
 */
int job_publish(const char *src, const char *dest, int prune, unsigned long *written, mc_err *err);

/* Remove a folder and everything in it (a build folder of ours). */
void job_remove_tree(const char *path);

/* Remove, in the folder path and below, the temporary files that
 * write_atomically() names FILE.tmp-PID, of runs that were killed (PID no
 * longer runs): a published folder is left with whole files only. */
void job_remove_stale_temps(const char *path);

#endif
