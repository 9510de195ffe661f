/* checks.c - every CUDA/C/C++ rule, one function each, and the table that
 * says which event each one listens to.
 *
 * To add a rule: scripts/add-rule CGnnn cu writes rules/CGnnn.md, the
 * fixtures tests/fixtures/cu/CGnnn/{positive,negative}.cu, a stub checker
 * before the table below and its row at the table's end (rules/README.md).
 * A finding's fix sentence is its rule page's `fix-cu:` (else `fix:`) unless
 * the checker passes one to cu_report().  Checkers read the event
 * (cu_eval.h) and call cu_report(); they never walk code.  Events arrive
 * only in capture context, so every finding has a capture site. */
#include "cu_eval.h"
#include <string.h>

static int eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }
static int one_of(const char *s, const char *const *list)
{
    for (; *list; list++) if (eq(s, *list)) return 1;
    return 0;
}
static const char *snip(cu_ctx *ctx, const cu_node *n) { return cu_snip(ctx, n); }
static int relaxed(const cu_event *ev) { return ev->region && ev->region->mode == 2; }

/* "a global-mode capture", or, when the mode is not a constant, what it is unless relaxed */
static const char *mode_phrase(const cu_event *ev)
{
    switch (ev->region->mode) {
    case 0: return "a global-mode capture";
    case 1: return "a thread-local-mode capture";
    default: return "a capture (any mode but relaxed)";
    }
}

static const char *stream_desc(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->stream_node) return "the default (legacy) stream";
    return cg_arena_printf(ctx->arena, "`%s`", snip(ctx, ev->stream_node));
}

static const char *capture_where(cu_ctx *ctx, const cu_event *ev)
{
    return cu_loc_str(ctx, &ev->region->site);
}

/* ---- 1 sync ------------------------------------------------------------------------ */

/* CG104: cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, cu* */
static void check_sync(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->api || !(ev->api->flags & API_SYNC)) return;
    const char *call = snip(ctx, ev->node);
    if (ev->api->flags & API_DEVICE) {
        cu_report(ctx, ev, ev->node, CG_R_CG104, -1, NULL,
                  "`%s` waits for the whole device while it is capturing: CUDA refuses it in every "
                  "capture mode (cudaErrorStreamCaptureUnsupported) and invalidates the capture", call);
        return;
    }
    if (ev->api->flags & API_ON_EVENT) {
        const cu_val *e = ev->api->aux < ev->nargs ? &ev->args[ev->api->aux] : NULL;
        if (e && cu_is_captured_event(ctx, e)) {
            cu_report(ctx, ev, ev->node, CG_R_CG104, -1, NULL,
                      "`%s` waits for an event recorded inside this capture: CUDA refuses it "
                      "(cudaErrorCapturedEvent) and invalidates the capture", call);
        } else if (relaxed(ev)) {
            cu_report(ctx, ev, ev->node, CG_R_CG104, CG_SEV_WARNING, NULL,
                      "`%s` is allowed in relaxed capture mode only because the event is outside the "
                      "capture; it runs once, at capture, and is not part of the graph", call);
        } else {
            cu_report(ctx, ev, ev->node, CG_R_CG104, -1, NULL,
                      "`%s` synchronizes with the host during %s: "
                      "cudaErrorStreamCaptureUnsupported, and the capture is invalidated", call, mode_phrase(ev));
        }
        return;
    }
    switch (ev->role) {
    case ROLE_CAPTURE:
    case ROLE_FORKED:
        cu_report(ctx, ev, ev->node, CG_R_CG104, -1, NULL,
                  "`%s` synchronizes a stream that is being captured: CUDA refuses it in every capture "
                  "mode (cudaErrorStreamCaptureUnsupported) and invalidates the capture", call);
        return;
    case ROLE_OTHER:
    case ROLE_PERTHREAD:
        if (relaxed(ev)) {
            cu_report(ctx, ev, ev->node, CG_R_CG104, CG_SEV_WARNING, NULL,
                      "`%s` synchronizes a stream outside the capture: relaxed mode allows it, but it runs "
                      "once, at capture, and is not part of the graph", call);
            return;
        }
        /* fall through */
    default:
        cu_report(ctx, ev, ev->node, CG_R_CG104, -1, NULL,
                  "`%s` synchronizes with the host during %s: "
                  "cudaErrorStreamCaptureUnsupported, and the capture is invalidated", call, mode_phrase(ev));
    }
}

/* CG105: cudaStreamQuery, cudaEventQuery, cu* */
static void check_query(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->api || !(ev->api->flags & API_QUERY)) return;
    const cu_val *e = (ev->api->flags & API_ON_EVENT) && ev->api->aux < ev->nargs ? &ev->args[ev->api->aux] : NULL;
    if (e && cu_is_captured_event(ctx, e)) {
        cu_report(ctx, ev, ev->node, CG_R_CG105, -1, NULL,
                  "`%s` queries an event recorded inside this capture: cudaErrorCapturedEvent, in every "
                  "capture mode", snip(ctx, ev->node));
        return;
    }
    cu_report(ctx, ev, ev->node, CG_R_CG105, -1, NULL,
              "`%s` asks the GPU for a status during capture: CUDA refuses it in every capture mode, "
              "relaxed included, and invalidates the capture", snip(ctx, ev->node));
}

/* CG106: cudaMemcpy, cudaMemset, cudaMemcpyToSymbol, cuMemcpyHtoD, cuMemsetD32 ... */
static void check_sync_memop(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->api || !(ev->api->flags & API_SYNC_MEM)) return;
    const cu_val *s = &ev->region->stream;
    if (s->kind == CV_STREAM && (s->flags & CVF_NONBLOCKING)) {
        cu_report(ctx, ev, ev->node, CG_R_CG106, -1, NULL,
                  "`%s` is a synchronous memory operation on the legacy stream: with a non-blocking capture "
                  "stream there is no error, but it runs once, at capture, and is missing from the graph",
                  snip(ctx, ev->node));
        return;
    }
    cu_report(ctx, ev, ev->node, CG_R_CG106, -1, NULL,
              "`%s` is a synchronous memory operation: during capture it fails with "
              "cudaErrorStreamCaptureImplicit and invalidates the capture (with a non-blocking capture "
              "stream it instead runs once and is missing from the graph)", snip(ctx, ev->node));
}

/* ---- 2 dynamic ---------------------------------------------------------------------- */

/* CG204: launch geometry and sizes from host variables that change after capture */
static void check_host_geometry(cu_ctx *ctx, const cu_event *ev)
{
    if (ev->grid_node) cu_defer(ctx, ev, CG_R_CG204, ev->grid_node, &ev->grid, "the grid");
    if (ev->block_node) cu_defer(ctx, ev, CG_R_CG204, ev->block_node, &ev->block, "the block");
    if (ev->smem_node) cu_defer(ctx, ev, CG_R_CG204, ev->smem_node, &ev->smem, "the shared-memory size");
}

static void check_host_size(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->api || ev->api->size < 0 || !(ev->api->flags & (API_WORK | API_ASYNC_ALLOC))) return;
    if (ev->api->size >= ev->nargs) return;
    cu_defer(ctx, ev, CG_R_CG204, ev->argn[ev->api->size], &ev->args[ev->api->size], "the size");
}

/* ---- 3 cpu ------------------------------------------------------------------------------ */

/* CG301: printf, fprintf, puts, fwrite, std::cout << ... */
static void check_host_io(cu_ctx *ctx, const cu_event *ev)
{
    static const char *const io[] = { "printf", "fprintf", "vprintf", "vfprintf", "puts", "fputs",
        "putchar", "fputc", "putc", "fwrite", "fread", "fopen", "fclose", "fflush", "fgets", "fscanf",
        "scanf", "sscanf_s", "perror", "write", "fprintf_s", "printf_s", "dprintf", "syslog", NULL };
    if (ev->error_path || ev->api) return;
    const char *what = NULL;
    if (one_of(ev->name, io) && (!ev->usr || !strstr(ev->usr, "@S@"))) what = ev->name;
    else if (eq(ev->name, "operator<<") && ev->nargs >= 1 && ev->argn[0]->kind == CU_N_REF &&
             ev->argn[0]->usr && strstr(ev->argn[0]->usr, "@N@std@") &&
             (eq(ev->argn[0]->name, "cout") || eq(ev->argn[0]->name, "cerr") ||
              eq(ev->argn[0]->name, "clog") || eq(ev->argn[0]->name, "wcout")))
        what = ev->argn[0]->name;
    if (!what) return;
    cu_report(ctx, ev, ev->node, CG_R_CG301, -1, NULL,
              "`%s` does host I/O inside the capture: it runs once, while capturing, and never when the "
              "graph is replayed", snip(ctx, ev->node));
}

/* CG302: rand(), time(), clock(), std::chrono ... now(), <random> engines */
static void check_host_random(cu_ctx *ctx, const cu_event *ev)
{
    static const char *const rnd[] = { "rand", "random", "rand_r", "drand48", "erand48", "lrand48",
        "mrand48", "nrand48", "time", "clock", "gettimeofday", "clock_gettime", "timespec_get", NULL };
    if (ev->error_path || ev->api) return;
    int hit = 0;
    if (one_of(ev->name, rnd) && (!ev->usr || !strstr(ev->usr, "@S@"))) hit = 1;
    else if (eq(ev->name, "now") && ev->usr && strstr(ev->usr, "chrono")) hit = 1;
    else if (eq(ev->name, "operator()") && ev->usr &&
             (strstr(ev->usr, "random_device") || strstr(ev->usr, "mersenne_twister") ||
              strstr(ev->usr, "linear_congruential") || strstr(ev->usr, "_distribution")))
        hit = 1;
    if (!hit) return;
    cu_report(ctx, ev, ev->node, CG_R_CG302, -1, NULL,
              "`%s` reads a host random number or clock during capture: the value is baked into the "
              "graph, and every replay uses the same one", snip(ctx, ev->node));
}

/* CG303: counters and host state updated inside the region */
static void check_bookkeeping_store(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->target_outside || ev->loop_header || ev->loop_var || ev->error_path) return;
    if (ev->store_op == 0 && !ev->self_ref) return;
    if (ev->target->tclass != CU_T_ARITH) return;
    cu_report(ctx, ev, ev->node, CG_R_CG303, -1, NULL,
              "`%s` updates host state inside the capture: it happens once, while capturing; replays leave "
              "`%s` at its capture-time value", snip(ctx, ev->node),
              ev->target->name ? ev->target->name : "it");
}

/* Two spellings of one object: `cache`, `this->cache`, `s.events`. */
static int same_object(const cu_node *a, const cu_node *b, int depth)
{
    if (!a || !b || depth > 6 || a->kind != b->kind || a->nkids != b->nkids) return 0;
    if (a->kind != CU_N_REF && a->kind != CU_N_MEMBER && a->kind != CU_N_OTHER && a->kind != CU_N_UNARY)
        return 0;
    if ((a->usr || b->usr) ? !eq(a->usr, b->usr) : !eq(a->name, b->name)) return 0;
    for (int i = 0; i < a->nkids; i++)
        if (!same_object(a->kids[i], b->kids[i], depth + 1)) return 0;
    return 1;
}

/* Does the function look the object up (find, count, contains) before it
 * stores into it?  Then the store fills a memo cache: on replay the cached
 * value is what the capture computed anyway. */
static int memo_lookup(const cu_node *n, const cu_node *obj, int depth)
{
    static const char *const look[] = { "find", "count", "contains", NULL };
    if (!n || depth > 200) return 0;
    if (n->kind == CU_N_CALL && n->nkids && one_of(n->name, look) && same_object(n->kids[0], obj, 0)) return 1;
    for (int i = 0; i < n->nkids; i++)
        if (memo_lookup(n->kids[i], obj, depth + 1)) return 1;
    return 0;
}

static void check_bookkeeping_call(cu_ctx *ctx, const cu_event *ev)
{
    static const char *const mut[] = { "push_back", "emplace_back", "push_front", "emplace_front",
        "insert", "emplace", "push", "pop", "pop_back", "pop_front", "erase", "clear", "append",
        "resize", "assign", "operator[]", NULL };
    if (ev->error_path || !ev->obj || !ev->obj_outside || ev->api) return;
    if (!ev->usr || !strstr(ev->usr, "@N@std@") || !one_of(ev->name, mut)) return;
    if (eq(ev->name, "operator[]")) return;   /* a read as often as a write */
    if ((eq(ev->name, "insert") || eq(ev->name, "emplace")) && ev->fn && memo_lookup(ev->fn->body, ev->obj, 0))
        return;
    cu_report(ctx, ev, ev->node, CG_R_CG303, -1, NULL,
              "`%s` changes a host container inside the capture: it happens once, while capturing, and "
              "never on replay", snip(ctx, ev->node));
}

/* CG306: a kernel argument passed by value from a host variable that changes later */
static void check_kernel_value_arg(cu_ctx *ctx, const cu_event *ev)
{
    if (ev->first_karg < 0) return;
    for (int i = 0; i < ev->nargs; i++) cu_defer(ctx, ev, CG_R_CG306, ev->argn[i], &ev->args[i], NULL);
}

/* CG204 and CG306 are decided when the capture ends: only then is it known
 * which writes to the variable are part of the capture. */
static void check_frozen_values(cu_ctx *ctx, const cu_event *ev)
{
    int keep = 0;
    for (int i = 0; i < ctx->npend; i++) {
        const cu_pending *pd = &ctx->pend[i];
        if (pd->region != ev->region) { ctx->pend[keep++] = *pd; continue; }
        const cu_node *w = NULL;
        const cu_src *src = NULL;
        if (pd->src.usr && cu_changed_after(ctx, ev->region, &pd->src, &w)) src = &pd->src;
        else if (pd->src2.usr && cu_changed_after(ctx, ev->region, &pd->src2, &w)) src = &pd->src2;
        if (!src) continue;
        cu_event pe = *ev;
        pe.path = pd->path;
        pe.npath = pd->npath;
        pe.path_set = 1;
        cg_loc wl = cu_cg_loc(ctx->p, &w->loc);
        const char *in = w->loc.file != pd->at->loc.file ? cg_arena_printf(ctx->arena, " of %s", wl.path) : "";
        if (pd->rule == CG_R_CG306)
            cu_report(ctx, &pe, pd->at, CG_R_CG306, -1, NULL,
                      "kernel argument `%s` is passed by value from host variable `%s`, which is assigned again "
                      "at line %u%s, outside the capture: the graph keeps the captured value, and replays never "
                      "see the new one", snip(ctx, pd->at), src->name ? src->name : "?", wl.line, in);
        else
            cu_report(ctx, &pe, pd->at, CG_R_CG204, -1, NULL,
                      "%s `%s` is computed from host variable `%s`, which is assigned again at line %u%s, outside "
                      "the capture: the graph keeps the value it had at capture, and replays ignore the new one",
                      pd->what, snip(ctx, pd->at), src->name ? src->name : "?", wl.line, in);
    }
    ctx->npend = keep;
}

/* ---- 4 stream ----------------------------------------------------------------------------- */

static int is_work(const cu_event *ev)
{
    if (ev->kind == CU_EV_LAUNCH) return 1;
    return ev->api && (ev->api->flags & (API_WORK | API_EVENT_RECORD | API_STREAM_WAIT)) &&
           !(ev->api->flags & API_LAUNCH);   /* API launches come again as launch events */
}

/* CG401: the legacy/default stream inside capture */
static void check_default_stream(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->has_stream || !is_work(ev)) return;
    if (ev->role != ROLE_LEGACY && ev->role != ROLE_PERTHREAD) return;
    const char *what = ev->kind == CU_EV_LAUNCH ? "launches on" :
                       (ev->api->flags & API_EVENT_RECORD) ? "records an event on" : "issues work on";
    const char *which = ev->role == ROLE_PERTHREAD ? "the per-thread default stream" : "the legacy default stream";
    const char *how = !ev->stream_node ? " (no stream given)"
                    : cg_arena_printf(ctx->arena, " (`%s`)", snip(ctx, ev->stream_node));
    if (ev->api && (ev->api->flags & API_STREAM_WAIT)) {
        cu_report(ctx, ev, ev->node, CG_R_CG401, -1, NULL,
                  "`%s` makes %s%s wait on work inside the capture: cudaErrorStreamCaptureIsolation",
                  snip(ctx, ev->node), which, how);
        return;
    }
    const cu_val *cs = &ev->region->stream;
    const char *effect = (cs->kind == CV_STREAM && (cs->flags & CVF_NONBLOCKING))
        ? "with a non-blocking capture stream there is no error, but the work runs once, eagerly, and is missing from the graph"
        : "with a blocking capture stream CUDA fails with cudaErrorStreamCaptureImplicit; with a non-blocking one the work runs eagerly and is missing from the graph";
    cu_report(ctx, ev, ev->node, CG_R_CG401, -1, NULL,
              "`%s` %s %s%s, which is not %s: %s", snip(ctx, ev->node), what, which, how,
              ev->role == ROLE_PERTHREAD ? "the capturing stream" : "part of the capture", effect);
}

/* CG403: work on a stream that is not part of the capture */
static void check_foreign_stream(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->has_stream || ev->role != ROLE_OTHER) return;
    if (ev->kind != CU_EV_LAUNCH && !(ev->api && (ev->api->flags & API_WORK) && !(ev->api->flags & API_LAUNCH)))
        return;
    cu_report(ctx, ev, ev->stream_node ? ev->stream_node : ev->node, CG_R_CG403, -1, NULL,
              "`%s` issues work on %s, which was never forked into the capture begun at %s: the work runs "
              "once, eagerly, and is not in the graph", snip(ctx, ev->node), stream_desc(ctx, ev),
              capture_where(ctx, ev));
}

/* CG402: a stream forked into the capture and never joined back */
static void check_unjoined(cu_ctx *ctx, const cu_event *ev)
{
    if (ev->unended || !ev->other) return;
    for (int i = 0; i < ctx->st.nforks; i++) {
        const cu_fork *f = &ctx->st.forks[i];
        if (f->joined) continue;
        cu_event fe = *ev;
        fe.path = f->path;
        fe.npath = f->npath;
        fe.path_set = 1;
        cu_report(ctx, &fe, f->at, CG_R_CG402, -1, NULL,
                  "`%s` forks a stream into the capture, and its work is not joined back into the capturing "
                  "stream before the capture ends at %s: cudaErrorStreamCaptureUnjoined",
                  snip(ctx, f->at), cu_loc_str(ctx, &ev->other->loc));
    }
}

/* CG404: capture begun on the legacy stream */
static void check_capture_stream(cu_ctx *ctx, const cu_event *ev)
{
    if (ev->stream.kind != CV_STREAM || ev->stream.skind != CS_LEGACY) return;
    cu_report(ctx, ev, ev->node, CG_R_CG404, -1, NULL,
              "`%s` begins a capture on the legacy default stream, which cannot be captured: "
              "cudaErrorStreamCaptureUnsupported", snip(ctx, ev->node));
}

/* ---- 5 memory ------------------------------------------------------------------------------ */

/* CG501: cudaMalloc, cudaFree, cudaMallocHost, cudaHostRegister, cuMemAlloc ... */
static void check_alloc(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->api || !(ev->api->flags & (API_ALLOC | API_FREE))) return;
    int free_ = (ev->api->flags & API_FREE) != 0;
    if (relaxed(ev)) {
        cu_report(ctx, ev, ev->node, CG_R_CG501, CG_SEV_WARNING, NULL,
                  "`%s` %s memory during a relaxed-mode capture: allowed, but it happens once, at capture, "
                  "and is not part of the graph%s", snip(ctx, ev->node), free_ ? "frees" : "allocates",
                  free_ ? " (replays may still use the freed memory)" : "");
        return;
    }
    cu_report(ctx, ev, ev->node, CG_R_CG501, -1, NULL,
              "`%s` %s memory during %s: cudaErrorStreamCaptureUnsupported, and the capture "
              "is invalidated", snip(ctx, ev->node), free_ ? "frees" : "allocates", mode_phrase(ev));
}

/* CG502: cudaMallocAsync in a graph with no cudaFreeAsync in it */
static void check_async_alloc(cu_ctx *ctx, const cu_event *ev)
{
    if (ev->unended || !ev->other) return;
    const char *g = ev->region->graph_usr;
    if (ctx->autofree_unknown || (g && cg_map_get(&ctx->autofree, g, strlen(g)))) return;
    for (int i = 0; i < ctx->st.nalloc; i++) {
        const cu_alloc *a = &ctx->st.allocs[i];
        cu_event ae = *ev;
        ae.path = a->path;
        ae.npath = a->npath;
        ae.path_set = 1;
        cu_report(ctx, &ae, a->at, CG_R_CG502, -1, NULL,
                  "`%s` allocates inside the graph, which frees nothing before the capture ends at %s: the "
                  "second launch of the graph fails with cudaErrorInvalidValue", snip(ctx, a->at),
                  cu_loc_str(ctx, &ev->other->loc));
    }
}

/* ---- 7 setup -------------------------------------------------------------------------------- */

/* CG705: the capture is redone on every iteration of a loop */
static void check_loop_capture(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->in_loop) return;
    cu_report(ctx, ev, ev->node, CG_R_CG705, -1, NULL,
              "`%s` begins a new capture on every iteration of the loop around it: the graph is captured "
              "and instantiated each time, which costs more than running the work eagerly",
              snip(ctx, ev->node));
}

/* CG707: a capture not ended on every path, or ended on another stream */
static void check_return_open(cu_ctx *ctx, const cu_event *ev)
{
    cu_report(ctx, ev, ev->node, CG_R_CG707, -1, NULL,
              "this return leaves the capture begun at %s open: the stream stays in capture mode, and its "
              "next use fails (cudaErrorStreamCaptureUnmatched / Invalidated)", capture_where(ctx, ev));
}

static void check_capture_end(cu_ctx *ctx, const cu_event *ev)
{
    if (ev->unended) {
        cu_node at;
        memset(&at, 0, sizeof at);
        at.loc = ev->region->site;
        at.kind = CU_N_CALL;
        cu_report(ctx, ev, &at, CG_R_CG707, -1, NULL,
                  "the capture begun here is not ended on every path through the function: the stream is "
                  "left capturing");
        return;
    }
    const cu_val *a = &ev->region->stream, *b = &ev->other_stream;
    if (a->kind != CV_STREAM || b->kind != CV_STREAM) return;
    if ((a->flags | b->flags) & CVF_MAYALIAS) return;
    if (a->skind == b->skind && (a->skind != CS_VAR || eq(a->id, b->id))) return;
    cu_report(ctx, ev, ev->other, CG_R_CG707, -1, NULL,
              "`%s` ends a capture on another stream than the one that began it at %s: "
              "cudaErrorStreamCaptureUnmatched, and the original stream stays capturing",
              snip(ctx, ev->other), capture_where(ctx, ev));
}

/* CG708: another thread doing CUDA work while a global-mode capture is open */
static void check_thread(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->region || ev->region->mode != 0) return;   /* thread-local and relaxed isolate it */
    const char *work = ev->work ? snip(ctx, ev->work) : "CUDA work";
    if (ev->started_before)
        cu_report(ctx, ev, ev->node, CG_R_CG708, -1, NULL,
                  "this thread calls `%s` and is still running when the global-mode capture begins at %s: "
                  "its CUDA calls fail (cudaErrorStreamCaptureUnsupported) and invalidate the capture",
                  work, cu_loc_str(ctx, &ev->region->site));
    else
        cu_report(ctx, ev, ev->node, CG_R_CG708, -1, NULL,
                  "this starts a thread that calls `%s` while a global-mode capture is open: its CUDA calls "
                  "fail (cudaErrorStreamCaptureUnsupported) and invalidate the capture", work);
}

/* ---- 8 launch ------------------------------------------------------------------------------- */

/* CG801: more than 1024 threads a block, or a dimension over its limit */
static void check_block_size(cu_ctx *ctx, const cu_event *ev)
{
    const cu_val *b = &ev->block;
    if (b->kind != CV_DIM3 || !ev->block_node) return;
    static const int64_t lim[3] = { 1024, 1024, 64 };
    for (int i = 0; i < 3; i++)
        if ((b->known & (1 << i)) && (&b->x)[i] > lim[i]) {
            cu_report(ctx, ev, ev->block_node, CG_R_CG801, -1, NULL,
                      "block dimension %c is %lld, over its limit of %lld: the launch fails with "
                      "cudaErrorInvalidValue and the capture is invalidated", "xyz"[i],
                      (long long)(&b->x)[i], (long long)lim[i]);
            return;
        }
    if (b->known == 7 && b->x > 0 && b->y > 0 && b->z > 0 && b->x * b->y * b->z > 1024)
        cu_report(ctx, ev, ev->block_node, CG_R_CG801, -1, NULL,
                  "a block of %lld x %lld x %lld = %lld threads is over the limit of 1024: the launch fails "
                  "with cudaErrorInvalidValue and the capture is invalidated", (long long)b->x,
                  (long long)b->y, (long long)b->z, (long long)(b->x * b->y * b->z));
}

/* CG802: over 48 KiB of dynamic shared memory without cudaFuncSetAttribute first */
static void check_dynamic_smem(cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->smem_node || ev->smem.kind != CV_INT || !(ev->smem.known & 1)) return;
    if (ev->smem.x <= 48 * 1024) return;
    const cu_node *late = NULL;
    if (cu_attr_allows(ctx, ev, ev->usr, ev->smem.x, &late)) return;
    if (late) {
        cg_loc l = cu_cg_loc(ctx->p, &late->loc);
        cu_report(ctx, ev, ev->smem_node, CG_R_CG802, -1, NULL,
                  "%lld bytes of dynamic shared memory need cudaFuncAttributeMaxDynamicSharedMemorySize, but it "
                  "is set at line %u, after the capture began: the launch fails with cudaErrorInvalidValue",
                  (long long)ev->smem.x, l.line);
        return;
    }
    cu_report(ctx, ev, ev->smem_node, CG_R_CG802, -1, NULL,
              "%lld bytes of dynamic shared memory are over the default limit of 49152, and no "
              "cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, ...) raises it first: the "
              "launch fails with cudaErrorInvalidValue and the capture is invalidated",
              (long long)ev->smem.x, ev->name ? ev->name : "kernel");
}

/* CG803: a grid or block of zero */
static void check_zero_config(cu_ctx *ctx, const cu_event *ev)
{
    const cu_val *v[2] = { &ev->grid, &ev->block };
    const cu_node *n[2] = { ev->grid_node, ev->block_node };
    for (int k = 0; k < 2; k++) {
        if (v[k]->kind != CV_DIM3 || !n[k]) continue;
        for (int i = 0; i < 3; i++)
            if ((v[k]->known & (1 << i)) && (&v[k]->x)[i] == 0) {
                cu_report(ctx, ev, n[k], CG_R_CG803, -1, NULL,
                          "the %s has a zero dimension (%c = 0): the launch fails with "
                          "cudaErrorInvalidConfiguration and the capture is invalidated",
                          k ? "block" : "grid", "xyz"[i]);
                return;
            }
    }
}

/* ---- the table --------------------------------------------------------------------------------- */
const cu_check cu_checks[] = {
    { CG_R_CG104, CU_EV_CALL, check_sync },
    { CG_R_CG105, CU_EV_CALL, check_query },
    { CG_R_CG106, CU_EV_CALL, check_sync_memop },
    { CG_R_CG204, CU_EV_LAUNCH, check_host_geometry },
    { CG_R_CG204, CU_EV_CALL, check_host_size },
    { CG_R_CG301, CU_EV_CALL, check_host_io },
    { CG_R_CG302, CU_EV_CALL, check_host_random },
    { CG_R_CG303, CU_EV_STORE, check_bookkeeping_store },
    { CG_R_CG303, CU_EV_CALL, check_bookkeeping_call },
    { CG_R_CG306, CU_EV_LAUNCH, check_kernel_value_arg },
    { CG_R_CG306, CU_EV_REGION_END, check_frozen_values },   /* and CG204 */
    { CG_R_CG401, CU_EV_CALL, check_default_stream },
    { CG_R_CG401, CU_EV_LAUNCH, check_default_stream },
    { CG_R_CG402, CU_EV_REGION_END, check_unjoined },
    { CG_R_CG403, CU_EV_CALL, check_foreign_stream },
    { CG_R_CG403, CU_EV_LAUNCH, check_foreign_stream },
    { CG_R_CG404, CU_EV_REGION_BEGIN, check_capture_stream },
    { CG_R_CG501, CU_EV_CALL, check_alloc },
    { CG_R_CG502, CU_EV_REGION_END, check_async_alloc },
    { CG_R_CG705, CU_EV_REGION_BEGIN, check_loop_capture },
    { CG_R_CG707, CU_EV_RETURN, check_return_open },
    { CG_R_CG707, CU_EV_REGION_END, check_capture_end },
    { CG_R_CG708, CU_EV_THREAD, check_thread },
    { CG_R_CG801, CU_EV_LAUNCH, check_block_size },
    { CG_R_CG802, CU_EV_LAUNCH, check_dynamic_smem },
    { CG_R_CG803, CU_EV_LAUNCH, check_zero_config },
};
const size_t cu_check_count = sizeof cu_checks / sizeof *cu_checks;

void cu_dispatch(cu_ctx *ctx, const cu_event *ev)
{
    for (size_t i = 0; i < cu_check_count; i++)
        if (cu_checks[i].on == ev->kind) cu_checks[i].fn(ctx, ev);
}
