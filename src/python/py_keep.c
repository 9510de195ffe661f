/* py_keep.c - module indexes kept from one run to the next (`cglint server`).
 *
 * A run builds a py_project afresh: every module it loads is parsed (its
 * tree from the tree cache when its bytes did not change) and indexed
 * (py_index.c).  In the server, where one edit is one run, indexing the
 * modules a buffer's analysis loads was a third of an edit's CPU time, and
 * most of those modules did not change.  So a run that has a tree cache
 * gives the index of each module it loaded to the cache's keep when it ends,
 * and the next run borrows it when the module's bytes and its place in the
 * project (dotted name, package, sys.path root) are the same.
 *
 * A borrowed index must be the index a fresh run would build, so that the
 * findings are byte-identical:
 *   - what indexing makes depends only on the module's bytes and its name,
 *     package and root: those are the key;
 *   - what the evaluator writes into index objects is reset when borrowed:
 *     each class's lazily resolved bases (pointers into other modules, which
 *     may have changed or gone) and nn.Module bit (what an analysis learns
 *     by walking code stays in its py_ctx);
 *   - the index's back pointers (function, class and attribute -> module)
 *     are pointed at the run's py_module;
 *   - what the index adds to the project (attr_assigns) is added as a fresh
 *     index's is (py_project.c, or the analysis that loads it), and a parse
 *     error is reported again;
 *   - functions' local assignment counts (built lazily from the function's
 *     own tree) are kept: their keys are the index's own strings;
 *   - the evaluator allocates nothing in a module's arena (py_eval.h's
 *     py_ctx_text_dup), so a kept arena does not grow from run to run.
 * The source text stays the run's own (m->src, loaded as before); the keep
 * holds a copy of the bytes only to compare.  tests/lsp/lsp_kept_index.py
 * checks the diagnostics against fresh runs as modules change under a
 * buffer's analysis. */
#include "py_int.h"
#include "core/alloc.h"
#include <stdlib.h>
#include <string.h>

typedef struct py_kept {
    char *path;
    char *name, *package, *root;
    int is_init;
    int in_use;             /* borrowed by a run now */
    py_module idx;          /* the index fields only (move_index), src the bytes it was built from */
} py_kept;

struct py_keep {
    pthread_mutex_t lock;
    cg_map by_path;         /* path -> py_kept */
    py_kept **all;
    size_t n, cap;
};

py_keep *py_keep_new(void)
{
    py_keep *k = cg_xcalloc(1, sizeof *k);
    pthread_mutex_init(&k->lock, NULL);
    cg_map_init(&k->by_path);
    return k;
}

static void kept_free(py_kept *e)
{
    py_index_release(&e->idx);
    free(e->path);
    free(e->name);
    free(e->package);
    free(e->root);
    free(e);
}

void py_keep_free(py_keep *k)
{
    if (!k) return;
    for (size_t i = 0; i < k->n; i++) kept_free(k->all[i]);
    free(k->all);
    cg_map_free(&k->by_path);
    pthread_mutex_destroy(&k->lock);
    free(k);
}

/* The fields indexing fills (index_module and py_parse_module), moved from
 * `from` to `to`; `from` no longer has them.  The source only when `src`. */
static void move_index(py_module *to, py_module *from, int src)
{
    if (src) {
        to->src = from->src;
        memset(&from->src, 0, sizeof from->src);
    }
    to->tree = from->tree;
    to->arena = from->arena;
    to->imports = from->imports;
    to->funcs = from->funcs;
    to->classes = from->classes;
    to->global_assigns = from->global_assigns;
    to->global_values = from->global_values;
    to->attr_counts = from->attr_counts;
    to->body = from->body;
    to->all_funcs = from->all_funcs;
    to->nall_funcs = from->nall_funcs;
    to->capall_funcs = from->capall_funcs;
    to->all_classes = from->all_classes;
    to->text_facts = from->text_facts;
    to->state = from->state;
    from->tree = NULL;
    from->arena = NULL;
    cg_map_init(&from->imports);
    cg_map_init(&from->funcs);
    cg_map_init(&from->classes);
    cg_map_init(&from->global_assigns);
    cg_map_init(&from->global_values);
    cg_map_init(&from->attr_counts);
    from->body = NULL;
    from->all_funcs = NULL;
    from->nall_funcs = from->capall_funcs = 0;
    from->all_classes = NULL;
    from->text_facts = 0;
    from->state = 0;
}

static int same_place(const py_kept *e, const py_module *m)
{
    return e->is_init == m->is_init && strcmp(e->name, m->name) == 0 && strcmp(e->package, m->package) == 0 &&
           strcmp(e->root, m->root) == 0;
}

/* What the evaluator left in the index, and the back pointers: as index_module leaves them. */
static void reset_func(py_func *f, py_module *m)
{
    f->mod = m;
}

int py_keep_take(py_project *p, py_module *m)
{
    py_keep *k = py_cache_keep(p->opts->cache);
    if (!k) return 0;
    const char *path = m->file->path;
    pthread_mutex_lock(&k->lock);
    py_kept *e = cg_map_get(&k->by_path, path, strlen(path));
    int ok = e && !e->in_use && e->idx.src.len == m->src.len && same_place(e, m);
    if (ok) e->in_use = 1;
    pthread_mutex_unlock(&k->lock);
    if (ok && memcmp(e->idx.src.text, m->src.text, m->src.len) != 0) {
        pthread_mutex_lock(&k->lock);
        e->in_use = 0;
        pthread_mutex_unlock(&k->lock);
        ok = 0;
    }
    if (!ok) return 0;
    /* borrowed: the keep's entry holds the bytes; m's own source stays m's */
    move_index(m, &e->idx, 0);
    m->kept = e;
    if (m->ahead) ts_tree_delete(m->ahead);   /* parsed ahead for nothing */
    m->ahead = NULL;
    reset_func(m->body, m);
    for (size_t i = 0; i < m->nall_funcs; i++) reset_func(m->all_funcs[i], m);
    for (py_class *c = m->all_classes; c; c = c->next_in_module) {
        c->mod = m;
        c->bases_resolved = 0;
        c->nbase = 0;
        memset(c->base, 0, sizeof c->base);
        c->is_nn_module = 0;
        for (size_t i = 0; i < c->attrs.cap; i++) {
            py_attr *a = c->attrs.keys[i] ? c->attrs.vals[i] : NULL;
            if (!a) continue;
            if (a->type_mod) a->type_mod = m;   /* always this module's (index_class_body, note_self_store) */
        }
    }
    py_report_parse_error(p, m);
    return 1;
}

void py_keep_give(py_project *p, py_module *m)
{
    py_keep *k = py_cache_keep(p->opts->cache);
    if (m->kept) {
        /* back to its entry (the run's source is m's, freed with it) */
        py_kept *e = m->kept;
        move_index(&e->idx, m, 0);
        m->kept = NULL;
        pthread_mutex_lock(&k->lock);
        e->in_use = 0;
        pthread_mutex_unlock(&k->lock);
        return;
    }
    if (!k || m->state != 1 || !m->tree || !m->src.text) return;
    /* donated: into the path's entry, replacing the index of other bytes */
    pthread_mutex_lock(&k->lock);
    py_kept *e = cg_map_get(&k->by_path, m->file->path, strlen(m->file->path));
    if (e && e->in_use) {
        pthread_mutex_unlock(&k->lock);
        return;   /* another run borrows it now: it stays, m's index is freed with the run */
    }
    if (!e) {
        e = cg_xcalloc(1, sizeof *e);
        e->path = cg_xstrdup(m->file->path);
        if (k->n == k->cap) {
            k->cap = k->cap ? k->cap * 2 : 256;
            k->all = cg_xrealloc(k->all, k->cap * sizeof *k->all);
        }
        k->all[k->n++] = e;
        cg_map_put(&k->by_path, e->path, strlen(e->path), e);
    }
    e->in_use = 1;   /* being filled */
    pthread_mutex_unlock(&k->lock);
    py_index_release(&e->idx);
    free(e->name);
    free(e->package);
    free(e->root);
    e->name = cg_xstrdup(m->name);
    e->package = cg_xstrdup(m->package);
    e->root = cg_xstrdup(m->root);
    e->is_init = m->is_init;
    move_index(&e->idx, m, 1);
    pthread_mutex_lock(&k->lock);
    e->in_use = 0;
    pthread_mutex_unlock(&k->lock);
}
