/*
 * naming: export names and snapshot file names (see naming.h).
 */
#include "store/naming.h"
#include "base/util.h"
#include "base/day.h"

#include <string.h>
#include <strings.h>


static int all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

int naming_snapshot_stem(const char *stem, size_t len)
{
	char date[11];
	size_t i;

	if (len < 10)
		return 0;
	memcpy(date, stem, 10);
	date[10] = '\0';
	if (!day_valid(date))
		return 0;
	if (len == 10)
		return 1;
	/* YYYY-MM-DD T HHMMSS Z - hhhhhhhhhhhh */
	if (len != 10 + 1 + 6 + 2 + 12 || stem[10] != 'T' || !all_digits(stem + 11, 6) ||
	    stem[17] != 'Z' || stem[18] != '-')
		return 0;
	for (i = 19; i < len; i++)
		if (!((stem[i] >= '0' && stem[i] <= '9') || (stem[i] >= 'a' && stem[i] <= 'f')))
			return 0;
	return 1;
}

int naming_snapshot_file(const char *name, char date[11])
{
	static const char *const extensions[] = { ".csv.gz", ".csv", ".zip" };
	size_t len = strlen(name), i;

	for (i = 0; i < sizeof(extensions) / sizeof(extensions[0]); i++) {
		size_t elen = strlen(extensions[i]);

		if (len > elen && !strcmp(name + len - elen, extensions[i]) &&
		    naming_snapshot_stem(name, len - elen)) {
			memcpy(date, name, 10);
			date[10] = '\0';
			return 1;
		}
	}
	return 0;
}

int naming_export_valid(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n > NAMING_EXPORT_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

static void strip_suffix(char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	if (a > b && !strcasecmp(s + a - b, suffix))
		s[a - b] = '\0';
}

/* Copy path into buf (4096 bytes) and return its base name there, less
 * .gz, .zip and .csv; *slash gets the last '/' in buf, or NULL. */
static char *base_stem(const char *path, char buf[4096], char **slash)
{
	char *base;

	mc_fmt(buf, 4096, "%s", path);
	*slash = strrchr(buf, '/');
	base = *slash ? *slash + 1 : buf;
	strip_suffix(base, ".gz");
	strip_suffix(base, ".zip");
	strip_suffix(base, ".csv");
	return base;
}

int naming_snapshot_date(const char *path, char day[11])
{
	char buf[4096], *slash;
	char *base = base_stem(path, buf, &slash);

	/* a bundle's member, <export>/<date>.zip/<member>.csv: the bundle's */
	if (!naming_snapshot_stem(base, strlen(base)) && slash) {
		*slash = '\0';
		if (!mc_ends_with(buf, ".zip"))
			return -1;
		return naming_snapshot_date(buf, day);
	}
	if (!naming_snapshot_stem(base, strlen(base)))
		return -1;
	mc_fmt(day, 11, "%.10s", base);
	return 0;
}

int naming_export_from_path(const char *path, char *name, size_t len)
{
	char buf[4096], *slash;
	char *base = base_stem(path, buf, &slash);

	if (naming_snapshot_stem(base, strlen(base)) && slash) {
		*slash = '\0';
		slash = strrchr(buf, '/');
		base = slash ? slash + 1 : buf;
	}
	if (!naming_export_valid(base))
		return -1;
	mc_fmt(name, len, "%s", base);
	return 0;
}

int naming_split_arg(const char *arg, char *name, size_t len, const char **path)
{
	const char *eq = strchr(arg, '=');

	if (eq && eq > arg && (size_t)(eq - arg) <= NAMING_EXPORT_MAX) {
		char prefix[NAMING_EXPORT_MAX + 1];

		memcpy(prefix, arg, (size_t)(eq - arg));
		prefix[eq - arg] = '\0';
		if (naming_export_valid(prefix)) {
			mc_fmt(name, len, "%s", prefix);
			*path = eq + 1;
			return 0;
		}
	}
	*path = arg;
	return naming_export_from_path(arg, name, len);
}
