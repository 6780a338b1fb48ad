/*
 * catalogue_fixture: what the unit tests that open a catalogue share: a
 * catalogue in memory with the migrations of sql/ (under $MODELCAT_TOP,
 * or the current folder), and the message of the last library call that
 * failed. The library's calls take an mc_err last; the tests pass
 * &test_err, so that a change of that convention touches only this file
 * and the few wrappers in each test.
 */
#ifndef MODELCAT_CATALOGUE_FIXTURE_H
#define MODELCAT_CATALOGUE_FIXTURE_H

#include "base/error.h"
#include "db/catalogue.h"

#include <stdio.h>
#include <stdlib.h>

/* The columns the tests' exports begin with, each known to the column map
 * (a load_column initialiser list; db/load.h): Model, Organization,
 * Parameters. */
#define FIXTURE_COLUMNS \
	{ "Model", "Model", "key", 1, 0 }, \
	{ "Organization", "Organization", "text", 1, 0 }, \
	{ "Parameters", "Parameters", "number", 1, 0 }

/* the message of the last library call that failed */
static mc_err test_err;

static const char *sql_dir(void)
{
	static char dir[4096];
	const char *top = getenv("MODELCAT_TOP");

	snprintf(dir, sizeof(dir), "%s/sql", top && *top ? top : ".");
	return dir;
}

static int cat_open(catalogue *cat)
{
	return catalogue_open(cat, ":memory:", sql_dir(), 0, &test_err);
}

static const char *cat_error(catalogue *cat)
{
	(void)cat;
	return test_err.msg;
}

#endif
