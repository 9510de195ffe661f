/* report.c - see report.h. */
#include "report.h"
#include "hash.h"
#include "alloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cg_report_line { char *key; size_t klen; char *text; };

#define xrealloc cg_xrealloc
#define xstrdup cg_xstrdup

void cg_report_init(cg_report *self, const cg_ruleset *rules)
{
    memset(self, 0, sizeof *self);
    pthread_mutex_init(&self->lock, NULL);
    self->rules = rules;
}

static void free_loc_path(cg_loc *l) { free((char *)l->path); }

void cg_finding_free(cg_finding *f)
{
    /* line_text belongs to the report (see cg_report.lines) */
    free(f->message); free(f->fix); free(f->capture_kind); free(f->evidence);
    free_loc_path(&f->loc);
    if (f->has_capture) free_loc_path(&f->capture);
    for (size_t k = 0; k < f->npath; k++) {
        free(f->path[k].function);
        free_loc_path(&f->path[k].loc);
    }
    free(f->path);
    for (size_t k = 0; k < f->nedits; k++) {
        free(f->edits[k].text);
        free(f->edits[k].old_text);
    }
    free(f->edits);
    free(f->fix_title);
    memset(f, 0, sizeof *f);
}

void cg_report_free(cg_report *self)
{
    for (size_t i = 0; i < self->nfindings; i++) cg_finding_free(&self->findings[i]);
    for (size_t i = 0; i < self->nnotices; i++) {
        free(self->notices[i].path);
        free(self->notices[i].message);
    }
    free(self->findings);
    free(self->notices);
    free(self->root);
    for (size_t i = 0; i < self->nlines; i++) { free(self->lines[i].key); free(self->lines[i].text); }
    free(self->lines);
    if (self->line_index) { cg_map_free(self->line_index); free(self->line_index); }
    cg_report_free_run(self);
    pthread_mutex_destroy(&self->lock);
    memset(self, 0, sizeof *self);
}

/* The report's copy of a finding's line (called locked). */
static char *intern_line(cg_report *self, const cg_finding *f)
{
    const char *t = f->line_text ? f->line_text : "";
    char kbuf[4200];
    int kl = snprintf(kbuf, sizeof kbuf, "%s%c%u", f->loc.path ? f->loc.path : "", 0, (unsigned)f->loc.line);
    int keyed = kl >= 0 && (size_t)kl < sizeof kbuf;   /* else kept, not shared */
    if (keyed && !self->line_index) {
        self->line_index = xrealloc(NULL, sizeof(cg_map));
        cg_map_init(self->line_index);
    }
    size_t idx = keyed ? (size_t)cg_map_get(self->line_index, kbuf, (size_t)kl) : 0;
    if (idx && strcmp(self->lines[idx - 1].text, t) == 0) return self->lines[idx - 1].text;
    if (self->nlines == self->cap_lines) {
        self->cap_lines = self->cap_lines ? self->cap_lines * 2 : 64;
        self->lines = xrealloc(self->lines, self->cap_lines * sizeof *self->lines);
    }
    struct cg_report_line *l = &self->lines[self->nlines++];
    l->key = NULL;
    l->klen = 0;
    l->text = xstrdup(t);
    if (keyed) {
        l->key = xrealloc(NULL, (size_t)kl + 1);
        memcpy(l->key, kbuf, (size_t)kl + 1);
        l->klen = (size_t)kl;
        /* a second text for one path and line (a file read twice): the newest is found */
        cg_map_put(self->line_index, l->key, l->klen, (void *)self->nlines);
    }
    return l->text;
}

static cg_loc copy_loc(cg_loc l)
{
    l.path = xstrdup(l.path);
    return l;
}

static int same_span(const cg_finding *a, const cg_finding *b)
{
    return a->rule == b->rule && a->loc.line == b->loc.line && a->loc.col == b->loc.col &&
           a->loc.end_line == b->loc.end_line && a->loc.end_col == b->loc.end_col &&
           strcmp(a->loc.path, b->loc.path) == 0;
}

void cg_report_add(cg_report *self, const cg_finding *f)
{
    if (f->rule < 0 || (size_t)f->rule >= cg_rule_count) return;
    if (self->rules && !self->rules->on[f->rule]) return;
    pthread_mutex_lock(&self->lock);
    /* The same hazard reached along two call paths is one finding: the first
     * path (the analysis walks shortest-first) is kept.  Duplicates come from
     * the same file, so scanning back over the recent tail is enough. */
    for (size_t i = self->nfindings; i-- > 0 && i + 4096 >= self->nfindings;)
        if (same_span(&self->findings[i], f)) { pthread_mutex_unlock(&self->lock); return; }
    if (self->nfindings == self->cap_findings) {
        self->cap_findings = self->cap_findings ? self->cap_findings * 2 : 64;
        self->findings = xrealloc(self->findings, self->cap_findings * sizeof *self->findings);
    }
    cg_finding *d = &self->findings[self->nfindings++];
    *d = *f;
    d->loc = copy_loc(f->loc);
    d->message = xstrdup(f->message);
    d->fix = xstrdup(f->fix);
    d->line_text = intern_line(self, f);
    d->capture_kind = xstrdup(f->capture_kind);
    d->evidence = xstrdup(f->evidence);
    if (f->has_capture) d->capture = copy_loc(f->capture);
    d->path = NULL;
    if (f->npath) {
        d->path = xrealloc(NULL, f->npath * sizeof *d->path);
        for (size_t k = 0; k < f->npath; k++) {
            d->path[k].function = xstrdup(f->path[k].function);
            d->path[k].loc = copy_loc(f->path[k].loc);
        }
    }
    d->edits = NULL;
    d->fix_title = xstrdup(f->fix_title);
    if (f->nedits) {
        d->edits = xrealloc(NULL, f->nedits * sizeof *d->edits);
        for (size_t k = 0; k < f->nedits; k++) {
            d->edits[k] = f->edits[k];
            d->edits[k].text = xstrdup(f->edits[k].text ? f->edits[k].text : "");
            d->edits[k].old_text = xstrdup(f->edits[k].old_text ? f->edits[k].old_text : "");
        }
    }
    pthread_mutex_unlock(&self->lock);
}

void cg_report_notice(cg_report *self, cg_level level, const char *path,
                      uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    va_end(ap);
    pthread_mutex_lock(&self->lock);
    if (self->nnotices == self->cap_notices) {
        self->cap_notices = self->cap_notices ? self->cap_notices * 2 : 16;
        self->notices = xrealloc(self->notices, self->cap_notices * sizeof *self->notices);
    }
    cg_notice *n = &self->notices[self->nnotices++];
    n->level = level;
    n->path = xstrdup(path);
    n->line = line;
    n->col = col;
    n->message = msg ? msg : xstrdup("(message lost: out of memory)");
    pthread_mutex_unlock(&self->lock);
}

static int cmp_str(const char *a, const char *b)
{
    if (!a || !b) return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

static int cmp_finding(const void *pa, const void *pb)
{
    const cg_finding *a = pa, *b = pb;
    int c = cmp_str(a->loc.path, b->loc.path);
    if (c) return c;
    if (a->loc.line != b->loc.line) return a->loc.line < b->loc.line ? -1 : 1;
    if (a->loc.col != b->loc.col) return a->loc.col < b->loc.col ? -1 : 1;
    if (a->rule != b->rule) return a->rule - b->rule;
    /* the rest only to make the order total: the same output whatever order
     * the threads added findings in */
    if (a->loc.end_line != b->loc.end_line) return a->loc.end_line < b->loc.end_line ? -1 : 1;
    if (a->loc.end_col != b->loc.end_col) return a->loc.end_col < b->loc.end_col ? -1 : 1;
    if ((c = cmp_str(a->message, b->message)) != 0) return c;
    if (a->has_capture != b->has_capture) return a->has_capture - b->has_capture;
    if (a->has_capture) {
        if ((c = cmp_str(a->capture.path, b->capture.path)) != 0) return c;
        if (a->capture.line != b->capture.line) return a->capture.line < b->capture.line ? -1 : 1;
        if (a->capture.col != b->capture.col) return a->capture.col < b->capture.col ? -1 : 1;
    }
    if (a->npath != b->npath) return a->npath < b->npath ? -1 : 1;
    for (size_t k = 0; k < a->npath; k++) {
        if ((c = cmp_str(a->path[k].function, b->path[k].function)) != 0) return c;
        if ((c = cmp_str(a->path[k].loc.path, b->path[k].loc.path)) != 0) return c;
        if (a->path[k].loc.line != b->path[k].loc.line) return a->path[k].loc.line < b->path[k].loc.line ? -1 : 1;
    }
    return 0;
}

static int cmp_notice(const void *pa, const void *pb)
{
    const cg_notice *a = pa, *b = pb;
    int c = cmp_str(a->path, b->path);
    if (c) return c;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    if (a->col != b->col) return a->col < b->col ? -1 : 1;
    if (a->level != b->level) return a->level < b->level ? -1 : 1;
    return cmp_str(a->message, b->message);
}

void cg_report_sort(cg_report *self)
{
    if (self->nfindings > 1)
        qsort(self->findings, self->nfindings, sizeof *self->findings, cmp_finding);
    if (self->nnotices > 1)
        qsort(self->notices, self->nnotices, sizeof *self->notices, cmp_notice);
}

size_t cg_report_errors(const cg_report *self)
{
    size_t n = 0;
    for (size_t i = 0; i < self->nnotices; i++) n += self->notices[i].level == CG_ERROR;
    return n;
}

static const char *const verdict_names[CG_VERDICT_COUNT][2] = {
    {NULL, NULL},
    {"confirmed", "confirmed"},
    {"not reproduced", "not_reproduced"},
    {"not exercised", "not_exercised"},
    {"static only", "static_only"},
    {"found at run time", "found_at_runtime"},
};

const char *cg_verdict_name(cg_verdict v)
{
    return (unsigned)v < CG_VERDICT_COUNT ? verdict_names[v][0] : NULL;
}

const char *cg_verdict_key(cg_verdict v)
{
    return (unsigned)v < CG_VERDICT_COUNT ? verdict_names[v][1] : NULL;
}

int cg_verdict_parse(const char *s)
{
    if (!s) return -1;
    for (int v = 1; v < CG_VERDICT_COUNT; v++)
        if (strcmp(s, verdict_names[v][0]) == 0 || strcmp(s, verdict_names[v][1]) == 0) return v;
    return -1;
}

size_t cg_report_count_verdict(const cg_report *self, cg_verdict v)
{
    size_t n = 0;
    for (size_t i = 0; i < self->nfindings; i++) n += self->findings[i].verdict == v;
    return n;
}

void cg_report_free_run(cg_report *self)
{
    cg_run_info *ri = self->run;
    if (!ri) return;
    for (size_t i = 0; i < ri->argc; i++) free(ri->argv[i]);
    free(ri->argv);
    for (size_t i = 0; i < ri->nregions; i++) {
        free((char *)ri->regions[i].site.path);
        free(ri->regions[i].kind);
        free(ri->regions[i].eager_step);
        free(ri->regions[i].ranks);
    }
    free(ri->regions);
    free(ri->gpu); free(ri->driver); free(ri->cuda); free(ri->torch);
    free(ri);
    self->run = NULL;
}
