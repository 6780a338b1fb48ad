#include "publish/site.h"
#include "publish/site_fs.h"
#include "publish/site_manifest.h"
#include "base/sha256.h"
#include "base/textout.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- checking the published site ---- */

/* A problem line (one line, escaped: base/textout.h); counts it. */
static void problem(FILE *report, size_t *problems, const char *fmt, ...) MC_PRINTF(3, 4);
static void problem(FILE *report, size_t *problems, const char *fmt, ...)
{
	va_list ap;

	(*problems)++;
	if (!report)
		return;
	va_start(ap, fmt);
	textout_vline(report, NULL, fmt, ap);   /* a path's control bytes as \xNN */
	va_end(ap);
}

int site_verify(const char *out, FILE *report, size_t *problems, mc_err *err)
{
	char state[PATH_MAX], name[64], root[PATH_MAX], path[PATH_MAX], got[PATH_MAX], sha[65];
	static const char *const links[] = { "pages", "audit" };
	site_manifest m;
	size_t i;
	int rc;

	*problems = 0;
	mc_fmt(state, sizeof(state), "%s/" SITE_STATE, out);
	site_fs_current_name(state, name);
	if (!name[0]) {
		problem(report, problems, "%s/current: no published site", state);
		return 0;
	}
	for (i = 0; i < 2; i++) {
		ssize_t n;

		mc_fmt(path, sizeof(path), "%s/%s", out, links[i]);
		n = readlink(path, got, sizeof(got) - 1);
		got[n > 0 ? n : 0] = '\0';
		if (strncmp(got, SITE_STATE "/current/", sizeof(SITE_STATE "/current/") - 1) ||
		    strcmp(got + sizeof(SITE_STATE "/current/") - 1, links[i]))
			problem(report, problems, "%s: not the symbolic link " SITE_STATE "/current/%s",
				path, links[i]);
	}
	mc_fmt(root, sizeof(root), "%s/%s", state, name);
	site_manifest_init(&m);
	rc = site_manifest_read(root, &m, err);
	if (rc) {
		site_manifest_release(&m);
		if (rc < 0)
			return -1;
		problem(report, problems, "%s/MANIFEST: missing", root);
		return 0;
	}
	for (i = 0; i < m.n; i++) {
		const char *rel = m.paths[i];
		char shown[PATH_MAX];
		struct stat st;
		mc_err ferr;

		/* named as a reader names it: DIR/pages/..., DIR/audit/... */
		mc_fmt(path, sizeof(path), "%s/%s", root, rel);
		if (!strncmp(rel, "pages/", 6) || !strncmp(rel, "audit/", 6))
			mc_fmt(shown, sizeof(shown), "%s/%s", out, rel);
		else
			mc_fmt(shown, sizeof(shown), "%s", path);
		if (lstat(path, &st) || !S_ISREG(st.st_mode))
			problem(report, problems, "%s: missing", shown);
		else if (sha256_file(path, sha, NULL, &ferr))
			problem(report, problems, "%s", ferr.msg);
		else if (strcmp(sha, m.sha[i]))
			problem(report, problems, "%s: SHA-256 %s, published as %s", shown, sha,
				m.sha[i]);
	}
	site_manifest_release(&m);
	return 0;
}
