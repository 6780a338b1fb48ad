/*
 * snapref: a snapshot named on a command line (OPT_SNAPSHOT): DATE, the
 * state on that date (its last snapshot, or the last before it when the
 * day has none), or DATE.N, that day's N-th snapshot (from 1, in load
 * order), which must exist.
 */
#ifndef MODELCAT_SNAPREF_H
#define MODELCAT_SNAPREF_H

#include "base/error.h"
#include "db/catalogue.h"

/* Does text (checked by the option parser) name a snapshot by number? */
int snapref_numbered(const char *text);

/* The snapshot text names into *id (0 for a DATE before every snapshot).
 * 0; 1 when DATE.N names no snapshot (err: "PATH: no snapshot DATE.N;
 * DATE has K"); -1 on error. */
int snapref_find(catalogue *cat, const char *text, catalogue_id *id, mc_err *err);

/*
 * For the commands that show models as they stood on a day (show,
 * render), whose versions are kept by day: the day text names into day.
 * DATE.N must be that day's last snapshot. 0; 1 when DATE.N names no
 * snapshot or not the day's last (err); -1 on error.
 */
int snapref_day(catalogue *cat, const char *text, char day[11], mc_err *err);

/*
 * The two snapshots a diff compares when either is named DATE.N: to, and
 * from, or when from is "" the snapshot before to (DATE.(N-1), or the
 * state on the day before), into *a and *b; from_label[16] gets the name
 * of the earlier one (from, or the label it is published under). 0; 1
 * when a DATE.N names no snapshot (err); 2 when from is not before to
 * (err); -1 on error.
 */
int snapref_pair(catalogue *cat, const char *from, const char *to, catalogue_id *a,
		 catalogue_id *b, char from_label[16], mc_err *err);

#endif
