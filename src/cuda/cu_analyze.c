/* cu_analyze.c - the C/C++/CUDA evaluator's driver: index every function,
 * then walk the captures from each entry.
 *
 * Entries are functions that reach a capture API through calls and that no
 * such function calls (main, a library's run_step...), then any function
 * that begins a capture and was not walked from one.  Outside a capture the
 * walk only follows calls that can reach a capture API; inside one it
 * follows every call into the analysed tree (cu_call.c), and hands events
 * to the rules (cu_walk.c: cu_emit).  The files of the evaluator and what
 * each does are listed in cu_eval.h. */
#include "cu_eval.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *cu_grow(void *v, int *cap, int n, size_t elem)
{
    if (n < *cap) return v;
    int nc = *cap ? *cap * 2 : 8;
    void *nv = cg_xrealloc(v, (size_t)nc * elem);
    *cap = nc;
    return nv;
}

/* CGLINT_CU_DUMP=1: print the lowered functions (for developing the front end). */
static void dump_node(const cu_node *n, int depth)
{
    if (depth > CU_MAX_EVAL_NEST) return;
    static const char *const kinds[] = { "other", "compound", "if", "loop", "switch", "return", "break",
        "goto", "throw", "decl", "call", "launch", "construct", "ref", "member", "int", "null", "string",
        "unary", "binary", "condop", "cast", "lambda", "sizeof", "empty" };
    if (!n) return;
    fprintf(stderr, "%*s%s", depth * 2, "", n->kind < sizeof kinds / sizeof *kinds ? kinds[n->kind] : "?");
    if (n->name) fprintf(stderr, " '%s'", n->name);
    if (n->op) fprintf(stderr, " op=%d", n->op);
    if (n->flags & CU_F_IVAL) fprintf(stderr, " =%lld", (long long)n->ival);
    if (n->tclass) fprintf(stderr, " t=%d", n->tclass);
    if (n->storage) fprintf(stderr, " s=%d", n->storage);
    if (n->flags & CU_F_MACRO) fprintf(stderr, " macro");
    if (n->flags & CU_F_DEPENDENT) fprintf(stderr, " dep");
    fprintf(stderr, " @%u:%u\n", n->loc.line, n->loc.col);
    for (int i = 0; i < n->nkids; i++) dump_node(n->kids[i], depth + 1);
}

static void dump_functions(const cu_project *p)
{
    for (size_t i = 0; i < p->funcs.cap; i++)
        for (cu_func *f = p->funcs.keys[i] ? p->funcs.vals[i] : NULL; f; f = f->next_same_usr) {
            fprintf(stderr, "== %s (%s) in %s\n", f->qualname, f->usr, p->files[f->file].path);
            dump_node(f->body, 1);
        }
}

/* Walk fn from its start, with nothing open. */
static void walk_entry(cu_ctx *ctx, cu_func *fn)
{
    cu_state_free(&ctx->st);
    cg_callpath_clear(&ctx->path);
    ctx->depth = 0;
    ctx->nest = 0;
    ctx->nthreads = 0;
    cu_frame root;
    cu_frame_push(ctx, &root, NULL);
    fn->walked = 1;
    if (getenv("CGLINT_CU_DUMP")) fprintf(stderr, "walk entry %s\n", fn->qualname);
    cu_call_body(ctx, fn, fn->body, fn->qualname, NULL, NULL, 0, 1);
    cu_frame_pop(ctx, &root);
    ctx->fr = NULL;
}

void cu_analyze_project(cu_project *p)
{
    if (getenv("CGLINT_CU_DUMP")) dump_functions(p);
    cu_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.p = p;
    ctx.arena = cg_arena_new();
    ctx.path.limit = CU_MAX_DEPTH + 1;
    cg_map_init(&ctx.fields);
    cg_map_init(&ctx.globals);
    cg_map_init(&ctx.memo);
    cu_index_build(&ctx.ix, p, ctx.arena);

    /* entries: bearing functions no bearing function calls; then any begin not yet walked */
    for (size_t i = 0; i < ctx.ix.nall; i++)
        if (ctx.ix.all[i]->bearing && !ctx.ix.all[i]->called_by_bearing) walk_entry(&ctx, ctx.ix.all[i]);
    for (size_t i = 0; i < ctx.ix.nall; i++)
        if (ctx.ix.all[i]->begins && !ctx.ix.all[i]->walked) walk_entry(&ctx, ctx.ix.all[i]);
    cu_report_cuts(&ctx);

    cu_state_free(&ctx.st);
    free(ctx.threads);
    free(ctx.keep);
    cu_index_free(&ctx.ix);
    cg_map_free(&ctx.fields);
    cg_map_free(&ctx.globals);
    cg_map_free(&ctx.memo);
    cg_arena_free(ctx.arena);
}
