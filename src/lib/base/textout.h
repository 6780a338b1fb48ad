/*
 * textout: writing values out as CSV fields and JSON strings, escaped.
 */
#ifndef MODELCAT_TEXTOUT_H
#define MODELCAT_TEXTOUT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include "base/sbuf.h"

/* Append s as one CSV field (RFC 4180: quoted when it holds a comma,
 * quote, CR or LF, or starts or ends with a space; quotes doubled). */
void textout_csv_field(sbuf *out, const char *s, size_t len);
/* Append fields as one CSV record ending in LF. */
void textout_csv_row(sbuf *out, const char *const *fields, const size_t *lengths,
		     size_t n);
/* Append s as a JSON string, quotes included. Invalid UTF-8 bytes are
 * written as U+FFFD so the output is always valid JSON. */
void textout_json_string(sbuf *out, const char *s, size_t len);
/* The same for text known to be valid UTF-8 (checked by the CSV reader):
 * no check is made. */
void textout_json_utf8(sbuf *out, const char *s, size_t len);

/* Append s with the HTML special characters (& < > " ') escaped; usable in
 * text and in quoted attribute values. Invalid UTF-8 becomes U+FFFD. */
void textout_html(sbuf *out, const char *s, size_t len);

/*
 * The one escaping rule of every line written to a terminal or a log
 * (stdout and stderr of every program, run's log): a control byte (below
 * 0x20, tab and line feed included, and DEL), a C1 control (U+0080 to
 * U+009F, its two UTF-8 bytes) and a byte that is not part of valid UTF-8
 * are written as \xNN (two lower-case hex digits per byte); any other
 * character, backslash included, as it is. A name, path, URL or cell
 * value written so cannot move the cursor, ring, rewrite the screen or
 * break a line in two.
 */
void textout_term(sbuf *out, const char *s, size_t len);
/* The same for a NUL-terminated string. */
void textout_terms(sbuf *out, const char *s);
/* The same for the formatted text. */
void textout_termf(sbuf *out, const char *fmt, ...) MC_PRINTF(2, 3);
void textout_vtermf(sbuf *out, const char *fmt, va_list ap) MC_PRINTF(2, 0);
/* The same rule for a text of several lines (a page or a report written to
 * stdout): each line escaped by textout_term(), its line feed kept. */
void textout_text(sbuf *out, const char *s, size_t len);
/* Write the formatted message to f as one line, escaped by textout_term()
 * (a line feed inside the message too), then a line feed; one write. */
void textout_line(FILE *f, const char *fmt, ...) MC_PRINTF(2, 3);
/* The same with "prefix: " (written as it is: a program's name) first. */
void textout_vline(FILE *f, const char *prefix, const char *fmt, va_list ap)
	MC_PRINTF(3, 0);

/* Append the len bytes at data in base64 (RFC 4648, with padding): the
 * body of a data: URL. */
void textout_base64(sbuf *out, const void *data, size_t len);

#endif
