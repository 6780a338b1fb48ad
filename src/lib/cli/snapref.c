#include "cli/snapref.h"
#include "base/printf.h"
#include "db/snapshot.h"

#include <string.h>

int snapref_numbered(const char *text)
{
	snapshot_ref ref;

	return !snapshot_ref_parse(text, &ref) && ref.n > 0;
}

/* How many snapshots the day has, into *n. 0 or -1. */
static int day_count(catalogue *cat, const char *day, int *n, mc_err *err)
{
	snapshot_ref last = { "", 0 };
	catalogue_id id;

	mc_fmt(last.day, sizeof(last.day), "%s", day);
	*n = 0;
	if (snapshot_ref_find(cat, &last, &id, err))
		return -1;
	return id ? snapshot_ordinal(cat, id, n, err) : 0;
}

int snapref_find(catalogue *cat, const char *text, catalogue_id *id, mc_err *err)
{
	snapshot_ref ref;
	int n;

	*id = 0;
	if (snapshot_ref_parse(text, &ref))
		return mc_error(err, "'%s' is not a snapshot YYYY-MM-DD or YYYY-MM-DD.N", text);
	if (!ref.n)
		return snapshot_upto(cat, ref.day, id, err);
	if (snapshot_ref_find(cat, &ref, id, err))
		return -1;
	if (*id)
		return 0;
	if (day_count(cat, ref.day, &n, err))
		return -1;
	mc_error(err, "%s: no snapshot %s; %s has %d", cat->path, text, ref.day, n);
	return 1;
}

int snapref_day(catalogue *cat, const char *text, char day[11], mc_err *err)
{
	snapshot_ref ref;
	catalogue_id id;
	int rc, n;

	day[0] = '\0';
	if (snapshot_ref_parse(text, &ref))
		return mc_error(err, "'%s' is not a snapshot YYYY-MM-DD or YYYY-MM-DD.N", text);
	mc_fmt(day, 11, "%s", ref.day);
	if (!ref.n)
		return 0;
	if ((rc = snapref_find(cat, text, &id, err)))
		return rc;
	if (day_count(cat, ref.day, &n, err))
		return -1;
	if (ref.n == n)
		return 0;
	mc_error(err, "%s: models are kept as they stood at the end of a day: %s is not the"
		 " last snapshot of %s (%s.%d is)", text, text, ref.day, ref.day, n);
	return 1;
}

/* The snapshot before the one to names: 0 with *a (0 for none) or -1. */
static int before(catalogue *cat, const char *to, catalogue_id *a, mc_err *err)
{
	snapshot_ref ref;
	char prev[11];
	int rc;

	snapshot_ref_parse(to, &ref);
	if (ref.n > 1) {
		ref.n--;
		return snapshot_ref_find(cat, &ref, a, err);
	}
	*a = 0;
	rc = snapshot_day_before(cat, ref.day, prev, err);
	if (rc)
		return rc < 0 ? -1 : 0;
	return snapshot_upto(cat, prev, a, err);
}

int snapref_pair(catalogue *cat, const char *from, const char *to, catalogue_id *a,
		 catalogue_id *b, char from_label[16], mc_err *err)
{
	int rc;

	*a = 0;
	from_label[0] = '\0';
	if ((rc = snapref_find(cat, to, b, err)))
		return rc;
	if (from[0]) {
		if ((rc = snapref_find(cat, from, a, err)))
			return rc;
		mc_fmt(from_label, 16, "%s", from);
	} else if (before(cat, to, a, err) || (*a && snapshot_label(cat, *a, from_label, err))) {
		return -1;
	}
	if (from[0] && *a >= *b) {
		mc_error(err, "--from %s is not before --to %s", from, to);
		return 2;
	}
	return 0;
}
