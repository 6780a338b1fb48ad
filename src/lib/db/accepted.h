/*
 * accepted: the contents applied although a guard held them
 * (accepted_content, sql/007_held.sql), as the snapshot store's
 * acceptances (store/acceptances.h) bring them into a catalogue.
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_ACCEPTED_H
#define MODELCAT_ACCEPTED_H

#include "db/catalogue.h"

/* Record (export, sha256) as accepted at accepted_at, unless it is: any
 * later load of that content applies it. */
int accepted_add(catalogue *cat, const char *export_name, const char *sha256,
		 const char *accepted_at, mc_err *err);

/* The SHA-256 of the content of the export's latest snapshot into sha:
 * 0, 1 when the export has none, -1 on error. */
int accepted_latest_content(catalogue *cat, const char *export_name, char sha[65],
			    mc_err *err);

#endif
