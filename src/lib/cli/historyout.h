/*
 * historyout: a model's history (db/history.h) as `modelcat history`
 * prints it: text lines, or one JSON object (docs/history.md, "History
 * as JSON"). Values are written as the catalogue holds them, in full.
 */
#ifndef MODELCAT_HISTORYOUT_H
#define MODELCAT_HISTORYOUT_H

#include "base/sbuf.h"
#include "db/history.h"

/* Append h as text lines: each record, its versions and their fields,
 * values in full (line breaks and tabs shown as spaces). */
void historyout_text(const history *h, sbuf *out);
/* Append h as one JSON object (docs/history.md, "History as JSON"). */
void historyout_json(const history *h, sbuf *out);

#endif
