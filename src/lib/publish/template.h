/*
 * template: the form page text takes once read from a catalogue, stored in
 * the catalogue database and filled in by the page builder.
 *
 * A template is UTF-8 text in which '{' starts a token:
 *   {name}   a placeholder: the value called name (letters a-z, digits, _)
 *   {[}      starts an optional group: the group is dropped when any
 *            placeholder inside it has no value
 *   {]}      ends the optional group (groups do not nest)
 *   {{       a literal '{'
 * A placeholder outside any group is required: with no value for it, the
 * whole text is left out (template_expand returns 1).
 *
 * XLIFF's <x id="name"/> becomes {name} and <g ctype="x-optional"> becomes
 * a group (xliff.c); docs/pages.md describes both.
 */
#ifndef MODELCAT_TEMPLATE_H
#define MODELCAT_TEMPLATE_H

#include <stddef.h>
#include "base/util.h"

/* The value of the placeholder name[0..len), or NULL when it has none. The
 * returned string must stay valid until template_expand returns. */
typedef const char *template_lookup_fn(void *ctx, const char *name, size_t len);

/* Called once per placeholder, in order of appearance. */
typedef void template_each_fn(void *ctx, const char *name, size_t len);

/*
 * Check the syntax of tmpl and call each (if not NULL) for every
 * placeholder. Returns 0, or -1 with a short reason in err.
 */
int template_check(const char *tmpl, template_each_fn *each, void *ctx, mc_err *err);

/*
 * Append tmpl to out with its placeholders filled in through lookup.
 * Returns 0; 1 when a required placeholder has no value (out unchanged);
 * -1 when tmpl is not a valid template (out unchanged).
 */
int template_expand(const char *tmpl, template_lookup_fn *lookup, void *ctx, sbuf *out);

/* A template cut into its tokens once, for one expanded many times (a
 * page text, at every model's page): it points into the text it was
 * made from, which must outlive it. */
typedef struct template_compiled template_compiled;

/* tmpl's tokens (never NULL; a template at fault is compiled up to its
 * fault, and expands as template_expand() would: -1). */
template_compiled *template_compile(const char *tmpl);
void template_compiled_free(template_compiled *c);
/* template_expand() of the template c was compiled from. */
int template_expand_compiled(const template_compiled *c, template_lookup_fn *lookup, void *ctx,
			     sbuf *out);

/* A lookup over pairs (ctx: const char *const *, name, value, ..., NULL;
 * NULL ctx: no value at all): the value as given (NULL: none). */
const char *template_pairs(void *ctx, const char *name, size_t len);

/* Does every placeholder of sub also occur in super? 1 yes, 0 no, -1 when
 * either is not a valid template. */
int template_placeholders_within(const char *sub, const char *super);

/* Building a template: plain text (its '{' doubled), a placeholder, and
 * the group markers. */
void template_add_text(sbuf *out, const char *text, size_t len);
void template_add_placeholder(sbuf *out, const char *name);
void template_begin_group(sbuf *out);
void template_end_group(sbuf *out);

/* Fold every run of white space (space, tab, CR, LF) in s into one space
 * and trim both ends, in place. */
void template_fold_space(sbuf *s);

/* Is name[0..len) a valid placeholder name? */
int template_valid_name(const char *name, size_t len);

#endif
