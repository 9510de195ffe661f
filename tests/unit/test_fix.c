/* test_fix.c - workflow/fix.c on hand-made reports: an edit that would make the
 * file parse worse is refused, an edit whose old text is no longer in the
 * file is refused, overlapping edits take the first, and a good edit is
 * written atomically.  (The CLI side is tests/workflow/fix.sh.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "driver.h"
#include "workflow/fix.h"
#include "core/source.h"

static char dir[] = "/tmp/cglint-test-fix-XXXXXX";

static char *write_file(const char *name, const char *text)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", dir, name) < 0) abort();
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    return p;
}

static char *read_file(const char *p)
{
    FILE *f = fopen(p, "r");
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* A report with one finding in `path` carrying the given edits. */
static void one_finding(cg_report *r, const char *path, cg_edit *e, size_t n)
{
    cg_report_init(r, NULL);
    cg_finding f = {0};
    f.rule = CG_R_CG108;
    f.level = CG_SEV_ERROR;
    f.loc = (cg_loc){path, 1, 1, 1, 2};
    f.message = "m";
    f.line_text = "";
    f.edits = e;
    f.nedits = n;
    f.fix_safe = 1;
    cg_report_add(r, &f);
}

/* --fix (writing, with the syntax check) on a report of one finding in `path`
 * with `n` edits; the report is the caller's to free. */
static cg_fix_result fix_one(cg_report *r, const char *path, cg_edit *e, size_t n)
{
    one_finding(r, path, e, n);
    cg_fix_opts o = {.write = 1, .checker = cg_syntax_checker};
    cg_fix_result res;
    cg_fix_apply(r, &o, &res);
    return res;
}

static void test_refuses_worse_parse(void **state)
{
    const char *src = "x = f(a, flag=True)\n";
    char *p = write_file("worse.py", src);
    cg_edit e = {14, 18, 1, 15, 1, 19, "(", "True", 0};
    cg_report r;
    cg_fix_result res = fix_one(&r, p, &e, 1);
    assert_int_equal(res.findings, 0);
    assert_int_equal(r.nfindings, 1);
    assert_string_equal(read_file(p), src);
    assert_int_equal(r.nnotices, 1);
    assert_non_null(strstr(r.notices[0].message, "syntax error"));
    cg_report_free(&r);
    free(p);
}

static void test_refuses_stale(void **state)
{
    char *p = write_file("stale.py", "x = f(a, flag=Fals)\n");
    cg_edit e = {14, 18, 1, 15, 1, 19, "False", "True", 0};
    cg_report r;
    cg_fix_result res = fix_one(&r, p, &e, 1);
    assert_int_equal(res.files, 0);
    assert_non_null(strstr(r.notices[0].message, "changed since it was analysed"));
    cg_report_free(&r);
    free(p);
}

/* An insertion has no old text to check: a file that changed since the
 * analysis must not get it at a stale offset.  Here a line was added above,
 * so offset 7 is no longer line 1, column 8. */
static void test_refuses_stale_insertion_moved(void **state)
{
    const char *now = "\nx = f(a)\n";
    char *p = write_file("stale_ins.py", now);
    cg_edit e = {7, 7, 1, 8, 1, 8, ", flag=True", "", 0};   /* made for "x = f(a)\n" */
    cg_report r;
    cg_fix_result res = fix_one(&r, p, &e, 1);
    assert_int_equal(res.files, 0);
    assert_string_equal(read_file(p), now);
    assert_int_equal(r.nnotices, 1);
    assert_non_null(strstr(r.notices[0].message, "changed since it was analysed"));
    cg_report_free(&r);
    free(p);
}

/* The same, where the offset still has the same line and column: the edit
 * carries the digest of the text it was made for. */
static void test_refuses_stale_insertion_digest(void **state)
{
    cg_source was;
    char err[256];
    assert_int_equal(cg_source_from_buffer(&was, "x.py", "x = f(a)\n", 9, err, sizeof err), CG_SRC_OK);
    const char *now = "y = f(a)\n";
    char *p = write_file("stale_dig.py", now);
    cg_edit e = {7, 7, 1, 8, 1, 8, ", flag=True", "", cg_source_digest(&was)};
    cg_source_free(&was);
    cg_report r;
    cg_fix_result res = fix_one(&r, p, &e, 1);
    assert_int_equal(res.files, 0);
    assert_string_equal(read_file(p), now);
    assert_non_null(strstr(r.notices[0].message, "changed since it was analysed"));
    cg_report_free(&r);
    /* and the file as analysed takes it */
    free(write_file("stale_dig.py", "x = f(a)\n"));
    res = fix_one(&r, p, &e, 1);
    assert_int_equal(res.files, 1);
    assert_string_equal(read_file(p), "x = f(a, flag=True)\n");
    cg_report_free(&r);
    free(p);
}

static void test_applies_and_overlaps(void **state)
{
    char *p = write_file("ok.py", "x = f(a, flag=True)\ny = g()\n");
    cg_edit e[3] = {
        {14, 18, 1, 15, 1, 19, "False", "True", 0},
        {14, 18, 1, 15, 1, 19, "None", "True", 0},          /* overlaps: left for later */
        {26, 26, 2, 7, 2, 7, "z=1", "", 0},                  /* an insertion */
    };
    cg_report r;
    cg_fix_result res = fix_one(&r, p, e, 3);
    assert_int_equal(res.files, 1);
    assert_int_equal(res.findings, 1);
    assert_int_equal(r.nfindings, 0);
    assert_string_equal(read_file(p), "x = f(a, flag=False)\ny = g(z=1)\n");
    cg_report_free(&r);
    free(p);
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refuses_worse_parse),
        cmocka_unit_test(test_refuses_stale),
        cmocka_unit_test(test_refuses_stale_insertion_moved),
        cmocka_unit_test(test_refuses_stale_insertion_digest),
        cmocka_unit_test(test_applies_and_overlaps),
    };
    int rc = cmocka_run_group_tests_name("fix", tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
