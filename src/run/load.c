/* load.c - findings from a JSON or SARIF report of an earlier cglint run
 * (`cglint run --findings FILE`).  Only cglint's own documents are accepted:
 * a JSON report (docs/json-schema.md, tool.name "cglint") or a SARIF log
 * whose driver is cglint.  Verdicts in the file are ignored: the run gives
 * new ones. */
#include "run.h"
#include "core/alloc.h"
#include "core/file.h"
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *jstr(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static uint32_t jnum(json_t *o, const char *key)
{
    json_int_t v = json_integer_value(json_object_get(o, key));
    return v > 0 && v < 0x7fffffff ? (uint32_t)v : 0;
}

static json_t *jpath(json_t *v, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ".", &save); tok && v; tok = strtok_r(NULL, ".", &save))
        v = json_is_array(v) ? json_array_get(v, strtoul(tok, NULL, 10)) : json_object_get(v, tok);
    return v;
}

static cg_severity severity_of(const char *s, cg_severity dflt)
{
    if (!s) return dflt;
    if (strcmp(s, "error") == 0) return CG_SEV_ERROR;
    if (strcmp(s, "warning") == 0) return CG_SEV_WARNING;
    if (strcmp(s, "note") == 0) return CG_SEV_NOTE;
    return dflt;
}

/* A finding of rule `id` at `level` (a JSON severity or SARIF level, else the
 * rule's own); -1 with the message when `id` is not a rule.  `what` and `i`
 * name the entry ("finding 3", "result 3"). */
static int start_finding(cg_finding *f, const char *id, const char *level, const char *what, size_t i,
                         char *err, size_t errlen)
{
    int rule = id ? cg_rule_index(id) : -1;
    if (rule < 0) return fail(err, errlen, "%s %zu: unknown rule '%s'", what, i + 1, id ? id : "(none)");
    *f = (cg_finding){ .rule = rule, .level = severity_of(level, cg_rules[rule].severity) };
    return 0;
}

/* The source line, when the file is there to read (JSON reports carry none):
 * a regular file only, and at most 1 MiB of the line. */
static char *read_line(const char *root, const char *path, uint32_t line)
{
    if (!path || !line) return NULL;
    char full[4096];
    if (path[0] != '/' && root) snprintf(full, sizeof full, "%s/%s", root, path);
    else snprintf(full, sizeof full, "%s", path);
    return cg_file_line(full, line, 1u << 20);
}

/* ---- JSON ------------------------------------------------------------------ */

static int load_json(json_t *doc, cg_report *r, char *err, size_t errlen)
{
    /* relative paths are relative to the report's root, when it names one */
    const char *root = json_string_value(json_object_get(doc, "root"));
    struct stat st;
    if (root && root[0] == '/' && stat(root, &st) == 0 && S_ISDIR(st.st_mode)) {   /* not one of another machine */
        free(r->root);
        r->root = cg_xstrdup(root);
    }
    json_t *findings = json_object_get(doc, "findings");
    if (!json_is_array(findings)) return fail(err, errlen, "no \"findings\" array");
    size_t i;
    json_t *o;
    json_array_foreach(findings, i, o) {
        cg_finding f;
        if (start_finding(&f, jstr(o, "rule"), jstr(o, "severity"), "finding", i, err, errlen) < 0) return -1;
        f.loc.path = jstr(o, "path");
        if (!f.loc.path) return fail(err, errlen, "finding %zu has no path", i + 1);
        f.loc.line = jnum(o, "line");
        f.loc.col = jnum(o, "column");
        f.loc.end_line = jnum(o, "end_line");
        f.loc.end_col = jnum(o, "end_column");
        f.message = (char *)jstr(o, "message");
        const char *fix = jstr(o, "fix");
        f.fix = fix && cg_rules[f.rule].fix && strcmp(fix, cg_rules[f.rule].fix) == 0 ? NULL : (char *)fix;
        json_t *cap = json_object_get(o, "capture");
        if (json_is_object(cap)) {
            f.has_capture = 1;
            f.capture.path = jstr(cap, "path");
            f.capture.line = jnum(cap, "line");
            f.capture.col = jnum(cap, "column");
            f.capture.end_line = f.capture.line;
            f.capture_kind = (char *)jstr(cap, "kind");
        }
        json_t *steps = json_object_get(o, "call_path");
        size_t ns = json_is_array(steps) ? json_array_size(steps) : 0;
        cg_step *path = ns ? cg_xcalloc(ns, sizeof *path) : NULL;
        for (size_t k = 0; k < ns; k++) {
            json_t *s = json_array_get(steps, k);
            path[k].function = (char *)jstr(s, "function");
            path[k].loc.path = jstr(s, "path");
            path[k].loc.line = jnum(s, "line");
            path[k].loc.col = jnum(s, "column");
        }
        f.path = path;
        f.npath = ns;
        f.line_text = read_line(r->root, f.loc.path, f.loc.line);
        cg_report_add(r, &f);
        free(f.line_text);
        free(path);
    }
    return 0;
}

/* ---- SARIF ----------------------------------------------------------------- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static char *uri_decode(const char *s)
{
    size_t n = strlen(s);
    char *out = cg_xmalloc(n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        int a, b;
        if (s[i] == '%' && i + 2 < n + 0 + 1 && (a = hexval(s[i + 1])) >= 0 && (b = hexval(s[i + 2])) >= 0) {
            *o++ = (char)(a * 16 + b);
            i += 2;
        } else {
            *o++ = s[i];
        }
    }
    *o = '\0';
    return out;
}

/* An artifactLocation as a path: relative under %SRCROOT%, or absolute. */
static char *sarif_path(json_t *art)
{
    const char *uri = jstr(art, "uri");
    if (!uri) return NULL;
    if (strncmp(uri, "file://", 7) == 0) return uri_decode(uri + 7);
    return uri_decode(uri);
}

static void sarif_loc(json_t *phys, cg_loc *l, char **path_owned, const char **snippet)
{
    *path_owned = sarif_path(json_object_get(phys, "artifactLocation"));
    l->path = *path_owned;
    json_t *reg = json_object_get(phys, "region");
    l->line = jnum(reg, "startLine");
    l->col = jnum(reg, "startColumn");
    l->end_line = jnum(reg, "endLine");
    l->end_col = jnum(reg, "endColumn");
    if (!l->end_line) l->end_line = l->line;
    if (snippet) *snippet = json_string_value(jpath(reg, "snippet.text"));
}

/* "text (inner)." -> inner, or NULL. */
static char *paren_of(const char *text)
{
    const char *a = text ? strrchr(text, '(') : NULL, *b = a ? strrchr(a, ')') : NULL;
    if (!a || !b || b <= a + 1) return NULL;
    return strndup(a + 1, (size_t)(b - a - 1));
}

static char *strip_period(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s);
    if (n && s[n - 1] == '.' && (n < 2 || s[n - 2] != '.')) n--;
    return strndup(s, n);
}

static int load_sarif(json_t *doc, cg_report *r, char *err, size_t errlen)
{
    json_t *run = jpath(doc, "runs.0");
    const char *root = json_string_value(jpath(run, "originalUriBaseIds.%SRCROOT%.uri"));
    if (root && strncmp(root, "file://", 7) == 0) {
        char *dec = uri_decode(root + 7);
        size_t n = strlen(dec);
        while (n > 1 && dec[n - 1] == '/') dec[--n] = '\0';
        free(r->root);
        r->root = dec;
    }
    json_t *results = json_object_get(run, "results");
    if (!json_is_array(results)) return fail(err, errlen, "no results array in runs[0]");
    size_t i;
    json_t *res;
    json_array_foreach(results, i, res) {
        cg_finding f;
        if (start_finding(&f, jstr(res, "ruleId"), jstr(res, "level"), "result", i, err, errlen) < 0) return -1;
        char *msg = strip_period(json_string_value(jpath(res, "message.text")));
        f.message = msg;
        char *p0 = NULL, *pc = NULL;
        const char *snippet = NULL;
        json_t *phys = jpath(res, "locations.0.physicalLocation");
        if (!phys) { free(msg); return fail(err, errlen, "result %zu has no location", i + 1); }
        sarif_loc(phys, &f.loc, &p0, &snippet);
        if (!f.loc.path) { free(msg); return fail(err, errlen, "result %zu has no artifact URI", i + 1); }
        f.line_text = (char *)snippet;
        char *kind = NULL;
        json_t *rel = json_object_get(res, "relatedLocations"), *loc;
        size_t k;
        json_array_foreach(rel, k, loc) {
            if (json_integer_value(json_object_get(loc, "id")) != 1) continue;
            sarif_loc(json_object_get(loc, "physicalLocation"), &f.capture, &pc, NULL);
            f.has_capture = f.capture.path != NULL;
            kind = paren_of(json_string_value(jpath(loc, "message.text")));
            f.capture_kind = kind;
        }
        json_t *flow = jpath(res, "codeFlows.0.threadFlows.0.locations");
        size_t nflow = json_is_array(flow) ? json_array_size(flow) : 0;
        size_t ns = nflow >= 2 ? nflow - 2 : 0;
        cg_step *steps = ns ? cg_xcalloc(ns, sizeof *steps) : NULL;
        char **owned = ns ? cg_xcalloc(ns, sizeof *owned) : NULL;
        for (size_t s = 0; s < ns; s++) {
            json_t *st = jpath(json_array_get(flow, s + 1), "location");
            const char *t = json_string_value(jpath(st, "message.text"));
            char *fn = strip_period(t && strncmp(t, "calls ", 6) == 0 ? t + 6 : t ? t : "?");
            steps[s].function = fn;
            sarif_loc(json_object_get(st, "physicalLocation"), &steps[s].loc, &owned[s], NULL);
        }
        f.path = steps;
        f.npath = ns;
        char *text = f.line_text ? NULL : read_line(r->root, f.loc.path, f.loc.line);
        if (text) f.line_text = text;
        cg_report_add(r, &f);
        free(text);
        for (size_t s = 0; s < ns; s++) { free(steps[s].function); free(owned[s]); }
        free(steps); free(owned);
        free(msg); free(p0); free(pc); free(kind);
    }
    return 0;
}

int cg_findings_load(const char *path, cg_report *r, char *err, size_t errlen)
{
    json_error_t jerr;
    char rerr[256];
    size_t len;
    /* a regular file of a sane size: /dev/zero or a FIFO is no report */
    char *text = cg_file_read(path, 512u << 20, &len, rerr, sizeof rerr);
    if (!text) return fail(err, errlen, "%s: cannot read the findings: %s", path, rerr);
    size_t skip = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    json_t *doc = json_loadb(text + skip, len - skip, 0, &jerr);
    free(text);
    if (!doc)
        return fail(err, errlen, "%s is not a cglint report (JSON or SARIF): not JSON (%s at line %d)",
                    path, jerr.text, jerr.line);
    int rc;
    const char *tool = json_string_value(jpath(doc, "tool.name"));
    const char *driver = json_string_value(jpath(doc, "runs.0.tool.driver.name"));
    if (json_is_object(doc) && tool && strcmp(tool, "cglint") == 0 &&
        json_is_integer(json_object_get(doc, "schema_version"))) {
        json_int_t v = json_integer_value(json_object_get(doc, "schema_version"));
        if (v != 1) {
            rc = fail(err, errlen, "%s: JSON schema_version %lld is not supported (this cglint reads 1)",
                      path, (long long)v);
        } else {
            rc = load_json(doc, r, err, errlen);
        }
    } else if (json_is_object(doc) && driver && strcmp(driver, "cglint") == 0 &&
               json_string_value(json_object_get(doc, "version"))) {
        rc = load_sarif(doc, r, err, errlen);
    } else {
        const char *what = json_object_get(doc, "runs") ? (driver ? driver : "an unnamed tool") : NULL;
        if (what) rc = fail(err, errlen, "%s is not a cglint report: it is a SARIF log written by %s", path, what);
        else rc = fail(err, errlen, "%s is not a cglint report: expected cglint's JSON output "
                                    "(-f json) or SARIF (-f sarif)", path);
        json_decref(doc);
        return rc;
    }
    if (rc != 0 && strncmp(err, path, strlen(path)) != 0) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s", err);
        snprintf(err, errlen, "%s: %s", path, tmp);
    }
    json_decref(doc);
    return rc;
}
