#include "base/paths.h"
#include "base/printf.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char bindir[PATH_MAX];
static char datadir[PATH_MAX];

const char *paths_bindir(void)
{
	ssize_t n;
	char *slash;

	if (bindir[0])
		return bindir;
	n = readlink("/proc/self/exe", bindir, sizeof(bindir) - 1);
	if (n <= 0) {
		strcpy(bindir, ".");
		return bindir;
	}
	bindir[n] = '\0';
	slash = strrchr(bindir, '/');
	if (slash)
		*slash = '\0';
	return bindir;
}

const char *paths_datadir(void)
{
	static const char *const ups[] = { "..", "../..", "../../.." };
	const char *env = getenv("MODELCAT_DATADIR");
	char probe[PATH_MAX + 64];
	size_t i;

	if (datadir[0])
		return datadir;
	if (env && *env) {
		mc_fmt(datadir, sizeof(datadir), "%s", env);
		return datadir;
	}
	for (i = 0; i < sizeof(ups) / sizeof(ups[0]); i++) {
		mc_fmt(probe, sizeof(probe), "%s/%s/pipelines/columns.tsv",
		       paths_bindir(), ups[i]);
		if (!access(probe, R_OK)) {
			mc_fmt(probe, sizeof(probe), "%s/%s", paths_bindir(), ups[i]);
			if (!realpath(probe, datadir))
				mc_fmt(datadir, sizeof(datadir), "%s", probe);
			return datadir;
		}
	}
	mc_fmt(datadir, sizeof(datadir), "%s/../share/modelcat", paths_bindir());
	return datadir;
}

const char *paths_db(void)
{
	const char *env = getenv("MODELCAT_DB");

	if (env && *env)
		return env;
	return "modelcat.db";
}

void paths_data_file(char *buf, size_t len, const char *sub)
{
	mc_fmt(buf, len, "%s/%s", paths_datadir(), sub);
}
