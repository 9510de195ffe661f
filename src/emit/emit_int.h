/* emit_int.h - what the JSON-based emitters (json.c, sarif.c) share. */
#ifndef CG_EMIT_INT_H
#define CG_EMIT_INT_H
#include <jansson.h>

/* A JSON string, or null for NULL.  Invalid UTF-8 bytes become U+FFFD so a
 * key never vanishes (jansson refuses invalid UTF-8).  New reference. */
json_t *cg_emit_json_string(const char *s);
#include "../core/report.h"
/* The JSON format's object for one finding (json-lines shares it).  New reference. */
json_t *cg_emit_json_finding(const cg_finding *f);
/* --statistics in SARIF and HTML (formats.c decides the rows). */
typedef struct { size_t rule, count, fixable; } cg_stat_row;
struct cg_emit_opts;
/* A SARIF log of one run with no results: tool.driver.rules the catalog (or
 * only rule `only` when >= 0), run.properties.statistics = `statistics` when
 * not NULL (the reference is stolen). */
int cg_emit_sarif_info(FILE *out, int only, json_t *statistics);
void cg_emit_html_statistics(FILE *out, const cg_stat_row *rows, size_t n, size_t total,
                             const struct cg_emit_opts *o);
void cg_emit_html_rules(FILE *out, int only);
#endif
