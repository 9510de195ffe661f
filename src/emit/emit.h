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

typedef enum { CG_FMT_TEXT, CG_FMT_JSON, CG_FMT_SARIF, CG_FMT_GITHUB, CG_FMT_CONCISE, CG_FMT_JSON_LINES,
               CG_FMT_JUNIT, CG_FMT_GITLAB, CG_FMT_HTML } cg_format;
#define CG_FMT_COUNT 9
/* The formats' names, in cg_format order: "text", "json", ... */
extern const char *const cg_format_names[CG_FMT_COUNT];

typedef struct cg_emit_opts {
    int color;          /* ANSI colour in text output */
    int statistics;     /* text: a per-rule count table instead of findings */
    int quiet;          /* text: no summary line */
    const char *tool_version;
} cg_emit_opts;

/* A name of cg_format_names -> format; -1 when unknown. */
int cg_format_parse(const char *name);

int cg_emit_text(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_json(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_sarif(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_github(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_concise(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_json_lines(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_junit(FILE *out, const cg_report *r, const cg_emit_opts *o);
int cg_emit_gitlab(FILE *out, const cg_report *r, const cg_emit_opts *o);
/* One self-contained page (inline style and SVG, no script, no URL loaded):
 * the run's program, verdicts and capture regions, and every finding. */
int cg_emit_html(FILE *out, const cg_report *r, const cg_emit_opts *o);
/* --statistics: findings per rule in `fmt` (text and concise: a table; json:
 * an array of {code, name, count, fixable}; json-lines: one per line; sarif:
 * that array as run.properties.statistics of a run with no results; junit: a
 * failing testcase per rule; html: a page with the table; github writes
 * text's, gitlab json's: their readers hold findings only). */
int cg_emit_statistics(FILE *out, cg_format fmt, const cg_report *r, const cg_emit_opts *o);
/* --list-rules (only < 0) or --explain (only: the rule's index) in `fmt`:
 * text the table or the rule's page; concise "CG101 name" lines; json an
 * array of rule objects or one with its "explanation"; json-lines the same a
 * line each; sarif tool.driver.rules of a run with no results; junit a
 * passing testcase per rule; html a page; github as text, gitlab as json. */
int cg_emit_rule_info(FILE *out, cg_format fmt, int only);
int cg_emit_rules(FILE *out, cg_format fmt);
int cg_emit(FILE *out, cg_format fmt, const cg_report *r, const cg_emit_opts *o);
/* Write s for a terminal: control characters (C0, DEL, C1) and bytes that
 * are not UTF-8 become \xNN, so a file name cannot send escape sequences
 * whether colour is on or off.  NULL writes nothing. */
void cg_emit_escaped(FILE *out, const char *s);
/* Tool messages on stderr: "cglint: error: ", "cglint: warning: ",
 * "cglint: note: " (level: cg_level), the level coloured when stderr takes
 * colour.  cg_emit_stderr_color: -1 auto (a terminal and NO_COLOR unset or
 * empty; the default), 0 never, 1 always. */
const char *cg_emit_level_prefix(int level);
const char *cg_emit_error_prefix(void);
void cg_emit_stderr_color(int when);
#endif
