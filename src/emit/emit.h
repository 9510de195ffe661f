/* emit.h - output emitters over the one finding model (report.h).
 *
 * Each emitter writes a whole report to a stream and returns 0, or -1 when
 * the stream failed.  Emitters never decide exit codes and never filter: the
 * report already holds only selected rules.  Golden-file tests in
 * tests/unit/test_emit.c pin each format. */
#ifndef CG_EMIT_H
#define CG_EMIT_H
#include <stdio.h>
#include "../core/report.h"

typedef enum { CG_FMT_TEXT, CG_FMT_JSON, CG_FMT_SARIF, CG_FMT_GITHUB } cg_format;

typedef struct cg_emit_opts {
    int color;          /* ANSI colour in text output */
    int statistics;     /* text: a per-rule count table instead of findings */
    int quiet;          /* text: no summary line */
    const char *tool_version;
} cg_emit_opts;

/* "text", "json", "sarif", "github" -> format; -1 when unknown. */
int cg_format_parse(const char *name);

int cg_emit_text(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_json(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_sarif(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_github(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit(FILE *out, cg_format fmt, const cg_report *r, const cg_emit_opts *o);
/* Write s for a terminal: control characters (C0, DEL, C1) and bytes that
 * are not UTF-8 become \xNN, so a file name cannot send escape sequences
 * whether colour is on or off.  NULL writes nothing. */
void cg_emit_escaped(FILE *out, const char *s);
#endif
