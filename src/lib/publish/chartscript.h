/*
 * chartscript: the script that lets a reader point at the index's charts
 * (chart.h, chart_catalogue_index): hover, tap or the arrow keys show a
 * point's model, date and value and link to its page. Its CSS is the
 * pages' own (page_write.c, "charts").
 */
#ifndef MODELCAT_CHARTSCRIPT_H
#define MODELCAT_CHARTSCRIPT_H

extern const char chart_script[];

#endif
