/*
 * feed: the published audits of past snapshots: an Atom feed of the
 * changes of the last snapshots (written with libxml2's text writer) and
 * an HTML index of the audit pages.
 */
#ifndef MODELCAT_FEED_H
#define MODELCAT_FEED_H

#include "db/catalogue.h"

/* Most snapshots the feed and the index list. */
#define FEED_ENTRIES 20

/*
 * Write dir/feed.atom (the changes of the last FEED_ENTRIES snapshots,
 * newest first, each linking to its audit page DATE.html) and
 * dir/index.html (every audit page in dir, newest first). 0, or -1 (err).
 */
int feed_write(catalogue *cat, const char *dir, mc_err *err);

#endif
