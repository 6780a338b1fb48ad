/*
 * xliff: reading a translation catalogue (XLIFF 1.2) safely with libxml2.
 *
 * A catalogue is a UTF-8 file of at most XLIFF_MAX_BYTES holding
 * <xliff version="1.2"> with <file source-language="en"
 * [target-language="LANG"]> elements whose <body> holds <trans-unit id="...">
 * (possibly inside <group>s), each with one <source> and at most one
 * <target>. Inside source and target, <x id="name"/> is a placeholder and
 * <g ctype="x-optional">...</g> an optional group (template.h); white space
 * runs fold to one space.
 *
 * Safety: the file is read into memory (size capped) and parsed with
 * XML_PARSE_NONET, without entity substitution, DTD loading or DTD
 * attribute defaults; a document with a DOCTYPE is refused as soon as the
 * parser meets it (before any entity declaration is read), as is any entity
 * reference, any attempt to load an external resource, and any encoding
 * other than UTF-8. libxml2 prints nothing: errors come back as
 * "file:line: message".
 *
 * Ownership: an xliff_catalogue owns every string in it; xliff_release()
 * frees them.
 */
#ifndef MODELCAT_XLIFF_H
#define MODELCAT_XLIFF_H

#include <stddef.h>

#include "base/error.h"

/* The largest catalogue file read (bytes). */
#define XLIFF_MAX_BYTES (4UL * 1024 * 1024)

typedef struct xliff_unit {
	char *id;                    /* the trans-unit's id */
	char *source;                /* <source> as a template (template.h) */
	char *target;                /* <target> as a template; NULL when there is
					none, it is empty, or its state is "new" or
					"needs-translation" */
	long line;                   /* line of the <trans-unit> */
} xliff_unit;

typedef struct xliff_catalogue {
	char *path;                  /* the file as named */
	char source_lang[36];        /* source-language of its <file>s */
	char target_lang[36];        /* target-language; "" for a source catalogue */
	xliff_unit *units;           /* in document order */
	size_t n;                    /* number of units */
} xliff_catalogue;

/*
 * Read the catalogue at path into out. Returns 0, or -1 with
 * "path:line: message" (or "path: message") in err; out is then empty and
 * need not be released.
 */
int xliff_read(const char *path, xliff_catalogue *out, mc_err *err);
/* The same for a catalogue already in memory; name is used in messages. */
int xliff_read_memory(const char *data, size_t len, const char *name, xliff_catalogue *out,
		      mc_err *err);
void xliff_release(xliff_catalogue *c);
/* The unit with this id, or NULL. */
const xliff_unit *xliff_find(const xliff_catalogue *c, const char *id);

#endif
