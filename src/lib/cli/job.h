/*
 * job: what the nightly job needs around the stages (its lock: the
 * catalogue's writer lock, cli/writelock.h): timestamped log lines,
 * running a stage program with its output logged, the writer lock handed
 * on and a signal passed on to it, removing a folder of ours without
 * following symbolic links. (Publishing: out/site.h.)
 */
#ifndef MODELCAT_JOB_H
#define MODELCAT_JOB_H

#include <stddef.h>
#include <sys/types.h>
#include "base/sbuf.h"

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

/* The process id of the stage job_run() is waiting for, 0 when none: a
 * signal handler passes its signal on to it. */
pid_t job_child(void);
/* Catch SIGINT, SIGTERM and SIGHUP for run and publish: the running stage
 * gets the signal and is waited for, the site version being built and the
 * files on the cleanup list are removed, and the process ends with 128 +
 * the signal's number. */
void job_catch_signals(void);

/* Remove a folder and everything in it (a build folder of ours). A
 * symbolic link, at path or inside, is removed itself, never followed. */
void job_remove_tree(const char *path);

/* Say, one log line each, the files in the folder path and below named
 * FILE.tmp-PID (PID no longer running), as runs publishing file by file
 * (before site versions, publish/site.h) left them when killed: nothing
 * proves that one of them is such a file rather than a user's, so each is
 * left as it is. */
void job_note_stale_temps(const char *program, const char *path);

#endif
