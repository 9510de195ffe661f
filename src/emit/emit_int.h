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
#endif
