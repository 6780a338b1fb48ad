/* The option parser: values of every type, arguments in any order, the
 * usage errors, and the argv rebuilt from what was given. */
#include "cli/options.h"
#include "base/error.h"
#include "base/sbuf.h"
#include "base/alloc.h"
#include "unit.h"

#include <stdlib.h>

/* The settings one parse fills in. */
typedef struct settings {
	int flag;                   /* --flag */
	const char *name;           /* --name */
	char day[11];               /* --day */
	const char *format;         /* --format */
	long count;                 /* --count */
	unsigned long long size;    /* --size */
	opt_list items;             /* --item, repeatable */
} settings;

static const char *const formats[] = { "text", "json", NULL };

/* Parse the NULL-terminated words (at most 30) against table; opt_parse()'s
 * result. */
static int parse(opt_spec *table, const char **words, int *first, int *argc)
{
	static char *argv[32];
	opt_spec options[] = { OPT_TABLE(table), OPT_DONE };
	opt_command cmd = { "modelcat-unit", "usage: unit\n", "", NULL, "Exit: 0\n", options };
	int n = 0;

	argv[n++] = (char *)"modelcat-unit";
	while (*words)
		argv[n++] = (char *)*words++;
	argv[n] = NULL;
	*argc = n;
	return opt_parse(&cmd, n, argv, first);
}

static void fill(settings *s, opt_spec table[8])
{
	const opt_spec t[8] = {
		{ .name = "flag", .type = OPT_FLAG, .dest = &s->flag, .help = "a flag" },
		{ .name = "name", .arg = "NAME", .type = OPT_STRING, .dest = &s->name,
		  .help = "a name" },
		{ .name = "day", .arg = "DATE", .type = OPT_DAY, .dest = s->day, .help = "a day" },
		OPT_FORMAT(&s->format, formats, "text or json"),
		{ .name = "count", .arg = "N", .type = OPT_INT, .dest = &s->count, .min = 0,
		  .max = 10, .help = "a count" },
		{ .name = "size", .arg = "SIZE", .type = OPT_SIZE, .dest = &s->size, .min = 1,
		  .max = 1LL << 40, .help = "a size" },
		{ .name = "item", .arg = "X", .type = OPT_LIST, .dest = &s->items,
		  .help = "an item" },
		OPT_DONE
	};

	memset(s, 0, sizeof(*s));
	memcpy(table, t, sizeof(t));
}

static void test_values(void)
{
	const char *words[] = { "a", "--flag", "--name=x", "--day", "2024-02-29", "b",
				"--format", "json", "--cou", "7", "--size", "2k", "--item", "1",
				"--item=2", "--", "--flag", NULL };
	opt_spec table[8];
	settings s;
	char **argv = NULL;
	size_t n = 0;
	int first, argc;

	fill(&s, table);
	CHECK(parse(table, words, &first, &argc) == 0, "a full command line parses");
	CHECK(s.flag == 1, "the flag is set");
	CHECK_STR(s.name, "x", "--name=x");
	CHECK_STR(s.day, "2024-02-29", "--day DATE");
	CHECK_STR(s.format, "json", "--format is one of its words");
	CHECK(s.count == 7, "a unique prefix names --count");
	CHECK(s.size == 2048, "--size 2k is 2048 bytes");
	CHECK(s.items.n == 2, "--item twice gives two items");
	CHECK(argc - first == 3, "three arguments remain");
	opt_argv(table, &argv, &n);
	CHECK(n == 15, "the options given make 15 words (%zu)", n);
	CHECK(n > 1 && !strcmp(argv[0], "--flag") && !strcmp(argv[1], "--name") &&
	      !strcmp(argv[2], "x") && !argv[n], "they start --flag --name x, NULL-terminated");
	CHECK(n == 15 && !strcmp(argv[11], "--item") && !strcmp(argv[14], "2"),
	      "each item is passed on");
	mc_free_strings(argv, n);
	opt_release(table);
	CHECK(!s.items.items && !s.items.n, "opt_release empties the list");
}

static void test_errors(void)
{
	static const char *cases[][3] = {
		{ "--frob", NULL, NULL }, { "--name", NULL, NULL }, { "--flag=1", NULL, NULL },
		{ "--day", "2024-02-30", NULL }, { "--format", "xml", NULL },
		{ "--count", "11", NULL }, { "--count", "1x", NULL }, { "--size", "0", NULL },
		{ "--size", "lots", NULL }, { "-x", NULL, NULL },
	};
	opt_spec table[8];
	settings s;
	size_t i;
	int first, argc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fill(&s, table);
		CHECK(parse(table, cases[i], &first, &argc) == -1, "%s %s is a usage error",
		      cases[i][0], cases[i][1] ? cases[i][1] : "");
		opt_release(table);
	}
	CHECK(opt_status(-1) == MC_EXIT_USAGE && opt_status(1) == MC_EXIT_OK,
	      "usage errors exit 2, --help and --version 0");
}

/* --help: the entries of a table, short ones beside their help, a long
 * one with its help on the next line, both from column 20. */
static void test_help(void)
{
	static const char *const want =
		"usage: unit\n"
		"\n"
		"Does things.\n"
		"\n"
		"  --db PATH         the catalogue\n"
		"                    (second line)\n"
		"  --flag            a flag\n"
		"  --connect-timeout SECONDS\n"
		"                    limit on connecting\n"
		"  --help, --version\n"
		"\n"
		"Exit: 0\n";
	const char *db = NULL;
	long seconds = 0;
	int flag = 0;
	opt_spec options[] = {
		{ .name = "db", .arg = "PATH", .type = OPT_STRING, .dest = &db,
		  .help = "the catalogue\n(second line)" },
		{ .name = "flag", .type = OPT_FLAG, .dest = &flag, .help = "a flag" },
		{ .name = "connect-timeout", .arg = "SECONDS", .type = OPT_INT, .dest = &seconds,
		  .max = 10, .help = "limit on connecting" },
		OPT_DONE
	};
	opt_command cmd = { "modelcat-unit", "usage: unit\n", "Does things.\n", NULL,
			    "Exit: 0\n", options };
	sbuf out;

	sbuf_init(&out);
	opt_help_text(&cmd, &out);
	CHECK_STR(out.data, want, "--help lays out the table");
	sbuf_release(&out);
}

/* --db: the path given, else $MODELCAT_DB, else ./modelcat.db, worked
 * out by the parse itself. */
static void test_catalogue(void)
{
	const char *db = NULL;
	opt_spec table[] = { OPT_DB(&db), OPT_DONE };
	const char *given[] = { "--db", "given.db", NULL };
	const char *empty[] = { "--db=", NULL };
	const char *none[] = { NULL };
	int first, argc;

	CHECK(parse(table, given, &first, &argc) == 0, "--db PATH parses");
	CHECK_STR(db, "given.db", "--db PATH is the catalogue");
	db = NULL;
	setenv("MODELCAT_DB", "from-env.db", 1);
	CHECK(parse(table, none, &first, &argc) == 0, "no --db parses");
	CHECK_STR(db, "from-env.db", "without --db, $MODELCAT_DB is the catalogue");
	db = NULL;
	CHECK(parse(table, empty, &first, &argc) == 0, "--db= parses");
	CHECK_STR(db, "from-env.db", "an empty --db is not given");
	db = NULL;
	unsetenv("MODELCAT_DB");
	CHECK(parse(table, none, &first, &argc) == 0, "no --db, no $MODELCAT_DB parses");
	CHECK_STR(db, "modelcat.db", "without either, ./modelcat.db");
}

int main(void)
{
	test_catalogue();
	test_values();
	test_errors();
	test_help();
	return unit_done();
}
