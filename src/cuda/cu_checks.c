/* cu_checks.c - every C/C++/CUDA rule, one function each, and the table
 * that says which event each one listens to.
 *
 * To add a rule: scripts/add-rule CGnnn cu writes rules/CGnnn.md, the
 * fixtures tests/fixtures/cu/CGnnn/{positive,negative}.cu, a stub checker
 * before the table below and its row at the table's end (rules/README.md).
 * A checker gets a const context: it reads the event and its region's facts
 * (cu_check.h) and calls cu_report() (or cu_report_place() for an earlier
 * place of the capture); it changes nothing, walks no code and searches no
 * source text.  A fact it lacks is gathered by the evaluator or the index,
 * not here.  A finding's fix sentence is its rule page's `fix-cu:` (else
 * `fix:`) unless the checker passes one.  Events arrive only in capture
 * context, so every finding has a capture site. */
#include "cu_check.h"
#include <string.h>
#include "core/str.h"

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

static const char *stream_desc(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->stream_node) return "the default (legacy) stream";
    return cu_strf(ctx, "`%s`", cu_snip(ctx, ev->stream_node));
}

static const char *capture_where(const cu_ctx *ctx, const cu_event *ev)
{
    return cu_loc_str(ctx, &ev->region->site);
}

/* ---- 1 sync ------------------------------------------------------------------------ */

/* CG104: cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, cu* */
static void check_sync(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->api || !(ev->api->flags & CU_API_SYNC)) return;
    const char *call = cu_snip(ctx, ev->node);
    if (ev->api->flags & CU_API_DEVICE) {
        cu_report(ctx, ev, ev->node, CG_R_CG104, -1, NULL,
                  "`%s` waits for the whole device while it is capturing: CUDA refuses it in every "
                  "capture mode (cudaErrorStreamCaptureUnsupported) and invalidates the capture", call);
        return;
    }
    if (ev->api->flags & CU_API_ON_EVENT) {
        if (ev->on_captured_event) {
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
    case CU_ROLE_CAPTURE:
    case CU_ROLE_FORKED:
        cu_report(ctx, ev, ev->node, CG_R_CG104, -1, NULL,
                  "`%s` synchronizes a stream that is being captured: CUDA refuses it in every capture "
                  "mode (cudaErrorStreamCaptureUnsupported) and invalidates the capture", call);
        return;
    case CU_ROLE_OTHER:
    case CU_ROLE_PERTHREAD:
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
static void check_query(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->api || !(ev->api->flags & CU_API_QUERY)) return;
    if (ev->on_captured_event) {
        cu_report(ctx, ev, ev->node, CG_R_CG105, -1, NULL,
                  "`%s` queries an event recorded inside this capture: cudaErrorCapturedEvent, in every "
                  "capture mode", cu_snip(ctx, ev->node));
        return;
    }
    cu_report(ctx, ev, ev->node, CG_R_CG105, -1, NULL,
              "`%s` asks the GPU for a status during capture: CUDA refuses it in every capture mode, "
              "relaxed included, and invalidates the capture", cu_snip(ctx, ev->node));
}

/* CG106: cudaMemcpy, cudaMemset, cudaMemcpyToSymbol, cuMemcpyHtoD, cuMemsetD32 ... */
static void check_sync_memop(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->api || !(ev->api->flags & CU_API_SYNC_MEM)) return;
    const cu_val *s = &ev->region->stream;
    if (s->kind == CU_V_STREAM && (s->flags & CU_VF_NONBLOCKING)) {
        cu_report(ctx, ev, ev->node, CG_R_CG106, -1, NULL,
                  "`%s` is a synchronous memory operation on the legacy stream: with a non-blocking capture "
                  "stream there is no error, but it runs once, at capture, and is missing from the graph",
                  cu_snip(ctx, ev->node));
        return;
    }
    cu_report(ctx, ev, ev->node, CG_R_CG106, -1, NULL,
              "`%s` is a synchronous memory operation: during capture it fails with "
              "cudaErrorStreamCaptureImplicit and invalidates the capture (with a non-blocking capture "
              "stream it instead runs once and is missing from the graph)", cu_snip(ctx, ev->node));
}

/* ---- 2 dynamic ---------------------------------------------------------------------- */

/* CG204 (a launch's geometry, an API call's size) and CG306 (a kernel's
 * by-value argument): a value the graph keeps, read from a host variable
 * assigned again where a replay would not see it.  Decided when the capture
 * ends: only then is it known which writes are part of the capture. */
static void check_kept_values(const cu_ctx *ctx, const cu_event *ev)
{
    static const char *const what[] = {
        [CU_KEEP_GRID] = "the grid", [CU_KEEP_BLOCK] = "the block",
        [CU_KEEP_SMEM] = "the shared-memory size", [CU_KEEP_SIZE] = "the size",
    };
    for (int i = 0; i < ev->nkept; i++) {
        const cu_kept *k = &ev->kept[i];
        const cu_node *at = k->where.at;
        cg_loc wl = cu_node_loc(ctx, k->write);
        const char *in = k->write->loc.file != at->loc.file ? cu_strf(ctx, " of %s", wl.path) : "";
        const char *var = k->var ? k->var : "?";
        if (k->kind == CU_KEEP_KERNEL_ARG && k->via)
            cu_report_place(ctx, ev, &k->where, CG_R_CG306, -1, NULL,
                            "`%s` is passed to `%s`, which passes it by value to a kernel; it comes from host "
                            "variable `%s`, which is assigned again at line %u%s, outside the capture: the graph "
                            "keeps the captured value, and replays never see the new one", cu_snip(ctx, at),
                            k->via, var, wl.line, in);
        else if (k->kind == CU_KEEP_KERNEL_ARG)
            cu_report_place(ctx, ev, &k->where, CG_R_CG306, -1, NULL,
                            "kernel argument `%s` is passed by value from host variable `%s`, which is assigned "
                            "again at line %u%s, outside the capture: the graph keeps the captured value, and "
                            "replays never see the new one", cu_snip(ctx, at), var, wl.line, in);
        else
            cu_report_place(ctx, ev, &k->where, CG_R_CG204, -1, NULL,
                            "%s `%s` is computed from host variable `%s`, which is assigned again at line %u%s, "
                            "outside the capture: the graph keeps the value it had at capture, and replays "
                            "ignore the new one", what[k->kind], cu_snip(ctx, at), var, wl.line, in);
    }
}

/* ---- 3 cpu ------------------------------------------------------------------------------ */

/* CG301: printf, fprintf, puts, fwrite, std::cout << ... */
static void check_host_io(const cu_ctx *ctx, const cu_event *ev)
{
    static const char *const io[] = { "printf", "fprintf", "vprintf", "vfprintf", "puts", "fputs",
        "putchar", "fputc", "putc", "fwrite", "fread", "fopen", "fclose", "fflush", "fgets", "fscanf",
        "scanf", "sscanf_s", "perror", "write", "fprintf_s", "printf_s", "dprintf", "syslog", NULL };
    if (ev->error_path || ev->api) return;
    const char *what = NULL;
    if (cg_one_of(ev->name, io) && (!ev->usr || !strstr(ev->usr, "@S@"))) what = ev->name;
    else if (cg_eq(ev->name, "operator<<") && ev->nargs >= 1 && ev->argn[0]->kind == CU_N_REF &&
             ev->argn[0]->usr && strstr(ev->argn[0]->usr, "@N@std@") &&
             (cg_eq(ev->argn[0]->name, "cout") || cg_eq(ev->argn[0]->name, "cerr") ||
              cg_eq(ev->argn[0]->name, "clog") || cg_eq(ev->argn[0]->name, "wcout")))
        what = ev->argn[0]->name;
    if (!what) return;
    cu_report(ctx, ev, ev->node, CG_R_CG301, -1, NULL,
              "`%s` does host I/O inside the capture: it runs once, while capturing, and never when the "
              "graph is replayed", cu_snip(ctx, ev->node));
}

/* CG302: rand(), <random> engines where they are read; time(), clock(),
 * std::chrono ... now() where their value reaches what the graph keeps (a
 * clock read only to time or to time out host code is no hazard) */
static void check_host_random(const cu_ctx *ctx, const cu_event *ev)
{
    if (ev->error_path) return;
    if (ev->clock_read) {
        cu_report_place(ctx, ev, ev->clock_read, CG_R_CG302, -1, NULL,
                        "`%s` reads the host clock during capture and its value reaches `%s` (%s): the graph "
                        "keeps the capture-time value, and every replay uses the same one",
                        cu_snip(ctx, ev->clock_read->at), cu_snip(ctx, ev->clock_arg),
                        cu_loc_str(ctx, &ev->clock_arg->loc));
        return;
    }
    if (ev->kind != CU_EV_CALL || ev->api || cu_host_entropy(ev->name, ev->usr) != CU_ENTROPY_RANDOM) return;
    cu_report(ctx, ev, ev->node, CG_R_CG302, -1, NULL,
              "`%s` reads a host random number during capture: the value is baked into the "
              "graph, and every replay uses the same one", cu_snip(ctx, ev->node));
}

/* CG303: counters and host state updated inside the region */
static void check_bookkeeping_store(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->target_outside || ev->loop_header || ev->loop_var || ev->error_path) return;
    if (ev->store_op == 0 && !ev->self_ref) return;
    if (ev->target->tclass != CU_T_ARITH) return;
    cu_report(ctx, ev, ev->node, CG_R_CG303, -1, NULL,
              "`%s` updates host state inside the capture: it happens once, while capturing; replays leave "
              "`%s` at its capture-time value", cu_snip(ctx, ev->node),
              ev->target->name ? ev->target->name : "it");
}

static void check_bookkeeping_call(const cu_ctx *ctx, const cu_event *ev)
{
    static const char *const mut[] = { "push_back", "emplace_back", "push_front", "emplace_front",
        "insert", "emplace", "push", "pop", "pop_back", "pop_front", "erase", "clear", "append",
        "resize", "assign", "operator[]", NULL };
    if (ev->error_path || !ev->obj || !ev->obj_outside || ev->api) return;
    if (!ev->usr || !strstr(ev->usr, "@N@std@") || !cg_one_of(ev->name, mut)) return;
    if (cg_eq(ev->name, "operator[]")) return;   /* a read as often as a write */
    /* looked up first: the store fills a memo cache, whose value on replay is
     * what the capture computed anyway */
    if ((cg_eq(ev->name, "insert") || cg_eq(ev->name, "emplace")) && ev->obj_looked_up) return;
    cu_report(ctx, ev, ev->node, CG_R_CG303, -1, NULL,
              "`%s` changes a host container inside the capture: it happens once, while capturing, and "
              "never on replay", cu_snip(ctx, ev->node));
}

/* ---- 4 stream ----------------------------------------------------------------------------- */

static int is_work(const cu_event *ev)
{
    if (ev->kind == CU_EV_LAUNCH) return 1;
    return ev->api && (ev->api->flags & (CU_API_WORK | CU_API_EVENT_RECORD | CU_API_STREAM_WAIT)) &&
           !(ev->api->flags & CU_API_LAUNCH);   /* API launches come again as launch events */
}

/* CG401: the legacy/default stream inside capture */
static void check_default_stream(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->has_stream || !is_work(ev)) return;
    if (ev->role != CU_ROLE_LEGACY && ev->role != CU_ROLE_PERTHREAD) return;
    const char *what = ev->kind == CU_EV_LAUNCH ? "launches on" :
                       (ev->api->flags & CU_API_EVENT_RECORD) ? "records an event on" : "issues work on";
    const char *which = ev->role == CU_ROLE_PERTHREAD ? "the per-thread default stream" : "the legacy default stream";
    const char *how = !ev->stream_node ? " (no stream given)"
                    : cu_strf(ctx, " (`%s`)", cu_snip(ctx, ev->stream_node));
    if (ev->api && (ev->api->flags & CU_API_STREAM_WAIT)) {
        cu_report(ctx, ev, ev->node, CG_R_CG401, -1, NULL,
                  "`%s` makes %s%s wait on work inside the capture: cudaErrorStreamCaptureIsolation",
                  cu_snip(ctx, ev->node), which, how);
        return;
    }
    const cu_val *cs = &ev->region->stream;
    const char *effect = (cs->kind == CU_V_STREAM && (cs->flags & CU_VF_NONBLOCKING))
        ? "with a non-blocking capture stream there is no error, but the work runs once, eagerly, and is missing from the graph"
        : "with a blocking capture stream CUDA fails with cudaErrorStreamCaptureImplicit; with a non-blocking one the work runs eagerly and is missing from the graph";
    cu_report(ctx, ev, ev->node, CG_R_CG401, -1, NULL,
              "`%s` %s %s%s, which is not %s: %s", cu_snip(ctx, ev->node), what, which, how,
              ev->role == CU_ROLE_PERTHREAD ? "the capturing stream" : "part of the capture", effect);
}

/* CG403: work on a stream that is not part of the capture */
static void check_foreign_stream(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->has_stream || ev->role != CU_ROLE_OTHER) return;
    if (ev->kind != CU_EV_LAUNCH && !(ev->api && (ev->api->flags & CU_API_WORK) && !(ev->api->flags & CU_API_LAUNCH)))
        return;
    if (ev->stream_via) {
        /* reported where the user passed the stream, not in the shared helper */
        cg_loc at = cu_node_loc(ctx, ev->node);
        cu_report_place(ctx, ev, &ev->stream_from, CG_R_CG403, -1, NULL,
                        "`%s` is passed to `%s`, which issues work on it (`%s` at %s:%u); it was never forked "
                        "into the capture begun at %s: the work runs once, eagerly, and is not in the graph",
                        cu_snip(ctx, ev->stream_from.at), ev->stream_via, cu_snip(ctx, ev->node), at.path,
                        at.line, capture_where(ctx, ev));
        return;
    }
    cu_report(ctx, ev, ev->stream_node ? ev->stream_node : ev->node, CG_R_CG403, -1, NULL,
              "`%s` issues work on %s, which was never forked into the capture begun at %s: the work runs "
              "once, eagerly, and is not in the graph", cu_snip(ctx, ev->node), stream_desc(ctx, ev),
              capture_where(ctx, ev));
}

/* CG402: a stream forked into the capture and never joined back */
static void check_unjoined(const cu_ctx *ctx, const cu_event *ev)
{
    if (ev->unended || !ev->other) return;
    for (int i = 0; i < ev->nforks; i++) {
        const cu_fork *f = &ev->forks[i];
        if (f->joined) continue;
        cu_report_place(ctx, ev, &f->where, CG_R_CG402, -1, NULL,
                        "`%s` forks a stream into the capture, and its work is not joined back into the "
                        "capturing stream before the capture ends at %s: cudaErrorStreamCaptureUnjoined",
                        cu_snip(ctx, f->where.at), cu_loc_str(ctx, &ev->other->loc));
    }
}

/* CG404: capture begun on the legacy stream */
static void check_capture_stream(const cu_ctx *ctx, const cu_event *ev)
{
    if (ev->stream.kind != CU_V_STREAM || ev->stream.skind != CU_SK_LEGACY) return;
    cu_report(ctx, ev, ev->node, CG_R_CG404, -1, NULL,
              "`%s` begins a capture on the legacy default stream, which cannot be captured: "
              "cudaErrorStreamCaptureUnsupported", cu_snip(ctx, ev->node));
}

/* ---- 5 memory ------------------------------------------------------------------------------ */

/* CG501: cudaMalloc, cudaFree, cudaMallocHost, cudaHostRegister, cuMemAlloc ... */
static void check_alloc(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->api || !(ev->api->flags & (CU_API_ALLOC | CU_API_FREE))) return;
    int free_ = (ev->api->flags & CU_API_FREE) != 0;
    if (relaxed(ev)) {
        cu_report(ctx, ev, ev->node, CG_R_CG501, CG_SEV_WARNING, NULL,
                  "`%s` %s memory during a relaxed-mode capture: allowed, but it happens once, at capture, "
                  "and is not part of the graph%s", cu_snip(ctx, ev->node), free_ ? "frees" : "allocates",
                  free_ ? " (replays may still use the freed memory)" : "");
        return;
    }
    cu_report(ctx, ev, ev->node, CG_R_CG501, -1, NULL,
              "`%s` %s memory during %s: cudaErrorStreamCaptureUnsupported, and the capture "
              "is invalidated", cu_snip(ctx, ev->node), free_ ? "frees" : "allocates", mode_phrase(ev));
}

/* CG502: cudaMallocAsync in a graph with no cudaFreeAsync in it */
static void check_async_alloc(const cu_ctx *ctx, const cu_event *ev)
{
    if (ev->unended || !ev->other) return;
    if (ev->region->graph_autofree) return;
    for (int i = 0; i < ev->nallocs; i++) {
        const cu_alloc *a = &ev->allocs[i];
        cu_report_place(ctx, ev, &a->where, CG_R_CG502, -1, NULL,
                        "`%s` allocates inside the graph, which frees nothing before the capture ends at %s: "
                        "the second launch of the graph fails with cudaErrorInvalidValue", cu_snip(ctx, a->where.at),
                        cu_loc_str(ctx, &ev->other->loc));
    }
}

/* ---- 7 setup -------------------------------------------------------------------------------- */

/* CG705: the capture is redone on every iteration of a loop that also
 * launches the graph, and does not refresh an executable graph with
 * cudaGraphExecUpdate (capturing each iteration and updating in place is the
 * documented way to change a graph's parameters).  A loop that captures and
 * hands the graph elsewhere (one graph per size at start-up, a capture-cost
 * benchmark) is not the hazard. */
static void check_loop_capture(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->loop || !ev->loop_launches || ev->loop_updates) return;
    cu_report(ctx, ev, ev->node, CG_R_CG705, -1, NULL,
              "`%s` begins a new capture on every iteration of the loop around it: the graph is captured "
              "and instantiated each time, which costs more than running the work eagerly",
              cu_snip(ctx, ev->node));
}

/* CG707: a capture not ended on every path, or ended on another stream */
static void check_return_open(const cu_ctx *ctx, const cu_event *ev)
{
    /* a return outside any condition below the begin is the function's end;
     * one a macro expands to is an error check's */
    if (ev->cond_depth <= 0 || (ev->node->flags & CU_F_MACRO)) return;
    cu_report(ctx, ev, ev->node, CG_R_CG707, -1, NULL,
              "this return leaves the capture begun at %s open: the stream stays in capture mode, and its "
              "next use fails (cudaErrorStreamCaptureUnmatched / Invalidated)", capture_where(ctx, ev));
}

static void check_capture_end(const cu_ctx *ctx, const cu_event *ev)
{
    if (ev->unended) {
        cu_report(ctx, ev, ev->region->site_node, CG_R_CG707, -1, NULL,
                  "the capture begun here is not ended on every path through the function: the stream is "
                  "left capturing");
        return;
    }
    const cu_val *a = &ev->region->stream, *b = &ev->other_stream;
    if (a->kind != CU_V_STREAM || b->kind != CU_V_STREAM) return;
    if ((a->flags | b->flags) & CU_VF_MAYALIAS) return;
    if (a->skind == b->skind && (a->skind != CU_SK_VAR || cg_eq(a->id, b->id))) return;
    cu_report(ctx, ev, ev->other, CG_R_CG707, -1, NULL,
              "`%s` ends a capture on another stream than the one that began it at %s: "
              "cudaErrorStreamCaptureUnmatched, and the original stream stays capturing",
              cu_snip(ctx, ev->other), capture_where(ctx, ev));
}

/* CG708: another thread doing CUDA work while a global-mode capture is open */
static void check_thread(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->region || ev->region->mode != 0) return;   /* thread-local and relaxed isolate it */
    const char *work = ev->work ? cu_snip(ctx, ev->work) : "CUDA work";
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
static void check_block_size(const cu_ctx *ctx, const cu_event *ev)
{
    const cu_val *b = &ev->block;
    if (b->kind != CU_V_DIM3 || !ev->block_node) return;
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
static void check_dynamic_smem(const cu_ctx *ctx, const cu_event *ev)
{
    if (!ev->smem_node || ev->smem.kind != CU_V_INT || !(ev->smem.known & 1)) return;
    if (ev->smem.x <= 48 * 1024) return;
    if (ev->smem_raised) return;
    const cu_node *late = ev->smem_raised_late;
    if (late) {
        cg_loc l = cu_node_loc(ctx, late);
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
static void check_zero_config(const cu_ctx *ctx, const cu_event *ev)
{
    const cu_val *v[2] = { &ev->grid, &ev->block };
    const cu_node *n[2] = { ev->grid_node, ev->block_node };
    for (int k = 0; k < 2; k++) {
        if (v[k]->kind != CU_V_DIM3 || !n[k]) continue;
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
    { CG_R_CG301, CU_EV_CALL, check_host_io },
    { CG_R_CG302, CU_EV_CALL, check_host_random },
    { CG_R_CG302, CU_EV_LAUNCH, check_host_random },
    { CG_R_CG302, CU_EV_STORE, check_host_random },
    { CG_R_CG303, CU_EV_STORE, check_bookkeeping_store },
    { CG_R_CG303, CU_EV_CALL, check_bookkeeping_call },
    { CG_R_CG306, CU_EV_REGION_END, check_kept_values },   /* and CG204 */
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

void cu_dispatch(const cu_ctx *ctx, const cu_event *ev)
{
    for (size_t i = 0; i < cu_check_count; i++)
        if (cu_checks[i].on == ev->kind) cu_checks[i].fn(ctx, ev);
}
