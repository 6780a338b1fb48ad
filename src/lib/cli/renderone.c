#include "cli/renderone.h"
#include "base/sbuf.h"
#include "cli/stage.h"
#include "cli/suggest.h"
#include "db/credit.h"
#include "db/query.h"
#include "publish/page.h"
#include "publish/render.h"
#include "publish/translate.h"

#include <stdio.h>
#include <string.h>

int stage_render_model(const char *program, catalogue *cat, const char *name, const char *lang,
		       const char *format, const char *as_of)
{
	page_texts texts, english;
	former_name *formers = NULL;
	size_t nformers = 0;
	model_view m;
	page p;
	sbuf out;
	mc_err cerr;
	int rc, status = MC_EXIT_FAILURE;

	memset(&m, 0, sizeof(m));
	page_init(&p, lang);
	sbuf_init(&out);
	rc = translate_load(cat, "en", &english, &cerr);
	if (rc == 0 && strcmp(lang, "en"))
		rc = translate_load(cat, lang, &texts, &cerr);
	else
		page_texts_init(&texts, lang);
	if (rc < 0) {
		stage_error(program, "%s", cerr.msg);
		goto out;
	}
	if (rc > 0) {
		stage_error(program, "no page texts stored for language '%s' (run modelcat "
			    "translate; its catalogue is translations/%s.xlf)", lang, lang);
		goto out;
	}
	rc = query_model(cat, name, as_of, &m, &cerr);
	if (rc < 0) {
		stage_error(program, "%s", cerr.msg);
		goto out;
	}
	if (rc > 0) {
		stage_error(program, "no model named '%s' on %s (see modelcat history)", name,
			    as_of);
		suggest_did_you_mean(program, cat, name, as_of);
		goto out;
	}
	if (query_former_names(cat, as_of, &formers, &nformers, &cerr)) {
		stage_error(program, "%s", cerr.msg);
		goto out;
	}
	p.formerly = render_formerly(formers, nformers, name);
	if (credit_citation_upto(cat, m.as_of, &p.citation, &cerr) < 0) {
		stage_error(program, "%s", cerr.msg);
		goto out;
	}
	if (render_page_extras(cat, &m, name, strcmp(lang, "en") ? &texts : &english, &english, &p,
			       &cerr) ||
	    page_build(&p, &m, strcmp(lang, "en") ? &texts : &english, &english, &cerr) ||
	    render_page_history(cat, &p, &m, name, strcmp(lang, "en") ? &texts : &english,
				&english, &cerr) ||
	    render_page_cite(cat, name, &m, strcmp(lang, "en") ? &texts : &english, &english, &p,
			     &cerr)) {
		stage_error(program, "%s", cerr.msg);
		goto out;
	}
	if (!strcmp(format, "html"))
		page_render_html(&p, &out);
	else
		page_render_text(&p, &out);
	status = stage_write_format(program, format, &out);
out:
	former_names_release(formers, nformers);
	page_release(&p);
	model_view_release(&m);
	page_texts_release(&texts);
	page_texts_release(&english);
	sbuf_release(&out);
	return status;
}
