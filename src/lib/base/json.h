/*
 * json: reading the flat JSON objects modelcat stores ({"field":"value",
 * ...}, string values only), as written by record_encode().
 *
 * Ownership: a json_flat owns copies of every key and value, all in one
 * block; they stay valid until json_flat_release().
 */
#ifndef MODELCAT_JSON_H
#define MODELCAT_JSON_H

#include <stddef.h>

typedef struct json_pair {
	char *key;        /* NUL-terminated key */
	char *value;      /* NUL-terminated value (may hold no NUL: see len) */
	size_t len;       /* value length in bytes */
} json_pair;

typedef struct json_flat {
	json_pair *pairs; /* in the order of the text */
	size_t n;         /* number of pairs */
	char *block;      /* the keys and values the pairs point into */
} json_flat;

/* Parse text into obj. Returns 0, or -1 when the text is not a flat object
 * of string values. obj is empty (and need not be released) on failure. */
int json_flat_parse(json_flat *obj, const char *text);
void json_flat_release(json_flat *obj);
/* The value for key, or NULL (linear search; objects are small). */
const json_pair *json_flat_get(const json_flat *obj, const char *key);

#endif
