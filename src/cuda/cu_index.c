/* cu_index.c - every function of the tree once, before any walk.
 *
 * Functions are found by USR (cu_func_in: the definition in the caller's
 * own file when several programs of one tree define it).  One pass over
 * each body (scan_node) gathers what the walk and the facts need about the
 * whole tree: its callees (so which functions lead to a capture API and
 * which are entries, cu_func.bearing/called_by_bearing), the writes to each
 * variable (CG204, CG306: is a value the graph keeps assigned again later?),
 * cudaFuncSetAttribute's dynamic shared memory (CG802), the graphs
 * instantiated with AutoFreeOnLaunch (CG502), the objects each function
 * looks up (CG303's memo caches) and how deep each body is (the walk's
 * stack budget).  It also answers, memoised, which CUDA call a body makes
 * first (CG708's threads).
 *
 * Between parse rounds (cu_project.c) cu_collect_names says which names the
 * parsed code needs from files not parsed yet. */
#include "cu_eval.h"
#include "cu_clang.h"
#include <stdlib.h>
#include <string.h>
#include "core/str.h"

cu_func *cu_func_in(const cu_project *p, const char *usr, int file)
{
    cu_func *f = usr ? cg_map_get(&p->funcs, usr, strlen(usr)) : NULL;
    for (cu_func *q = f; q && f && f->next_same_usr; q = q->next_same_usr)
        if (q->file == file) return q;
    return f;
}

/* ---- one pass over a body ------------------------------------------------------------------ */
typedef struct scan {
    cu_index *ix;
    cu_func *fn;
    const cu_node *loop;
    int begins, ends;
    cu_func **callees;        /* malloc, grows */
    int ncallees, capcallees;
    cg_map seen;              /* callees already listed */
    int height;               /* the body's depth */
} scan;

static cu_func *scan_func(const scan *s, const char *usr) { return cu_func_in(s->ix->p, usr, s->fn->file); }

static void add_callee(scan *s, cu_func *f)
{
    if (!f) return;
    char key[32];
    int kl = snprintf(key, sizeof key, "%p", (void *)f);
    if (cg_map_get(&s->seen, key, (size_t)kl)) return;
    cg_map_put(&s->seen, cg_arena_strndup(s->ix->arena, key, (size_t)kl), (size_t)kl, (void *)1);
    s->callees = cu_grow(s->callees, &s->capcallees, s->ncallees, sizeof *s->callees);
    s->callees[s->ncallees++] = f;
}

static void add_write(scan *s, const cu_node *root, const cu_node *at, int is_decl)
{
    if (!root || !root->usr) return;
    if (s->fn && s->fn->is_ctor && (root->kind == CU_N_MEMBER || root->storage == CU_S_FIELD)) return;
    cu_write *w = cg_arena_alloc(s->ix->arena, sizeof *w);
    w->at = at;
    w->fn = s->fn;
    w->loop = s->loop;
    w->is_decl = is_decl;
    size_t len = strlen(root->usr);
    w->next = cg_map_get(&s->ix->writes, root->usr, len);
    cg_map_put(&s->ix->writes, root->usr, len, w);
}

/* An argument &x is an out-parameter: a write to x, as is one passed to T&
 * (not for the CUDA API's own handles). */
static void scan_outargs(scan *s, const cu_node *n)
{
    for (int i = 1; i < n->nkids; i++) {
        const cu_node *a = n->kids[i];
        if (a && (a->flags & CU_F_OUTARG) && (a->kind == CU_N_REF || a->kind == CU_N_MEMBER)) {
            add_write(s, a, n, 0);   /* passed to T& */
            continue;
        }
        while (a && a->kind == CU_N_CAST && a->nkids) a = a->kids[0];
        if (a && a->kind == CU_N_UNARY && a->op == CXUnaryOperator_AddrOf && a->nkids)
            add_write(s, cu_lvalue_root(a->kids[0]), n, 0);
    }
}

static int flag_autofree(const cu_node *n)
{
    int64_t x;
    if (cu_mentions_name(n, "cudaGraphInstantiateFlagAutoFreeOnLaunch") ||
        cu_mentions_name(n, "CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH"))
        return 1;
    return cu_fold(n, &x) && (x & 1);
}

/* cudaGraphInstantiate(&exec, graph, flags) with AutoFreeOnLaunch (CG502) */
static void scan_instantiate(scan *s, const cu_node *n, const cu_api *api)
{
    int autof = api->aux + 1 < n->nkids && flag_autofree(n->kids[api->aux + 1]);
    if (!autof && strstr(api->name, "WithParams")) autof = 1;   /* checked by the params' flags */
    if (!autof) return;
    const cu_node *g = n->nkids > 2 ? cu_lvalue_root(n->kids[2]) : NULL;
    if (g && g->usr) cg_map_put(&s->ix->autofree, g->usr, strlen(g->usr), (void *)1);
    else s->ix->autofree_unknown = 1;
}

/* cudaFuncSetAttribute(kernel, MaxDynamicSharedMemorySize, bytes) (CG802) */
static void scan_set_attr(scan *s, const cu_node *n)
{
    const cu_node *attr = n->kids[2];
    int64_t av = -1;
    int is_smem = cu_mentions_name(attr, "cudaFuncAttributeMaxDynamicSharedMemorySize") ||
                  cu_mentions_name(attr, "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES") ||
                  (cu_fold(attr, &av) && av == 8);
    const cu_node *k = cu_lvalue_root(n->kids[1]);
    if (!is_smem || !k || !k->usr) return;
    cu_attr *a = cg_arena_alloc(s->ix->arena, sizeof *a);
    a->at = n;
    a->fn = s->fn;
    a->known = cu_fold(n->kids[3], &a->value);
    a->next = cg_map_get(&s->ix->attrs, k->usr, strlen(k->usr));
    cg_map_put(&s->ix->attrs, k->usr, strlen(k->usr), a);
}

/* m.find(k), m.count(k), m.contains(k): the function looks m up (CG303: a
 * store into m then fills a memo cache).  Only in the first 200 levels. */
static void scan_lookup(scan *s, const cu_node *n, int depth)
{
    static const char *const look[] = { "find", "count", "contains", NULL };
    if (depth > 200 || !n->nkids || !cg_one_of(n->name, look)) return;
    cu_lookup *l = cg_arena_alloc(s->ix->arena, sizeof *l);
    l->obj = n->kids[0];
    l->next = s->ix->lookups[s->fn->idx];
    s->ix->lookups[s->fn->idx] = l;
}

static void scan_call(scan *s, const cu_node *n, int depth)
{
    cu_func *f = (n->flags & CU_F_DEPENDENT) ? NULL : scan_func(s, n->usr);
    add_callee(s, f);
    scan_lookup(s, n, depth);
    const cu_api *api = f ? NULL : cu_api_lookup(n->name);
    if (api && (api->flags & CU_API_BEGIN)) s->begins = 1;
    if (api && (api->flags & CU_API_END)) s->ends = 1;
    if (!api || (api->flags & (CU_API_SYNC_MEM | CU_API_WORK))) scan_outargs(s, n);
    if (api && (api->flags & CU_API_INSTANTIATE)) scan_instantiate(s, n, api);
    if (api && (api->flags & CU_API_SET_ATTR) && n->nkids > 3) scan_set_attr(s, n);
}

static void scan_node(scan *s, const cu_node *n, int depth)
{
    if (!n || depth > CU_MAX_EVAL_NEST) return;
    if (depth + 1 > s->height) s->height = depth + 1;
    const cu_node *saved_loop = s->loop;
    switch (n->kind) {
    case CU_N_LOOP:
        if (!s->loop) s->loop = n;
        break;
    case CU_N_DECL:
        if (n->nkids) add_write(s, n, n, 1);
        add_callee(s, n->dtor ? scan_func(s, n->dtor) : NULL);
        break;
    case CU_N_BINARY:
        if (n->op >= CXBinaryOperator_Assign && n->op <= CXBinaryOperator_OrAssign && n->nkids)
            add_write(s, cu_lvalue_root(n->kids[0]), n, 0);
        break;
    case CU_N_UNARY:
        if ((n->op >= CXUnaryOperator_PostInc && n->op <= CXUnaryOperator_PreDec) && n->nkids)
            add_write(s, cu_lvalue_root(n->kids[0]), n, 0);
        break;
    case CU_N_CONSTRUCT:
        add_callee(s, scan_func(s, n->usr));
        break;
    case CU_N_REF:
        if (n->storage == CU_S_NONE) add_callee(s, scan_func(s, n->usr));
        break;
    case CU_N_CALL:
        scan_call(s, n, depth);
        break;
    default:
        break;
    }
    for (int i = 0; i < n->nkids; i++) scan_node(s, n->kids[i], depth + 1);
    s->loop = saved_loop;
}

/* Scan function i of the table: its facts, and its callees into the arena. */
static void scan_function(cu_index *ix, size_t i)
{
    cu_func *fn = ix->all[i];
    scan s;
    memset(&s, 0, sizeof s);
    s.ix = ix;
    s.fn = fn;
    cg_map_init(&s.seen);
    scan_node(&s, fn->body, 0);
    fn->begins = s.begins;
    fn->ends = s.ends;
    fn->bearing = s.begins || s.ends;
    fn->reaches_end = s.ends;
    fn->height = s.height;
    ix->callees[i] = cg_arena_alloc(ix->arena, (size_t)(s.ncallees ? s.ncallees : 1) * sizeof **ix->callees);
    if (s.ncallees) memcpy(ix->callees[i], s.callees, (size_t)s.ncallees * sizeof **ix->callees);
    ix->ncallees[i] = s.ncallees;
    free(s.callees);
    cg_map_free(&s.seen);
}

/* ---- the table and the call graph ---------------------------------------------------------- */
static int cmp_func(const void *a, const void *b)
{
    const cu_func *x = *(cu_func *const *)a, *y = *(cu_func *const *)b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->loc.line != y->loc.line) return x->loc.line < y->loc.line ? -1 : 1;
    return strcmp(x->usr, y->usr);
}

/* Every function of the project (each definition of a USR), in map order;
 * *n gets how many.  malloc: the caller frees. */
static cu_func **all_functions(const cu_project *p, size_t *n)
{
    size_t nf = 0;
    for (size_t i = 0; i < p->funcs.cap; i++)
        for (cu_func *f = p->funcs.keys[i] ? p->funcs.vals[i] : NULL; f; f = f->next_same_usr) nf++;
    cu_func **all = cg_xcalloc(nf, sizeof *all);
    size_t k = 0;
    for (size_t i = 0; i < p->funcs.cap; i++)
        for (cu_func *f = p->funcs.keys[i] ? p->funcs.vals[i] : NULL; f; f = f->next_same_usr) all[k++] = f;
    *n = nf;
    return all;
}

/* bearing: reaches a capture API through calls; reaches_end: an EndCapture */
static void propagate_bearing(cu_index *ix)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < ix->nall; i++)
            for (int c = 0; c < ix->ncallees[i]; c++) {
                cu_func *f = ix->all[i], *callee = ix->callees[i][c];
                if (callee->bearing && !f->bearing) { f->bearing = 1; changed = 1; }
                if (callee->reaches_end && !f->reaches_end) { f->reaches_end = 1; changed = 1; }
            }
    }
    for (size_t i = 0; i < ix->nall; i++)
        if (ix->all[i]->bearing)
            for (int c = 0; c < ix->ncallees[i]; c++)
                if (ix->callees[i][c] != ix->all[i]) ix->callees[i][c]->called_by_bearing = 1;
}

void cu_index_build(cu_index *ix, cu_project *p, cg_arena *arena)
{
    memset(ix, 0, sizeof *ix);
    ix->p = p;
    ix->arena = arena;
    cg_map_init(&ix->writes);
    cg_map_init(&ix->attrs);
    cg_map_init(&ix->autofree);
    cg_map_init(&ix->cuda_work);
    cg_map_init(&ix->by_name);
    ix->all = all_functions(p, &ix->nall);
    size_t nf = ix->nall ? ix->nall : 1;
    qsort(ix->all, ix->nall, sizeof *ix->all, cmp_func);
    for (size_t i = 0; i < ix->nall; i++) ix->all[i]->idx = (int)i;
    ix->callees = cg_xcalloc(nf, sizeof *ix->callees);
    ix->ncallees = cg_xcalloc(nf, sizeof *ix->ncallees);
    ix->lookups = cg_xcalloc(nf, sizeof *ix->lookups);
    ix->seen = cg_xcalloc(nf, 1);
    for (size_t i = 0; i < ix->nall; i++) scan_function(ix, i);
    propagate_bearing(ix);
    for (size_t i = 0; i < ix->nall; i++) {
        cu_func *f = ix->all[i];
        if (!f->qualname || strstr(f->qualname, "::") || !f->body) continue;
        size_t n = strlen(f->qualname);
        cu_func *had = cg_map_get(&ix->by_name, f->qualname, n);
        if (!had) cg_map_put(&ix->by_name, f->qualname, n, f);
        else if (had != CU_AMBIGUOUS && !cg_eq(had->usr, f->usr)) cg_map_put(&ix->by_name, f->qualname, n, CU_AMBIGUOUS);
    }
}

cu_func *cu_index_by_name(cu_index *ix, const char *name, int nargs)
{
    if (!name) return NULL;
    cu_func *f = cg_map_get(&ix->by_name, name, strlen(name));
    return f && f != CU_AMBIGUOUS && f->nparams == nargs ? f : NULL;
}

void cu_index_free(cu_index *ix)
{
    free(ix->all);
    free(ix->callees);
    free(ix->ncallees);
    free(ix->lookups);
    free(ix->seen);
    cg_map_free(&ix->writes);
    cg_map_free(&ix->attrs);
    cg_map_free(&ix->autofree);
    cg_map_free(&ix->cuda_work);
    cg_map_free(&ix->by_name);
}

static int reaches_dfs(cu_index *ix, cu_func *f, cu_func *w, int depth)
{
    if (f == w) return 1;
    if (depth > 64 || ix->seen[f->idx]) return 0;
    ix->seen[f->idx] = 1;
    for (int i = 0; i < ix->ncallees[f->idx]; i++)
        if (reaches_dfs(ix, ix->callees[f->idx][i], w, depth + 1)) return 1;
    return 0;
}

int cu_index_reaches(cu_index *ix, cu_func *f, cu_func *w)
{
    if (!f || !w) return 0;
    memset(ix->seen, 0, ix->nall);
    return reaches_dfs(ix, f, w, 0);
}

/* ---- lookups (CG303) ---------------------------------------------------------------------- */
/* Two spellings of one object: `cache`, `this->cache`, `s.events`. */
static int same_object(const cu_node *a, const cu_node *b, int depth)
{
    if (!a || !b || depth > 6 || a->kind != b->kind || a->nkids != b->nkids) return 0;
    if (a->kind != CU_N_REF && a->kind != CU_N_MEMBER && a->kind != CU_N_OTHER && a->kind != CU_N_UNARY)
        return 0;
    if ((a->usr || b->usr) ? !cg_eq(a->usr, b->usr) : !cg_eq(a->name, b->name)) return 0;
    for (int i = 0; i < a->nkids; i++)
        if (!same_object(a->kids[i], b->kids[i], depth + 1)) return 0;
    return 1;
}

int cu_index_looked_up(const cu_index *ix, const cu_func *fn, const cu_node *obj)
{
    if (!fn || !ix->lookups) return 0;
    for (const cu_lookup *l = ix->lookups[fn->idx]; l; l = l->next)
        if (same_object(l->obj, obj, 0)) return 1;
    return 0;
}

/* ---- the first CUDA call of a body (CG708) ------------------------------------------------------ */
static const cu_node NO_WORK;

static int is_cuda_call(const cu_node *n)
{
    if (n->kind == CU_N_LAUNCH) return 1;
    if (n->kind != CU_N_CALL || !n->name) return 0;
    if (cu_api_lookup(n->name)) return 1;
    const char *s = n->name;
    return (cg_starts(s, "cuda") && s[4] >= 'A' && s[4] <= 'Z') || (cg_starts(s, "cu") && s[2] >= 'A' && s[2] <= 'Z');
}

static const cu_node *find_cuda_work(cu_index *ix, const cu_node *n, int file, int depth, int level);

/* depth: calls followed (a few); memoised by body */
static const cu_node *body_cuda_work(cu_index *ix, const cu_node *body, int file, int depth)
{
    if (!body || depth > 4) return NULL;
    char key[32];
    int kl = snprintf(key, sizeof key, "%p", (const void *)body);
    const cu_node *w = cg_map_get(&ix->cuda_work, key, (size_t)kl);
    if (w) return w == &NO_WORK ? NULL : w;
    cg_map_put(&ix->cuda_work, cg_arena_strndup(ix->arena, key, (size_t)kl), (size_t)kl, (void *)&NO_WORK);
    w = find_cuda_work(ix, body, file, depth, 0);
    cg_map_put(&ix->cuda_work, cg_arena_strndup(ix->arena, key, (size_t)kl), (size_t)kl,
               (void *)(w ? w : &NO_WORK));
    return w;
}

/* depth: calls followed; level: nesting in the body */
static const cu_node *find_cuda_work(cu_index *ix, const cu_node *n, int file, int depth, int level)
{
    if (!n || level > CU_MAX_EVAL_NEST) return NULL;
    if (is_cuda_call(n)) return n;
    if (n->kind == CU_N_CALL || n->kind == CU_N_CONSTRUCT) {
        cu_func *f = (n->flags & CU_F_DEPENDENT) ? NULL : cu_func_in(ix->p, n->usr, file);
        if (f && body_cuda_work(ix, f->body, f->file, depth + 1)) return n;
    }
    if (n->kind == CU_N_LAMBDA) return NULL;   /* defined, not run */
    for (int i = 0; i < n->nkids; i++) {
        const cu_node *w = find_cuda_work(ix, n->kids[i], file, depth, level + 1);
        if (w) return w;
    }
    return NULL;
}

const cu_node *cu_index_cuda_work(cu_index *ix, const cu_node *body, int file)
{
    return body_cuda_work(ix, body, file, 0);
}

/* ---- what to parse next (cu_project.c's rounds) ------------------------------------------------- */
typedef struct names_scan {
    cu_project *p;
    cg_map *names;
    cg_arena *a;
    int begins;
    int collect;              /* add unresolved callees to names */
    cu_func **out;            /* resolved callees (malloc) */
    int nout, capout;
} names_scan;

/* An undeclared name from the CUDA ecosystem (a library whose header is not
 * there, a helper macro whose header failed): not something the project's
 * unparsed files define. */
static int library_name(const char *name)
{
    static const char *const pre[] = { "cuda", "cublas", "cusparse", "cufft", "curand", "cusolver",
        "cudnn", "nccl", "nvtx", "nvjpeg", "npp", "nvrtc", "nvml", "make_", "__", NULL };
    if (!name) return 1;
    for (int i = 0; pre[i]; i++)
        if (cg_starts(name, pre[i])) return 1;
    if (name[0] == 'c' && name[1] == 'u' && name[2] >= 'A' && name[2] <= 'Z') return 1;   /* cuMemAlloc */
    return strstr(name, "Cuda") != NULL;   /* checkCudaErrors, getLastCudaError, findCudaDevice */
}

static const char *simple_name(const char *name)
{
    const char *c = strrchr(name, ':');
    if (c) name = c + 1;
    if (name[0] == '~') name++;
    return name;
}

/* how: CU_WANT_CALLER (a file that mentions it may call it) or CU_WANT_DEF
 * (only a file that seems to define it is wanted: see cu_project.c) */
static void add_name(names_scan *ns, const char *name, uintptr_t how)
{
    if (!name || !*name || cg_starts(name, "operator")) return;
    name = simple_name(name);
    if (cg_eq(name, "main")) return;   /* nothing calls it */
    size_t len = strlen(name);
    if (len < 2) return;
    uintptr_t had = (uintptr_t)cg_map_get(ns->names, name, len);
    if (had) { cg_map_put(ns->names, name, len, (void *)(had | how)); return; }   /* keeps the key */
    cg_map_put(ns->names, cg_arena_strndup(ns->a, name, len), len, (void *)how);
}

static void add_out(names_scan *ns, cu_func *f)
{
    if (!f) return;
    ns->out = cu_grow(ns->out, &ns->capout, ns->nout, sizeof *ns->out);
    ns->out[ns->nout++] = f;
}

/* A callee by USR, f its definition: resolved into ns->out, or (when
 * collecting) its name into ns->names if an unparsed file may define it. */
static void names_callee(names_scan *ns, const cu_node *n, cu_func *f, int may_define)
{
    if (f) add_out(ns, f);
    else if (ns->collect && may_define) add_name(ns, n->name, CU_WANT_DEF);
}

/* Callees of a body: resolved ones into ns->out, unresolved names into ns->names. */
static void names_node(names_scan *ns, const cu_node *n, int depth)
{
    if (!n || depth > CU_MAX_EVAL_NEST) return;
    int projdecl = (n->flags & CU_F_PROJDECL) != 0;
    switch (n->kind) {
    case CU_N_CALL: {
        const cu_api *api = cu_api_lookup(n->name);
        if (api && (api->flags & (CU_API_BEGIN | CU_API_END))) ns->begins = 1;
        if (api) break;
        /* only the project's own functions (or undeclared ones) can be in an unparsed file */
        cu_func *f = (n->flags & CU_F_DEPENDENT) ? NULL : cu_func_in(ns->p, n->usr, -1);
        names_callee(ns, n, f, projdecl || ((n->flags & CU_F_UNDECLARED) && !library_name(n->name)));
        break;
    }
    case CU_N_CONSTRUCT:
        names_callee(ns, n, cu_func_in(ns->p, n->usr, -1), projdecl);
        break;
    case CU_N_DECL:
        add_out(ns, cu_func_in(ns->p, n->dtor, -1));
        break;
    case CU_N_REF:
        if (n->storage == CU_S_NONE && n->usr && strstr(n->usr, "@F@"))
            names_callee(ns, n, cu_func_in(ns->p, n->usr, -1), projdecl);
        break;
    default:
        break;
    }
    for (int i = 0; i < n->nkids; i++) names_node(ns, n->kids[i], depth + 1);
}

/* Mark every function that calls a marked one, until nothing changes
 * (function i's callees are ns->out[first[i] .. first[i + 1] - 1]). */
static void mark_callers(const names_scan *ns, const int *first, unsigned char *mark, size_t nf)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < nf; i++)
            for (int k = first[i]; k < first[i + 1] && !mark[i]; k++)
                if (mark[ns->out[k]->idx]) { mark[i] = 1; changed = 1; }
    }
}

/* Mark every function a marked one calls, until nothing changes. */
static void mark_callees(const names_scan *ns, const int *first, unsigned char *mark, size_t nf)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < nf; i++)
            for (int k = first[i]; mark[i] && k < first[i + 1]; k++)
                if (!mark[ns->out[k]->idx]) { mark[ns->out[k]->idx] = 1; changed = 1; }
    }
}

void cu_collect_names(cu_project *p, cg_map *names, cg_arena *arena)
{
    size_t nf = 0;
    cu_func **all = all_functions(p, &nf);
    if (!nf) { free(all); return; }
    for (size_t i = 0; i < nf; i++) all[i]->idx = (int)i;
    int *first = cg_xcalloc(nf + 1, sizeof *first);
    unsigned char *bear = cg_xcalloc(nf, 1), *reach = cg_xcalloc(nf, 1);
    names_scan ns = { .p = p, .names = names, .a = arena };
    /* the call graph of what is parsed so far */
    for (size_t i = 0; i < nf; i++) {
        first[i] = ns.nout;
        ns.begins = 0;
        names_node(&ns, all[i]->body, 0);
        bear[i] = (unsigned char)ns.begins;
    }
    first[nf] = ns.nout;
    /* functions that lead to a capture API, and what those reach */
    mark_callers(&ns, first, bear, nf);
    memcpy(reach, bear, nf);
    mark_callees(&ns, first, reach, nf);
    /* names to look for: the bearing functions (their callers), and what the
     * reachable functions call but nobody parsed defines */
    ns.collect = 1;
    for (size_t i = 0; i < nf; i++) {
        if (bear[i]) add_name(&ns, all[i]->qualname, CU_WANT_CALLER);
        if (reach[i]) {
            int keep = ns.nout;
            names_node(&ns, all[i]->body, 0);
            ns.nout = keep;
        }
    }
    free(ns.out);
    free(all);
    free(first);
    free(bear);
    free(reach);
}
