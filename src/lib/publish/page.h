/*
 * page: one model page, described once as a list of blocks (title,
 * headings, paragraphs, label/value pairs, links) and written from that
 * description as text or as HTML.
 *
 * The words come from the translation catalogue (PAGE_TEXTS below lists
 * every entry a page uses, by key); the values come from the model's
 * merged record (query_model), formatted by format.h. docs/pages.md has
 * the rules: which field goes where, what is left out, what is derived.
 *
 * Ownership: a page owns its blocks and their strings (page_release);
 * page_texts owns its strings (page_texts_release).
 */
#ifndef MODELCAT_PAGE_H
#define MODELCAT_PAGE_H

#include <stddef.h>
#include "base/util.h"
#include "publish/template.h"
#include "values/format.h"

/* query.h's merged record (query.h is included by the .c files: its
 * include guard does not cover all of it). */
struct model_view;
/* frame.h's frame of a published page. */
struct frame;

/* Every catalogue entry a page uses: X(identifier, key). */
#define PAGE_TEXTS(X) \
	X(HW_NO_ESTIMATE, "hardware.no_estimate") \
	X(HW_CLOSED_TITLE, "hardware.closed.title") \
	X(HW_CLOSED_TEXT, "hardware.closed.text") \
	X(HW_OPEN_FIGURE, "hardware.open.figure") \
	X(HW_OPEN_TITLE, "hardware.open.title") \
	X(HW_OPEN_TEXT, "hardware.open.text") \
	X(HW_UNSIZED_TITLE, "hardware.unsized.title") \
	X(HW_OPEN_UNSIZED_TEXT, "hardware.open_unsized.text") \
	X(HW_UNKNOWN_TEXT, "hardware.unknown.text") \
	X(BAND, "band") \
	X(SPEC_HEADING, "spec.heading") \
	X(SPEC_INTRO, "spec.intro") \
	X(SECTION_EMPTY, "section.empty") \
	X(ORIGIN_HEADING, "section.origin.heading") \
	X(ORIGIN_INTRO, "section.origin.intro") \
	X(PURPOSE_HEADING, "section.purpose.heading") \
	X(PURPOSE_INTRO, "section.purpose.intro") \
	X(SIZE_HEADING, "section.size.heading") \
	X(SIZE_INTRO, "section.size.intro") \
	X(COMPUTE_HEADING, "section.compute.heading") \
	X(COMPUTE_INTRO, "section.compute.intro") \
	X(RUN_HEADING, "section.run.heading") \
	X(RUN_INTRO, "section.run.intro") \
	X(AVAILABILITY_HEADING, "section.availability.heading") \
	X(AVAILABILITY_INTRO, "section.availability.intro") \
	X(CLASSIFICATION_HEADING, "section.classification.heading") \
	X(CLASSIFICATION_INTRO, "section.classification.intro") \
	X(SOURCES_HEADING, "section.sources.heading") \
	X(SOURCES_INTRO, "section.sources.intro") \
	X(LABEL_ORGANISATION, "label.organisation") \
	X(LABEL_ORGANISATION_TYPE, "label.organisation_type") \
	X(LABEL_COUNTRY, "label.country") \
	X(LABEL_PUBLISHED, "label.published") \
	X(LABEL_AUTHORS, "label.authors") \
	X(LABEL_DOMAIN, "label.domain") \
	X(LABEL_TASK, "label.task") \
	X(LABEL_APPROACH, "label.approach") \
	X(LABEL_PARAMETERS, "label.parameters") \
	X(LABEL_TRAINING_DATA, "label.training_data") \
	X(LABEL_TRAINING_COMPUTE, "label.training_compute") \
	X(LABEL_COMPUTE_METHOD, "label.compute_method") \
	X(LABEL_HARDWARE, "label.hardware") \
	X(LABEL_CHIPS, "label.chips") \
	X(LABEL_WALL_CLOCK, "label.wall_clock") \
	X(LABEL_UTILISATION, "label.utilisation") \
	X(LABEL_POWER, "label.power") \
	X(LABEL_COMPUTE_COST, "label.compute_cost") \
	X(LABEL_DATA_CENTRE, "label.data_centre") \
	X(LABEL_WEIGHTS, "label.weights") \
	X(LABEL_MODEL_ACCESS, "label.model_access") \
	X(LABEL_TRAINING_CODE, "label.training_code") \
	X(LABEL_ABOVE_1E23, "label.above_1e23") \
	X(LABEL_TRACKED, "label.tracked") \
	X(LABEL_CONFIDENCE, "label.confidence") \
	X(LABEL_CITATIONS, "label.citations") \
	X(LABEL_REFERENCE, "label.reference") \
	X(LABEL_LAST_UPDATED, "label.last_updated") \
	X(VALUE_YES, "value.yes") \
	X(VALUE_NO, "value.no") \
	X(VALUE_DATE_DAY, "value.date.day") \
	X(VALUE_DATE_MONTH, "value.date.month") \
	X(VALUE_MONTH_1, "value.month.01") \
	X(VALUE_MONTH_2, "value.month.02") \
	X(VALUE_MONTH_3, "value.month.03") \
	X(VALUE_MONTH_4, "value.month.04") \
	X(VALUE_MONTH_5, "value.month.05") \
	X(VALUE_MONTH_6, "value.month.06") \
	X(VALUE_MONTH_7, "value.month.07") \
	X(VALUE_MONTH_8, "value.month.08") \
	X(VALUE_MONTH_9, "value.month.09") \
	X(VALUE_MONTH_10, "value.month.10") \
	X(VALUE_MONTH_11, "value.month.11") \
	X(VALUE_MONTH_12, "value.month.12") \
	X(VALUE_ONE_HOUR, "value.duration.one_hour") \
	X(VALUE_HOURS, "value.duration.hours") \
	X(VALUE_HOURS_DAYS, "value.duration.hours_days") \
	X(VALUE_MFU, "value.mfu") \
	X(VALUE_DATASET, "value.dataset") \
	X(VALUE_UNIT_TOKENS, "value.dataset_unit.tokens") \
	X(VALUE_UNIT_IMAGES, "value.dataset_unit.images") \
	X(VALUE_UNIT_DATAPOINTS, "value.dataset_unit.datapoints") \
	X(VALUE_NOT_RECORDED, "value.not_recorded") \
	X(VALUE_WEIGHTS_CLOSED, "value.weights.closed") \
	X(VALUE_WEIGHTS_OPEN, "value.weights.open") \
	X(VALUE_LICENCE_OPEN_SOURCE, "value.licence.open_source") \
	X(VALUE_LICENCE_UNRESTRICTED, "value.licence.unrestricted") \
	X(VALUE_LICENCE_NON_COMMERCIAL, "value.licence.non_commercial") \
	X(VALUE_LICENCE_RESTRICTED, "value.licence.restricted") \
	X(VALUE_LICENCE_UNKNOWN, "value.licence.unknown") \
	X(NUMBERS_HEADING, "numbers.heading") \
	X(NUMBERS_ORIGIN_HEADING, "numbers.origin.heading") \
	X(NUMBERS_ORIGIN, "numbers.origin") \
	X(NUMBERS_PURPOSE, "numbers.purpose") \
	X(NUMBERS_WEIGHTS_CLOSED, "numbers.weights.closed") \
	X(NUMBERS_WEIGHTS_OPEN, "numbers.weights.open") \
	X(NUMBERS_BUILD_HEADING, "numbers.build.heading") \
	X(NUMBERS_COMPUTE, "numbers.compute") \
	X(NUMBERS_TRACKED, "numbers.tracked") \
	X(FAQ_HEADING, "faq.heading") \
	X(FAQ_TITLE, "faq.title") \
	X(FAQ_USE_Q, "faq.use.q") \
	X(FAQ_USE_A, "faq.use.a") \
	X(FAQ_COMPUTE_Q, "faq.compute.q") \
	X(FAQ_COMPUTE_A, "faq.compute.a") \
	X(FAQ_GPU_Q, "faq.gpu.q") \
	X(FAQ_GPU_CLOSED, "faq.gpu.closed") \
	X(FAQ_GPU_OPEN, "faq.gpu.open") \
	X(FAQ_GPU_UNSIZED, "faq.gpu.unsized") \
	X(FAQ_OPEN_Q, "faq.open.q") \
	X(FAQ_OPEN_CLOSED, "faq.open.closed") \
	X(FAQ_OPEN_OPEN, "faq.open.open") \
	X(FAQ_PARAMS_Q, "faq.params.q") \
	X(FAQ_PARAMS_A, "faq.params.a") \
	X(FAQ_CREATOR_Q, "faq.creator.q") \
	X(FAQ_CREATOR_A, "faq.creator.a") \
	X(FAQ_RELEASED_Q, "faq.released.q") \
	X(FAQ_RELEASED_A, "faq.released.a") \
	X(FAQ_RELEASED_NEWER, "faq.released.newer") \
	X(CLOSING_HEADING, "closing.heading") \
	X(CLOSING_LEAD, "closing.lead") \
	X(CLOSING_TEXT, "closing.text") \
	X(INDEX_TITLE, "index.title") \
	X(INDEX_INTRO, "index.intro") \
	X(FORMERLY, "model.formerly") \
	X(SITE_NAME, "site.name") \
	X(SITE_LANGUAGE, "site.language") \
	X(SITE_ABOUT, "site.about") \
	X(SITE_PUBLISHED, "site.published") \
	X(NAV_LABEL, "nav.label") \
	X(NAV_INDEX, "nav.index") \
	X(NAV_AUDIT, "nav.audit") \
	X(META_MODEL, "meta.model") \
	X(META_INDEX, "meta.index") \
	X(CITE_HEADING, "cite.heading") \
	X(CITE_DATA, "cite.data") \
	X(CITE_SNAPSHOT, "cite.snapshot") \
	X(CITE_SOURCES, "cite.sources") \
	X(CITE_README, "cite.readme") \
	X(CITE_BIBTEX, "cite.bibtex") \
	X(DOWNLOADS_LABEL, "downloads.label") \
	X(DOWNLOADS_PAGE, "downloads.page") \
	X(NAV_HARDWARE, "nav.hardware") \
	X(HWP_META, "hwpage.meta") \
	X(HWP_SPEC_HEADING, "hwpage.spec.heading") \
	X(HWP_LABEL_MANUFACTURER, "hwpage.label.manufacturer") \
	X(HWP_LABEL_TYPE, "hwpage.label.type") \
	X(HWP_LABEL_MEMORY, "hwpage.label.memory") \
	X(HWP_LABEL_BANDWIDTH, "hwpage.label.bandwidth") \
	X(HWP_LABEL_COMPUTE, "hwpage.label.compute") \
	X(HWP_LABEL_POWER, "hwpage.label.power") \
	X(HWP_LABEL_RELEASED, "hwpage.label.released") \
	X(HWP_LABEL_PRICE, "hwpage.label.price") \
	X(HWP_NO_MEMORY, "hwpage.no_memory") \
	X(HWP_TRAINED_HEADING, "hwpage.trained.heading") \
	X(HWP_TRAINED_INTRO, "hwpage.trained.intro") \
	X(HWP_TRAINED_NONE, "hwpage.trained.none") \
	X(HWP_RUN_HEADING, "hwpage.run.heading") \
	X(HWP_RUN_RULE, "hwpage.run.rule") \
	X(HWP_RUN_BITS, "hwpage.run.bits") \
	X(HWP_RUN_NONE, "hwpage.run.none") \
	X(HWP_RUN_ITEM, "hwpage.run.item") \
	X(HWP_RUN_ALL, "hwpage.run.all") \
	X(HWP_TRAINED_ALL, "hwpage.trained.all") \
	X(HWP_ALL_TITLE, "hwpage.all.title") \
	X(HWP_ALL_TRAINED_TITLE, "hwpage.all.trained.title") \
	X(HWP_ALL_META, "hwpage.all.meta") \
	X(HWP_ALL_BACK, "hwpage.all.back") \
	X(HWP_ALL_CSV, "hwpage.all.csv") \
	X(HWP_CHART_TITLE, "hwpage.chart.title") \
	X(HWP_CHART_DESC, "hwpage.chart.desc") \
	X(HWP_CHART_MODEL, "hwpage.chart.model") \
	X(HWP_CHART_AXIS, "hwpage.chart.axis") \
	X(HWP_CHART_COLUMN, "hwpage.chart.column") \
	X(HWP_CHART_RULE, "hwpage.chart.rule") \
	X(HWP_INDEX_MEMORY_TITLE, "hwpage.index.memory.title") \
	X(HWP_INDEX_MEMORY_DESC, "hwpage.index.memory.desc") \
	X(HWP_INDEX_FLOPS_TITLE, "hwpage.index.flops.title") \
	X(HWP_INDEX_FLOPS_DESC, "hwpage.index.flops.desc") \
	X(HWP_INDEX_FLOPS_AXIS, "hwpage.index.flops.axis") \
	X(HWP_INDEX_DATE_AXIS, "hwpage.index.date.axis") \
	X(HWP_INDEX_CSV, "hwpage.index.csv") \
	X(CHART_PEERS_TITLE, "chart.peers.title") \
	X(CHART_PEERS_DESC, "chart.peers.desc") \
	X(CHART_PEERS_AXIS, "chart.peers.axis") \
	X(CHART_PEERS_MONTHS, "chart.peers.months") \
	X(CHART_PEERS_ON, "chart.peers.on") \
	X(CHART_PEERS_CSV, "chart.peers.csv") \
	X(HWP_INDEX_TITLE, "hwpage.index.title") \
	X(HWP_INDEX_INTRO, "hwpage.index.intro") \
	X(HWP_INDEX_ITEM, "hwpage.index.item") \
	X(HWP_INDEX_META, "hwpage.index.meta") \
	X(INDEX_COLUMN_NAME, "index.column.name") \
	X(INDEX_FILTERS, "index.filters") \
	X(INDEX_SEARCH, "index.search") \
	X(INDEX_YEAR, "index.year") \
	X(INDEX_ANY, "index.any") \
	X(INDEX_OPEN, "index.weights.open") \
	X(INDEX_CLOSED, "index.weights.closed") \
	X(INDEX_UNKNOWN, "index.weights.unknown") \
	X(INDEX_RESET, "index.reset") \
	X(INDEX_SHOWN, "index.shown") \
	X(INDEX_ALL_LINK, "index.all.link") \
	X(INDEX_ALL_TITLE, "index.all.title") \
	X(CHART_COMPUTE_TITLE, "chart.compute.title") \
	X(CHART_COMPUTE_DESC, "chart.compute.desc") \
	X(CHART_PARAMETERS_TITLE, "chart.parameters.title") \
	X(CHART_PARAMETERS_DESC, "chart.parameters.desc") \
	X(CHART_AXIS_DATE, "chart.axis.date") \
	X(CHART_AXIS_COMPUTE, "chart.axis.compute") \
	X(CHART_AXIS_PARAMETERS, "chart.axis.parameters") \
	X(CHART_TABLE_MODEL, "chart.table.model") \
	X(CHART_DATA_TITLE, "chart.data.title") \
	X(CHART_DATA_LINK, "chart.data.link") \
	X(CHART_MODEL_ON, "chart.model.on") \
	X(CHART_MODEL_OFF, "chart.model.off") \
	X(CHART_COMPUTE_TREND, "chart.compute.trend") \
	X(CHART_PARAMETERS_TREND, "chart.parameters.trend") \
	X(CHART_ALL_YEARS, "chart.all_years") \
	X(CHART_CSV_LINK, "chart.csv.link") \
	X(CHART_KEYS, "chart.keys") \
	X(CHART_SEVERAL, "chart.several") \
	X(CHART_OTHER, "chart.other") \
	X(CHART_FRONTIER, "chart.frontier") \
	X(CHART_LEGEND, "chart.legend") \
	X(HISTORY_HEADING, "history.heading") \
	X(HISTORY_INTRO, "history.intro") \
	X(HISTORY_ADDED, "history.added") \
	X(HISTORY_ADDED_EXPORT, "history.added_export") \
	X(HISTORY_RETURNED, "history.returned") \
	X(HISTORY_RENAMED, "history.renamed") \
	X(HISTORY_CHANGED, "history.changed") \
	X(HISTORY_NEW_COLUMN, "history.new_column") \
	X(HISTORY_COLUMN_REMOVED, "history.column_removed") \
	X(HISTORY_REMOVED, "history.removed") \
	X(HISTORY_HELD, "history.held") \
	X(HISTORY_NONE, "history.none") \
	X(HISTORY_EARLIER, "history.earlier") \
	X(FIELD_LINK, "field.link") \
	X(FIELD_NOTABILITY_CRITERIA_NOTES, "field.notability_criteria_notes") \
	X(FIELD_PARAMETERS_NOTES, "field.parameters_notes") \
	X(FIELD_TRAINING_COMPUTE_LOWER_BOUND, "field.training_compute_lower_bound") \
	X(FIELD_TRAINING_COMPUTE_UPPER_BOUND, "field.training_compute_upper_bound") \
	X(FIELD_TRAINING_COMPUTE_NOTES, "field.training_compute_notes") \
	X(FIELD_TRAINING_DATASET, "field.training_dataset") \
	X(FIELD_TRAINING_DATASET_NOTES, "field.training_dataset_notes") \
	X(FIELD_DATASET_SIZE_NOTES, "field.dataset_size_notes") \
	X(FIELD_DATASET_ACCESSIBILITY, "field.dataset_accessibility") \
	X(FIELD_EPOCHS, "field.epochs") \
	X(FIELD_TRAINING_TIME_NOTES, "field.training_time_notes") \
	X(FIELD_HARDWARE_UTILIZATION_HFU, "field.hardware_utilization_hfu") \
	X(FIELD_UTILIZATION_NOTES, "field.utilization_notes") \
	X(FIELD_NUMERICAL_FORMAT, "field.numerical_format") \
	X(FIELD_TRAINING_COMPUTE_COST_2020_USD, "field.training_compute_cost_2020_usd") \
	X(FIELD_TRAINING_COMPUTE_COST_CLOUD, "field.training_compute_cost_cloud") \
	X(FIELD_TRAINING_COMPUTE_COST_UPFRONT, "field.training_compute_cost_upfront") \
	X(FIELD_HARDWARE_ACQUISITION_COST, "field.hardware_acquisition_cost") \
	X(FIELD_COMPUTE_COST_NOTES, "field.compute_cost_notes") \
	X(FIELD_COMPUTE_SPONSOR_CATEGORIZATION, "field.compute_sponsor_categorization") \
	X(FIELD_TRAINING_CLOUD_COMPUTE_VENDOR, "field.training_cloud_compute_vendor") \
	X(FIELD_ABSTRACT, "field.abstract") \
	X(FIELD_BENCHMARK_DATA, "field.benchmark_data") \
	X(FIELD_OPEN_MODEL_WEIGHTS, "field.open_model_weights") \
	X(FIELD_CODE_ACCESSIBILITY, "field.code_accessibility") \
	X(FIELD_INFERENCE_CODE_ACCESSIBILITY, "field.inference_code_accessibility") \
	X(FIELD_ACCESSIBILITY_NOTES, "field.accessibility_notes") \
	X(FIELD_BASE_MODEL, "field.base_model") \
	X(FIELD_FOUNDATION_MODEL, "field.foundation_model") \
	X(FIELD_FRONTIER_MODEL, "field.frontier_model") \
	X(FIELD_FINETUNE_COMPUTE_FLOP, "field.finetune_compute_flop") \
	X(FIELD_FINETUNE_COMPUTE_NOTES, "field.finetune_compute_notes") \
	X(FIELD_INFERENCE_COMPUTE_FLOP, "field.inference_compute_flop") \
	X(FIELD_INFERENCE_COMPUTE_NOTES, "field.inference_compute_notes") \
	X(FIELD_BATCH_SIZE, "field.batch_size") \
	X(FIELD_BATCH_SIZE_NOTES, "field.batch_size_notes") \
	X(FIELD_ARCHIVED_LINKS, "field.archived_links") \
	X(FIELD_LAST_MODIFIED, "field.last_modified") \
	X(FIELD_TRAINING_CHIP_HOURS, "field.training_chip_hours") \
	X(FIELD_POST_TRAINING_COMPUTE_FLOP, "field.post_training_compute_flop") \
	X(FIELD_POST_TRAINING_COMPUTE_NOTES, "field.post_training_compute_notes") \
	X(FIELD_POSSIBLY_OVER_1E23_FLOP, "field.possibly_over_1e23_flop") \
	X(FIELD_ESTIMATED_OVER_1E25_FLOP, "field.estimated_over_1e25_flop") \
	X(FIELD_MAYBE_OVER_1E25_FLOP, "field.maybe_over_1e25_flop") \
	X(FIELD_KNOWLEDGE_CUTOFF, "field.knowledge_cutoff") \
	X(FIELD_CONTEXT_WINDOW, "field.context_window") \
	X(FIELD_BASE_MODEL_COMPUTE, "field.base_model_compute") \
	X(FIELD_DISTILLATION_OR_SYNTHETIC_DATA, "field.distillation_or_synthetic_data") \
	X(FIELD_DISTILLATION_OR_SYNTHETIC_DATA_COMPUTE, "field.distillation_or_synthetic_data_compute") \
	X(FIELD_DISTILLATION_OR_SYNTHETIC_DATA_COMPUTE_NOTES, "field.distillation_or_synthetic_data_compute_notes") \
	X(FIELD_HUGGING_FACE_DEVELOPER_ID, "field.hugging_face_developer_id") \
	X(FIELD_WIKITEXT_AND_PENN_TREEBANK_DATA, "field.wikitext_and_penn_treebank_data") \
	X(AUDIT_TITLE, "audit.title") \
	X(AUDIT_META, "audit.meta") \
	X(AUDIT_NOTHING, "audit.nothing") \
	X(AUDIT_SUMMARY, "audit.summary") \
	X(AUDIT_COL_EXPORT, "audit.col.export") \
	X(AUDIT_COL_ADDED, "audit.col.added") \
	X(AUDIT_COL_REMOVED, "audit.col.removed") \
	X(AUDIT_COL_RENAMED, "audit.col.renamed") \
	X(AUDIT_COL_CHANGED, "audit.col.changed") \
	X(AUDIT_COL_HELD, "audit.col.held") \
	X(AUDIT_COL_QUARANTINED, "audit.col.quarantined") \
	X(AUDIT_COL_ALL, "audit.col.all") \
	X(AUDIT_TOP, "audit.top") \
	X(AUDIT_TOP_ITEM, "audit.top.item") \
	X(AUDIT_ADDED, "audit.added") \
	X(AUDIT_REMOVED, "audit.removed") \
	X(AUDIT_RENAMED, "audit.renamed") \
	X(AUDIT_CHANGED, "audit.changed") \
	X(AUDIT_VOLATILE, "audit.volatile") \
	X(AUDIT_QUARANTINED, "audit.quarantined") \
	X(AUDIT_QUARANTINED_ITEM, "audit.quarantined.item") \
	X(AUDIT_NO_NAME, "audit.no_name") \
	X(AUDIT_NEW_COLUMN, "audit.new_column") \
	X(AUDIT_COLUMN_REMOVED, "audit.column_removed") \
	X(AUDIT_COLUMNS, "audit.columns") \
	X(AUDIT_COLUMN_ADDED_ITEM, "audit.column.added") \
	X(AUDIT_COLUMN_REMOVED_ITEM, "audit.column.removed") \
	X(AUDIT_COLUMN_RESPELLED, "audit.column.respelled") \
	X(AUDIT_RETURNED, "audit.returned") \
	X(AUDIT_PAGES, "audit.pages") \
	X(AUDIT_PAGE, "audit.page") \
	X(AUDIT_PAGE_TITLE, "audit.page.title") \
	X(AUDIT_BACK, "audit.back") \
	X(AUDIT_ALL, "audit.all") \
	X(AUDIT_SOURCE, "audit.source") \
	X(AUDIT_HARDWARE, "audit.hardware") \
	X(AUDIT_HELD, "audit.held") \
	X(AUDIT_NAV, "audit.nav") \
	X(AUDIT_HARDWARE_INTRO, "audit.hardware.intro") \
	X(AUDIT_HARDWARE_FITS_NOW, "audit.hardware.fits_now") \
	X(AUDIT_HARDWARE_FITS_NO_LONGER, "audit.hardware.fits_no_longer") \
	X(AUDIT_HARDWARE_PARAMETERS, "audit.hardware.parameters") \
	X(AUDIT_HARDWARE_TRAINED_ADDED, "audit.hardware.trained_added") \
	X(AUDIT_HARDWARE_TRAINED_REMOVED, "audit.hardware.trained_removed") \
	X(AUDIT_MORE, "audit.more") \
	X(AUDIT_HELD_KEPT, "audit.held.kept") \
	X(AUDIT_HELD_EXPORT, "audit.held.export") \
	X(AUDIT_INDEX_TITLE, "audit.index.title") \
	X(AUDIT_INDEX_INTRO, "audit.index.intro") \
	X(AUDIT_INDEX_ITEM, "audit.index.item")

#define PAGE_TEXT_ENUM(id, key) PT_##id,
typedef enum page_text_id { PAGE_TEXTS(PAGE_TEXT_ENUM) PT_COUNT } page_text_id;
#undef PAGE_TEXT_ENUM

/* The catalogue key of a text (e.g. "band"). */
const char *page_text_key(page_text_id id);
/* The text id of a key: 0 and *id, or -1 when pages use no such key. */
int page_text_find(const char *key, page_text_id *id);
/* Is name a placeholder pages fill in ("name", "compute", ...)? */
int page_placeholder_known(const char *name, size_t len);

/* The page text of one language: a template per text id (template.h). */
typedef struct page_texts {
	char lang[36];               /* language code */
	char *text[PT_COUNT];        /* owned; NULL until set */
	/* each text's tokens, made with it by page_text_set() (NULL: made
	   at each use); a text set there is replaced there, never by hand */
	template_compiled *compiled[PT_COUNT];
} page_texts;

void page_texts_init(page_texts *t, const char *lang);
void page_texts_release(page_texts *t);

/* ---- the description ---- */

typedef enum page_kind {
	PAGE_TITLE,                  /* the page title (h1) */
	PAGE_OPEN,                   /* opens a part of the page; role names it */
	PAGE_CLOSE,                  /* closes the innermost open part */
	PAGE_HEADING,                /* a heading of level 2, 3 or 4 */
	PAGE_PARAGRAPH,              /* a paragraph; role says which kind */
	PAGE_PAIR,                   /* a label and its value (text, link) */
	PAGE_LINK,                   /* an item of a list of links (text, link) */
	PAGE_RAW                     /* HTML made by modelcat's own writers (a chart,
					a table), every data string in it already
					escaped: written as is in HTML, left out of
					the text page */
} page_kind;

/* A block's text, value and link are copies in its page's strings
 * (page_strdup()), freed with the page. */
typedef struct page_block {
	page_kind kind;              /* what the block is */
	int level;                   /* PAGE_HEADING: 2, 3 or 4 */
	const char *role;            /* PAGE_OPEN, PAGE_PARAGRAPH: "intro", "note",
					"band", "figure", ... (static string) */
	char *text;                  /* title, heading, paragraph, label, link text */
	char *value;                 /* PAGE_PAIR: the value */
	char *link;                  /* PAGE_PAIR, PAGE_LINK: where it links (an
					http(s) URL or a relative path, see
					page_safe_href), or NULL */
	int html_only;               /* left out of the text page (the seed's text
					pages stay as they are) */
	char **item_links;           /* PAGE_PAIR whose value is a list ("A,B"): in
					HTML, item i links to item_links[i] (NULL:
					no link); nitems entries, owned */
	size_t nitems;               /* entries in item_links */
	int text_only;               /* left out of the HTML page, which tells the
					same otherwise (the index's list of names,
					shown as a table; the history, in a
					PAGE_RAW block) */
	int hole;                    /* PAGE_RAW: the place of bytes the caller
					writes itself (page_render_html_hole) */
} page_block;

typedef struct page {
	char lang[36];               /* language of the page */
	page_block *blocks;          /* in reading order */
	size_t n;                    /* number of blocks */
	size_t cap;                  /* blocks allocated (page_grow) */
	/* the model's former names, "A, B" (set before page_build; NULL:
	 * none, and no "Formerly" line); freed by page_release */
	char *formerly;
	/* the citation of the data (a bundle's README.md, db/credit.h), shown
	 * in the HTML sources section (set before page_build; NULL: none);
	 * freed by page_release */
	char *citation;
	/* where the training hardware's items link in HTML: pairs of item (as
	 * the page lists it) and href (hwpage.h), 2 * nhardware_links strings
	 * (set before page_build; NULL: no links); freed by page_release */
	char **hardware_links;
	size_t nhardware_links;      /* pairs in hardware_links */
	/* the hardware index, linked from the closing sentence in HTML (set
	 * before page_build; NULL: no link); freed by page_release */
	char *hardware_index;
	char *description;           /* the meta description (page_build sets it; owned) */
	/* the charts' HTML (chart.h), set before page_build (in the training
	 * compute section, HTML only) or page_build_index (after the intro);
	 * NULL: none; freed by page_release */
	char *charts;
	const struct frame *frame;   /* the site's frame around the HTML (frame.h;
					NULL: a page on its own); borrowed */
	const char *style;           /* more CSS for this page's <style> (a static
					string, e.g. the index table's), or NULL */
	int html_only;               /* written as HTML only, no text page */
	strpool texts;               /* the blocks' texts, values and links */
} page;

void page_init(page *p, const char *lang);
void page_release(page *p);

/*
 * Describe the page of model m in the language of texts (a text missing
 * there falls back to english, which must then have it). Returns 0, or -1
 * with the reason in err (a text neither language has, a broken template).
 */
int page_build(page *p, const struct model_view *m, const page_texts *texts,
	       const page_texts *english, mc_err *err);

/* One entry of an index page: what the index and the charts show of a
 * model, taken from its merged record by page_index_entry_fill(). */
typedef struct page_index_entry {
	const char *name;            /* the model's name */
	const char *file;            /* its page, relative to the index */
	char *organisation;          /* "Organization" as stored ("A,B"), or NULL */
	char *domain;                /* "Domain" as stored, or NULL */
	char published[11];          /* "Publication date" (YYYY-MM-DD, YYYY-MM or
					YYYY as stored), or "" */
	double parameters;           /* "Parameters", NAN when unknown */
	double compute;              /* "Training compute (FLOP)", NAN when unknown */
	int open_weights;            /* 1 open, 0 closed, -1 unknown (as the page's
					weights figure decides) */
	char last_updated[11];       /* the row's own last change: the source's
					"Last modified" (its date) when the model
					has one, else its last updated date, or "" */
	char *formerly;              /* its former names, tab-separated, or
					NULL (set by the caller; released) */
	int frontier;                /* "Frontier model" is true */
} page_index_entry;

/* Fill e's values from m (name and file are the caller's to set); free
 * with page_index_entry_release. */
void page_index_entry_fill(page_index_entry *e, const struct model_view *m);
void page_index_entry_release(page_index_entry *e);

/* Append a block of kind PAGE_RAW holding html (HTML made by modelcat's
 * own writers, every data string in it escaped; the page copies it and
 * frees html), left out of the text page. */
void page_add_raw(page *p, char *html);

/* The index's companions beside it: the file of the rows after the
 * page's (for its script) and the stem of the page of every row. */
#define PAGE_INDEX_ROWS "index.rows.js"
#define PAGE_INDEX_ALL "index.all"

/* The table given to page_build_index for a page PAGE_INDEX_ALL whose
 * table the caller writes itself, into the page's hole: a table of tens
 * of MB is then neither copied into the page nor into its HTML. */
extern const char page_index_hole[];
#define PAGE_INDEX_HOLE page_index_hole

/* Describe the index page of a language: n entries on date (YYYY-MM-DD).
 * The text page lists the names in the order given; the HTML page has
 * the table of indextable.h, newest publication first, with its first
 * rows and the script that loads the rest from PAGE_INDEX_ROWS. With
 * rest_js and rest_table, that file's content goes to rest_js and the
 * table of every row to rest_table (index_table_rest). With table set
 * (a rest_table), the page PAGE_INDEX_ALL instead: that table, no charts,
 * no script (HTML only: set html_only; rest_js and rest_table unused);
 * table PAGE_INDEX_HOLE: the same page, with a hole where the table goes. */
int page_build_index(page *p, const page_index_entry *entries, size_t n, const char *date,
		     const char *table, sbuf *rest_js, sbuf *rest_table, const page_texts *texts,
		     const page_texts *english, mc_err *err);

/* A copy of s (NULL: NULL) that p keeps until page_release(): a block's
 * text, value or link. */
char *page_strdup(page *p, const char *s);
/* Append a block to p, text copied (NULL: none); the block is p's. For
 * builders of other pages (hwpage.h). */
page_block *page_add(page *p, page_kind kind, int level, const char *role, const char *text);
/* Room in p for more blocks after its n, allocated in doubling steps (a
 * block at a time was a thirtieth of a publication): the first of them,
 * zeroed only by the caller. */
page_block *page_grow(page *p, size_t more);
/* Describe a page of a title (h1, and the meta description) and HTML
 * made by modelcat's own writers, every string in it already escaped
 * (a chart's data): its text page is the title alone. */
void page_build_raw(page *p, const char *title, const char *html);
/*
 * The label the page gives field (its label.* text, in the language of
 * texts, English where it lacks one; for a field the page shows no pair
 * for its field.* text, else the field's name) into label, and value written as the page writes that
 * field's values (dates, counts, FLOP, lists...) into out; a value the
 * page would not show, or a field it has no pair for, as the text itself.
 * context (may be NULL): the model whose page it is, for what a value's
 * form depends on (a dataset's unit on the domain). 0, or -1 (err).
 */
int page_field_value(const char *field, const char *value, const struct model_view *context,
		     const page_texts *texts, const page_texts *english, sbuf *label, sbuf *out,
		     mc_err *err);
/* The formatter's language of texts (format.h): its punctuation, and the
 * month names and Yes/No of the texts (english for one it lacks). */
void page_format_lang(const page_texts *texts, const page_texts *english, format_lang *l);

/* A date (YYYY-MM-DD, YYYY-MM or YYYY) as pages write it ("16 July 2024";
 * "July 2024" for a month's precision or with month_only; "2024") into
 * out: 1 written, 0 no date (nothing written), -1 a text of it missing or
 * broken (err). */
int page_date(const char *iso, int month_only, const page_texts *texts,
	      const page_texts *english, sbuf *out, mc_err *err);

/* The template of text id: the language's (texts), else English's, else
 * NULL. Either may be NULL. */
const char *page_text_of(const page_texts *texts, const page_texts *english, page_text_id id);
/* Set text id of texts to a copy of text, its tokens made once for all
 * its expansions. */
void page_text_set(page_texts *texts, page_text_id id, const char *text);
/* template_expand() of the text page_text_of() gives for id ("" when
 * neither has one), from the tokens page_text_set() made with it. */
int page_text_expand(const page_texts *texts, const page_texts *english, page_text_id id,
		     template_lookup_fn *lookup, void *ctx, sbuf *out);
/* Text id filled in from pairs (template_pairs: name, value, ..., NULL;
 * NULL: none) appended to out; a text neither language has, or one that
 * cannot be filled in: its key, so that what is missing shows. */
void page_text_plain(const page_texts *texts, const page_texts *english, page_text_id id,
		     const char *const *pairs, sbuf *out);
/* page_text_plain() into a new string: the caller frees it. */
char *page_text_string(const page_texts *texts, const page_texts *english, page_text_id id,
		       const char *const *pairs);

/* Write the page as text: one line per title, heading and paragraph,
 * "- label" and "- value" lines per pair, "- text" per link. */
void page_render_text(const page *p, sbuf *out);
/* Write the page as a complete HTML document, every string escaped, links
 * only to http(s) URLs and to plain file names. */
void page_render_html(const page *p, sbuf *out);
/* The same, and where in out the page's hole is (its first PAGE_RAW block
 * marked hole: the offset of the bytes that go there) into *hole, or
 * SIZE_MAX when it has none. */
void page_render_html_hole(const page *p, sbuf *out, size_t *hole);

/* Is url an http:// or https:// URL with no white space or control
 * characters? (Only such URLs become links.) */
int page_safe_url(const char *url);

/* May link be an href: a safe URL (page_safe_url), or a relative path of
 * '/'-separated segments, each ".." or made of letters, digits, '.', '-'
 * and '_' and not starting with '.' ("x.html", "../../audit/2024.html")? */
int page_safe_href(const char *link);

#endif
