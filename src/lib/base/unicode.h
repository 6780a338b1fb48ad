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
#include "base/sbuf.h"

/* What making a text canonical changed in it (a bit set). */
enum unicode_change {
	UNICODE_NFC = 1 << 0,        /* composed to NFC (it was NFD, or partly) */
	UNICODE_INVISIBLE = 1 << 1,  /* a zero-width space, joiner or word
					joiner removed */
	UNICODE_BOM = 1 << 2,        /* a byte-order mark (U+FEFF) removed */
	UNICODE_NBSP = 1 << 3        /* a no-break space folded to a space */
};

/* Append the canonical form of s[0..len) to out. 1 when it differs from
 * s (a caller may tell the user), 0 when s was canonical already, -1 when
 * s is not valid UTF-8 (out then gets s unchanged). */
int unicode_canonical(const char *s, size_t len, sbuf *out);

/* The same, saying what changed: *changes gets the unicode_change bits
 * (0 when s was canonical or is not valid UTF-8). Returns as
 * unicode_canonical(). */
int unicode_canonical_changes(const char *s, size_t len, sbuf *out, unsigned *changes);

/* Append to out what the bits of changes mean, for a message: "NFD to
 * NFC", "invisible character removed", "byte-order mark removed",
 * "no-break space", joined by ", "; nothing for 0. */
void unicode_describe_changes(unsigned changes, sbuf *out);

/* Append the search key of s[0..len) to out: the canonical form, then
 * NFKC, case folded, combining marks removed. 0, or -1 when s is not
 * valid UTF-8 (out then gets s, ASCII letters lowered). */
int unicode_search_key(const char *s, size_t len, sbuf *out);

#endif
