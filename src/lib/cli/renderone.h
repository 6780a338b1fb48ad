/*
 * renderone: modelcat render NAME, one model's page to standard output.
 */
#ifndef MODELCAT_RENDERONE_H
#define MODELCAT_RENDERONE_H

#include "db/catalogue.h"

/* Print the page of the model called name in lang and format (text or
 * html) on as_of to stdout; an unknown model is one line on stderr, with
 * names like it. Returns the exit status. */
int stage_render_model(const char *program, catalogue *cat, const char *name, const char *lang,
		       const char *format, const char *as_of);

#endif
