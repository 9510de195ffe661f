/* baseline.c - see baseline.h. */
#include "baseline.h"
#include "core/alloc.h"
#include "core/file.h"
#include "core/hash.h"
#include "core/path.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BASELINE_VERSION 1

typedef struct fp {
    const char *rule;
    char *path;            /* relative to the baseline's directory */
    char hash[17];
    size_t occurrence;
} fp;

/* The rule id and the line without whitespace, hashed (as SARIF's
 * primaryLocationLineHash is). */
static void line_hash(const char *rule, const char *line, char out[17])
{
    size_t rl = strlen(rule), n = line ? strlen(line) : 0, k = rl;
    char *buf = cg_xmalloc(rl + n + 1);
    memcpy(buf, rule, rl);
    for (size_t i = 0; i < n; i++)
        if (!strchr(" \t\r\n\f\v", line[i])) buf[k++] = line[i];
    snprintf(out, 17, "%016" PRIx64, cg_hash_bytes(buf, k));
    free(buf);
}

static char *baseline_dir(const char *path)
{
    char *abs = cg_path_abs(path);
    char *dir = cg_path_dirname(abs);
    free(abs);
    return dir;
}

/* Fingerprints of the report's findings, in report order (sorted). */
static fp *fingerprints(const cg_report *r, const char *dir)
{
    fp *out = cg_xcalloc(r->nfindings ? r->nfindings : 1, sizeof *out);
    cg_map occ;
    cg_map_init(&occ);
    char **keys = cg_xcalloc(r->nfindings ? r->nfindings : 1, sizeof *keys);
    for (size_t i = 0; i < r->nfindings; i++) {
        const cg_finding *f = &r->findings[i];
        fp *p = &out[i];
        p->rule = cg_rules[f->rule].id;
        char *abs = cg_path_abs(f->loc.path ? f->loc.path : "");
        p->path = cg_path_relative(abs, dir);
        free(abs);
        /* findings on one line share the report's copy of it: hash a long
         * line once, not once per finding */
        if (i && f->line_text && f->line_text == r->findings[i - 1].line_text && f->rule == r->findings[i - 1].rule)
            memcpy(p->hash, out[i - 1].hash, sizeof p->hash);
        else
            line_hash(p->rule, f->line_text, p->hash);
        if (asprintf(&keys[i], "%s|%s|%s", p->rule, p->path, p->hash) < 0) abort();
        size_t n = (size_t)(uintptr_t)cg_map_get(&occ, keys[i], strlen(keys[i])) + 1;
        cg_map_put(&occ, keys[i], strlen(keys[i]), (void *)(uintptr_t)n);
        p->occurrence = n;
    }
    cg_map_free(&occ);
    for (size_t i = 0; i < r->nfindings; i++) free(keys[i]);
    free(keys);
    return out;
}

static void fingerprints_free(fp *f, size_t n)
{
    for (size_t i = 0; i < n; i++) free(f[i].path);
    free(f);
}

/* The line for people reading the baseline: trimmed, and at most
 * TEXT_MAX bytes of it (a generated line of megabytes with thousands of
 * findings must not make a baseline of gigabytes; the text is not matched). */
#define TEXT_MAX 240
static char *trimmed(const char *s)
{
    if (!s) return cg_xstrdup("");
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strnlen(s, TEXT_MAX + 1);
    if (n > TEXT_MAX) {
        n = TEXT_MAX;
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80) n--;   /* a whole character */
        char *t = cg_xmalloc(n + 4);
        if (!t) return NULL;
        memcpy(t, s, n);
        memcpy(t + n, "\xE2\x80\xA6", 4);   /* ... */
        return t;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    return strndup(s, n);
}

int cg_baseline_write(const cg_report *r, const char *path, const char *tool_version, char *err, size_t errlen)
{
    char *dir = baseline_dir(path);
    fp *f = fingerprints(r, dir);
    json_t *doc = json_object();
    json_object_set_new(doc, "cglint_baseline", json_integer(BASELINE_VERSION));
    json_object_set_new(doc, "tool_version", json_string(tool_version ? tool_version : ""));
    json_t *arr = json_array();
    for (size_t i = 0; i < r->nfindings; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "rule", json_string(f[i].rule));
        json_object_set_new(o, "path", json_string(f[i].path));
        json_object_set_new(o, "line_hash", json_string(f[i].hash));
        json_object_set_new(o, "occurrence", json_integer((json_int_t)f[i].occurrence));
        json_object_set_new(o, "line", json_integer(r->findings[i].loc.line));
        char *t = trimmed(r->findings[i].line_text);
        json_t *js = json_string(t);
        json_object_set_new(o, "text", js ? js : json_string(""));
        free(t);
        json_array_append_new(arr, o);
    }
    json_object_set_new(doc, "findings", arr);
    fingerprints_free(f, r->nfindings);

    free(dir);
    int rc = -1;
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    char werr[512];
    if (!text) {
        snprintf(werr, sizeof werr, "out of memory");
    } else {
        size_t n = strlen(text);
        /* raw realloc: sized by the file; without it the last line is compared without its newline */
        char *withnl = realloc(text, n + 2);
        if (withnl) {
            text = withnl;
            text[n++] = '\n';
            text[n] = 0;
            /* atomically for a regular file; through a link to its target; a
             * device or FIFO is written to, not replaced (core/file.h) */
            rc = cg_file_write(path, text, n, 0644, 0, werr, sizeof werr);
        } else {
            snprintf(werr, sizeof werr, "out of memory");
        }
        free(text);
    }
    if (rc != 0) snprintf(err, errlen, "%s: cannot write the baseline: %s", path, werr);
    return rc;
}

int cg_baseline_apply(cg_report *r, const char *path, int (*analysed)(void *ctx, const char *abs_path), void *ctx,
                      char *err, size_t errlen)
{
    json_error_t je;
    char rerr[256];
    size_t len;
    /* a regular file only (a FIFO would block), of a sane size */
    char *raw = cg_file_read(path, 256u << 20, &len, rerr, sizeof rerr);
    if (!raw) {
        snprintf(err, errlen, "%s: cannot read the baseline: %s", path, rerr);
        return -1;
    }
    /* a UTF-8 BOM, as editors on Windows write one, is not JSON but is fine */
    size_t skip = len >= 3 && memcmp(raw, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    json_t *doc = json_loadb(raw + skip, len - skip, 0, &je);
    free(raw);
    if (!doc) {
        snprintf(err, errlen, "%s:%d: not a valid baseline (invalid JSON: %s)", path, je.line > 0 ? je.line : 1, je.text);
        return -1;
    }
    json_t *ver = json_object_get(doc, "cglint_baseline");
    json_t *arr = json_object_get(doc, "findings");
    if (!json_is_integer(ver) || !json_is_array(arr)) {
        snprintf(err, errlen, "%s: not a cglint baseline (it needs \"cglint_baseline\": %d and a \"findings\" "
                 "array; write one with --write-baseline)", path, BASELINE_VERSION);
        json_decref(doc);
        return -1;
    }
    if (json_integer_value(ver) != BASELINE_VERSION) {
        snprintf(err, errlen, "%s: baseline format %" JSON_INTEGER_FORMAT " is not supported (this cglint reads %d)",
                 path, json_integer_value(ver), BASELINE_VERSION);
        json_decref(doc);
        return -1;
    }
    size_t n = json_array_size(arr);
    char **keys = cg_xcalloc(n ? n : 1, sizeof *keys);
    unsigned char *matched = cg_xcalloc(n ? n : 1, 1), *dup = cg_xcalloc(n ? n : 1, 1);
    cg_map entries;
    cg_map_init(&entries);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(arr, i);
        const char *rule = json_string_value(json_object_get(e, "rule"));
        const char *p = json_string_value(json_object_get(e, "path"));
        const char *h = json_string_value(json_object_get(e, "line_hash"));
        json_t *occ = json_object_get(e, "occurrence");
        if (!rule || !p || !h || !json_is_integer(occ)) {
            snprintf(err, errlen, "%s: entry %zu of \"findings\" lacks rule, path, line_hash or occurrence",
                     path, i + 1);
            for (size_t k = 0; k < i; k++) free(keys[k]);
            free(keys); free(matched); free(dup); cg_map_free(&entries); json_decref(doc);
            return -1;
        }
        if (asprintf(&keys[i], "%s|%s|%s|%" JSON_INTEGER_FORMAT, rule, p, h, json_integer_value(occ)) < 0) abort();
        /* an entry written twice (a hand-merged baseline) is one entry: the
         * first stands for both, and the copy is never "no longer occurs" */
        if (cg_map_get(&entries, keys[i], strlen(keys[i]))) { dup[i] = 1; continue; }
        cg_map_put(&entries, keys[i], strlen(keys[i]), (void *)(i + 1));
    }

    char *dir = baseline_dir(path);
    cg_report_sort(r);
    fp *f = fingerprints(r, dir);
    size_t w = 0, hidden = 0, nf = r->nfindings;
    for (size_t i = 0; i < nf; i++) {
        char *k = NULL;
        if (asprintf(&k, "%s|%s|%s|%zu", f[i].rule, f[i].path, f[i].hash, f[i].occurrence) < 0) abort();
        size_t idx = (size_t)cg_map_get(&entries, k, strlen(k));
        free(k);
        if (idx && !matched[idx - 1]) {
            matched[idx - 1] = 1;
            hidden++;
            cg_finding_free(&r->findings[i]);
        } else {
            r->findings[w++] = r->findings[i];
        }
    }
    r->nfindings = w;
    fingerprints_free(f, nf);

    char *cwd = cg_path_abs(".");
    size_t fixed = 0;
    for (size_t i = 0; i < n; i++) {
        if (matched[i] || dup[i]) continue;
        json_t *e = json_array_get(arr, i);
        const char *rel = json_string_value(json_object_get(e, "path"));
        char *joined = NULL;
        if (asprintf(&joined, "%s/%s", dir, rel) < 0) abort();
        char *abs = cg_path_abs(joined);
        free(joined);
        if (analysed && !analysed(ctx, abs)) { free(abs); continue; }
        char *shown = cg_path_relative(abs, cwd);
        const char *text = json_string_value(json_object_get(e, "text"));
        json_t *line = json_object_get(e, "line");
        cg_report_notice(r, CG_NOTE, shown, 0, 0, "%s `%s` (line %" JSON_INTEGER_FORMAT " when the baseline was "
                         "written) no longer occurs: fixed", json_string_value(json_object_get(e, "rule")),
                         text ? text : "", json_is_integer(line) ? json_integer_value(line) : 0);
        free(shown);
        free(abs);
        fixed++;
    }
    if (hidden)
        cg_report_notice(r, CG_NOTE, NULL, 0, 0, "%zu finding%s hidden by the baseline %s", hidden,
                         hidden == 1 ? "" : "s", path);
    if (fixed)
        cg_report_notice(r, CG_NOTE, NULL, 0, 0, "%zu baseline entr%s no longer occur%s; run --write-baseline %s "
                         "to drop %s", fixed, fixed == 1 ? "y" : "ies", fixed == 1 ? "s" : "", path,
                         fixed == 1 ? "it" : "them");
    free(cwd);
    free(dir);
    for (size_t i = 0; i < n; i++) free(keys[i]);
    free(keys);
    free(matched);
    free(dup);
    cg_map_free(&entries);
    json_decref(doc);
    return 0;
}
