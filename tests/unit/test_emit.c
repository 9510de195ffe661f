/* test_emit.c - the emitters against golden files, plus properties checked
 * in code that a golden file cannot state (no escape bytes without colour,
 * the JSON layout the schema promises, SARIF's rule table and fingerprints).
 *
 * One hand-built report exercises every branch of the formats: a hazard
 * directly inside a capture, one reached through a two-step call path, a
 * finding with no capture, a source line with a tab and non-ASCII text before
 * the span, a multi-line span, a path with a space, a path outside the root,
 * two findings on identical lines (fingerprint occurrences) and notices.
 *
 * The rules are a small made-up catalog defined below, not the real one from
 * rules/CG*.md: editing a rule page never changes these goldens.
 *
 * When a format changes on purpose, rewrite the golden files with
 *   CGLINT_UPDATE_GOLDEN=1 ctest -R unit.emit     (or run test_emit)
 * and review the diff. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include "emit/emit.h"

#ifndef CGLINT_GOLDEN_DIR
#error "CGLINT_GOLDEN_DIR must name tests/golden"
#endif

#define ROOT "/work/project"
#define VERSION "0.0.0-test"

/* ---- the catalog: made-up rules ------------------------------------------------
 * The emitters read the catalog through cg_rules and cg_rule_count (SARIF's
 * rule table, the help: line, names and categories).  This file defines both,
 * so the linker never takes the generated rules_table.o (which defines nothing
 * else) out of libcglint_core.a: the tests see only these rules, whose ids
 * (CGx9x) and names (fake-...) no real rule has.  Their fields exercise what
 * the formats escape: quotes, backslashes, non-ASCII text, code spans and
 * fences, a rule with no runtime signal, every severity. */
#define FAKE_DOC(title, body) "# " title "\n\n" body

const cg_rule cg_rules[] = {
    {.id = "CG191", .name = "fake-host-read", .category = 1, .category_name = "sync",
     .severity = CG_SEV_ERROR, .languages = "py", .status = "stable", .since = "0.1.0",
     .runtime = "an exception at the line", .runtime_signals = CG_SIG_ERROR,
     .summary = "A made-up rule: reading a tensor's value on the host during capture.",
     .description = "Made up for the emitter tests: a \"quoted\" word, a back\\slash and `code`.",
     .fix = "Keep the value on the GPU.", .fix_cu = NULL, .compiled_as = -1,
     .doc = FAKE_DOC("CG191: fake-host-read",
                     "## What it does\n\nFlags `x.item()` (made up).\n\n## Example\n\n```python\n"
                     "with torch.cuda.graph(g):\n    n = loss.item()  # CG191\n```\n")},
    {.id = "CG194", .name = "fake-synchronize", .category = 1, .category_name = "sync",
     .severity = CG_SEV_ERROR, .languages = "py cu", .status = "stable", .since = "0.1.0",
     .runtime = "a failing call", .runtime_signals = CG_SIG_ERROR | CG_SIG_DYNOP,
     .summary = "A made-up rule: waiting for the device during capture.",
     .description = "Made up for the emitter tests.",
     .fix = "Remove the wait.", .fix_cu = "Remove the cudaStreamSynchronize call.", .compiled_as = -1,
     .doc = FAKE_DOC("CG194: fake-synchronize", "## What it does\n\nFlags waits (made up).\n")},
    {.id = "CG197", .name = "fake-format", .category = 1, .category_name = "sync",
     .severity = CG_SEV_WARNING, .languages = "py", .status = "preview", .since = "0.1.0",
     .runtime = "a failing call", .runtime_signals = CG_SIG_ERROR,
     .summary = "A made-up rule: formatting a tensor \342\200\224 with non-ASCII text.",
     .description = "", .fix = "Format after the replay.", .fix_cu = NULL, .compiled_as = -1,
     .doc = FAKE_DOC("CG197: fake-format", "## What it does\n\nFlags `print(t)` (made up).\n")},
    {.id = "CG198", .name = "fake-fixable", .category = 1, .category_name = "sync",
     .severity = CG_SEV_ERROR, .languages = "py", .status = "stable", .since = "0.1.0",
     .runtime = "a failing call", .runtime_signals = CG_SIG_ERROR,
     .summary = "A made-up rule whose findings carry edits.",
     .description = "Made up for the emitter tests.", .fix = "Pass the other argument.", .fix_cu = NULL,
     .compiled_as = -1, .doc = FAKE_DOC("CG198: fake-fixable", "## What it does\n\nMade up.\n")},
    {.id = "CG391", .name = "fake-host-io", .category = 3, .category_name = "cpu",
     .severity = CG_SEV_WARNING, .languages = "py cu", .status = "stable", .since = "0.1.0",
     .runtime = "the line ran at capture, not at replay", .runtime_signals = CG_SIG_LINES,
     .summary = "A made-up rule: host I/O that runs once at capture.",
     .description = "Made up for the emitter tests.", .fix = "Do the I/O after the replay.", .fix_cu = NULL,
     .compiled_as = -1, .doc = FAKE_DOC("CG391: fake-host-io", "## What it does\n\nMade up.\n")},
    {.id = "CG394", .name = "fake-frozen-scalar", .category = 3, .category_name = "cpu",
     .severity = CG_SEV_WARNING, .languages = "py", .status = "stable", .since = "0.1.0",
     .runtime = "a value that changed", .runtime_signals = CG_SIG_SCALAR,
     .summary = "A made-up rule: a Python number baked into the graph.",
     .description = "Made up for the emitter tests.", .fix = "Keep the number in a tensor.", .fix_cu = NULL,
     .compiled_as = -1, .doc = FAKE_DOC("CG394: fake-frozen-scalar", "## What it does\n\nMade up.\n")},
    {.id = "CG493", .name = "fake-other-stream", .category = 4, .category_name = "stream",
     .severity = CG_SEV_WARNING, .languages = "py", .status = "stable", .since = "0.1.0",
     .runtime = "eager work", .runtime_signals = CG_SIG_EAGER,
     .summary = "A made-up rule: work on a stream outside the capture.",
     .description = "Made up for the emitter tests.", .fix = "Fork the stream from the capturing one.",
     .fix_cu = NULL, .compiled_as = -1,
     .doc = FAKE_DOC("CG493: fake-other-stream", "## What it does\n\nMade up.\n")},
    {.id = "CG595", .name = "fake-output-kept", .category = 5, .category_name = "memory",
     .severity = CG_SEV_NOTE, .languages = "py", .status = "stable", .since = "0.1.0",
     .runtime = NULL, .runtime_signals = 0,
     .summary = "A made-up rule with no runtime signal.",
     .description = "Made up for the emitter tests.", .fix = "Clone the output.", .fix_cu = NULL,
     .compiled_as = -1, .doc = FAKE_DOC("CG595: fake-output-kept", "## What it does\n\nMade up.\n")},
};
const size_t cg_rule_count = sizeof cg_rules / sizeof cg_rules[0];
/* core's rule sets are sized by the real catalog's CG_RULE_COUNT */
_Static_assert(sizeof cg_rules / sizeof cg_rules[0] <= CG_RULE_COUNT, "the made-up catalog is too large");

/* ---- building reports ----------------------------------------------------- */

static int rule(const char *id)
{
    int i = cg_rule_index(id);
    if (i < 0) fail_msg("rule %s is not in the catalog", id);
    return i;
}

typedef struct {
    const char *rule;
    cg_severity level;
    cg_loc loc;
    const char *message, *fix, *line_text;
    const cg_loc *capture;
    const char *kind;
    const cg_step *path;
    size_t npath;
} spec;

static void add(cg_report *r, const spec *s)
{
    cg_finding f = {0};
    f.rule = rule(s->rule);
    f.level = s->level;
    f.loc = s->loc;
    f.message = (char *)s->message;
    f.fix = (char *)s->fix;
    f.line_text = (char *)s->line_text;
    if (s->capture) {
        f.has_capture = 1;
        f.capture = *s->capture;
        f.capture_kind = (char *)s->kind;
    }
    f.path = (cg_step *)s->path;
    f.npath = s->npath;
    cg_report_add(r, &f);
}

static void build_report(cg_report *r)
{
    cg_report_init(r, NULL);
    r->root = strdup(ROOT);
    r->files_seen = 5;
    r->files_analysed = 4;

    static const cg_loc cap = {"examples/train.py", 30, 5, 30, 37};
    static const cg_step steps[] = {
        {"Model.forward", {"examples/train.py", 31, 13, 31, 21}},
        {"Block.forward", {"examples/model.py", 12, 16, 12, 29}},
    };
    /* Added out of order: the emitters see the sorted report. */
    add(r, &(spec){"CG191", CG_SEV_ERROR, {"examples/train.py", 42, 13, 42, 24},
                   "`loss.item()` reads a CUDA tensor on the host during capture", NULL,
                   "        n = loss.item()", &cap, "torch.cuda.graph", steps, 2});
    add(r, &(spec){"CG194", CG_SEV_ERROR, {"examples/train.py", 32, 9, 32, 33},
                   "`torch.cuda.synchronize()` waits for the device during capture",
                   "Remove the call; order the work with `wait_stream`.",
                   "        torch.cuda.synchronize()", &cap, "torch.cuda.graph", NULL, 0});
    /* The same text as line 42 but indented differently: the fingerprint
     * ignores whitespace, so this is occurrence 2 of one hash. */
    add(r, &(spec){"CG191", CG_SEV_ERROR, {"examples/train.py", 50, 5, 50, 16},
                   "`loss.item()` reads a CUDA tensor on the host during capture", NULL,
                   "    n = loss.item()", &cap, "torch.cuda.graph", NULL, 0});
    /* No capture: a setup-style finding. */
    add(r, &(spec){"CG391", CG_SEV_WARNING, {"examples/util.py", 7, 5, 7, 16},
                   "`print(loss)` runs once at capture and never on replay", NULL,
                   "    print(loss)", NULL, NULL, NULL, 0});
    /* A tab and non-ASCII text before the span: columns are code points. */
    static const cg_loc cap2 = {"examples/ünï.py", 3, 1, 3, 30};
    add(r, &(spec){"CG191", CG_SEV_ERROR, {"examples/ünï.py", 5, 19, 5, 27},
                   "`x.item()` reads a CUDA tensor on the host during capture", NULL,
                   "\tπ = \"héllo\"; v = x.item()  # ünï", &cap2, "capture_begin", NULL, 0});
    /* A path with a space and a span over three lines, at a level that is
     * not the rule's default (as a configuration may set). */
    static const cg_loc cap3 = {"my models/net.py", 8, 5, 8, 40};
    static const cg_step steps3[] = {{"Net.step", {"my models/net.py", 9, 9, 9, 20}}};
    add(r, &(spec){"CG197", CG_SEV_NOTE, {"my models/net.py", 10, 9, 12, 10},
                   "`print(t)` formats a CUDA tensor during capture", NULL,
                   "        print(", &cap3, "make_graphed_callables", steps3, 1});
    /* Outside the root: an absolute path that SARIF cannot make relative. */
    add(r, &(spec){"CG191", CG_SEV_ERROR, {"/opt/libs/torchx/step.py", 3, 12, 3, 20},
                   "`t.item()` reads a CUDA tensor on the host during capture", NULL,
                   "    return t.item()", &cap, "torch.cuda.graph", steps, 1});
    /* Inside the root, spelled absolutely: SARIF makes it relative. */
    add(r, &(spec){"CG194", CG_SEV_ERROR, {ROOT "/examples/abs.py", 4, 5, 4, 29},
                   "`torch.cuda.synchronize()` waits for the device during capture", NULL,
                   "    torch.cuda.synchronize()", &cap, "torch.cuda.graph", NULL, 0});

    /* A mechanical fix: one replacement (safe), and an insertion that is
     * not (SARIF fixes, the text help line's "fixable" and the summary). */
    {
        cg_edit e = {58, 62, 6, 59, 6, 63, "False", "True", 0};
        cg_finding f = {0};
        f.rule = rule("CG198");
        f.level = CG_SEV_ERROR;
        f.loc = (cg_loc){"examples/train.py", 6, 5, 6, 64};
        f.message = "`clip_grad_norm_(..., error_if_nonfinite=True)` checks the norm on the host";
        f.line_text = "    torch.nn.utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)";
        f.has_capture = 1;
        f.capture = cap;
        f.capture_kind = "torch.cuda.graph";
        f.edits = &e;
        f.nedits = 1;
        f.fix_safe = 1;
        f.fix_title = "Pass `error_if_nonfinite=False`.";
        cg_report_add(r, &f);
        cg_edit ins = {40, 40, 7, 17, 7, 17, ", capturable=True", "", 0};
        f.loc = (cg_loc){"examples/train.py", 7, 5, 7, 18};
        f.message = "a made-up unsafe insertion, for the formats";
        f.line_text = "    opt.step(x)";
        f.edits = &ins;
        f.fix_safe = 0;
        f.fix_title = "Pass `capturable=True`.";
        cg_report_add(r, &f);
    }

    cg_report_notice(r, CG_ERROR, "examples/broken.py", 3, 1, "cannot parse: unexpected indent");
    cg_report_notice(r, CG_WARN, NULL, 0, 0, "--jobs 0 means 100%% of the CPUs: using 16 threads");
    cg_report_sort(r);
}

/* A `cglint run` report: every verdict, a finding found at run time, two
 * regions (one with unknown node count and replay time) and the program's
 * status. */
static void build_run_report(cg_report *r)
{
    cg_report_init(r, NULL);
    r->root = strdup(ROOT);
    r->files_seen = r->files_analysed = 2;
    static const cg_loc cap = {"train.py", 30, 5, 30, 37};
    static const cg_step steps[] = {{"Model.forward", {"train.py", 31, 13, 31, 21}}};
    static const struct { const char *rule; cg_severity sev; cg_loc loc; const char *msg, *text;
                          const cg_step *path; size_t npath; cg_verdict v; const char *ev; } rows[] = {
        {"CG191", CG_SEV_ERROR, {"model.py", 12, 16, 12, 27}, "`x.item()` reads a CUDA tensor on the host during capture",
         "        s = x.item()", steps, 1, CG_VERDICT_CONFIRMED,
         "cudaStreamSynchronize -> cudaErrorStreamCaptureUnsupported, at model.py:12"},
        {"CG391", CG_SEV_WARNING, {"train.py", 33, 9, 33, 27}, "`print(...)` runs once at capture and never on replay",
         "        print(\"step\")", NULL, 0, CG_VERDICT_CONFIRMED,
         "ran 1 time at capture, 0 times in 40 replays (a replay runs no Python)"},
        {"CG194", CG_SEV_ERROR, {"train.py", 35, 9, 35, 33}, "`torch.cuda.synchronize()` waits for the device during capture",
         "        torch.cuda.synchronize()", NULL, 0, CG_VERDICT_NOT_REPRODUCED,
         "its line ran 1 time inside a capture and the run saw nothing wrong"},
        {"CG394", CG_SEV_WARNING, {"train.py", 50, 9, 50, 16}, "`self.lr` is baked into the graph",
         "        y = x * self.lr", NULL, 0, CG_VERDICT_NOT_EXERCISED, "its line never ran inside a capture"},
        {"CG595", CG_SEV_WARNING, {"train.py", 60, 5, 60, 20}, "graph output kept across replays",
         "    outs.append(out)", NULL, 0, CG_VERDICT_STATIC_ONLY, "the rule has no runtime signal"},
        {"CG493", CG_SEV_WARNING, {"train.py", 37, 9, 37, 20}, "seen at run time: aten.mul.Tensor ran eagerly",
         "        y = x * 2", NULL, 0, CG_VERDICT_RUNTIME,
         "aten.mul.Tensor ran on a stream that was not capturing: ran eagerly, not captured, at train.py:37; "
         "no static finding predicted it"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        cg_finding f = {0};
        f.rule = rule(rows[i].rule);
        f.level = rows[i].sev;
        f.loc = rows[i].loc;
        f.message = (char *)rows[i].msg;
        f.line_text = (char *)rows[i].text;
        f.has_capture = 1;
        f.capture = cap;
        f.capture_kind = (char *)"torch.cuda.graph";
        f.path = (cg_step *)rows[i].path;
        f.npath = rows[i].npath;
        f.verdict = rows[i].v;
        f.evidence = (char *)rows[i].ev;
        cg_report_add(r, &f);
    }
    cg_report_notice(r, CG_WARN, NULL, 0, 0, "the program exited with status 1; the verdicts cover what it did until then");
    cg_run_info *ri = calloc(1, sizeof *ri);
    static const char *const argv[] = {"python", "train.py", "--steps", "40"};
    ri->argc = 4;
    ri->argv = calloc(4, sizeof *ri->argv);
    for (size_t i = 0; i < 4; i++) ri->argv[i] = strdup(argv[i]);
    ri->exit_code = 1;
    ri->processes = 2;
    ri->gpu = strdup("NVIDIA H100 80GB HBM3");
    ri->driver = strdup("580.159.04");
    ri->cuda = strdup("13.0");
    ri->torch = strdup("2.11.0+cu130");
    ri->nregions = 2;
    ri->regions = calloc(2, sizeof *ri->regions);
    ri->regions[0] = (cg_region_stat){{strdup("train.py"), 30, 5, 30, 5}, strdup("torch.cuda.graph"), 1, 0, 40, 12, 0.0213,
                                      0.0931, 7, strdup("Model.forward"), NULL, 0};
    ri->regions[1] = (cg_region_stat){{strdup("serve.py"), 8, 1, 8, 1}, strdup("make_graphed_callables"), 2, 1, 0, -1, -1,
                                      -1, 0, NULL, NULL, 0};
    ri->regions[0].ranks = calloc(2, sizeof *ri->regions[0].ranks);   /* torchrun ranks */
    ri->regions[0].ranks[0] = (struct cg_rank_stat){0, 1, 0, 40};
    ri->regions[0].ranks[1] = (struct cg_rank_stat){1, 0, 0, 0};
    ri->regions[0].nranks = 2;
    ri->captures = 3;
    r->run = ri;
    cg_report_sort(r);
}

/* ---- running emitters ------------------------------------------------------ */

typedef struct {
    cg_report report;
    cg_report empty;
    cg_report run;
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx) return -1;
    build_report(&fx->report);
    build_run_report(&fx->run);
    cg_report_init(&fx->empty, NULL);
    fx->empty.root = strdup(ROOT);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    cg_report_free(&fx->report);
    cg_report_free(&fx->empty);
    cg_report_free(&fx->run);
    free(fx);
    return 0;
}

/* Emits into memory; the caller frees the text. */
static char *emit(cg_format fmt, const cg_report *r, int color, int statistics, int quiet)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    cg_emit_opts o = {color, statistics, quiet, VERSION};
    assert_int_equal(cg_emit(f, fmt, r, &o), 0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!buf) buf = calloc(1, 1);
    else buf[len] = '\0';
    return buf;
}

/* Compare with tests/golden/NAME byte for byte, or rewrite it when
 * CGLINT_UPDATE_GOLDEN=1.  On a mismatch, name the first differing line. */
static void check_golden(const char *name, const char *got)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", CGLINT_GOLDEN_DIR, name);
    const char *update = getenv("CGLINT_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(got, f);
        assert_int_equal(fclose(f), 0);
        return;
    }
    char *want = read_file(path);
    if (!want) fail_msg("missing golden file %s: run with CGLINT_UPDATE_GOLDEN=1", path);
    if (strcmp(want, got) != 0) {
        size_t line = 1, i = 0;
        for (; want[i] && want[i] == got[i]; i++) line += want[i] == '\n';
        size_t ws = i, gs = i;
        while (ws > 0 && want[ws - 1] != '\n') ws--;
        gs = ws;
        int wl = (int)strcspn(want + ws, "\n"), gl = (int)strcspn(got + gs, "\n");
        print_error("%s differs at line %zu:\n  want: %.*s\n  got:  %.*s\n"
                    "(if the change is intended: CGLINT_UPDATE_GOLDEN=1 test_emit)\n",
                    name, line, wl, want + ws, gl, got + gs);
        free(want);
        fail();
    }
    free(want);
}

/* ---- text ----------------------------------------------------------------- */

static void test_text_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_TEXT, &fx->report, 0, 0, 0);
    check_golden("report.txt", s);
    assert_null(strchr(s, '\x1b'));
    /* The caret line keeps the tab and puts one space per code point. */
    assert_non_null(strstr(s, "\n  | \t                 ^^^^^^^^\n"));
    assert_non_null(strstr(s, "\nFound 10 findings (8 errors, 1 warning, 1 note) in 6 files. 1 fixable with --fix (1 more with --unsafe-fixes). 1 input could not be analysed (see the messages above).\n"));
    free(s);
}

static void test_text_color_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_TEXT, &fx->report, 1, 0, 0);
    check_golden("report-color.txt", s);
    assert_non_null(strstr(s, "\x1b[1;31merror\x1b[0m"));
    assert_non_null(strstr(s, "\x1b[1;33mwarning\x1b[0m"));
    assert_non_null(strstr(s, "\x1b[1;36mnote\x1b[0m"));
    assert_non_null(strstr(s, "\x1b[1m[CG191]\x1b[0m"));
    free(s);
}

static void test_text_statistics_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_TEXT, &fx->report, 0, 1, 0);
    check_golden("report-stats.txt", s);
    /* Count descending, then id: CG191 x4, CG194 x2, then CG197 before CG391. */
    const char *a = strstr(s, "CG191"), *b = strstr(s, "CG194");
    const char *c = strstr(s, "CG197"), *d = strstr(s, "CG391");
    assert_true(a && b && c && d && a < b && b < c && c < d);
    assert_non_null(strstr(s, "    4  CG191  "));
    free(s);
}

static void test_text_quiet_and_empty(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_TEXT, &fx->empty, 0, 0, 0);
    check_golden("empty.txt", s);
    assert_string_equal(s, "No findings.\n");
    free(s);
    s = emit(CG_FMT_TEXT, &fx->empty, 0, 0, 1);
    assert_string_equal(s, "");
    free(s);
    s = emit(CG_FMT_TEXT, &fx->report, 0, 0, 1);
    assert_null(strstr(s, "Found "));
    free(s);
}

static void test_text_singulars(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init(&r, NULL);
    add(&r, &(spec){"CG191", CG_SEV_ERROR, {"a.py", 1, 1, 1, 2}, "m", NULL, "x", NULL, NULL, NULL, 0});
    char *s = emit(CG_FMT_TEXT, &r, 0, 0, 0);
    assert_non_null(strstr(s, "\n\nFound 1 finding (1 error) in 1 file.\n"));
    /* A one-character span and a gutter of one digit. */
    assert_non_null(strstr(s, "a.py:1:1: error: m [CG191]\n  |\n1 | x\n  | ^\n"));
    free(s);
    cg_report_free(&r);
}

/* ---- json ----------------------------------------------------------------- */

/* Every key of `obj`, in order, with its type; "?" in a type allows null. */
static void check_keys(json_t *obj, const char *const *keys, const char *types)
{
    assert_true(json_is_object(obj));
    assert_int_equal(json_object_size(obj), strlen(types));
    void *it = json_object_iter(obj);
    for (size_t i = 0; keys[i]; i++, it = json_object_iter_next(obj, it)) {
        assert_non_null(it);
        assert_string_equal(json_object_iter_key(it), keys[i]);
        json_t *v = json_object_iter_value(it);
        int ok;
        switch (types[i]) {
        case 's': ok = json_is_string(v); break;
        case 'i': ok = json_is_integer(v) && json_integer_value(v) >= 0; break;
        case 'o': ok = json_is_object(v); break;
        case 'a': ok = json_is_array(v); break;
        case 'S': ok = json_is_string(v) || json_is_null(v); break;
        case 'O': ok = json_is_object(v) || json_is_null(v); break;
        default: ok = 0;
        }
        if (!ok) fail_msg("key %s has the wrong type", keys[i]);
    }
}

static void test_json_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_JSON, &fx->report, 0, 0, 0);
    check_golden("report.json", s);

    json_error_t err;
    json_t *doc = json_loads(s, 0, &err);
    if (!doc) fail_msg("JSON does not parse: %s at line %d", err.text, err.line);
    static const char *const top[] = {"schema_version", "tool", "root", "findings", "errors", "summary", "run", NULL};
    check_keys(doc, top, "ioSaaoO");
    assert_true(json_is_null(json_object_get(doc, "run")));
    assert_int_equal(json_integer_value(json_object_get(doc, "schema_version")), 1);
    static const char *const tool[] = {"name", "version", NULL};
    check_keys(json_object_get(doc, "tool"), tool, "ss");
    assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "tool"), "version")), VERSION);

    static const char *const finding[] = {"rule", "name", "category", "severity", "path", "line",
                                          "column", "end_line", "end_column", "message", "fix",
                                          "capture", "call_path", "autofix", "verdict", "evidence", NULL};
    static const char *const capture[] = {"path", "line", "column", "kind", NULL};
    static const char *const step[] = {"function", "path", "line", "column", NULL};
    json_t *findings = json_object_get(doc, "findings");
    assert_int_equal(json_array_size(findings), fx->report.nfindings);
    size_t i, k, with_capture = 0, steps = 0;
    json_t *f, *st;
    json_array_foreach(findings, i, f) {
        check_keys(f, finding, "sssssiiiissOaOSS");
        assert_true(json_is_null(json_object_get(f, "verdict")));
        json_t *c = json_object_get(f, "capture");
        if (json_is_object(c)) { check_keys(c, capture, "siiS"); with_capture++; }
        json_array_foreach(json_object_get(f, "call_path"), k, st) { check_keys(st, step, "ssii"); steps++; }
        /* fix falls back to the rule's */
        assert_true(json_string_length(json_object_get(f, "fix")) > 0);
    }
    assert_int_equal(with_capture, 9);
    assert_int_equal(steps, 4);

    static const char *const notice[] = {"level", "path", "line", "column", "message", NULL};
    json_t *errors = json_object_get(doc, "errors"), *n;
    assert_int_equal(json_array_size(errors), 2);
    json_array_foreach(errors, i, n) check_keys(n, notice, "sSiis");

    static const char *const summary[] = {"findings", "errors", "files_analysed", NULL};
    json_t *sum = json_object_get(doc, "summary");
    check_keys(sum, summary, "iii");
    assert_int_equal(json_integer_value(json_object_get(sum, "findings")), 10);
    assert_int_equal(json_integer_value(json_object_get(sum, "errors")), 1);
    assert_int_equal(json_integer_value(json_object_get(sum, "files_analysed")), 4);
    json_decref(doc);
    free(s);
}

static void test_json_empty(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_JSON, &fx->empty, 0, 0, 0);
    json_t *doc = json_loads(s, 0, NULL);
    assert_non_null(doc);
    assert_int_equal(json_array_size(json_object_get(doc, "findings")), 0);
    assert_int_equal(json_array_size(json_object_get(doc, "errors")), 0);
    json_decref(doc);
    free(s);
}

/* ---- sarif ---------------------------------------------------------------- */

static json_t *path_get(json_t *v, const char *path)
{
    /* "runs.0.results.3.ruleId": objects by key, arrays by index. */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok(buf, "."); tok && v; tok = strtok(NULL, "."))
        v = json_is_array(v) ? json_array_get(v, strtoul(tok, NULL, 10)) : json_object_get(v, tok);
    return v;
}

static const char *path_str(json_t *v, const char *path)
{
    const char *s = json_string_value(path_get(v, path));
    if (!s) fail_msg("no string at %s", path);
    return s;
}

static void test_sarif_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_SARIF, &fx->report, 0, 0, 0);
    check_golden("report.sarif", s);

    json_t *doc = json_loads(s, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(path_str(doc, "version"), "2.1.0");
    json_t *run = path_get(doc, "runs.0");
    json_t *rules = path_get(run, "tool.driver.rules");
    assert_int_equal(json_array_size(rules), cg_rule_count);
    for (size_t i = 0; i < cg_rule_count; i++) {
        json_t *r = json_array_get(rules, i);
        assert_string_equal(json_string_value(json_object_get(r, "id")), cg_rules[i].id);
        assert_non_null(path_get(r, "help.text"));
        assert_non_null(json_object_get(r, "helpUri"));
    }
    assert_string_equal(path_str(run, "originalUriBaseIds.%SRCROOT%.uri"), "file:///work/project/");
    assert_string_equal(path_str(run, "columnKind"), "unicodeCodePoints");
    assert_true(json_is_false(path_get(run, "invocations.0.executionSuccessful")));
    assert_int_equal(json_array_size(path_get(run, "invocations.0.toolExecutionNotifications")), 2);

    json_t *results = json_object_get(run, "results"), *res;
    assert_int_equal(json_array_size(results), fx->report.nfindings);
    /* a finding's edit is a SARIF fix: a replacement of its region */
    size_t nfixes = 0, j;
    json_array_foreach(results, j, res) {
        json_t *fixes = json_object_get(res, "fixes");
        if (!fixes) continue;
        nfixes++;
        json_t *rep = path_get(fixes, "0.artifactChanges.0.replacements.0");
        assert_non_null(path_get(rep, "deletedRegion.startLine"));
        assert_non_null(path_get(rep, "insertedContent.text"));
        assert_non_null(path_get(fixes, "0.description.text"));
    }
    assert_int_equal(nfixes, 2);
    size_t i;
    const char *hash42 = NULL, *hash50 = NULL;
    json_array_foreach(results, i, res) {
        const cg_finding *f = &fx->report.findings[i];
        size_t idx = (size_t)json_integer_value(json_object_get(res, "ruleIndex"));
        assert_string_equal(path_str(res, "ruleId"), cg_rules[idx].id);
        assert_int_equal(idx, f->rule);
        const char *uri = path_str(res, "locations.0.physicalLocation.artifactLocation.uri");
        json_t *base = path_get(res, "locations.0.physicalLocation.artifactLocation.uriBaseId");
        if (strcmp(f->loc.path, "my models/net.py") == 0) assert_string_equal(uri, "my%20models/net.py");
        if (strcmp(f->loc.path, ROOT "/examples/abs.py") == 0) {
            assert_string_equal(uri, "examples/abs.py");
            assert_non_null(base);
        }
        if (f->loc.path[0] == '/' && strncmp(f->loc.path, ROOT "/", strlen(ROOT) + 1) != 0) {
            assert_string_equal(uri, "file:///opt/libs/torchx/step.py");
            assert_null(base);
        }
        const char *msg = path_str(res, "message.text");
        assert_int_equal(msg[strlen(msg) - 1], '.');
        const char *fp = path_str(res, "partialFingerprints.primaryLocationLineHash");
        if (strcmp(f->loc.path, "examples/train.py") == 0 && f->loc.line == 42) hash42 = fp;
        if (strcmp(f->loc.path, "examples/train.py") == 0 && f->loc.line == 50) hash50 = fp;
        size_t nflow = json_array_size(path_get(res, "codeFlows.0.threadFlows.0.locations"));
        if (f->has_capture) {
            assert_int_equal(nflow, f->npath + 2);
            assert_int_equal(json_integer_value(path_get(res, "relatedLocations.0.id")), 1);
        } else {
            assert_null(json_object_get(res, "codeFlows"));
            assert_null(json_object_get(res, "relatedLocations"));
        }
    }
    /* One hash for both lines (whitespace ignored), numbered 1 then 2. */
    assert_non_null(hash42);
    assert_non_null(hash50);
    assert_int_equal(strlen(hash42), 18);
    assert_memory_equal(hash42, hash50, 17);
    assert_string_equal(hash42 + 16, ":1");
    assert_string_equal(hash50 + 16, ":2");
    json_decref(doc);
    free(s);
}

static void test_sarif_empty(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_SARIF, &fx->empty, 0, 0, 0);
    json_t *doc = json_loads(s, 0, NULL);
    assert_non_null(doc);
    assert_int_equal(json_array_size(path_get(doc, "runs.0.results")), 0);
    assert_int_equal(json_array_size(path_get(doc, "runs.0.tool.driver.rules")), cg_rule_count);
    assert_true(json_is_true(path_get(doc, "runs.0.invocations.0.executionSuccessful")));
    json_decref(doc);
    free(s);
}

/* ---- github --------------------------------------------------------------- */

static void test_github_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_GITHUB, &fx->report, 0, 0, 0);
    check_golden("report-github.txt", s);
    /* A span over several lines: lines only, no columns. */
    assert_non_null(strstr(s, "::notice file=my models/net.py,line=10,endLine=12,title="));
    assert_non_null(strstr(s, "::warning::--jobs 0 means 100%25 of the CPUs: using 16 threads\n"));
    free(s);
}

static void test_github_escaping(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init(&r, NULL);
    add(&r, &(spec){"CG391", CG_SEV_WARNING, {"a,b:c%.py", 2, 3, 2, 8},
                    "50% done,\r\nthen: more", NULL, "x", NULL, NULL, NULL, 0});
    char *s = emit(CG_FMT_GITHUB, &r, 0, 0, 0);
    char want[256];
    snprintf(want, sizeof want,
             "::warning file=a%%2Cb%%3Ac%%25.py,line=2,col=3,endLine=2,endColumn=8,"
             "title=CG391 (%s)::50%%25 done,%%0D%%0Athen: more\n",
             cg_rules[rule("CG391")].name);
    assert_string_equal(s, want);
    free(s);
    cg_report_free(&r);
}

/* ---- concise, json-lines, junit, gitlab (issue 15 item 6) -------------------- */

static void test_concise_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_CONCISE, &fx->report, 0, 0, 0);
    check_golden("report-concise.txt", s);
    /* one line a finding, then the summary */
    size_t lines = 0;
    for (const char *p = s; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, fx->report.nfindings + 1);
    assert_null(strstr(s, "\n  |"));
    free(s);
}

static void test_json_lines_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_JSON_LINES, &fx->report, 0, 0, 0);
    check_golden("report.jsonl", s);
    size_t lines = 0;
    for (char *line = s, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        assert_non_null(nl);
        json_error_t e;
        json_t *o = json_loadb(line, (size_t)(nl - line), 0, &e);
        assert_non_null(o);
        assert_non_null(json_object_get(o, "rule"));
        json_decref(o);
        lines++;
    }
    assert_int_equal(lines, fx->report.nfindings);
    free(s);
}

static void test_junit_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_JUNIT, &fx->report, 0, 0, 0);
    check_golden("report.junit.xml", s);
    free(s);
}

static void test_gitlab_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_GITLAB, &fx->report, 0, 0, 0);
    check_golden("report.gitlab.json", s);
    json_error_t e;
    json_t *a = json_loads(s, 0, &e);
    assert_true(json_is_array(a));
    assert_int_equal(json_array_size(a), fx->report.nfindings);
    json_decref(a);
    free(s);
}

/* ---- html (issue 15 item 11) ------------------------------------------------ */

static void test_run_html_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_HTML, &fx->run, 0, 0, 0);
    check_golden("report-run.html", s);
    /* self-contained: no script, nothing loaded from anywhere */
    assert_null(strstr(s, "<script"));
    assert_null(strstr(s, "http://"));
    assert_null(strstr(s, "https://"));
    assert_null(strstr(s, " src="));
    assert_null(strstr(s, "<link"));
    /* every finding, with its verdict; every region with an inline chart */
    for (size_t i = 0; i < fx->run.nfindings; i++) {
        const cg_finding *f = &fx->run.findings[i];
        char id[64];
        snprintf(id, sizeof id, "id=\"f-%s-%u-%u\"", cg_rules[f->rule].id, f->loc.line, f->loc.col);
        assert_non_null(strstr(s, id));
    }
    size_t svgs = 0;
    for (const char *p = s; (p = strstr(p, "<svg ")); p++) svgs++;
    /* a chart per region, the verdict bar, and replay against eager where the step ran both ways */
    assert_int_equal(svgs, fx->run.run->nregions + 2);
    assert_non_null(strstr(s, "<code>Model.forward</code>: 0.093 ms (median of 7 calls); replays <b>4.4&times;</b> faster"));
    assert_non_null(strstr(s, "aria-label=\"replay against eager\""));
    assert_non_null(strstr(s, "not run outside captures, or not timed"));
    free(s);
}

/* ---- robustness ------------------------------------------------------------ */

/* Sources are validated as UTF-8 on load, but a message cut mid-character
 * must still give a parseable document with every key present. */
static void test_invalid_utf8(void **state)
{
    (void)state;
    cg_report r;
    cg_report_init(&r, NULL);
    add(&r, &(spec){"CG191", CG_SEV_ERROR, {"a.py", 1, 1, 1, 3}, "bad \xe2\x82 byte", NULL,
                    "x\xff = 1", NULL, NULL, NULL, 0});
    for (int fmt = CG_FMT_JSON; fmt <= CG_FMT_SARIF; fmt++) {
        char *s = emit((cg_format)fmt, &r, 0, 0, 0);
        json_t *doc = json_loads(s, 0, NULL);
        assert_non_null(doc);
        const char *msg = fmt == CG_FMT_JSON ? path_str(doc, "findings.0.message")
                                             : path_str(doc, "runs.0.results.0.message.text");
        assert_true(strncmp(msg, "bad \xef\xbf\xbd\xef\xbf\xbd byte", 14) == 0);
        json_decref(doc);
        free(s);
    }
    char *s = emit(CG_FMT_TEXT, &r, 0, 0, 0);
    /* a byte that is not UTF-8 reaches no terminal: U+FFFD stands for it */
    assert_non_null(strstr(s, "1 | x\xef\xbf\xbd = 1\n  | ^^\n"));
    free(s);
    cg_report_free(&r);
}

/* ---- cglint run: verdicts, regions, the program ---------------------------- */

static void test_run_text_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_TEXT, &fx->run, 0, 0, 0);
    check_golden("report-run.txt", s);
    assert_non_null(strstr(s, "  = verdict: confirmed: cudaStreamSynchronize -> cudaErrorStreamCaptureUnsupported, at model.py:12\n"));
    assert_non_null(strstr(s, "  = verdict: static only: the rule has no runtime signal\n"));
    assert_non_null(strstr(s, "Program: python train.py --steps 40 exited with status 1 (2 processes observed; "
                              "NVIDIA H100 80GB HBM3, PyTorch 2.11.0+cu130, CUDA 13.0).\n"));
    assert_non_null(strstr(s, "  train.py:30 (torch.cuda.graph): 1 capture, 40 replays, 12 graph nodes, mean replay 0.021 ms, "
                              "the step run eagerly (Model.forward) 0.093 ms: replays 4.4x faster; "
                              "by rank: rank 0: 1 capture, 40 replays; rank 1: 0 captures, 0 replays.\n"));
    assert_non_null(strstr(s, "  serve.py:8 (make_graphed_callables): 2 captures (1 failed), 0 replays.\n"));
    assert_non_null(strstr(s, "Verdicts: 2 confirmed, 1 not reproduced, 1 not exercised, 1 static only, 1 found at run time.\n"));
    free(s);
    /* a static report says nothing of verdicts */
    s = emit(CG_FMT_TEXT, &fx->report, 0, 0, 0);
    assert_null(strstr(s, "verdict"));
    free(s);
}

static void test_run_json_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_JSON, &fx->run, 0, 0, 0);
    check_golden("report-run.json", s);
    json_t *doc = json_loads(s, 0, NULL);
    assert_non_null(doc);
    static const char *const run[] = {"command", "exit_code", "signal", "processes", "gpu", "driver", "cuda",
                                      "torch", "regions", "verdicts", NULL};
    check_keys(json_object_get(doc, "run"), run, "aiOiSSSSao");
    static const char *const region[] = {"path", "line", "kind", "captures", "failed_captures", "replays",
                                         "graph_nodes", "mean_replay_ms", "eager_step_ms", "eager_step",
                                         "eager_calls", "ranks", NULL};
    json_t *r0 = path_get(doc, "run.regions.0");
    assert_int_equal(json_object_size(r0), 12);
    assert_int_equal(json_integer_value(path_get(doc, "run.regions.0.ranks.0.replays")), 40);
    assert_int_equal(json_array_size(path_get(doc, "run.regions.1.ranks")), 0);
    void *it = json_object_iter(r0);
    for (size_t i = 0; region[i]; i++, it = json_object_iter_next(r0, it))
        assert_string_equal(json_object_iter_key(it), region[i]);
    assert_int_equal(json_integer_value(path_get(doc, "run.regions.0.graph_nodes")), 12);
    assert_true(json_is_null(path_get(doc, "run.regions.1.graph_nodes")));
    assert_true(json_is_null(path_get(doc, "run.regions.1.mean_replay_ms")));
    assert_true(json_real_value(path_get(doc, "run.regions.0.eager_step_ms")) == 0.0931);
    assert_string_equal(path_str(doc, "run.regions.0.eager_step"), "Model.forward");
    assert_int_equal(json_integer_value(path_get(doc, "run.regions.0.eager_calls")), 7);
    assert_true(json_is_null(path_get(doc, "run.regions.1.eager_step_ms")));
    assert_true(json_is_null(path_get(doc, "run.regions.1.eager_step")));
    assert_true(json_is_null(path_get(doc, "run.signal")));
    assert_int_equal(json_integer_value(path_get(doc, "run.verdicts.confirmed")), 2);
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(doc, "findings"), i, f) {
        assert_true(json_is_string(json_object_get(f, "verdict")));
        assert_true(json_is_string(json_object_get(f, "evidence")));
    }
    json_decref(doc);
    free(s);
}

static void test_run_sarif_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_SARIF, &fx->run, 0, 0, 0);
    check_golden("report-run.sarif", s);
    json_t *doc = json_loads(s, 0, NULL);
    assert_non_null(doc);
    json_t *results = path_get(doc, "runs.0.results"), *res;
    size_t i;
    json_array_foreach(results, i, res) {
        const char *v = path_str(res, "properties.verdict");
        if (strcmp(v, "not_reproduced") == 0) {
            assert_string_equal(path_str(res, "kind"), "review");
            assert_string_equal(path_str(res, "level"), "none");
        } else {
            assert_string_equal(path_str(res, "kind"), "fail");
            assert_string_not_equal(path_str(res, "level"), "none");
        }
    }
    assert_int_equal(json_array_size(path_get(doc, "runs.0.properties.cglintRun.regions")), 2);
    json_decref(doc);
    free(s);
    /* a static report has no verdict properties and no kind */
    s = emit(CG_FMT_SARIF, &fx->report, 0, 0, 0);
    assert_null(strstr(s, "\"verdict\""));
    assert_null(strstr(s, "\"kind\": \"fail\""));
    free(s);
}

static void test_run_github_golden(void **state)
{
    fixture *fx = *state;
    char *s = emit(CG_FMT_GITHUB, &fx->run, 0, 0, 0);
    check_golden("report-run-github.txt", s);
    assert_non_null(strstr(s, " [confirmed: cudaStreamSynchronize -> cudaErrorStreamCaptureUnsupported, at model.py:12]\n"));
    free(s);
}

static void test_verdict_names(void **state)
{
    (void)state;
    assert_null(cg_verdict_name(CG_VERDICT_NONE));
    for (int v = 1; v < CG_VERDICT_COUNT; v++) {
        assert_int_equal(cg_verdict_parse(cg_verdict_name((cg_verdict)v)), v);
        assert_int_equal(cg_verdict_parse(cg_verdict_key((cg_verdict)v)), v);
    }
    assert_string_equal(cg_verdict_key(CG_VERDICT_RUNTIME), "found_at_runtime");
    assert_int_equal(cg_verdict_parse("maybe"), -1);
}

/* ---- dispatch and errors --------------------------------------------------- */

static void test_format_parse(void **state)
{
    (void)state;
    assert_int_equal(cg_format_parse("text"), CG_FMT_TEXT);
    assert_int_equal(cg_format_parse("json"), CG_FMT_JSON);
    assert_int_equal(cg_format_parse("sarif"), CG_FMT_SARIF);
    assert_int_equal(cg_format_parse("github"), CG_FMT_GITHUB);
    assert_int_equal(cg_format_parse("concise"), CG_FMT_CONCISE);
    assert_int_equal(cg_format_parse("json-lines"), CG_FMT_JSON_LINES);
    assert_int_equal(cg_format_parse("junit"), CG_FMT_JUNIT);
    assert_int_equal(cg_format_parse("gitlab"), CG_FMT_GITLAB);
    assert_int_equal(cg_format_parse("html"), CG_FMT_HTML);
    assert_int_equal(cg_format_parse("xml"), -1);
    assert_int_equal(cg_format_parse(""), -1);
    assert_int_equal(cg_format_parse(NULL), -1);
}

/* A full device makes every write fail: each emitter must say so. */
static void test_write_errors(void **state)
{
    fixture *fx = *state;
    for (int fmt = CG_FMT_TEXT; fmt < CG_FMT_COUNT; fmt++) {
        FILE *f = fopen("/dev/full", "w");
        if (!f) skip();
        setvbuf(f, NULL, _IONBF, 0);
        cg_emit_opts o = {0, 0, 0, VERSION};
        assert_int_equal(cg_emit(f, (cg_format)fmt, &fx->report, &o), -1);
        fclose(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_golden),
        cmocka_unit_test(test_text_color_golden),
        cmocka_unit_test(test_text_statistics_golden),
        cmocka_unit_test(test_text_quiet_and_empty),
        cmocka_unit_test(test_text_singulars),
        cmocka_unit_test(test_json_golden),
        cmocka_unit_test(test_json_empty),
        cmocka_unit_test(test_sarif_golden),
        cmocka_unit_test(test_sarif_empty),
        cmocka_unit_test(test_github_golden),
        cmocka_unit_test(test_github_escaping),
        cmocka_unit_test(test_concise_golden),
        cmocka_unit_test(test_json_lines_golden),
        cmocka_unit_test(test_junit_golden),
        cmocka_unit_test(test_gitlab_golden),
        cmocka_unit_test(test_run_html_golden),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_run_text_golden),
        cmocka_unit_test(test_run_json_golden),
        cmocka_unit_test(test_run_sarif_golden),
        cmocka_unit_test(test_run_github_golden),
        cmocka_unit_test(test_verdict_names),
        cmocka_unit_test(test_format_parse),
        cmocka_unit_test(test_write_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
