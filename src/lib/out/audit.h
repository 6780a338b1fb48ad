/*
 * audit: what changed between two dates (a diff_result), written for an
 * editor: as text for a terminal, as JSON (docs/diff-json.md), or as one
 * self-contained HTML page.
 */
#ifndef MODELCAT_AUDIT_H
#define MODELCAT_AUDIT_H

#include "db/query.h"

/* Counts first, then each change, `field: old -> new`. */
void audit_text(const diff_result *d, sbuf *out);
/* One JSON object (see docs/diff-json.md). */
void audit_json(const diff_result *d, sbuf *out);
/* One HTML page, no external resources, every value escaped. */
void audit_html(const diff_result *d, sbuf *out);

#endif
