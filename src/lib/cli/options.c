#include "cli/options.h"
#include "cli/stage.h"
#include "base/error.h"
#include "base/sbuf.h"
#include "base/alloc.h"
#include "base/printf.h"
#include "base/text.h"
#include "base/day.h"
#include "base/paths.h"
#include "db/snapshot.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The column the help texts start in. */
#define HELP_COLUMN 20

/* The entries of table and of the tables it includes, one after another. */
typedef struct opt_iter {
	opt_spec *stack[4];         /* the tables being walked */
	size_t depth;               /* entries used in stack */
} opt_iter;

static opt_spec *iter_next(opt_iter *it)
{
	while (it->depth) {
		opt_spec *o = it->stack[it->depth - 1];

		if (!o->name) {
			it->depth--;
			continue;
		}
		it->stack[it->depth - 1] = o + 1;
		if (o->type == OPT_INCLUDE) {
			if (it->depth < sizeof(it->stack) / sizeof(it->stack[0]))
				it->stack[it->depth++] = o->dest;
			continue;
		}
		return o;
	}
	return NULL;
}

static void iter_start(opt_iter *it, const opt_spec *table)
{
	it->stack[0] = (opt_spec *)table;
	it->depth = 1;
}

/* "a, b or c" into out. */
static void choice_words(const char *const *words, char *out, size_t len)
{
	size_t i, used = 0;

	out[0] = '\0';
	for (i = 0; words[i] && used < len; i++) {
		const char *sep = !i ? "" : words[i + 1] ? ", " : " or ";

		used += (size_t)snprintf(out + used, len - used, "%s%s", sep, words[i]);
	}
}

/* The option that name (up to len bytes) names: exact, or a unique prefix. */
static opt_spec *find(const opt_command *cmd, const char *name, size_t len, int *ambiguous)
{
	opt_spec *o, *found = NULL;
	opt_iter it;
	int n = 0;

	*ambiguous = 0;
	iter_start(&it, cmd->options);
	while ((o = iter_next(&it))) {
		if (strncmp(o->name, name, len))
			continue;
		if (!o->name[len])
			return o;
		found = o;
		n++;
	}
	*ambiguous = n > 1;
	return n == 1 ? found : NULL;
}

/* Print a usage error (as stage_usage_error()); returns -1. */
static int usage_error(const char *program, const char *fmt, ...) MC_PRINTF(2, 3);
static int usage_error(const char *program, const char *fmt, ...)
{
	char text[MC_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	stage_usage_error(program, "%s", text);
	return -1;
}

/* Report the bad value of o; returns -1. */
static int bad_value(const char *program, const opt_spec *o, const char *value)
{
	char text[256];

	if (o->what)
		return usage_error(program, "--%s '%s' is not %s", o->name, value, o->what);
	switch (o->type) {
	case OPT_DAY:
		return usage_error(program, "--%s '%s' is not a date YYYY-MM-DD", o->name, value);
	case OPT_SNAPSHOT:
		return usage_error(program, "--%s '%s' is not a snapshot YYYY-MM-DD or YYYY-MM-DD.N",
				   o->name, value);
	case OPT_CHOICE:
		choice_words(o->choices, text, sizeof(text));
		return usage_error(program, "--%s must be %s", o->name, text);
	case OPT_SIZE:
		return usage_error(program, "--%s '%s' is not a size (bytes, or with k, M or G)",
				   o->name, value);
	default:
		return usage_error(program, "--%s '%s' is not a number from %lld to %lld",
				   o->name, value, o->min, o->max);
	}
}

/* Check value and store it in o's destination: 0, or -1 (message printed). */
static int store_value(const char *program, opt_spec *o, const char *value)
{
	unsigned long long size;
	snapshot_ref ref;
	opt_list *list;
	long long number;
	char *end;
	size_t i;

	switch (o->type) {
	case OPT_FLAG:
		*(int *)o->dest = 1;
		break;
	case OPT_STRING:
	case OPT_CATALOGUE:
		*(const char **)o->dest = value;
		break;
	case OPT_DAY:
		if (!day_valid(value))
			return bad_value(program, o, value);
		mc_fmt(o->dest, 11, "%s", value);
		break;
	case OPT_SNAPSHOT:
		if (snapshot_ref_parse(value, &ref))
			return bad_value(program, o, value);
		mc_fmt(o->dest, 16, "%s", value);
		break;
	case OPT_CHOICE:
		for (i = 0; o->choices[i] && strcmp(o->choices[i], value); i++)
			;
		if (!o->choices[i])
			return bad_value(program, o, value);
		*(const char **)o->dest = o->choices[i];
		break;
	case OPT_INT:
		errno = 0;
		number = strtoll(value, &end, 10);
		if (errno || end == value || *end || number < o->min || number > o->max)
			return bad_value(program, o, value);
		*(long *)o->dest = (long)number;
		break;
	case OPT_SIZE:
		if (mc_parse_size(value, &size) || size < (unsigned long long)o->min ||
		    size > (unsigned long long)o->max)
			return bad_value(program, o, value);
		*(unsigned long long *)o->dest = size;
		break;
	case OPT_LIST:
		list = o->dest;
		list->items = xrealloc(list->items, (list->n + 1) * sizeof(*list->items));
		list->items[list->n++] = value;
		break;
	default:
		break;
	}
	o->given = value;
	return 0;
}

/* Read the option at argv[*i] (and its argument): 0, 1 (answered), -1. */
static int one_option(const opt_command *cmd, int argc, char **argv, int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '='), *value = NULL;
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	int ambiguous = 0, named = argv[*i][1] == '-' && len && !eq;
	opt_spec *o;

	if (!strcmp(argv[*i], "-h") || (named && !strncmp("help", arg, len))) {
		opt_help(cmd);
		return 1;
	}
	if (named && !strncmp("version", arg, len)) {
		stage_version(cmd->program);
		return 1;
	}
	o = argv[*i][1] == '-' && len ? find(cmd, arg, len, &ambiguous) : NULL;
	if (!o)
		return usage_error(cmd->program, "%s option '%s'",
				   ambiguous ? "ambiguous" : "unknown", argv[*i]);
	if (o->type == OPT_FLAG) {
		if (eq)
			return usage_error(cmd->program, "--%s takes no value", o->name);
		return store_value(cmd->program, o, "");
	}
	if (eq)
		value = eq + 1;
	else if (*i + 1 < argc)
		value = argv[++*i];
	else
		return usage_error(cmd->program, "--%s needs %s", o->name, o->arg);
	return store_value(cmd->program, o, value);
}

/* The OPT_CATALOGUE entries not given (or given ""): the catalogue
 * paths_db() names. */
static void catalogue_default(const opt_spec *table)
{
	const char **path;
	opt_iter it;
	opt_spec *o;

	iter_start(&it, table);
	while ((o = iter_next(&it))) {
		path = o->dest;
		if (o->type == OPT_CATALOGUE && (!*path || !**path))
			*path = paths_db();
	}
}

int opt_parse(const opt_command *cmd, int argc, char **argv, int *first)
{
	char **args = xcalloc((size_t)argc + 1, sizeof(*args));
	int i, n = 0, rc = 0, ended = 0;

	for (i = 1; i < argc && !rc; i++) {
		if (ended || argv[i][0] != '-' || !argv[i][1])
			args[n++] = argv[i];
		else if (!strcmp(argv[i], "--"))
			ended = 1;
		else
			rc = one_option(cmd, argc, argv, &i);
	}
	/* the arguments go to the end, in their order */
	*first = argc - n;
	memcpy(argv + *first, args, (size_t)n * sizeof(*args));
	free(args);
	if (!rc)
		catalogue_default(cmd->options);
	return rc;
}

int opt_parse_table(const opt_command *cmd, opt_spec *options, int argc, char **argv,
		    int *first)
{
	opt_command with = *cmd;

	with.options = options;
	return opt_parse(&with, argc, argv, first);
}

int opt_status(int rc)
{
	return rc > 0 ? MC_EXIT_OK : MC_EXIT_USAGE;
}

/* One option's lines of --help. */
static void help_entry(const opt_spec *o, sbuf *out)
{
	size_t start = out->len;
	const char *p;

	sbuf_addf(out, "  --%s", o->name);
	if (o->arg)
		sbuf_addf(out, " %s", o->arg);
	/* an option too long for its column has its help on the next line */
	if (out->len - start + 2 > HELP_COLUMN)
		sbuf_addf(out, "\n%*s", HELP_COLUMN, "");
	else
		sbuf_addf(out, "%*s", (int)(HELP_COLUMN - (out->len - start)), "");
	for (p = o->help; *p; p++) {
		sbuf_addc(out, *p);
		if (*p == '\n')
			sbuf_addf(out, "%*s", HELP_COLUMN, "");
	}
	sbuf_addc(out, '\n');
}

void opt_help_text(const opt_command *cmd, sbuf *out)
{
	const opt_spec *o;
	opt_iter it;

	sbuf_addf(out, "%s\n%s\n", cmd->usage, cmd->description);
	iter_start(&it, cmd->options);
	while ((o = iter_next(&it)))
		help_entry(o, out);
	sbuf_adds(out, "  --help, --version\n");
	if (cmd->notes)
		sbuf_addf(out, "\n%s", cmd->notes);
	sbuf_addf(out, "\n%s", cmd->exit);
}

void opt_help(const opt_command *cmd)
{
	sbuf out;

	sbuf_init(&out);
	opt_help_text(cmd, &out);
	fwrite(out.data, 1, out.len, stdout);
	sbuf_release(&out);
}

void opt_argv(const opt_spec *table, char ***argv, size_t *n)
{
	const opt_spec *o;
	opt_iter it;
	size_t i;

	iter_start(&it, table);
	while ((o = iter_next(&it))) {
		const opt_list *list = o->dest;
		size_t count = o->type == OPT_LIST ? list->n : o->given != NULL;

		for (i = 0; i < count; i++) {
			char *flag = xmalloc(strlen(o->name) + 3);

			sprintf(flag, "--%s", o->name);
			*argv = xrealloc(*argv, (*n + 3) * sizeof(**argv));
			(*argv)[(*n)++] = flag;
			if (o->type != OPT_FLAG)
				(*argv)[(*n)++] = xstrdup(o->type == OPT_LIST ? list->items[i] :
							  o->given);
			(*argv)[*n] = NULL;
		}
	}
}

/* Is name among known[0..n) or matched by a pattern? */
static int name_known(const char *name, const char *const *known, size_t n,
		      const char *const *patterns)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(name, known[i]))
			return 1;
	for (i = 0; patterns && patterns[i]; i++)
		if (!fnmatch(patterns[i], name, 0))
			return 1;
	return 0;
}

int opt_check_known(const char *program, const char *option, const opt_list *given,
		    const char *const *known, size_t nknown, const char *const *patterns,
		    const char *what)
{
	size_t i, k;
	sbuf list;
	int rc;

	for (i = 0; i < given->n; i++)
		if (!name_known(given->items[i], known, nknown, patterns))
			break;
	if (i == given->n)
		return 0;
	sbuf_init(&list);
	for (k = 0; k < nknown; k++)
		/* each name once, in the order first given */
		if (!name_known(known[k], known, k, NULL))
			sbuf_addf(&list, "%s%s", list.len ? ", " : "", known[k]);
	if (!list.len)
		sbuf_adds(&list, "none");
	for (k = 0; patterns && patterns[k]; k++)
		sbuf_addf(&list, "%s%s", k ? ", " : "; and names of the form ", patterns[k]);
	rc = stage_usage_error(program, "--%s %s: %s (the known ones: %s)", option,
			       given->items[i], what, list.data);
	sbuf_release(&list);
	return rc;
}

void opt_release(opt_spec *table)
{
	opt_spec *o;
	opt_iter it;

	iter_start(&it, table);
	while ((o = iter_next(&it))) {
		if (o->type == OPT_LIST) {
			opt_list *list = o->dest;

			free(list->items);
			list->items = NULL;
			list->n = 0;
		}
	}
}
