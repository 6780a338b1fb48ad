#include "ingest/bundleargs.h"
#include "ingest/bundle.h"
#include "read/input.h"
#include "store/naming.h"
#include "base/util.h"

int bundleargs_check(const char *arg, int one_export, mc_err *err)
{
	char name[NAMING_EXPORT_MAX + 1], **members = NULL;
	const char *path;
	size_t n = 0, i;
	sbuf list;
	mc_err ignored;
	int rc = 0;

	if (naming_split_arg(arg, name, sizeof(name), &path)) {
		mc_error(err, "%s: cannot tell the export's name; write EXPORT=FILE", arg);
		return 1;
	}
	if (input_zip_members(path, &members, &n, &ignored) || n < 2)
		goto out;
	if (path != arg || one_export) {
		sbuf_init(&list);
		for (i = 0; i < n; i++)
			sbuf_addf(&list, "%s%s", i ? ", " : "", members[i]);
		if (path != arg)
			mc_error(err, "%s: %s is a bundle of %zu exports (%s); give the file"
				 " without EXPORT= to read each member as the export it names",
				 arg, path, n, list.data);
		else
			mc_error(err, "%s is a bundle of %zu exports (%s); give one member as"
				 " %s/MEMBER", path, n, list.data, path);
		sbuf_release(&list);
		rc = 1;
	}
out:
	mc_free_strings(members, n);
	return rc;
}

int bundleargs_ingest(ingest_ctx *ctx, const char *arg, load_stats *stats, mc_err *err)
{
	char name[NAMING_EXPORT_MAX + 1], **args = NULL;
	char *const one[1] = { (char *)arg };
	const char *path;
	int n = 0, i, rc;

	if ((rc = bundle_expand(one, 1, &args, &n, err)))
		return -1;
	for (i = 0; i < n && !rc; i++) {
		naming_split_arg(args[i], name, sizeof(name), &path);
		rc = ingest_file(ctx, name, path, stats, err);
	}
	mc_free_strings(args, (size_t)n);
	return rc;
}

