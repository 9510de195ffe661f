/* config.c - loading, validating and finding configuration files (config.h).
 *
 * Each key has one row in config_keys[]: its name and the function that
 * checks its value and stores it.  A loader function either stores the
 * value or writes one message naming the line and returns -1; the first
 * error stops the load, so a user fixes one thing at a time, with the exact
 * place to look. */
#include "config.h"
#include "core/alloc.h"
#include "core/arena.h"
#include "core/hash.h"
#include "core/path.h"
#include "core/source.h"
#include "core/toml.h"
#include "walk.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct load_ctx {
    cg_config *c;
    const char *path;      /* for messages */
    const char *table;     /* "[tool.cglint]" or "" */
    char *err;
    size_t errlen;
} load_ctx;

static int load_fail(load_ctx *x, uint32_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int load_fail(load_ctx *x, uint32_t line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line) snprintf(x->err, x->errlen, "%s:%u: %s", x->path, line, msg);
    else snprintf(x->err, x->errlen, "%s: %s", x->path, msg);
    return -1;
}

/* ---- value checkers ------------------------------------------------------------- */

static int want_string(load_ctx *x, const char *key, const cg_toml *v, uint32_t line, const char **out)
{
    if (v->kind != CG_TOML_STRING)
        return load_fail(x, line, "%s: expected a string, got %s", key, cg_toml_kind_name(v->kind));
    *out = cg_arena_strdup(x->c->arena, v->str);
    return 0;
}

static int want_strings(load_ctx *x, const char *key, const cg_toml *v, uint32_t line, cg_strlist *out)
{
    if (v->kind != CG_TOML_ARRAY)
        return load_fail(x, line, "%s: expected an array of strings, got %s", key, cg_toml_kind_name(v->kind));
    out->items = cg_arena_alloc(x->c->arena, (v->n ? v->n : 1) * sizeof *out->items);
    out->n = 0;
    for (size_t i = 0; i < v->n; i++) {
        const cg_toml *it = v->items[i];
        if (it->kind != CG_TOML_STRING)
            return load_fail(x, it->line, "%s: expected an array of strings, but item %zu is %s", key,
                             i + 1, cg_toml_kind_name(it->kind));
        out->items[out->n++] = cg_arena_strdup(x->c->arena, it->str);
    }
    return 0;
}

/* An array of rule codes or prefixes, each checked against the catalog. */
static int want_codes(load_ctx *x, const char *key, const cg_toml *v, uint32_t line, cg_strlist *out)
{
    if (want_strings(x, key, v, line, out) < 0) return -1;
    for (size_t i = 0; i < out->n; i++) {
        cg_ruleset scratch;
        char bad[64];
        if (cg_ruleset_select(&scratch, out->items[i], 1, bad, sizeof bad) != 0 || strchr(out->items[i], ',')) {
            uint32_t l = v->items[i]->line;
            return load_fail(x, l, "%s: '%s' is not a rule code or prefix (like CG1 or CG101, or ALL); "
                             "see cglint --list-rules", key, out->items[i]);
        }
    }
    return 0;
}

static int key_select(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    x->c->has_select = 1;
    return want_codes(x, k, v, l, &x->c->select);
}
static int key_extend_select(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    return want_codes(x, k, v, l, &x->c->extend_select);
}
static int key_ignore(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    return want_codes(x, k, v, l, &x->c->ignore);
}
static int key_exclude(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    x->c->has_exclude = 1;
    return want_strings(x, k, v, l, &x->c->exclude);
}
static int key_extend_exclude(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    return want_strings(x, k, v, l, &x->c->extend_exclude);
}

static int key_per_file_ignores(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    if (v->kind != CG_TOML_TABLE)
        return load_fail(x, l, "%s: expected a table of glob = [codes], got %s", k, cg_toml_kind_name(v->kind));
    cg_config *c = x->c;
    c->pfi = cg_arena_alloc(c->arena, (v->n ? v->n : 1) * sizeof *c->pfi);
    for (size_t i = 0; i < v->n; i++) {
        char label[300];
        snprintf(label, sizeof label, "%s: \"%s\"", k, v->keys[i]);
        cg_pfi *p = &c->pfi[c->npfi++];
        p->glob = cg_arena_strdup(c->arena, v->keys[i]);
        if (want_codes(x, label, v->items[i], v->key_lines[i], &p->codes) < 0) return -1;
    }
    return 0;
}

static const char *resolve_path(load_ctx *x, const char *p)
{
    if (p[0] == '/') return p;
    char *joined = NULL;
    if (asprintf(&joined, "%s/%s", x->c->dir, p) < 0) return p;
    char *abs = cg_path_abs(joined);
    const char *out = cg_arena_strdup(x->c->arena, abs);
    free(joined);
    free(abs);
    return out;
}

static int key_cuda_path(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    const char *s = NULL;
    if (want_string(x, k, v, l, &s) < 0) return -1;
    if (!*s) return load_fail(x, l, "%s: expected a directory, got an empty string", k);
    x->c->cuda_path = resolve_path(x, s);
    return 0;
}

static int key_compile_commands(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    const char *s = NULL;
    if (want_string(x, k, v, l, &s) < 0) return -1;
    if (!*s) return load_fail(x, l, "%s: expected a path to compile_commands.json or its directory, "
                              "got an empty string", k);
    x->c->compile_commands = resolve_path(x, s);
    return 0;
}

static int key_include_dirs(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    if (want_strings(x, k, v, l, &x->c->include_dirs) < 0) return -1;
    for (size_t i = 0; i < x->c->include_dirs.n; i++) {
        if (!*x->c->include_dirs.items[i]) return load_fail(x, l, "%s: expected directories, got an empty string", k);
        x->c->include_dirs.items[i] = resolve_path(x, x->c->include_dirs.items[i]);
    }
    return 0;
}

static int key_defines(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    if (want_strings(x, k, v, l, &x->c->defines) < 0) return -1;
    for (size_t i = 0; i < x->c->defines.n; i++) {
        const char *d = x->c->defines.items[i];
        if (!*d || *d == '=' || strchr(d, ' '))
            return load_fail(x, l, "%s: expected \"NAME\" or \"NAME=VALUE\", got \"%s\"", k, d);
    }
    return 0;
}

static int key_std(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    const char *s = NULL;
    if (want_string(x, k, v, l, &s) < 0) return -1;
    if (!*s || strchr(s, ' ')) return load_fail(x, l, "%s: expected a language standard such as \"c++17\", got \"%s\"", k, s);
    x->c->std = s;
    return 0;
}

static int key_cache_dir(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    const char *s = NULL;
    if (want_string(x, k, v, l, &s) < 0) return -1;
    if (!*s) return load_fail(x, l, "%s: expected a directory, got an empty string", k);
    x->c->cache_dir = resolve_path(x, s);
    return 0;
}

static int key_jobs(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    if (v->kind != CG_TOML_INTEGER)
        return load_fail(x, l, "%s: expected an integer from 1 to 1024, got %s", k, cg_toml_kind_name(v->kind));
    if (v->integer < 1 || v->integer > 1024)
        return load_fail(x, l, "%s: expected an integer from 1 to 1024, got %lld", k, v->integer);
    x->c->jobs = (int)v->integer;
    return 0;
}

static int key_output_format(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    static const char *const formats[] = { "text", "json", "sarif", "github", "concise", "json-lines",
                                           "junit", "gitlab", "html", NULL };
    const char *s = NULL;
    if (want_string(x, k, v, l, &s) < 0) return -1;
    for (int i = 0; formats[i]; i++)
        if (strcmp(s, formats[i]) == 0) { x->c->output_format = formats[i]; return 0; }
    return load_fail(x, l, "%s: expected \"text\", \"concise\", \"json\", \"json-lines\", \"sarif\", "
                     "\"github\", \"junit\", \"gitlab\" or \"html\", got \"%s\"", k, s);
}

static int key_respect_gitignore(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    if (v->kind != CG_TOML_BOOL)
        return load_fail(x, l, "%s: expected true or false, got %s", k, cg_toml_kind_name(v->kind));
    x->c->respect_gitignore = (int)v->integer;
    return 0;
}

int cg_severity_parse(const char *s)
{
    if (!s) return -1;
    if (strcmp(s, "error") == 0) return CG_SEV_ERROR;
    if (strcmp(s, "warning") == 0) return CG_SEV_WARNING;
    if (strcmp(s, "note") == 0) return CG_SEV_NOTE;
    return -1;
}

/* severity = { CG101 = "warning", CG3 = "note" } */
static int key_severity(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    if (v->kind != CG_TOML_TABLE)
        return load_fail(x, l, "%s: expected a table of code = \"error\" | \"warning\" | \"note\", got %s", k,
                         cg_toml_kind_name(v->kind));
    cg_config *c = x->c;
    c->severity = cg_arena_alloc(c->arena, (v->n ? v->n : 1) * sizeof *c->severity);
    for (size_t i = 0; i < v->n; i++) {
        const char *code = v->keys[i];
        cg_ruleset scratch;
        char bad[64];
        if (cg_ruleset_select(&scratch, code, 1, bad, sizeof bad) != 0 || strchr(code, ','))
            return load_fail(x, v->key_lines[i], "%s: '%s' is not a rule code or prefix (like CG1 or CG101, or ALL); "
                             "see cglint --list-rules", k, code);
        const cg_toml *it = v->items[i];
        int sev = it->kind == CG_TOML_STRING ? cg_severity_parse(it->str) : -1;
        if (sev < 0)
            return load_fail(x, v->key_lines[i], "%s: %s: expected \"error\", \"warning\" or \"note\", got %s%s%s",
                             k, code, it->kind == CG_TOML_STRING ? "\"" : "",
                             it->kind == CG_TOML_STRING ? it->str : cg_toml_kind_name(it->kind),
                             it->kind == CG_TOML_STRING ? "\"" : "");
        c->severity[c->nseverity].code = cg_arena_strdup(c->arena, code);
        c->severity[c->nseverity++].level = (cg_severity)sev;
    }
    return 0;
}

static int key_fail_on(load_ctx *x, const char *k, const cg_toml *v, uint32_t l)
{
    const char *s = NULL;
    if (want_string(x, k, v, l, &s) < 0) return -1;
    x->c->fail_on = cg_severity_parse(s);
    if (x->c->fail_on < 0)
        return load_fail(x, l, "%s: expected \"error\", \"warning\" or \"note\", got \"%s\"", k, s);
    return 0;
}

cg_severity cg_config_severity(const cg_config *c, int rule)
{
    cg_severity level = cg_rules[rule].severity;
    size_t best = 0;
    for (size_t i = 0; c && i < c->nseverity; i++) {
        const char *code = c->severity[i].code;
        size_t n = strlen(code);
        int all = strcasecmp(code, "ALL") == 0;
        if (!all && strncasecmp(cg_rules[rule].id, code, n) != 0) continue;
        size_t spec = all ? 1 : n + 1;
        if (spec >= best) { best = spec; level = c->severity[i].level; }
    }
    return level;
}

typedef int (*key_fn)(load_ctx *x, const char *key, const cg_toml *v, uint32_t line);
static const struct { const char *name; key_fn fn; } config_keys[] = {
    { "select", key_select },
    { "extend-select", key_extend_select },
    { "ignore", key_ignore },
    { "per-file-ignores", key_per_file_ignores },
    { "exclude", key_exclude },
    { "extend-exclude", key_extend_exclude },
    { "respect-gitignore", key_respect_gitignore },
    { "cuda-path", key_cuda_path },
    { "compile-commands", key_compile_commands },
    { "include-dirs", key_include_dirs },
    { "defines", key_defines },
    { "std", key_std },
    { "jobs", key_jobs },
    { "cache-dir", key_cache_dir },
    { "output-format", key_output_format },
    { "severity", key_severity },
    { "fail-on", key_fail_on },
};
#define NKEYS (sizeof config_keys / sizeof *config_keys)

const char *const cg_config_keys[] = {
    "select", "extend-select", "ignore", "per-file-ignores", "exclude", "extend-exclude",
    "respect-gitignore", "cuda-path", "compile-commands", "include-dirs", "defines", "std", "jobs",
    "cache-dir", "output-format", "severity", "fail-on", NULL,
};

/* Levenshtein distance, for "did you mean". */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

static const char *suggest_key(const char *key)
{
    char norm[64];
    snprintf(norm, sizeof norm, "%s", key);
    for (char *p = norm; *p; p++) if (*p == '_') *p = '-';
    const char *best = NULL;
    size_t bestd = 3;
    for (size_t i = 0; i < NKEYS; i++) {
        size_t dist = strcasecmp(norm, config_keys[i].name) == 0 ? 0 : edit_distance(norm, config_keys[i].name);
        if (dist < bestd) { bestd = dist; best = config_keys[i].name; }
    }
    return best;
}

static int load_table(load_ctx *x, const cg_toml *t)
{
    for (size_t i = 0; i < t->n; i++) {
        const char *key = t->keys[i];
        size_t k = 0;
        while (k < NKEYS && strcmp(config_keys[k].name, key) != 0) k++;
        if (k == NKEYS) {
            const char *s = suggest_key(key);
            char hint[128] = "";
            if (s) snprintf(hint, sizeof hint, " (did you mean '%s'?)", s);
            else snprintf(hint, sizeof hint, " (known keys: select, extend-select, ignore, per-file-ignores, "
                          "exclude, extend-exclude, ...)");
            return load_fail(x, t->key_lines[i], "unknown key '%s'%s%s%s", key, *x->table ? " in " : "",
                             x->table, hint);
        }
        if (config_keys[k].fn(x, key, t->items[i], t->key_lines[i]) < 0) return -1;
    }
    return 0;
}

static cg_config *config_new(const char *path)
{
    cg_config *c = cg_xcalloc(1, sizeof *c);
    c->arena = cg_arena_new();
    c->path = cg_arena_strdup(c->arena, path);
    char *abs = cg_path_abs(path);
    char *dir = cg_path_dirname(abs);
    c->dir = cg_arena_strdup(c->arena, dir);
    free(abs);
    free(dir);
    c->respect_gitignore = -1;
    c->fail_on = -1;
    return c;
}

int cg_config_parse(cg_config **out, const char *path, const char *text, size_t len, int is_pyproject,
                    char *err, size_t errlen)
{
    *out = NULL;
    char terr[256];
    uint32_t tline = 0;
    cg_toml_doc *doc = cg_toml_parse(text, len, terr, sizeof terr, &tline);
    if (!doc) {
        if (tline) snprintf(err, errlen, "%s:%u: %s", path, tline, terr);
        else snprintf(err, errlen, "%s: %s", path, terr);
        return -1;
    }
    const cg_toml *root = cg_toml_root(doc), *table = root;
    uint32_t tl = 0;
    if (is_pyproject) {
        const cg_toml *tool = cg_toml_get(root, "tool", NULL);
        table = tool ? cg_toml_get(tool, "cglint", &tl) : NULL;
        if (!table) { cg_toml_free(doc); return 1; }
    }
    cg_config *c = config_new(path);
    c->in_pyproject = is_pyproject;
    load_ctx x = { c, path, is_pyproject ? "[tool.cglint]" : "", err, errlen };
    int rc = 0;
    if (table->kind != CG_TOML_TABLE)
        rc = load_fail(&x, tl, "tool.cglint: expected a table, got %s", cg_toml_kind_name(table->kind));
    else
        rc = load_table(&x, table);
    cg_toml_free(doc);
    if (rc < 0) { cg_config_free(c); return -1; }
    *out = c;
    return 0;
}

int cg_config_load(cg_config **out, const char *path, char *err, size_t errlen)
{
    *out = NULL;
    cg_source src;
    char serr[512];
    if (cg_source_load(&src, path, 1u << 20, serr, sizeof serr) != CG_SRC_OK) {
        /* cg_source's messages end in "; skipped", which a config cannot be */
        char *semi = strstr(serr, "; skipped");
        if (semi) *semi = 0;
        snprintf(err, errlen, "%s: %s", path, serr);
        return -1;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int rc = cg_config_parse(out, path, src.text, src.len, strcmp(base, "pyproject.toml") == 0, err, errlen);
    cg_source_free(&src);
    return rc;
}

void cg_config_free(cg_config *self)
{
    if (!self) return;
    cg_arena_free(self->arena);
    free(self);
}

/* ---- discovery ----------------------------------------------------------------------- */

struct cg_configs {
    int isolated;
    cg_config *forced;
    cg_map by_dir;            /* absolute dir -> cg_config* or &none */
    cg_config **owned;
    size_t nowned;
    char **keys;
    size_t nkeys;
};

static char none_marker;

cg_configs *cg_configs_new(const char *forced, int isolated, char *err, size_t errlen)
{
    cg_configs *s = cg_xcalloc(1, sizeof *s);
    s->isolated = isolated;
    cg_map_init(&s->by_dir);
    if (forced) {
        int rc = cg_config_load(&s->forced, forced, err, errlen);
        if (rc == 1) {
            snprintf(err, errlen, "%s: --config names a pyproject.toml without a [tool.cglint] table", forced);
            rc = -1;
        }
        if (rc < 0) { cg_configs_free(s); return NULL; }
    }
    return s;
}

void cg_configs_free(cg_configs *self)
{
    if (!self) return;
    cg_config_free(self->forced);
    for (size_t i = 0; i < self->nowned; i++) cg_config_free(self->owned[i]);
    for (size_t i = 0; i < self->nkeys; i++) free(self->keys[i]);
    free(self->owned);
    free(self->keys);
    cg_map_free(&self->by_dir);
    free(self);
}

static void remember(cg_configs *s, const char *dir, void *val)
{
    char *k = cg_xstrdup(dir);
    s->keys = cg_xrealloc(s->keys, (s->nkeys + 1) * sizeof *s->keys);
    s->keys[s->nkeys++] = k;
    cg_map_put(&s->by_dir, k, strlen(k), val);
}

/* The configuration file in `dir` itself, if any: 0 with *out (maybe NULL), -1 error. */
static int probe_dir(cg_configs *s, const char *dir, cg_config **out, char *err, size_t errlen)
{
    static const char *const names[] = { ".cglint.toml", "pyproject.toml" };
    *out = NULL;
    for (size_t i = 0; i < 2; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, names[i]);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        /* Name it relative to the current directory when it is below it. */
        char *cwd = cg_path_abs(".");
        char *shown = cg_path_relative(path, cwd);
        cg_config *c = NULL;
        int rc = cg_config_load(&c, strncmp(shown, "../../../", 9) == 0 ? path : shown, err, errlen);
        free(shown);
        free(cwd);
        if (rc < 0) return -1;
        if (rc == 1) continue;
        s->owned = cg_xrealloc(s->owned, (s->nowned + 1) * sizeof *s->owned);
        s->owned[s->nowned++] = c;
        *out = c;
        return 0;
    }
    return 0;
}

int cg_configs_find(cg_configs *self, const char *abs_dir, const cg_config **out, char *err, size_t errlen)
{
    *out = NULL;
    if (self->isolated) return 0;
    if (self->forced) { *out = self->forced; return 0; }
    char *dir = cg_xstrdup(abs_dir);
    /* directories looked at on the way up, to cache the answer for each */
    char **walked = NULL;
    size_t nwalked = 0;
    void *found = NULL;
    int rc = 0;
    for (;;) {
        void *hit = cg_map_get(&self->by_dir, dir, strlen(dir));
        if (hit) { found = hit; break; }
        cg_config *c;
        if (probe_dir(self, dir, &c, err, errlen) < 0) { rc = -1; break; }
        walked = cg_xrealloc(walked, (nwalked + 1) * sizeof *walked);
        walked[nwalked++] = cg_xstrdup(dir);
        if (c) { found = c; break; }
        if (strcmp(dir, "/") == 0) { found = &none_marker; break; }
        char *up = cg_path_dirname(dir);
        free(dir);
        dir = up;
    }
    if (rc == 0)
        for (size_t i = 0; i < nwalked; i++) remember(self, walked[i], found);
    for (size_t i = 0; i < nwalked; i++) free(walked[i]);
    free(walked);
    free(dir);
    if (rc == 0 && found != &none_marker) *out = found;
    return rc;
}

/* ---- rule selection ---------------------------------------------------------------------- */

static void select_list(cg_ruleset *rs, const cg_strlist *l)
{
    char bad[64];
    for (size_t i = 0; i < l->n; i++) cg_ruleset_select(rs, l->items[i], 0, bad, sizeof bad);
}

static void ignore_list(cg_ruleset *rs, const cg_strlist *l)
{
    char bad[64];
    for (size_t i = 0; i < l->n; i++) cg_ruleset_ignore(rs, l->items[i], bad, sizeof bad);
}

void cg_config_rules(const cg_config *c, const cg_rule_cli *cli, const char *relpath, cg_ruleset *out)
{
    char bad[64];
    cg_ruleset_all(out);
    if (c) {
        if (c->has_select) {
            memset(out->on, 0, sizeof out->on);
            select_list(out, &c->select);
        }
        select_list(out, &c->extend_select);
        ignore_list(out, &c->ignore);
    }
    if (cli) {
        if (cli->select) cg_ruleset_select(out, cli->select, 1, bad, sizeof bad);
        if (cli->extend_select) cg_ruleset_select(out, cli->extend_select, 0, bad, sizeof bad);
        if (cli->ignore) cg_ruleset_ignore(out, cli->ignore, bad, sizeof bad);
    }
    if (c && relpath)
        for (size_t i = 0; i < c->npfi; i++)
            if (cg_config_glob(c->pfi[i].glob, relpath)) ignore_list(out, &c->pfi[i].codes);
}

int cg_config_glob(const char *glob, const char *relpath)
{
    while (glob[0] == '.' && glob[1] == '/') glob += 2;
    while (relpath[0] == '.' && relpath[1] == '/') relpath += 2;
    return cg_walk_glob(glob, relpath);
}
