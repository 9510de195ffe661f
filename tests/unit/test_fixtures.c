/* test_fixtures.c - the fixture runner.
 *
 * Every directory under tests/fixtures/py/ and tests/fixtures/cu/ is
 * analysed as one project.  Each line may end with `# expect: CG101` (C:
 * `// expect: CG106`; several: `CG101, CG201`; with a column: `CG101@13`).
 * An expectation may pin a fragment of the message, as clang-tidy's
 * CHECK-MESSAGES do: `# expect: CG101 "copies a CUDA tensor"` fails when the
 * finding on that line does not contain the text between the quotes (`\"`
 * and `\\` inside stand for `"` and `\`).
 * The runner is strict both ways: an expected finding that is missing and a
 * finding nobody expected both fail, on every line of every file, for every
 * rule; so does any error or warning cglint prints about the input.
 *
 * The C/C++/CUDA fixtures run twice, with the CUDA toolkit's headers and with
 * cglint's shim headers, and must give the same findings: the toolkit run is
 * skipped, with a line saying so, when no toolkit is installed.
 *
 * Coverage: each rule of the catalog has, for each of its languages, a
 * positive fixture that expects it (py/<ID>/positive.py, cu/<ID>/positive.cu)
 * and a negative fixture that expects nothing; scripts/add-rule's
 * `TODO(add-rule)` text is allowed in them only while the rule's status is
 * preview.
 *
 * `test_fixtures --self-test` runs the runner on fixtures it writes itself:
 * a pinned fragment that the message lacks must fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "driver.h"
#include "core/source.h"
#include "workflow/walk.h"

typedef struct expect { char *path; uint32_t line, col; int rule; int matched; char *frag; } expect;

static void expect_free(expect *ex, size_t n)
{
    for (size_t k = 0; k < n; k++) { free(ex[k].path); free(ex[k].frag); }
    free(ex);
}

static int parse_expectations(const char *path, expect **out, size_t *n, size_t *cap)
{
    cg_source src;
    char err[256];
    if (cg_source_load(&src, path, 0, err, sizeof err) != CG_SRC_OK) {
        print_error("cannot read fixture %s: %s\n", path, err);
        return -1;
    }
    int rc = 0;
    for (uint32_t l = 1; l <= src.nlines; l++) {
        size_t len;
        const char *t = cg_source_line(&src, l, &len);
        char line[4096];
        snprintf(line, sizeof line, "%.*s", (int)len, t);
        char *e = strstr(line, "expect:");
        if (!e) continue;
        /* only inside a comment: `#` (Python) or `//` (C) before it */
        char *hash = strchr(line, '#');
        char *sl = strstr(line, "//");
        if (!(hash && hash < e) && !(sl && sl < e)) continue;
        /* CODE[@COL] ["fragment"], ... */
        for (char *p = e + 7;;) {
            while (*p == ' ' || *p == '\t' || *p == ',') p++;
            if (!*p) break;
            char code[16];
            unsigned col = 0;
            int used = 0;
            if (sscanf(p, "%15[A-Za-z0-9]%n", code, &used) < 1) break;   /* prose after the codes */
            p += used;
            if (*p == '@') {
                p++;
                if (sscanf(p, "%u%n", &col, &used) < 1) {
                    print_error("%s:%u: '%s@' without a column in expectation\n", path, l, code);
                    rc = -1;
                    break;
                }
                p += used;
            }
            char *frag = NULL;
            while (*p == ' ' || *p == '\t') p++;
            if (*p == '"') {
                frag = malloc(strlen(p));
                size_t fl = 0;
                for (p++; *p && *p != '"'; p++) {
                    if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
                    frag[fl++] = *p;
                }
                frag[fl] = '\0';
                if (*p != '"' || !fl) {
                    print_error("%s:%u: %s in expectation of %s\n", path, l,
                                *p != '"' ? "unterminated message fragment" : "empty message fragment", code);
                    free(frag);
                    rc = -1;
                    break;
                }
                p++;
            }
            int rule = cg_rule_index(code);
            if (rule < 0) {
                print_error("%s:%u: unknown rule '%s' in expectation\n", path, l, code);
                free(frag);
                rc = -1;
                continue;
            }
            if (*n == *cap) { *cap = *cap ? *cap * 2 : 64; *out = realloc(*out, *cap * sizeof **out); }
            (*out)[(*n)++] = (expect){ strdup(path), l, col, rule, 0, frag };
        }
    }
    cg_source_free(&src);
    return rc;
}

typedef struct fixture { char *dir; int cuda_mode; char name[300]; } fixture;

static const char *toolkit_path(void)
{
    static char found[1024];
    const char *c[] = { getenv("CUDA_PATH"), getenv("CUDA_HOME"), "/usr/local/cuda" };
    for (int i = 0; i < 3; i++) {
        if (!c[i] || !*c[i]) continue;
        snprintf(found, sizeof found, "%s/include/cuda_runtime.h", c[i]);
        struct stat st;
        if (stat(found, &st) == 0) { snprintf(found, sizeof found, "%s", c[i]); return found; }
    }
    return NULL;
}

static int at_line(const expect *e, const cg_finding *f)
{
    return e->rule == f->rule && e->line == f->loc.line && strcmp(e->path, f->loc.path) == 0 &&
           (!e->col || e->col == f->loc.col);
}

static int frag_ok(const expect *e, const cg_finding *f)
{
    return !e->frag || (f->message && strstr(f->message, e->frag));
}

/* Analyse one fixture directory and compare with its expectations; returns
 * the number of failures, each printed. */
static int check_fixture_dir(const char *dir, int cuda_mode, const char *name)
{
    cg_report r;
    cg_report_init(&r, NULL);
    const char *paths[] = { dir };
    cg_analyze_opts o = { .paths = paths, .npaths = 1, .jobs = 2, .max_file_size = 8u << 20,
                      .cuda_mode = cuda_mode };
    cg_analyze(&o, &r);

    cg_file *files;
    size_t nf;
    cg_report scratch;
    cg_report_init(&scratch, NULL);
    cg_walk_opts wo = { 0 };
    cg_walk(paths, 1, &wo, &scratch, &files, &nf);
    expect *ex = NULL;
    size_t ne = 0, cap = 0;
    int failures = 0;
    for (size_t i = 0; i < nf; i++)
        if (parse_expectations(files[i].path, &ex, &ne, &cap) != 0) failures++;

    for (size_t i = 0; i < r.nnotices; i++) {
        print_error("%s: tool message: %s:%u: %s\n", name, r.notices[i].path ? r.notices[i].path : "-",
                    r.notices[i].line, r.notices[i].message);
        if (r.notices[i].level >= CG_WARN) failures++;
    }
    /* first every finding that meets an expectation in full, so that of two
     * findings on one line each finds the fragment pinned for it ... */
    unsigned char *done = calloc(r.nfindings ? r.nfindings : 1, 1);
    for (size_t i = 0; i < r.nfindings; i++)
        for (size_t k = 0; k < ne; k++)
            if (!ex[k].matched && at_line(&ex[k], &r.findings[i]) && frag_ok(&ex[k], &r.findings[i])) {
                ex[k].matched = done[i] = 1;
                break;
            }
    /* ... then the rest: a finding whose message lacks the pinned fragment,
     * a second finding of the rule on an expected line (not an extra), or
     * one nobody expected */
    for (size_t i = 0; i < r.nfindings; i++) {
        const cg_finding *f = &r.findings[i];
        if (done[i]) continue;
        int found = 0;
        for (size_t k = 0; k < ne && !found; k++)
            if (!ex[k].matched && at_line(&ex[k], f)) {
                ex[k].matched = found = 1;
                print_error("%s:%u:%u: %s's message lacks \"%s\" (%s): %s\n", f->loc.path, f->loc.line, f->loc.col,
                            cg_rules[f->rule].id, ex[k].frag, name, f->message);
                failures++;
            }
        for (size_t k = 0; k < ne && !found; k++)
            found = ex[k].rule == f->rule && ex[k].line == f->loc.line && strcmp(ex[k].path, f->loc.path) == 0;
        if (!found) {
            print_error("%s:%u:%u: unexpected %s (%s): %s\n", f->loc.path, f->loc.line, f->loc.col,
                        cg_rules[f->rule].id, name, f->message);
            failures++;
        }
    }
    free(done);
    for (size_t k = 0; k < ne; k++)
        if (!ex[k].matched) {
            print_error("%s:%u: expected %s%s, not reported (%s)\n", ex[k].path, ex[k].line, cg_rules[ex[k].rule].id,
                        ex[k].col ? " at that column" : "", name);
            failures++;
        }
    expect_free(ex, ne);
    cg_walk_free(files, nf);
    cg_report_free(&scratch);
    cg_report_free(&r);
    return failures;
}

static void run_fixture_dir(void **state)
{
    const fixture *fx = *state;
    if (fx->cuda_mode == 1 && !toolkit_path()) {
        print_message("no CUDA toolkit found (CUDA_PATH, CUDA_HOME, /usr/local/cuda): %s skipped\n", fx->name);
        skip();
    }
    assert_int_equal(check_fixture_dir(fx->dir, fx->cuda_mode, fx->name), 0);
}

static int has_expectation(const char *path, int rule, int *any)
{
    expect *ex = NULL;
    size_t n = 0, cap = 0;
    parse_expectations(path, &ex, &n, &cap);
    int hit = 0;
    for (size_t i = 0; i < n; i++) hit |= ex[i].rule == rule;
    *any = n > 0;
    expect_free(ex, n);
    return hit;
}

/* The first line of a file holding "TODO(add-rule)", or 0. */
static uint32_t todo_line(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[4096];
    uint32_t l = 0, at = 0;
    while (!at && fgets(buf, sizeof buf, f)) {
        l++;
        if (strstr(buf, "TODO(add-rule)")) at = l;
    }
    fclose(f);
    return at;
}

/* Every rule, for each of its languages: tests/fixtures/<lang>/<ID>/positive.<ext>
 * expects it and negative.<ext> expects nothing. */
static void every_rule_has_fixtures(void **state)
{
    static const struct { const char *lang, *ext; } langs[] = { { "py", "py" }, { "cu", "cu" } };
    int missing = 0;
    for (size_t i = 0; i < cg_rule_count; i++) {
        /* reported by `cglint run` alone (rules/README.md): no static fixtures */
        if (cg_rules[i].runtime && strncmp(cg_rules[i].runtime, "run time only:", 14) == 0) continue;
        for (size_t L = 0; L < 2; L++) {
            char langs_of[16];
            snprintf(langs_of, sizeof langs_of, " %s ", cg_rules[i].languages);
            char want[8];
            snprintf(want, sizeof want, " %s ", langs[L].lang);
            if (!strstr(langs_of, want)) continue;
            char pos[1024], neg[1024];
            snprintf(pos, sizeof pos, "%s/%s/%s/positive.%s", CGLINT_FIXTURES, langs[L].lang, cg_rules[i].id, langs[L].ext);
            snprintf(neg, sizeof neg, "%s/%s/%s/negative.%s", CGLINT_FIXTURES, langs[L].lang, cg_rules[i].id, langs[L].ext);
            struct stat st;
            int any;
            if (stat(pos, &st) != 0 || !has_expectation(pos, (int)i, &any)) {
                print_error("%s: no positive fixture expecting it (%s)\n", cg_rules[i].id, pos);
                missing++;
            }
            if (stat(neg, &st) != 0) {
                print_error("%s: no negative fixture (%s)\n", cg_rules[i].id, neg);
                missing++;
            } else if (has_expectation(neg, (int)i, &any), any) {
                print_error("%s: the negative fixture expects findings (%s)\n", cg_rules[i].id, neg);
                missing++;
            }
            if (strcmp(cg_rules[i].status, "preview") != 0)
                for (const char *fp = pos; fp; fp = fp == pos ? neg : NULL) {
                    uint32_t at = todo_line(fp);
                    if (at) {
                        print_error("%s:%u: scripts/add-rule's TODO(add-rule) text in a fixture of %s, whose "
                                    "status is %s: write it, or keep the rule in preview\n",
                                    fp, at, cg_rules[i].id, cg_rules[i].status);
                        missing++;
                    }
                }
        }
    }
    assert_int_equal(missing, 0);
}

/* ---- the runner on fixtures of its own (--self-test) ------------------------- */

/* A fixture directory holding one Python file: two host reads on one line,
 * each a CG101, with `expect` the comment that ends that line. */
static char *fixture_with(const char *expect_comment)
{
    char tmpl[] = "/tmp/cglint-fixture-XXXXXX";
    char *dir = mkdtemp(tmpl);
    assert_non_null(dir);
    char path[512];
    snprintf(path, sizeof path, "%s/positive.py", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "import torch\n\n\ndef capture_step(g, a, b):\n    with torch.cuda.graph(g):\n"
               "        n = a.item() + b.item()  %s\n    return n\n", expect_comment);
    assert_int_equal(fclose(f), 0);
    return strdup(dir);
}

static int check_with(const char *expect_comment)
{
    char *dir = fixture_with(expect_comment);
    int failures = check_fixture_dir(dir, 0, "self-test");
    char path[512];
    snprintf(path, sizeof path, "%s/positive.py", dir);
    unlink(path);
    rmdir(dir);
    free(dir);
    return failures;
}

static void pinned_fragments_that_match_pass(void **state)
{
    (void)state;
    assert_int_equal(check_with("# expect: CG101, CG101"), 0);
    assert_int_equal(check_with("# expect: CG101 \"copies a CUDA tensor's value\", CG101"), 0);
    /* each finding finds its own fragment, whatever the order */
    assert_int_equal(check_with("# expect: CG101 \"`b.item()`\", CG101 \"`a.item()`\""), 0);
    assert_int_equal(check_with("# expect: CG101@24 \"`b.item()`\", CG101@13 \"(item)\""), 0);
}

static void a_wrong_fragment_fails(void **state)
{
    (void)state;
    print_message("(the runner's complaints below are expected)\n");
    /* the message says "copies a CUDA tensor's value": one failure, for that finding */
    assert_int_equal(check_with("# expect: CG101 \"reads a CUDA tensor\", CG101"), 1);
    assert_int_equal(check_with("# expect: CG101 \"`a.item()`\", CG101 \"`c.item()`\""), 1);
    assert_int_equal(check_with("# expect: CG101 \"nothing like it\", CG101 \"nor this\""), 2);
    /* a fragment pinned at a column belongs to the finding there */
    assert_int_equal(check_with("# expect: CG101@13 \"`b.item()`\", CG101@24"), 1);
    /* a malformed fragment is an error of the fixture */
    assert_true(check_with("# expect: CG101 \"unterminated, CG101") > 0);
    assert_true(check_with("# expect: CG101 \"\", CG101") > 0);
}

static int self_test(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pinned_fragments_that_match_pass),
        cmocka_unit_test(a_wrong_fragment_fails),
    };
    return cmocka_run_group_tests_name("fixture runner", tests, NULL, NULL);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static size_t list_dirs(const char *root, char **names, size_t max)
{
    DIR *d = opendir(root);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.') continue;
        char p[1300];
        snprintf(p, sizeof p, "%s/%s", root, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) names[n++] = strdup(p);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    return n;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--self-test") == 0) return self_test();
    char root[1024];
    char *py[512], *cu[512];
    snprintf(root, sizeof root, "%s/py", CGLINT_FIXTURES);
    size_t npy = list_dirs(root, py, 512);
    snprintf(root, sizeof root, "%s/cu", CGLINT_FIXTURES);
    size_t ncu = list_dirs(root, cu, 512);
    if (!npy) { fprintf(stderr, "no fixtures at %s/py\n", CGLINT_FIXTURES); return 1; }
    size_t nt = npy + 2 * ncu;
    fixture *fx = calloc(nt, sizeof *fx);
    struct CMUnitTest *tests = calloc(nt + 1, sizeof *tests);
    size_t k = 0;
    for (size_t i = 0; i < npy; i++, k++) {
        fx[k].dir = py[i];
        snprintf(fx[k].name, sizeof fx[k].name, "py/%s", strrchr(py[i], '/') + 1);
    }
    for (size_t i = 0; i < ncu; i++)
        for (int mode = 2; mode >= 1; mode--, k++) {
            fx[k].dir = cu[i];
            fx[k].cuda_mode = mode;
            snprintf(fx[k].name, sizeof fx[k].name, "cu/%s [%s]", strrchr(cu[i], '/') + 1,
                     mode == 1 ? "toolkit" : "shim");
        }
    for (size_t i = 0; i < nt; i++) {
        tests[i].name = fx[i].name;
        tests[i].test_func = run_fixture_dir;
        tests[i].initial_state = &fx[i];
    }
    tests[nt].name = "every_rule_has_fixtures";
    tests[nt].test_func = every_rule_has_fixtures;
    const char *tk = toolkit_path();
    if (tk) print_message("C/C++/CUDA fixtures: shim headers and the toolkit at %s\n", tk);
    else print_message("C/C++/CUDA fixtures: shim headers only; no CUDA toolkit found, toolkit runs are skipped\n");
    int rc = _cmocka_run_group_tests("fixtures", tests, nt + 1, NULL, NULL);
    for (size_t i = 0; i < npy; i++) free(py[i]);
    for (size_t i = 0; i < ncu; i++) free(cu[i]);
    free(fx);
    free(tests);
    return rc;
}
