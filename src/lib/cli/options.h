/*
 * options: the one command-line parser of the stage programs. A stage
 * declares its options as a table of opt_spec entries, each naming its
 * long option, its argument, its help text, its type and where its value
 * goes; opt_parse() reads the command line against the table and writes
 * --help (generated from the table), --version, and every usage error:
 * an unknown option, a missing argument, a bad value, as one line on
 * stderr, "modelcat-NAME: ... (see modelcat-NAME --help)".
 *
 * Options are long (--name VALUE or --name=VALUE; a unique prefix of a
 * name is accepted); -h is --help; "--" ends the options. Options and
 * arguments may come in any order: the arguments are moved, in their
 * order, to the end of argv.
 *
 * Ownership: a table and the strings its destinations get point into argv
 * and the table; OPT_LIST destinations are allocated and freed by
 * opt_release(). opt_parse() records in each entry the text last given
 * for it (opt_spec.given), so a table is parsed once.
 */
#ifndef MODELCAT_OPTIONS_H
#define MODELCAT_OPTIONS_H

#include <stddef.h>
#include "base/sbuf.h"

/* What an option takes, and the type of its destination. */
enum opt_type {
	OPT_END = 0,   /* ends a table */
	OPT_FLAG,      /* no argument; int *: set to 1 */
	OPT_STRING,    /* const char **: the argument */
	OPT_DAY,       /* char[11]: a date YYYY-MM-DD, checked */
	OPT_CHOICE,    /* const char **: one of the words in choices */
	OPT_INT,       /* long *: a whole number from min to max */
	OPT_SIZE,      /* unsigned long long *: mc_parse_size(), min to max */
	OPT_LIST,      /* opt_list *: every argument given (repeatable) */
	OPT_INCLUDE,   /* the entries of the table at dest, in place */
	OPT_SNAPSHOT,  /* char[16]: a snapshot, DATE or DATE.N, checked */
	OPT_CATALOGUE  /* const char **: the argument; not given (or ""), the
			  catalogue paths_db() names ($MODELCAT_DB, else
			  ./modelcat.db): a stage works the path out once, here */
};

/* The arguments of a repeatable option, in command-line order. */
typedef struct opt_list {
	const char **items;         /* the arguments (pointers into argv); owned array */
	size_t n;                   /* entries in items */
} opt_list;

/* One option of a table. */
typedef struct opt_spec {
	const char *name;           /* long name without "--"; NULL ends a table */
	const char *arg;            /* its argument in --help ("PATH"); NULL for a flag */
	const char *help;           /* --help text; '\n' starts an indented line */
	enum opt_type type;         /* what it takes */
	void *dest;                 /* where the value goes (see enum opt_type) */
	long long min, max;         /* OPT_INT, OPT_SIZE: the values allowed */
	const char *const *choices; /* OPT_CHOICE: the words, NULL-terminated */
	const char *what;           /* bad value: "--NAME 'V' is not WHAT"; NULL: generated */
	const char *given;          /* set by opt_parse(): the text last given
				       ("" for a flag), NULL if not given */
} opt_spec;

/* A stage's command line: its name, its help text, its options. */
typedef struct opt_command {
	const char *program;        /* "modelcat-NAME": messages, --version */
	const char *usage;          /* the usage lines, each ending in '\n' */
	const char *description;    /* what it does: paragraphs, each line ending in '\n' */
	const char *notes;          /* text after the option list, or NULL */
	const char *exit;           /* the exit statuses ("Exit: 0 ...\n") */
	opt_spec *options;          /* the table, ended by an OPT_END entry */
} opt_command;

/* The entries every stage that has them declares the same way. */
#define OPT_DB(to) \
	{ .name = "db", .arg = "PATH", .type = OPT_CATALOGUE, .dest = (to), \
	  .help = "the catalogue (default $MODELCAT_DB, else ./modelcat.db)" }
#define OPT_AS_OF(to, text) \
	{ .name = "as-of", .arg = "DATE", .type = OPT_DAY, .dest = (to), .help = (text) }
/* --as-of of the commands that read a snapshot: DATE (that day's last) or
 * DATE.N (its N-th, from 1); db/snapshot.h snapshot_ref_parse() */
#define OPT_AS_OF_SNAPSHOT(to, text) \
	{ .name = "as-of", .arg = "DATE[.N]", .type = OPT_SNAPSHOT, .dest = (to), \
	  .help = (text) }
#define OPT_ALLOW_FUTURE(to) \
	{ .name = "allow-future", .type = OPT_FLAG, .dest = (to), \
	  .help = "accept an --as-of after tomorrow (UTC)" }
/* A writer's wait for the catalogue's writer lock (cli/writelock.h), long *. */
#define OPT_WAIT(to) \
	{ .name = "wait", .arg = "SECONDS", .type = OPT_INT, .dest = (to), .min = 0, \
	  .max = 86400, .what = "a number of seconds", \
	  .help = "wait up to SECONDS for another writer of the\n" \
		  "catalogue to finish (default 0: exit 75 at once)" }
/* The programs that parse export files: each column of a file that the
 * column map lacks on a line of its own, not only their count (int *). */
#define OPT_VERBOSE(to) \
	{ .name = "verbose", .type = OPT_FLAG, .dest = (to), \
	  .help = "list each column not in the column map (default:\n" \
		  "their count, a line per file)" }
#define OPT_FORMAT(to, words, text) \
	{ .name = "format", .arg = "FORMAT", .type = OPT_CHOICE, .dest = (to), \
	  .choices = (words), .help = (text) }
#define OPT_TABLE(table) { .name = "", .type = OPT_INCLUDE, .dest = (table) }
#define OPT_DONE { .name = NULL, .type = OPT_END }

/*
 * Read argv[1..argc) against cmd->options, storing each value. The
 * arguments that are not options end up, in order, in argv[*first..argc).
 * Returns 0 to go on; 1 when --help or --version was answered on stdout;
 * -1 on a usage error (message printed). opt_status() turns 1 and -1 into
 * the exit status.
 */
int opt_parse(const opt_command *cmd, int argc, char **argv, int *first);
/* opt_parse() against the texts of cmd (a stage's static ones; their own
 * table is not used) and the table options, which points into main's
 * variables. */
int opt_parse_table(const opt_command *cmd, opt_spec *options, int argc, char **argv,
		    int *first);
/* The exit status for opt_parse()'s 1 (MC_EXIT_OK) or -1 (MC_EXIT_USAGE). */
int opt_status(int rc);

/* Write the --help text of cmd to stdout. */
void opt_help(const opt_command *cmd);
/* The same text, appended to out: the usage and description, one entry
 * per option with its help from column 20 (on the next line when the
 * option and its argument leave no room), --help and --version, the notes
 * and the exit statuses. */
void opt_help_text(const opt_command *cmd, sbuf *out);

/*
 * Append to the NULL-terminated, allocated array *argv (n entries, the
 * NULL not counted) the options of table as given: "--NAME" and the text
 * given, once per argument of a repeatable option. The strings are
 * allocated; the caller frees them and the array.
 */
void opt_argv(const opt_spec *table, char ***argv, size_t *n);

/*
 * Is every argument given to the repeatable option --option among the
 * names known (nknown of them) or matched by one of the fnmatch patterns
 * (NULL-terminated, or NULL)? 0; else one usage error on stderr naming
 * the unknown argument and what is known ("--accept-export X: WHAT (the
 * known ones: a, b; and names of the form *_x)"), and MC_EXIT_USAGE.
 */
int opt_check_known(const char *program, const char *option, const opt_list *given,
		    const char *const *known, size_t nknown, const char *const *patterns,
		    const char *what);

/* Free what opt_parse() allocated for the table's OPT_LIST entries. */
void opt_release(opt_spec *table);

#endif
