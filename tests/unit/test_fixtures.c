/* test_fixtures.c - the fixture runner.
 *
 * Every directory under tests/fixtures/py/ and tests/fixtures/cu/ is
 * analysed as one project.  Each line may end with `# expect: CG101` (C:
 * `// expect: CG106`; several: `CG101, CG201`; with a column: `CG101@13`).
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
 * and a negative fixture that expects nothing. */
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
#include "driver.h"
#include "core/source.h"
#include "core/walk.h"

typedef struct expect { char *path; uint32_t line, col; int rule; int matched; } expect;

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
        for (char *p = strtok(e + 7, ", \t"); p; p = strtok(NULL, ", \t")) {
            char code[16];
            unsigned col = 0;
            if (sscanf(p, "%15[A-Za-z0-9]@%u", code, &col) < 1) continue;
            int rule = cg_rule_index(code);
            if (rule < 0) {
                print_error("%s:%u: unknown rule '%s' in expectation\n", path, l, code);
                rc = -1;
                continue;
            }
            if (*n == *cap) { *cap = *cap ? *cap * 2 : 64; *out = realloc(*out, *cap * sizeof **out); }
            (*out)[(*n)++] = (expect){ strdup(path), l, col, rule, 0 };
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

static void run_fixture_dir(void **state)
{
    const fixture *fx = *state;
    const char *dir = fx->dir;
    if (fx->cuda_mode == 1 && !toolkit_path()) {
        print_message("no CUDA toolkit found (CUDA_PATH, CUDA_HOME, /usr/local/cuda): %s skipped\n", fx->name);
        skip();
    }
    cg_report r;
    cg_report_init(&r, NULL);
    const char *paths[] = { dir };
    cg_run_opts o = { .paths = paths, .npaths = 1, .jobs = 2, .max_file_size = 8u << 20,
                      .cuda_mode = fx->cuda_mode };
    cg_run(&o, &r);

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
        print_error("%s: tool message: %s:%u: %s\n", fx->name, r.notices[i].path ? r.notices[i].path : "-",
                    r.notices[i].line, r.notices[i].message);
        if (r.notices[i].level >= CG_WARN) failures++;
    }
    for (size_t i = 0; i < r.nfindings; i++) {
        const cg_finding *f = &r.findings[i];
        int found = 0;
        for (size_t k = 0; k < ne; k++)
            if (!ex[k].matched && ex[k].rule == f->rule && ex[k].line == f->loc.line &&
                strcmp(ex[k].path, f->loc.path) == 0 && (!ex[k].col || ex[k].col == f->loc.col)) {
                ex[k].matched = 1;
                found = 1;
                break;
            }
        if (!found) {
            /* a second finding of the same rule on an expected line is not an extra */
            for (size_t k = 0; k < ne && !found; k++)
                found = ex[k].rule == f->rule && ex[k].line == f->loc.line && strcmp(ex[k].path, f->loc.path) == 0;
        }
        if (!found) {
            print_error("%s:%u:%u: unexpected %s (%s): %s\n", f->loc.path, f->loc.line, f->loc.col,
                        cg_rules[f->rule].id, fx->name, f->message);
            failures++;
        }
    }
    for (size_t k = 0; k < ne; k++)
        if (!ex[k].matched) {
            print_error("%s:%u: expected %s%s, not reported (%s)\n", ex[k].path, ex[k].line, cg_rules[ex[k].rule].id,
                        ex[k].col ? " at that column" : "", fx->name);
            failures++;
        }
    for (size_t k = 0; k < ne; k++) free(ex[k].path);
    free(ex);
    cg_walk_free(files, nf);
    cg_report_free(&scratch);
    cg_report_free(&r);
    assert_int_equal(failures, 0);
}

static int has_expectation(const char *path, int rule, int *any)
{
    expect *ex = NULL;
    size_t n = 0, cap = 0;
    parse_expectations(path, &ex, &n, &cap);
    int hit = 0;
    for (size_t i = 0; i < n; i++) { hit |= ex[i].rule == rule; free(ex[i].path); }
    *any = n > 0;
    free(ex);
    return hit;
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
        }
    }
    assert_int_equal(missing, 0);
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

int main(void)
{
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
