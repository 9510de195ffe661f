/* sarif.c - SARIF 2.1.0 for GitHub code scanning and SARIF viewers.
 *
 * Design notes:
 * - Paths are written relative to %SRCROOT%, which originalUriBaseIds binds
 *   to the report's root, so an upload made from another checkout of the same
 *   repository still lines up.  A path outside the root (an installed
 *   package) cannot be relative: it becomes an absolute file:// URI.
 * - tool.driver.rules lists the whole catalog, not only the rules that fired:
 *   ruleIndex is then simply the index into cg_rules, and code scanning can
 *   show documentation for rules that are enabled but clean.
 * - partialFingerprints.primaryLocationLineHash lets code scanning follow an
 *   alert when lines move: it hashes the rule and the line's text without
 *   whitespace (so re-indenting does not open a new alert), and numbers equal
 *   hashes within a file, as GitHub's own fingerprinting does.
 * - The capture site and the call path are a codeFlow (viewers step through
 *   it) and the capture site is also a relatedLocation (GitHub links it from
 *   the alert text).
 * - Every message.text ends with a period: SARIF's authoring guidance asks for
 *   complete sentences and the validator warns otherwise. */
#include "emit.h"
#include "emit_int.h"
#include "core/hash.h"
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cglint_version.h"   /* generated from CMake's project(VERSION) */

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SARIF_INFO_URI "https://github.com/cglint/cglint"
#define SARIF_RULES_DOC SARIF_INFO_URI "/blob/main/docs/rules.md#"
#define SARIF_SRCROOT "%SRCROOT%"

typedef struct {
    const char *root;   /* report root without a trailing slash; NULL: none */
    size_t rootlen;
} sarif_ctx;

/* A message object whose text is `s` as one or more sentences. */
static json_t *sarif_message(const char *s)
{
    json_t *m = json_object();
    size_t n = s ? strlen(s) : 0;
    if (n && s[n - 1] == '.') {
        json_object_set_new(m, "text", cg_emit_json_string(s));
    } else {
        char *t = malloc(n + 2);
        if (t) {
            if (n) memcpy(t, s, n);
            t[n] = '.';
            t[n + 1] = '\0';
        }
        json_object_set_new(m, "text", cg_emit_json_string(t));
        free(t);
    }
    return m;
}

static const char *sarif_level(int level)
{
    /* cg_severity and cg_level share their numbering: note 0, warning 1, error 2. */
    return level == 2 ? "error" : level == 1 ? "warning" : "note";
}

/* prefix + the first n bytes of path, RFC 3986 percent-encoded: unreserved
 * characters and '/' stay, every other byte (space, '%', '#', ':', non-ASCII
 * UTF-8) becomes %XX; then suffix.  Returns a malloc'd string (the caller
 * frees) or NULL. */
static char *sarif_uri_encode(const char *prefix, const char *path, size_t n, const char *suffix)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t plen = strlen(prefix), slen = strlen(suffix);
    char *out = malloc(plen + n * 3 + slen + 1), *o = out;
    if (!out) return NULL;
    memcpy(o, prefix, plen);
    o += plen;
    for (const unsigned char *p = (const unsigned char *)path, *end = p + n; p < end; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '.' || *p == '_' || *p == '~' || *p == '/') {
            *o++ = (char)*p;
        } else {
            *o++ = '%';
            *o++ = hex[*p >> 4];
            *o++ = hex[*p & 15];
        }
    }
    memcpy(o, suffix, slen + 1);
    return out;
}

static json_t *sarif_artifact_location(const sarif_ctx *c, const char *path)
{
    json_t *a = json_object();
    if (!path) path = "";
    char *uri;
    if (path[0] == '/') {
        if (c->root && strncmp(path, c->root, c->rootlen) == 0 && path[c->rootlen] == '/') {
            const char *rel = path + c->rootlen + 1;
            uri = sarif_uri_encode("", rel, strlen(rel), "");
            json_object_set_new(a, "uri", cg_emit_json_string(uri));
            json_object_set_new(a, "uriBaseId", json_string(SARIF_SRCROOT));
        } else {
            uri = sarif_uri_encode("file://", path, strlen(path), "");
            json_object_set_new(a, "uri", cg_emit_json_string(uri));
        }
    } else {
        while (path[0] == '.' && path[1] == '/') path += 2;
        uri = sarif_uri_encode("", path, strlen(path), "");
        json_object_set_new(a, "uri", cg_emit_json_string(uri));
        json_object_set_new(a, "uriBaseId", json_string(SARIF_SRCROOT));
    }
    free(uri);
    return a;
}

#define SARIF_SNIPPET_MAX 4096

/* A region with the fields that are known (0 means unknown in the model). */
static json_t *sarif_region(const cg_loc *l, const char *snippet)
{
    json_t *r = json_object();
    json_object_set_new(r, "startLine", json_integer(l->line));
    if (l->col) json_object_set_new(r, "startColumn", json_integer(l->col));
    if (l->end_line >= l->line && l->end_col) {
        json_object_set_new(r, "endLine", json_integer(l->end_line));
        json_object_set_new(r, "endColumn", json_integer(l->end_col));
    }
    /* a snippet of a generated line of megabytes, once per result, would
     * make the log quadratic in size: such a line has none (it is optional) */
    if (snippet && *snippet && strnlen(snippet, SARIF_SNIPPET_MAX + 1) <= SARIF_SNIPPET_MAX) {
        json_t *s = json_object();
        json_object_set_new(s, "text", cg_emit_json_string(snippet));
        json_object_set_new(r, "snippet", s);
    }
    return r;
}

static json_t *sarif_physical(const sarif_ctx *c, const cg_loc *l, const char *snippet)
{
    json_t *p = json_object();
    json_object_set_new(p, "artifactLocation", sarif_artifact_location(c, l->path));
    if (l->line) json_object_set_new(p, "region", sarif_region(l, snippet));
    return p;
}

/* A location with an optional id (0: none) and message, as used in
 * relatedLocations, threadFlows and notifications. */
static json_t *sarif_location(const sarif_ctx *c, int id, const cg_loc *l, const char *snippet,
                              const char *message)
{
    json_t *loc = json_object();
    if (id) json_object_set_new(loc, "id", json_integer(id));
    json_object_set_new(loc, "physicalLocation", sarif_physical(c, l, snippet));
    if (message) json_object_set_new(loc, "message", sarif_message(message));
    return loc;
}

static json_t *sarif_rule(const cg_rule *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", cg_emit_json_string(r->id));
    json_object_set_new(o, "name", cg_emit_json_string(r->name));
    json_object_set_new(o, "shortDescription", sarif_message(r->summary));
    json_object_set_new(o, "fullDescription",
                        sarif_message(r->description && *r->description ? r->description : r->summary));
    json_t *help = sarif_message(r->fix);
    if (r->doc) json_object_set_new(help, "markdown", cg_emit_json_string(r->doc));
    json_object_set_new(o, "help", help);

    /* docs/rules.md (generated by rules/gen_rules.py) titles each rule
     * "CG101: host-scalar-read", which GitHub anchors as
     * #cg101-host-scalar-read. */
    char *uri = NULL;
    if (asprintf(&uri, "%s%s-%s", SARIF_RULES_DOC, r->id, r->name) < 0) uri = NULL;
    for (char *p = uri ? uri + strlen(SARIF_RULES_DOC) : NULL; p && *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    if (uri) json_object_set_new(o, "helpUri", cg_emit_json_string(uri));
    free(uri);

    json_t *cfg = json_object();
    json_object_set_new(cfg, "level", json_string(sarif_level(r->severity)));
    json_object_set_new(o, "defaultConfiguration", cfg);

    json_t *props = json_object();
    json_t *tags = json_array();
    json_array_append_new(tags, cg_emit_json_string(r->category_name));
    json_array_append_new(tags, json_string("cuda-graphs"));
    json_object_set_new(props, "tags", tags);
    json_object_set_new(props, "category", cg_emit_json_string(r->category_name));
    json_object_set_new(props, "precision", json_string("high"));
    /* GitHub's scale: error, warning, recommendation. */
    json_object_set_new(props, "problem.severity",
                        json_string(r->severity == CG_SEV_ERROR ? "error"
                                    : r->severity == CG_SEV_WARNING ? "warning" : "recommendation"));
    json_object_set_new(o, "properties", props);
    return o;
}

static json_t *sarif_tool(const cg_emit_opts *o)
{
    const char *version = o->tool_version ? o->tool_version : CGLINT_VERSION;
    json_t *driver = json_object();
    json_object_set_new(driver, "name", json_string("cglint"));
    json_object_set_new(driver, "version", cg_emit_json_string(version));
    json_object_set_new(driver, "semanticVersion", cg_emit_json_string(version));
    json_object_set_new(driver, "informationUri", json_string(SARIF_INFO_URI));
    json_t *rules = json_array();
    for (size_t i = 0; i < cg_rule_count; i++) json_array_append_new(rules, sarif_rule(&cg_rules[i]));
    json_object_set_new(driver, "rules", rules);
    json_t *tool = json_object();
    json_object_set_new(tool, "driver", driver);
    return tool;
}

static json_t *sarif_invocation(const sarif_ctx *c, const cg_report *r)
{
    json_t *inv = json_object();
    json_object_set_new(inv, "executionSuccessful", json_boolean(cg_report_errors(r) == 0));
    json_t *notes = json_array();
    for (size_t i = 0; i < r->nnotices; i++) {
        const cg_notice *n = &r->notices[i];
        json_t *o = json_object();
        json_object_set_new(o, "level", json_string(sarif_level(n->level)));
        json_object_set_new(o, "message", sarif_message(n->message));
        if (n->path) {
            cg_loc l = {n->path, n->line, n->col, 0, 0};
            json_t *locs = json_array();
            json_array_append_new(locs, sarif_location(c, 0, &l, NULL, NULL));
            json_object_set_new(o, "locations", locs);
        }
        json_array_append_new(notes, o);
    }
    json_object_set_new(inv, "toolExecutionNotifications", notes);
    json_t *a = json_array();
    json_array_append_new(a, inv);
    return a;
}

/* "%SRCROOT%" bound to file:///root/ (the trailing slash makes it a
 * directory that relative URIs resolve under). */
static json_t *sarif_base_ids(const sarif_ctx *c)
{
    char *dir = sarif_uri_encode("file://", c->root, c->rootlen, "/");
    if (!dir) return NULL;
    json_t *root = json_object();
    json_object_set_new(root, "uri", cg_emit_json_string(dir));
    free(dir);
    json_t *ids = json_object();
    json_object_set_new(ids, SARIF_SRCROOT, root);
    return ids;
}

/* Occurrence numbers of fingerprint hashes, per file.  Keys are
 * "path\0hash" and owned here, since cg_map does not copy them. */
typedef struct {
    cg_map map;
    char **keys;
    size_t nkeys;
    /* the last line hashed: findings on one line share the report's copy of
     * it, so a long line with many findings is hashed once */
    const char *last_line;
    int last_rule;
    char last_hash[32];
} sarif_occ;

static size_t sarif_occurrence(sarif_occ *occ, const char *path, const char *hash)
{
    size_t plen = strlen(path), hlen = strlen(hash), klen = plen + 1 + hlen;
    char *key = malloc(klen + 1);
    char **keys = realloc(occ->keys, (occ->nkeys + 1) * sizeof *keys);
    if (!key || !keys) { free(key); if (keys) occ->keys = keys; return 1; }
    occ->keys = keys;
    memcpy(key, path, plen + 1);
    memcpy(key + plen + 1, hash, hlen + 1);
    size_t n = (size_t)(uintptr_t)cg_map_get(&occ->map, key, klen) + 1;
    occ->keys[occ->nkeys++] = key;
    cg_map_put(&occ->map, key, klen, (void *)(uintptr_t)n);
    return n;
}

static json_t *sarif_fingerprints(sarif_occ *occ, const cg_finding *f)
{
    const char *id = cg_rules[f->rule].id;
    const char *line = f->line_text ? f->line_text : "";
    char hash[32], value[64];
    if (line == occ->last_line && f->rule == occ->last_rule && *line) {
        memcpy(hash, occ->last_hash, sizeof hash);
    } else {
        size_t idlen = strlen(id), n = strlen(line), k = idlen;
        char *buf = malloc(idlen + n + 1);
        if (!buf) return NULL;
        memcpy(buf, id, idlen);
        for (size_t i = 0; i < n; i++)
            if (!strchr(" \t\r\n\f\v", line[i])) buf[k++] = line[i];
        snprintf(hash, sizeof hash, "%016" PRIx64, cg_hash_bytes(buf, k));
        free(buf);
        occ->last_line = line;
        occ->last_rule = f->rule;
        memcpy(occ->last_hash, hash, sizeof hash);
    }
    snprintf(value, sizeof value, "%s:%zu", hash, sarif_occurrence(occ, f->loc.path ? f->loc.path : "", hash));
    json_t *fp = json_object();
    json_object_set_new(fp, "primaryLocationLineHash", json_string(value));
    return fp;
}

static json_t *sarif_flow_step(const sarif_ctx *c, const cg_loc *l, const char *snippet,
                               const char *message)
{
    json_t *step = json_object();
    json_object_set_new(step, "location", sarif_location(c, 0, l, snippet, message));
    return step;
}

/* capture begins -> calls A -> calls B -> hazard. */
static json_t *sarif_code_flows(const sarif_ctx *c, const cg_finding *f, const char *kind)
{
    json_t *steps = json_array();
    char *msg = NULL;
    if (asprintf(&msg, "capture begins (%s)", kind) < 0) msg = NULL;
    json_array_append_new(steps, sarif_flow_step(c, &f->capture, NULL, msg ? msg : "capture begins"));
    free(msg);
    for (size_t k = 0; k < f->npath; k++) {
        msg = NULL;
        if (asprintf(&msg, "calls %s", f->path[k].function ? f->path[k].function : "?") < 0) msg = NULL;
        json_array_append_new(steps, sarif_flow_step(c, &f->path[k].loc, NULL, msg ? msg : "calls"));
        free(msg);
    }
    msg = NULL;
    if (asprintf(&msg, "hazard: %s", cg_rules[f->rule].id) < 0) msg = NULL;
    json_array_append_new(steps, sarif_flow_step(c, &f->loc, f->line_text, msg ? msg : "hazard"));
    free(msg);

    json_t *thread = json_object();
    json_object_set_new(thread, "locations", steps);
    json_t *threads = json_array();
    json_array_append_new(threads, thread);
    json_t *flow = json_object();
    json_object_set_new(flow, "threadFlows", threads);
    json_t *flows = json_array();
    json_array_append_new(flows, flow);
    return flows;
}

/* The finding's mechanical fix as SARIF `fixes`: one artifactChange with a
 * replacement per edit (an insertion deletes an empty region).  Viewers
 * such as the VS Code SARIF viewer offer it as a quick fix. */
static json_t *sarif_fixes(const sarif_ctx *c, const cg_finding *f)
{
    json_t *reps = json_array();
    for (size_t k = 0; k < f->nedits; k++) {
        const cg_edit *e = &f->edits[k];
        json_t *region = json_object();
        json_object_set_new(region, "startLine", json_integer(e->line));
        json_object_set_new(region, "startColumn", json_integer(e->col));
        json_object_set_new(region, "endLine", json_integer(e->end_line));
        json_object_set_new(region, "endColumn", json_integer(e->end_col));
        json_t *rep = json_object();
        json_object_set_new(rep, "deletedRegion", region);
        json_t *ins = json_object();
        json_object_set_new(ins, "text", cg_emit_json_string(e->text ? e->text : ""));
        json_object_set_new(rep, "insertedContent", ins);
        json_array_append_new(reps, rep);
    }
    json_t *change = json_object();
    json_object_set_new(change, "artifactLocation", sarif_artifact_location(c, f->loc.path));
    json_object_set_new(change, "replacements", reps);
    json_t *changes = json_array();
    json_array_append_new(changes, change);
    json_t *fix = json_object();
    const char *title = f->fix_title && *f->fix_title ? f->fix_title : "Apply the fix";
    char *desc = NULL;
    if (asprintf(&desc, "%s%s", title, f->fix_safe ? "" : " (unsafe: review the change)") < 0) desc = NULL;
    json_object_set_new(fix, "description", sarif_message(desc ? desc : title));
    free(desc);
    json_object_set_new(fix, "artifactChanges", changes);
    /* machine-readable as well: what --fix applies alone, and what needs --unsafe-fixes */
    json_t *props = json_object();
    json_object_set_new(props, "safe", json_boolean(f->fix_safe));
    json_object_set_new(fix, "properties", props);
    json_t *fixes = json_array();
    json_array_append_new(fixes, fix);
    return fixes;
}

static json_t *sarif_result(const sarif_ctx *c, sarif_occ *occ, const cg_finding *f)
{
    json_t *o = json_object();
    json_object_set_new(o, "ruleId", json_string(cg_rules[f->rule].id));
    json_object_set_new(o, "ruleIndex", json_integer(f->rule));
    /* `cglint run`: a finding the run did not reproduce although its line
     * ran inside a capture asks for review (SARIF: kind "review", whose level
     * must be "none"); every other verdict keeps the static claim ("fail",
     * the finding's level). */
    if (f->verdict == CG_VERDICT_NOT_REPRODUCED) {
        json_object_set_new(o, "kind", json_string("review"));
        json_object_set_new(o, "level", json_string("none"));
    } else {
        if (f->verdict != CG_VERDICT_NONE) json_object_set_new(o, "kind", json_string("fail"));
        json_object_set_new(o, "level", json_string(sarif_level(f->level)));
    }
    json_object_set_new(o, "message", sarif_message(f->message));
    json_t *locs = json_array();
    json_t *loc = json_object();
    json_object_set_new(loc, "physicalLocation", sarif_physical(c, &f->loc, f->line_text));
    json_array_append_new(locs, loc);
    json_object_set_new(o, "locations", locs);
    json_object_set_new(o, "partialFingerprints", sarif_fingerprints(occ, f));
    if (f->has_capture) {
        const char *kind = f->capture_kind && *f->capture_kind ? f->capture_kind : "capture";
        char *msg = NULL;
        if (asprintf(&msg, "capture site (%s)", kind) < 0) msg = NULL;
        json_t *related = json_array();
        json_array_append_new(related, sarif_location(c, 1, &f->capture, NULL, msg ? msg : "capture site"));
        free(msg);
        json_object_set_new(o, "relatedLocations", related);
        json_object_set_new(o, "codeFlows", sarif_code_flows(c, f, kind));
    }
    if (f->nedits) json_object_set_new(o, "fixes", sarif_fixes(c, f));
    if (f->verdict != CG_VERDICT_NONE) {
        json_t *props = json_object();
        json_object_set_new(props, "verdict", json_string(cg_verdict_key(f->verdict)));
        json_object_set_new(props, "evidence", f->evidence ? cg_emit_json_string(f->evidence) : json_null());
        json_object_set_new(o, "properties", props);
    }
    return o;
}

static json_t *sarif_opt(const char *s) { return s ? cg_emit_json_string(s) : json_null(); }

/* `cglint run`: the observed program and its capture regions, as a property
 * bag of the run (SARIF has no place of its own for them). */
static json_t *sarif_run_properties(const sarif_ctx *c, const cg_report *r)
{
    const cg_run_info *ri = r->run;
    json_t *o = json_object();
    json_t *argv = json_array();
    for (size_t i = 0; i < ri->argc; i++) json_array_append_new(argv, cg_emit_json_string(ri->argv[i]));
    json_object_set_new(o, "command", argv);
    json_object_set_new(o, "exitCode", ri->signal ? json_null() : json_integer(ri->exit_code));
    json_object_set_new(o, "signal", ri->signal ? json_integer(ri->signal) : json_null());
    json_object_set_new(o, "processes", json_integer((json_int_t)ri->processes));
    json_object_set_new(o, "gpu", sarif_opt(ri->gpu));
    json_object_set_new(o, "driver", sarif_opt(ri->driver));
    json_object_set_new(o, "cuda", sarif_opt(ri->cuda));
    json_object_set_new(o, "torch", sarif_opt(ri->torch));
    json_t *regions = json_array();
    for (size_t i = 0; i < ri->nregions; i++) {
        const cg_region_stat *g = &ri->regions[i];
        json_t *x = json_object();
        json_object_set_new(x, "location", sarif_location(c, 0, &g->site, NULL, NULL));
        json_object_set_new(x, "kind", sarif_opt(g->kind));
        json_object_set_new(x, "captures", json_integer((json_int_t)g->captures));
        json_object_set_new(x, "failedCaptures", json_integer((json_int_t)g->failed));
        json_object_set_new(x, "replays", json_integer((json_int_t)g->replays));
        json_object_set_new(x, "graphNodes", g->nodes >= 0 ? json_integer(g->nodes) : json_null());
        json_object_set_new(x, "meanReplayMs",
                            g->mean_replay_ms >= 0 ? json_real(round(g->mean_replay_ms * 1e4) / 1e4) : json_null());
        json_object_set_new(x, "eagerStepMs",
                            g->eager_step_ms >= 0 ? json_real(round(g->eager_step_ms * 1e4) / 1e4) : json_null());
        json_object_set_new(x, "eagerStep", sarif_opt(g->eager_step));
        json_object_set_new(x, "eagerCalls", json_integer((json_int_t)g->eager_calls));
        json_array_append_new(regions, x);
    }
    json_object_set_new(o, "regions", regions);
    json_t *v = json_object();
    for (int k = CG_VERDICT_CONFIRMED; k < CG_VERDICT_COUNT; k++)
        json_object_set_new(v, cg_verdict_key((cg_verdict)k),
                            json_integer((json_int_t)cg_report_count_verdict(r, (cg_verdict)k)));
    json_object_set_new(o, "verdicts", v);
    json_t *props = json_object();
    json_object_set_new(props, "cglintRun", o);
    return props;
}

static json_t *sarif_document(const cg_report *r, const cg_emit_opts *o)
{
    sarif_ctx c = {NULL, 0};
    if (r->root && r->root[0] == '/') {
        c.root = r->root;
        c.rootlen = strlen(r->root);
        while (c.rootlen && c.root[c.rootlen - 1] == '/') c.rootlen--;
    }

    json_t *run = json_object();
    json_object_set_new(run, "tool", sarif_tool(o));
    json_object_set_new(run, "invocations", sarif_invocation(&c, r));
    if (c.root) json_object_set_new(run, "originalUriBaseIds", sarif_base_ids(&c));
    json_object_set_new(run, "columnKind", json_string("unicodeCodePoints"));

    sarif_occ occ = {0};
    cg_map_init(&occ.map);
    json_t *results = json_array();
    for (size_t i = 0; i < r->nfindings; i++)
        json_array_append_new(results, sarif_result(&c, &occ, &r->findings[i]));
    for (size_t i = 0; i < occ.nkeys; i++) free(occ.keys[i]);
    free(occ.keys);
    cg_map_free(&occ.map);
    json_object_set_new(run, "results", results);
    if (r->run) json_object_set_new(run, "properties", sarif_run_properties(&c, r));

    json_t *runs = json_array();
    json_array_append_new(runs, run);
    json_t *doc = json_object();
    json_object_set_new(doc, "$schema", json_string(SARIF_SCHEMA));
    json_object_set_new(doc, "version", json_string("2.1.0"));
    json_object_set_new(doc, "runs", runs);
    return doc;
}

int cg_emit_sarif(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    json_t *doc = sarif_document(r, o);
    if (!doc) return -1;
    int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(doc);
    if (rc == 0) fputc('\n', out);
    return rc < 0 || ferror(out) ? -1 : 0;
}

int cg_emit_sarif_info(FILE *out, int only, json_t *statistics)
{
    cg_report empty;
    cg_report_init(&empty, NULL);
    cg_emit_opts eo = {0};
    json_t *doc = sarif_document(&empty, &eo);
    cg_report_free(&empty);
    if (!doc) { json_decref(statistics); return -1; }
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    if (only >= 0 && (size_t)only < cg_rule_count) {
        json_t *rules = json_array();
        json_array_append_new(rules, sarif_rule(&cg_rules[only]));
        json_object_set_new(json_object_get(json_object_get(run, "tool"), "driver"), "rules", rules);
    }
    if (statistics) {
        json_t *props = json_object();
        json_object_set_new(props, "statistics", statistics);
        json_object_set_new(run, "properties", props);
    }
    int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(doc);
    if (rc == 0) fputc('\n', out);
    return rc < 0 || ferror(out) ? -1 : 0;
}
