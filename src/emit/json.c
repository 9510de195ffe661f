/* json.c - the machine format: one JSON document, keys in a fixed order.
 *
 * The layout is a public interface, documented with a JSON Schema in
 * docs/json-schema.md; `schema_version` changes only when a key is removed or
 * changes meaning (adding keys is compatible).  jansson keeps insertion
 * order, so the order below is the order on the wire.  All escaping is
 * jansson's. */
#include "emit.h"
#include "emit_int.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cglint_version.h"   /* generated from CMake's project(VERSION) */

#define CG_JSON_SCHEMA_VERSION 1

static const char *json_level_name(cg_level level)
{
    switch (level) {
    case CG_ERROR: return "error";
    case CG_WARN: return "warning";
    default: return "note";
    }
}

static json_t *json_capture(const cg_finding *f)
{
    if (!f->has_capture) return json_null();
    json_t *c = json_object();
    json_object_set_new(c, "path", cg_emit_json_string(f->capture.path));
    json_object_set_new(c, "line", json_integer(f->capture.line));
    json_object_set_new(c, "column", json_integer(f->capture.col));
    json_object_set_new(c, "kind", cg_emit_json_string(f->capture_kind));
    return c;
}

static json_t *json_call_path(const cg_finding *f)
{
    json_t *a = json_array();
    for (size_t k = 0; k < f->npath; k++) {
        const cg_step *s = &f->path[k];
        json_t *step = json_object();
        json_object_set_new(step, "function", cg_emit_json_string(s->function));
        json_object_set_new(step, "path", cg_emit_json_string(s->loc.path));
        json_object_set_new(step, "line", json_integer(s->loc.line));
        json_object_set_new(step, "column", json_integer(s->loc.col));
        json_array_append_new(a, step);
    }
    return a;
}

/* The mechanical fix, or null: {"safe", "title", "edits": [{line, column,
 * end_line, end_column, replacement}]} (columns as everywhere: code points,
 * end exclusive; an insertion has an empty span). */
static json_t *json_autofix(const cg_finding *f)
{
    if (!f->nedits) return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "safe", json_boolean(f->fix_safe));
    json_object_set_new(o, "title", cg_emit_json_string(f->fix_title));
    json_t *edits = json_array();
    for (size_t k = 0; k < f->nedits; k++) {
        const cg_edit *e = &f->edits[k];
        json_t *x = json_object();
        json_object_set_new(x, "line", json_integer(e->line));
        json_object_set_new(x, "column", json_integer(e->col));
        json_object_set_new(x, "end_line", json_integer(e->end_line));
        json_object_set_new(x, "end_column", json_integer(e->end_col));
        json_object_set_new(x, "replacement", cg_emit_json_string(e->text ? e->text : ""));
        json_array_append_new(edits, x);
    }
    json_object_set_new(o, "edits", edits);
    return o;
}

json_t *cg_emit_json_finding(const cg_finding *f)
{
    const cg_rule *rule = &cg_rules[f->rule];
    json_t *o = json_object();
    json_object_set_new(o, "rule", cg_emit_json_string(rule->id));
    json_object_set_new(o, "name", cg_emit_json_string(rule->name));
    json_object_set_new(o, "category", cg_emit_json_string(rule->category_name));
    json_object_set_new(o, "severity", cg_emit_json_string(cg_severity_name(f->level)));
    json_object_set_new(o, "path", cg_emit_json_string(f->loc.path));
    json_object_set_new(o, "line", json_integer(f->loc.line));
    json_object_set_new(o, "column", json_integer(f->loc.col));
    json_object_set_new(o, "end_line", json_integer(f->loc.end_line));
    json_object_set_new(o, "end_column", json_integer(f->loc.end_col));
    json_object_set_new(o, "message", cg_emit_json_string(f->message ? f->message : ""));
    json_object_set_new(o, "fix", cg_emit_json_string(f->fix && *f->fix ? f->fix : rule->fix));
    json_object_set_new(o, "capture", json_capture(f));
    json_object_set_new(o, "call_path", json_call_path(f));
    json_object_set_new(o, "autofix", json_autofix(f));
    json_object_set_new(o, "verdict", cg_emit_json_string(cg_verdict_key(f->verdict)));
    json_object_set_new(o, "evidence", cg_emit_json_string(f->verdict ? f->evidence : NULL));
    return o;
}

static json_t *json_notice(const cg_notice *n)
{
    json_t *o = json_object();
    json_object_set_new(o, "level", cg_emit_json_string(json_level_name(n->level)));
    json_object_set_new(o, "path", cg_emit_json_string(n->path));
    json_object_set_new(o, "line", json_integer(n->line));
    json_object_set_new(o, "column", json_integer(n->col));
    json_object_set_new(o, "message", cg_emit_json_string(n->message ? n->message : ""));
    return o;
}

static json_t *json_opt_str(const char *s) { return s ? cg_emit_json_string(s) : json_null(); }

static json_t *json_run(const cg_report *r)
{
    const cg_run_info *ri = r->run;
    if (!ri) return json_null();
    json_t *o = json_object();
    json_t *argv = json_array();
    for (size_t i = 0; i < ri->argc; i++) json_array_append_new(argv, cg_emit_json_string(ri->argv[i]));
    json_object_set_new(o, "command", argv);
    json_object_set_new(o, "exit_code", ri->signal ? json_null() : json_integer(ri->exit_code));
    json_object_set_new(o, "signal", ri->signal ? json_integer(ri->signal) : json_null());
    json_object_set_new(o, "processes", json_integer((json_int_t)ri->processes));
    json_object_set_new(o, "gpu", json_opt_str(ri->gpu));
    json_object_set_new(o, "driver", json_opt_str(ri->driver));
    json_object_set_new(o, "cuda", json_opt_str(ri->cuda));
    json_object_set_new(o, "torch", json_opt_str(ri->torch));
    json_t *regions = json_array();
    for (size_t i = 0; i < ri->nregions; i++) {
        const cg_region_stat *g = &ri->regions[i];
        json_t *x = json_object();
        json_object_set_new(x, "path", cg_emit_json_string(g->site.path ? g->site.path : "?"));
        json_object_set_new(x, "line", json_integer(g->site.line));
        json_object_set_new(x, "kind", json_opt_str(g->kind));
        json_object_set_new(x, "captures", json_integer((json_int_t)g->captures));
        json_object_set_new(x, "failed_captures", json_integer((json_int_t)g->failed));
        json_object_set_new(x, "replays", json_integer((json_int_t)g->replays));
        json_object_set_new(x, "graph_nodes", g->nodes >= 0 ? json_integer(g->nodes) : json_null());
        json_object_set_new(x, "mean_replay_ms", g->mean_replay_ms >= 0 ? json_real(round(g->mean_replay_ms * 1e4) / 1e4) : json_null());
        json_object_set_new(x, "eager_step_ms", g->eager_step_ms >= 0 ? json_real(round(g->eager_step_ms * 1e4) / 1e4) : json_null());
        json_object_set_new(x, "eager_step", json_opt_str(g->eager_step));
        json_object_set_new(x, "eager_calls", json_integer((json_int_t)g->eager_calls));
        json_t *ranks = json_array();
        for (size_t k = 0; k < g->nranks; k++) {
            json_t *rk = json_object();
            json_object_set_new(rk, "rank", json_integer(g->ranks[k].rank));
            json_object_set_new(rk, "captures", json_integer((json_int_t)g->ranks[k].captures));
            json_object_set_new(rk, "failed_captures", json_integer((json_int_t)g->ranks[k].failed));
            json_object_set_new(rk, "replays", json_integer((json_int_t)g->ranks[k].replays));
            json_array_append_new(ranks, rk);
        }
        json_object_set_new(x, "ranks", ranks);
        json_array_append_new(regions, x);
    }
    json_object_set_new(o, "regions", regions);
    json_t *v = json_object();
    for (int k = CG_VERDICT_CONFIRMED; k < CG_VERDICT_COUNT; k++)
        json_object_set_new(v, cg_verdict_key((cg_verdict)k),
                            json_integer((json_int_t)cg_report_count_verdict(r, (cg_verdict)k)));
    json_object_set_new(o, "verdicts", v);
    return o;
}

static json_t *json_document(const cg_report *r, const cg_emit_opts *o)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "schema_version", json_integer(CG_JSON_SCHEMA_VERSION));

    json_t *tool = json_object();
    json_object_set_new(tool, "name", json_string("cglint"));
    json_object_set_new(tool, "version", cg_emit_json_string(o->tool_version ? o->tool_version : CGLINT_VERSION));
    json_object_set_new(doc, "tool", tool);
    /* the absolute directory relative paths are relative to (SARIF's %SRCROOT%) */
    json_object_set_new(doc, "root", r->root && r->root[0] == '/' ? cg_emit_json_string(r->root) : json_null());

    json_t *findings = json_array();
    for (size_t i = 0; i < r->nfindings; i++)
        json_array_append_new(findings, cg_emit_json_finding(&r->findings[i]));
    json_object_set_new(doc, "findings", findings);

    json_t *errors = json_array();
    for (size_t i = 0; i < r->nnotices; i++)
        json_array_append_new(errors, json_notice(&r->notices[i]));
    json_object_set_new(doc, "errors", errors);

    json_t *summary = json_object();
    json_object_set_new(summary, "findings", json_integer((json_int_t)r->nfindings));
    json_object_set_new(summary, "errors", json_integer((json_int_t)cg_report_errors(r)));
    json_object_set_new(summary, "files_analysed", json_integer((json_int_t)r->files_analysed));
    json_object_set_new(doc, "summary", summary);
    json_object_set_new(doc, "run", json_run(r));
    return doc;
}

int cg_emit_json(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    json_t *doc = json_document(r, o);
    if (!doc) return -1;
    int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(doc);
    if (rc == 0) fputc('\n', out);
    return rc < 0 || ferror(out) ? -1 : 0;
}
