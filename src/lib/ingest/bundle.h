/*
 * bundle: a zip of several ".csv" members (Epoch's ai_models.zip) is a
 * bundle: each member is an export of its own, named by the member's file
 * name less ".csv", read by the path ARCHIVE.zip/MEMBER (read/input.h),
 * all in one snapshot. Its README.md, when there is one, holds the
 * licence and the citation, stored with the snapshot (db/credit.h).
 *
 * Errors: 0, or -1 with err filled (its last parameter, base/error.h).
 */
#ifndef MODELCAT_BUNDLE_H
#define MODELCAT_BUNDLE_H

#include "db/load.h"

/* The most bytes of a bundle's README.md that are read. */
#define BUNDLE_README_MAX (64u * 1024u)

/*
 * The command-line arguments args ("[EXPORT=]FILE", n of them) with every
 * FILE that is a bundle replaced by one argument per member,
 * "FILE/MEMBER": *out (a new array of new strings, *nout of them; the
 * caller frees both with mc_free_strings). A file that cannot be read is
 * left as it is (its load reports it). 0; 1 when an EXPORT=FILE names a
 * bundle (one name cannot hold several exports), with a message listing
 * its members in err; -1 on another error.
 */
int bundle_expand(char *const *args, int n, char ***out, int *nout, mc_err *err);

/*
 * When path is a member of a bundle (ARCHIVE.zip/MEMBER) whose README.md
 * exists, store its licence and citation with the snapshot ld writes.
 * 0 (also when there is nothing to store), or -1.
 */
int bundle_credit(load *ld, const char *path, mc_err *err);

/*
 * The citation and the licence of a README.md's text: the first lines
 * under a heading "Citation" (a fenced block's, fences left out), and the
 * paragraph under a heading "Licensing" (a link [text](url) written
 * "text (url)"), each joined into one line: new strings ("" when none),
 * the caller frees them.
 */
void bundle_readme_parse(const char *readme, char **citation, char **licence);

#endif
