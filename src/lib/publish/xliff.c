#include "publish/xliff.h"
#include "base/strmap.h"
#include "publish/template.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#define XLIFF_NS "urn:oasis:names:tc:xliff:document:1.2"

/* What a parse found and refused; reached from the parser context. */
typedef struct parse_guard {
	long doctype_line;           /* line of a DOCTYPE, 0 if none */
	int external_load;           /* an external resource was asked for */
	int error_line;              /* line of the first error (0: none yet) */
	char error[256];             /* the first error's message */
} parse_guard;

/* Where the reading of the tree is, for messages. */
typedef struct reader {
	const char *name;            /* file name for messages */
	mc_err *err;                 /* where the message goes */
	xliff_catalogue *out;        /* the catalogue being filled */
	strmap ids;                  /* ids seen */
} reader;

static int reader_fail(reader *r, xmlNodePtr node, const char *fmt, ...) MC_PRINTF(3, 4);

static int reader_fail(reader *r, xmlNodePtr node, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (node)
		return mc_error(r->err, "%s:%ld: %s", r->name, xmlGetLineNo(node), msg);
	return mc_error(r->err, "%s: %s", r->name, msg);
}

/* SAX hook: any DOCTYPE ends the parse at once, before its internal
 * subset (and so any entity declaration) is read. */
static void guard_doctype(void *user, const xmlChar *name, const xmlChar *external_id,
			  const xmlChar *system_id)
{
	xmlParserCtxtPtr ctxt = user;
	parse_guard *guard = ctxt->_private;

	(void)name;
	(void)external_id;
	(void)system_id;
	guard->doctype_line = xmlSAX2GetLineNumber(ctxt);
	if (guard->doctype_line <= 0)
		guard->doctype_line = 1;
	xmlStopParser(ctxt);
}

/* SAX hook: entity declarations are never wanted (a DOCTYPE is refused
 * before any could be read; this is the second lock). */
static void guard_entity_decl(void *user, const xmlChar *name, int type,
			      const xmlChar *public_id, const xmlChar *system_id, xmlChar *content)
{
	xmlParserCtxtPtr ctxt = user;
	parse_guard *guard = ctxt->_private;

	(void)name;
	(void)type;
	(void)public_id;
	(void)system_id;
	(void)content;
	if (!guard->doctype_line)
		guard->doctype_line = xmlSAX2GetLineNumber(ctxt);
	xmlStopParser(ctxt);
}

/* libxml2 2.12 made the error argument const. */
#if LIBXML_VERSION >= 21200
typedef const xmlError *parse_error_ptr;
#else
typedef xmlErrorPtr parse_error_ptr;
#endif

/* Structured error handler: keep the first error (the last one is often a
 * consequence of it), print nothing. */
static void guard_error(void *user, parse_error_ptr e)
{
	xmlParserCtxtPtr ctxt = user;
	parse_guard *guard = ctxt ? ctxt->_private : NULL;
	size_t n;

	if (!guard || !e || e->level < XML_ERR_ERROR || guard->error[0])
		return;
	guard->error_line = e->line;
	mc_fmt(guard->error, sizeof(guard->error), "%s", e->message ? e->message : "XML error");
	/* what follows the first line is an excerpt of the document */
	guard->error[strcspn(guard->error, "\n")] = '\0';
	n = strlen(guard->error);
	while (n && (guard->error[n - 1] == '\n' || guard->error[n - 1] == ' '))
		guard->error[--n] = '\0';
}

/* The external entity loader while a catalogue is parsed: loads nothing. */
static parse_guard *active_guard;

static xmlParserInputPtr refuse_external(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
	(void)url;
	(void)id;
	if (active_guard)
		active_guard->external_load = 1;
	if (ctxt)
		xmlStopParser(ctxt);
	return NULL;
}

static int is_xliff(xmlNodePtr node, const char *name)
{
	return node->type == XML_ELEMENT_NODE && node->ns && node->ns->href &&
	       !strcmp((const char *)node->ns->href, XLIFF_NS) &&
	       !strcmp((const char *)node->name, name);
}

/* An attribute's value copied into buf ("" when absent). */
static void attribute(xmlNodePtr node, const char *name, char *buf, size_t len)
{
	xmlChar *value = xmlGetNoNsProp(node, (const xmlChar *)name);

	mc_fmt(buf, len, "%s", value ? (const char *)value : "");
	xmlFree(value);
}

/* Append the content of a <source> or <target> to out as a template. */
static int read_inline(reader *r, xmlNodePtr parent, int in_group, sbuf *out)
{
	xmlNodePtr node;
	char value[64];

	for (node = parent->children; node; node = node->next) {
		switch (node->type) {
		case XML_TEXT_NODE:
		case XML_CDATA_SECTION_NODE:
			if (node->content)
				template_add_text(out, (const char *)node->content,
						  strlen((const char *)node->content));
			break;
		case XML_COMMENT_NODE:
		case XML_PI_NODE:
			break;
		case XML_ELEMENT_NODE:
			if (is_xliff(node, "x")) {
				attribute(node, "id", value, sizeof(value));
				if (!template_valid_name(value, strlen(value)))
					return reader_fail(r, node, "<x id=\"%s\"/>: a placeholder id is "
							   "a-z, 0-9 and _ only", value);
				template_add_placeholder(out, value);
			} else if (is_xliff(node, "g")) {
				attribute(node, "ctype", value, sizeof(value));
				if (strcmp(value, "x-optional"))
					return reader_fail(r, node, "<g> must have ctype=\"x-optional\"");
				if (in_group)
					return reader_fail(r, node, "optional groups do not nest");
				template_begin_group(out);
				if (read_inline(r, node, 1, out))
					return -1;
				template_end_group(out);
			} else {
				return reader_fail(r, node, "<%s> is not supported inside text "
						   "(only <x/> and <g>)", (const char *)node->name);
			}
			break;
		case XML_ENTITY_REF_NODE:
		case XML_ENTITY_NODE:
			return reader_fail(r, node, "entity references are not allowed");
		default:
			return reader_fail(r, node, "unexpected node in text");
		}
	}
	return 0;
}

/* The text of a <source> or <target> as a template (caller frees), or
 * NULL on error. */
static char *read_text(reader *r, xmlNodePtr node)
{
	sbuf text;

	sbuf_init(&text);
	if (read_inline(r, node, 0, &text)) {
		sbuf_release(&text);
		return NULL;
	}
	template_fold_space(&text);
	return sbuf_detach(&text, NULL);
}

static int read_unit(reader *r, xmlNodePtr unit)
{
	xmlNodePtr node, source = NULL, target = NULL;
	xliff_unit *u;
	char id[256], state[64];
	int added;

	attribute(unit, "id", id, sizeof(id));
	if (!id[0])
		return reader_fail(r, unit, "<trans-unit> without an id");
	strmap_get_or_add(&r->ids, id, strlen(id), &added);
	if (!added)
		return reader_fail(r, unit, "id '%s' appears twice", id);
	for (node = unit->children; node; node = node->next) {
		if (node->type == XML_ENTITY_REF_NODE)
			return reader_fail(r, node, "entity references are not allowed");
		if (is_xliff(node, "source")) {
			if (source)
				return reader_fail(r, node, "'%s' has two <source>s", id);
			source = node;
		} else if (is_xliff(node, "target")) {
			if (target)
				return reader_fail(r, node, "'%s' has two <target>s", id);
			target = node;
		}
	}
	if (!source)
		return reader_fail(r, unit, "'%s' has no <source>", id);
	r->out->units = xrealloc(r->out->units, (r->out->n + 1) * sizeof(*r->out->units));
	u = &r->out->units[r->out->n++];
	memset(u, 0, sizeof(*u));
	u->id = xstrdup(id);
	u->line = xmlGetLineNo(unit);
	if (!(u->source = read_text(r, source)))
		return -1;
	if (target) {
		attribute(target, "state", state, sizeof(state));
		if (!(u->target = read_text(r, target)))
			return -1;
		if (!u->target[0] || !strcmp(state, "new") || !strcmp(state, "needs-translation")) {
			free(u->target);
			u->target = NULL;
		}
	}
	return 0;
}

/* The trans-units of a <body> or <group>, in document order. */
static int read_units(reader *r, xmlNodePtr parent)
{
	xmlNodePtr node;

	for (node = parent->children; node; node = node->next) {
		if (node->type == XML_ENTITY_REF_NODE)
			return reader_fail(r, node, "entity references are not allowed");
		if (is_xliff(node, "trans-unit")) {
			if (read_unit(r, node))
				return -1;
		} else if (is_xliff(node, "group")) {
			if (read_units(r, node))
				return -1;
		}
	}
	return 0;
}

static int read_file_element(reader *r, xmlNodePtr file, int first)
{
	char source[36], target[36];
	xmlNodePtr node;

	attribute(file, "source-language", source, sizeof(source));
	attribute(file, "target-language", target, sizeof(target));
	if (!source[0])
		return reader_fail(r, file, "<file> without source-language");
	if (first) {
		mc_fmt(r->out->source_lang, sizeof(r->out->source_lang), "%s", source);
		mc_fmt(r->out->target_lang, sizeof(r->out->target_lang), "%s", target);
	} else if (strcmp(source, r->out->source_lang) || strcmp(target, r->out->target_lang)) {
		return reader_fail(r, file, "all <file>s of a catalogue must have the same languages");
	}
	for (node = file->children; node; node = node->next)
		if (is_xliff(node, "body") && read_units(r, node))
			return -1;
	return 0;
}

static int read_tree(reader *r, xmlDocPtr doc)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), node;
	char version[16];
	int files = 0;

	if (doc->intSubset || doc->extSubset)
		return reader_fail(r, NULL, "a DOCTYPE is not allowed in a catalogue");
	if (doc->encoding && strcasecmp((const char *)doc->encoding, "UTF-8"))
		return reader_fail(r, NULL, "the catalogue must be UTF-8, not %s",
				   (const char *)doc->encoding);
	if (!root || !is_xliff(root, "xliff"))
		return reader_fail(r, root, "the root element must be <xliff> in the namespace "
				   XLIFF_NS);
	attribute(root, "version", version, sizeof(version));
	if (strcmp(version, "1.2"))
		return reader_fail(r, root, "XLIFF version '%s' is not supported (1.2 is)", version);
	for (node = root->children; node; node = node->next) {
		if (node->type == XML_ENTITY_REF_NODE)
			return reader_fail(r, node, "entity references are not allowed");
		if (is_xliff(node, "file")) {
			if (read_file_element(r, node, files == 0))
				return -1;
			files++;
		}
	}
	if (!files)
		return reader_fail(r, root, "no <file> element");
	return 0;
}

void xliff_release(xliff_catalogue *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		free(c->units[i].id);
		free(c->units[i].source);
		free(c->units[i].target);
	}
	free(c->units);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

const xliff_unit *xliff_find(const xliff_catalogue *c, const char *id)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->units[i].id, id))
			return &c->units[i];
	return NULL;
}

/* Parse data with the guards in place: the document, or NULL with err. */
static xmlDocPtr parse_guarded(const char *data, size_t len, const char *name,
			       mc_err *err)
{
	static const int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
				   XML_PARSE_NOCDATA;
	xmlExternalEntityLoader previous;
	xmlParserCtxtPtr ctxt;
	parse_guard guard = { 0, 0, 0, "" };
	xmlDocPtr doc = NULL;
	int well_formed, parsed;

	if (len > (size_t)0x7fffffff) {
		mc_error(err, "%s: too large", name);
		return NULL;
	}
	xmlInitParser();
	ctxt = xmlCreateMemoryParserCtxt(data, (int)len);
	if (!ctxt) {
		mc_error(err, "%s: cannot create an XML parser", name);
		return NULL;
	}
	if (xmlCtxtUseOptions(ctxt, options) != 0) {
		mc_error(err, "%s: cannot set the XML parser's options", name);
		xmlFreeParserCtxt(ctxt);
		return NULL;
	}
	ctxt->_private = &guard;
	ctxt->sax->internalSubset = guard_doctype;
	ctxt->sax->externalSubset = guard_doctype;
	ctxt->sax->entityDecl = guard_entity_decl;
	ctxt->sax->serror = guard_error;
	previous = xmlGetExternalEntityLoader();
	active_guard = &guard;
	xmlSetExternalEntityLoader(refuse_external);
	parsed = xmlParseDocument(ctxt);
	xmlSetExternalEntityLoader(previous);
	active_guard = NULL;
	well_formed = ctxt->wellFormed;
	doc = ctxt->myDoc;
	ctxt->myDoc = NULL;
	if (guard.doctype_line) {
		mc_error(err, "%s:%ld: a DOCTYPE is not allowed in a catalogue "
		         "(no DTD, no entity declarations)", name, guard.doctype_line);
	} else if (guard.external_load) {
		mc_error(err, "%s: refers to an external resource, which is not allowed", name);
	} else if (parsed != 0 || !well_formed || !doc) {
		if (!guard.error[0])
			mc_error(err, "%s: not well-formed XML", name);
		else if (guard.error_line > 0)
			mc_error(err, "%s:%d: %s", name, guard.error_line, guard.error);
		else
			mc_error(err, "%s: %s", name, guard.error);
	} else {
		xmlFreeParserCtxt(ctxt);
		return doc;
	}
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return NULL;
}

int xliff_read_memory(const char *data, size_t len, const char *name, xliff_catalogue *out,
		      mc_err *err)
{
	reader r = { .name = name, .err = err, .out = out };
	xmlDocPtr doc;
	size_t bad;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	strmap_init(&r.ids);
	if (len > XLIFF_MAX_BYTES) {
		mc_error(err, "%s: larger than the %lu-byte limit for a catalogue", name,
		         XLIFF_MAX_BYTES);
		goto out;
	}
	if (len == 0) {
		mc_error(err, "%s: empty file", name);
		goto out;
	}
	if (!mc_utf8_valid(data, len, &bad) || memchr(data, '\0', len)) {
		mc_error(err, "%s: not UTF-8 text (byte %zu)", name,
		         memchr(data, '\0', len) ? (size_t)((const char *)memchr(data, '\0', len) - data)
					         : bad);
		goto out;
	}
	doc = parse_guarded(data, len, name, err);
	if (!doc)
		goto out;
	out->path = xstrdup(name);
	rc = read_tree(&r, doc);
	xmlFreeDoc(doc);
out:
	strmap_release(&r.ids);
	if (rc) {
		/* an id or a name quoted in the message may hold line ends */
		if (err)
			mc_one_line(err->msg, strlen(err->msg));
		xliff_release(out);
	}
	return rc;
}

int xliff_read(const char *path, xliff_catalogue *out, mc_err *err)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	sbuf data;
	char buf[65536];
	size_t n;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	sbuf_init(&data);
	if (!f) {
		mc_error(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) {
		mc_error(err, "%s: not a regular file", path);
		goto out;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (data.len + n > XLIFF_MAX_BYTES) {
			mc_error(err, "%s: larger than the %lu-byte limit for a catalogue",
			         path, XLIFF_MAX_BYTES);
			goto out;
		}
		sbuf_add(&data, buf, n);
	}
	if (ferror(f)) {
		mc_error(err, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	rc = xliff_read_memory(data.data, data.len, path, out, err);
out:
	fclose(f);
	sbuf_release(&data);
	return rc;
}
