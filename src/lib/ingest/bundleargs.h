/*
 * bundleargs: a command's "[EXPORT=]FILE" arguments where FILE may be a
 * bundle (ingest/bundle.h): checked before anything is read, and loaded
 * member by member (diff FILE.zip compares every member).
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_BUNDLEARGS_H
#define MODELCAT_BUNDLEARGS_H

#include "ingest/ingest.h"

/*
 * Check a command-line argument "[EXPORT=]FILE" before anything is read:
 * 1 with a message in err when no export name can be told from it, when
 * it is EXPORT=BUNDLE (one name cannot hold several exports), or, with
 * one_export (a command that reads one export: parse), when FILE is a
 * bundle (the message lists its members); else 0.
 */
int bundleargs_check(const char *arg, int one_export, mc_err *err);

/*
 * Load the argument "[EXPORT=]FILE" into ctx->load with ingest_file(): a
 * bundle as every one of its members, each the export its name says
 * (stats: the last member's). 0 or -1.
 */
int bundleargs_ingest(ingest_ctx *ctx, const char *arg, load_stats *stats, mc_err *err);

#endif
