/*
 * textout: writing values out as CSV fields and JSON strings, escaped.
 */
#ifndef MODELCAT_TEXTOUT_H
#define MODELCAT_TEXTOUT_H

#include <stddef.h>
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

/* Append the len bytes at data in base64 (RFC 4648, with padding): the
 * body of a data: URL. */
void textout_base64(sbuf *out, const void *data, size_t len);

#endif
