/*
 * job: what the nightly job needs around the stages: a lock that lets one
 * run at a time, timestamped log lines, running a stage program with its
 * output logged, and publishing a freshly built folder over the published
 * one by replacing only the files that changed.
 */
#ifndef MODELCAT_JOB_H
#define MODELCAT_JOB_H

#include <stddef.h>
#include <sys/types.h>
#include "base/util.h"

/*
 * Take the lock file path (created if needed) without waiting. Returns the
 * open descriptor (keep it until the end), or -1 when another process holds
 * it (holder gets what it wrote there: "pid N since TIME") or on error
 * (holder empty, err set).
 */
int job_lock(const char *path, char *holder, size_t holderlen, mc_err *err);

/* Write "YYYY-MM-DDTHH:MM:SSZ program: message" on stderr. */
void job_log(const char *program, const char *fmt, ...) MC_PRINTF(2, 3);

/*
 * Run bindir/argv[0] with argv, its environment plus the NULL-terminated
 * "NAME=VALUE" strings of env, and log each line it prints (stdout and
 * stderr) with a timestamp under its name. Lines it prints on stdout are
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

/* The process id of the stage job_run() is waiting for, 0 when none: a
 * signal handler passes its signal on to it. */
pid_t job_child(void);

/* Remove a folder and everything in it (a build folder of ours). A
 * symbolic link, at path or inside, is removed itself, never followed. */
void job_remove_tree(const char *path);

/* Remove, in the folder path and below, the temporary files that
 * write_atomically() names FILE.tmp-PID, of runs that were killed (PID no
 * longer runs): a published folder is left with whole files only. */
void job_remove_stale_temps(const char *path);

#endif
