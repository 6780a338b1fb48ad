#include "stage.h"
#include "paths.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

void stage_error(const char *program, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int stage_usage_error(const char *program, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s --help)\n", program);
	return EXIT_USAGE;
}

int stage_version(const char *program)
{
	printf("%s %s\n", program, MODELCAT_VERSION);
	return EXIT_OK;
}

int stage_colmap(const char *program, colmap *map)
{
	char dir[PATH_MAX], err[1024];

	paths_data_file(dir, sizeof(dir), "pipelines");
	if (colmap_load(map, dir, err, sizeof(err))) {
		stage_error(program, "%s", err);
		return -1;
	}
	return 0;
}

int stage_catalogue(const char *program, catalogue *cat, const char *db_option, int flags)
{
	char dir[PATH_MAX];

	paths_data_file(dir, sizeof(dir), "sql");
	if (catalogue_open(cat, paths_db(db_option), dir, flags)) {
		stage_error(program, "%s", cat->err);
		return -1;
	}
	return 0;
}

int stage_status(unsigned long quarantined)
{
	return quarantined ? EXIT_QUARANTINE : EXIT_OK;
}
