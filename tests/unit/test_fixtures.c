/* test_fixtures.c - the fixture runner.
 *
 * Every directory under tests/fixtures/py/ is analysed as one project.  Each
 * line may end with `# expect: CG101` (several: `# expect: CG101, CG201`;
 * with a column: `CG101@13`).  The runner is strict both ways: an expected
 * finding that is missing and a finding nobody expected both fail, on every
 * line of every file, for every rule.  A second test checks that each Python
 * rule of the catalog has a positive fixture that expects it and a negative
 * fixture that expects nothing. */
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

static void run_fixture_dir(void **state)
{
    const char *dir = *state;
    cg_report r;
    cg_report_init(&r, NULL);
    const char *paths[] = { dir };
    cg_run_opts o = { .paths = paths, .npaths = 1, .jobs = 2, .max_file_size = 8u << 20 };
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
        print_error("%s: tool message: %s: %s\n", dir, r.notices[i].path ? r.notices[i].path : "-", r.notices[i].message);
        if (r.notices[i].level == CG_ERROR) failures++;
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
            print_error("%s:%u:%u: unexpected %s: %s\n", f->loc.path, f->loc.line, f->loc.col,
                        cg_rules[f->rule].id, f->message);
            failures++;
        }
    }
    for (size_t k = 0; k < ne; k++)
        if (!ex[k].matched) {
            print_error("%s:%u: expected %s%s, not reported\n", ex[k].path, ex[k].line, cg_rules[ex[k].rule].id,
                        ex[k].col ? " at that column" : "");
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

/* Every Python rule: tests/fixtures/py/<ID>/positive.py expects it and
 * negative.py expects nothing. */
static void every_rule_has_fixtures(void **state)
{
    int missing = 0;
    for (size_t i = 0; i < cg_rule_count; i++) {
        if (!strstr(cg_rules[i].languages, "py")) continue;
        char pos[1024], neg[1024];
        snprintf(pos, sizeof pos, "%s/py/%s/positive.py", CGLINT_FIXTURES, cg_rules[i].id);
        snprintf(neg, sizeof neg, "%s/py/%s/negative.py", CGLINT_FIXTURES, cg_rules[i].id);
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
    assert_int_equal(missing, 0);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void)
{
    char root[1024];
    snprintf(root, sizeof root, "%s/py", CGLINT_FIXTURES);
    DIR *d = opendir(root);
    if (!d) { fprintf(stderr, "no fixtures at %s\n", root); return 1; }
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512) {
        if (e->d_name[0] == '.') continue;
        char p[1300];
        snprintf(p, sizeof p, "%s/%s", root, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) names[n++] = strdup(p);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    struct CMUnitTest *tests = calloc(n + 1, sizeof *tests);
    for (size_t i = 0; i < n; i++) {
        tests[i].name = strrchr(names[i], '/') + 1;
        tests[i].test_func = run_fixture_dir;
        tests[i].initial_state = names[i];
    }
    tests[n].name = "every_rule_has_fixtures";
    tests[n].test_func = every_rule_has_fixtures;
    int rc = _cmocka_run_group_tests("fixtures", tests, n + 1, NULL, NULL);
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(tests);
    return rc;
}
