/*
 * unicode: how names are compared (docs/normalisation.md, "Names"), on
 * utf8proc (a maintained Unicode library; Debian's libutf8proc-dev).
 *
 * Two texts name the same thing when their canonical forms are equal:
 * Unicode NFC, with the invisible characters a spreadsheet or a web form
 * leaves in a name removed (U+FEFF byte-order mark, U+200B..U+200D zero
 * width space and joiners, U+2060 word joiner) and the no-break spaces
 * (U+00A0, U+202F) folded to a plain space. The search key folds further:
 * compatibility forms, case and accents ("Café" and "CAFE" share a key).
 *
 * Ownership: out is the caller's; these functions only append to it.
 */
#ifndef MODELCAT_UNICODE_H
#define MODELCAT_UNICODE_H

#include <stddef.h>
#include "base/util.h"

/* Append the canonical form of s[0..len) to out. 1 when it differs from
 * s (a caller may tell the user), 0 when s was canonical already, -1 when
 * s is not valid UTF-8 (out then gets s unchanged). */
int unicode_canonical(const char *s, size_t len, sbuf *out);

/* Append the search key of s[0..len) to out: the canonical form, then
 * NFKC, case folded, combining marks removed. 0, or -1 when s is not
 * valid UTF-8 (out then gets s, ASCII letters lowered). */
int unicode_search_key(const char *s, size_t len, sbuf *out);

#endif
