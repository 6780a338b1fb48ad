/*
 * stage_render_hardware (cli/stage.h), in a file of its own: it needs the
 * renderer, and through it the translation catalogues' XML reader
 * (libxml2, and ICU under it). In stage.c, which every program links, it
 * made each of them load those libraries at start: a few milliseconds and
 * 145 page faults a run of ingest or show, which need neither.
 */
#include "cli/stage.h"
#include "base/sbuf.h"
#include "db/hwlink.h"
#include "publish/render.h"

#include <stdlib.h>
#include <string.h>

/* "did you mean" for a card: up to five cards whose matching key holds
 * name's (hwlink_key), on stderr. */
static void suggest_cards(const char *program, catalogue *cat, const char *name,
			  const char *as_of)
{
	hwlink_day d;
	sbuf want, key, list;
	size_t i, n = 0;
	mc_err err;

	memset(&d, 0, sizeof(d));
	sbuf_init(&want);
	sbuf_init(&key);
	sbuf_init(&list);
	hwlink_key(name, 1, &want);
	if (want.len && !hwlink_load(cat, as_of, &d, &err)) {
		for (i = 0; i < d.ncards && n < 5; i++) {
			hwlink_key(d.cards[i].name, 1, &key);
			if (strstr(key.data, want.data))
				sbuf_addf(&list, "%s%s", n++ ? ", " : "", d.cards[i].name);
		}
	}
	hwlink_day_release(&d);
	if (n)
		stage_error(program, "did you mean: %s", list.data);
	sbuf_release(&want);
	sbuf_release(&key);
	sbuf_release(&list);
}

int stage_render_hardware(const char *program, catalogue *cat, const char *name,
			  const char *lang, const char *format, const char *as_of)
{
	char *canonical = stage_model_name(name);
	sbuf out;
	mc_err err;
	int rc, status = MC_EXIT_FAILURE;

	sbuf_init(&out);
	rc = render_hardware(cat, canonical, lang, !strcmp(format, "html"), as_of, &out, &err);
	if (rc < 0) {
		stage_error(program, "%s", err.msg);
	} else if (rc > 0) {
		stage_error(program, "no hardware named '%s' on %s (see modelcat history)", canonical,
			    as_of);
		suggest_cards(program, cat, canonical, as_of);
	} else {
		status = stage_write_format(program, format, &out);
	}
	sbuf_release(&out);
	free(canonical);
	return status;
}
