/* test_config.c - the TOML layer, the configuration loader, rule layering,
 * path helpers and the suppression-comment scanner, without the CLI.
 * (The CLI side of the same features: the scripts in tests/workflow.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "workflow/config.h"
#include "core/path.h"
#include "workflow/suppress.h"
#include "core/toml.h"

/* ---- TOML ------------------------------------------------------------------------ */

static cg_toml_doc *parse_ok(const char *text)
{
    char err[256];
    uint32_t line;
    cg_toml_doc *d = cg_toml_parse(text, strlen(text), err, sizeof err, &line);
    if (!d) fail_msg("TOML did not parse: line %u: %s\n%s", line, err, text);
    return d;
}

static void parse_bad(const char *text, uint32_t want_line, const char *want)
{
    char err[256] = "";
    uint32_t line = 0;
    cg_toml_doc *d = cg_toml_parse(text, strlen(text), err, sizeof err, &line);
    if (d) { cg_toml_free(d); fail_msg("parsed but should not:\n%s", text); }
    assert_int_equal(line, want_line);
    if (!strstr(err, want)) fail_msg("error '%s' lacks '%s'", err, want);
}

static void test_toml_values(void **state)
{
    cg_toml_doc *d = parse_ok(
        "title = \"a\\tb\\u00e9\\\"\"\n"
        "lit = 'C:\\path'\n"
        "ml = \"\"\"\nline1\nline2\"\"\"\n"
        "n = 1_000\nhex = 0x1F\nneg = -3\nf = 1.5\nyes = true\n"
        "arr = [\"x\", 'y',\n  \"z\", # comment\n]\n"
        "[a.b]\nc = 1\n"
        "[a]\nd = { e = [1, 2], \"f g\" = \"h\" }\n"
        "[[t]]\nk = 1\n[[t]]\nk = 2\n"
        "dotted.key = \"v\"\n");
    const cg_toml *r = cg_toml_root(d);
    assert_string_equal(cg_toml_get(r, "title", NULL)->str, "a\tb\xc3\xa9\"");
    assert_string_equal(cg_toml_get(r, "lit", NULL)->str, "C:\\path");
    assert_string_equal(cg_toml_get(r, "ml", NULL)->str, "line1\nline2");
    assert_int_equal(cg_toml_get(r, "n", NULL)->integer, 1000);
    assert_int_equal(cg_toml_get(r, "hex", NULL)->integer, 31);
    assert_int_equal(cg_toml_get(r, "neg", NULL)->integer, -3);
    assert_true(cg_toml_get(r, "f", NULL)->real == 1.5);
    assert_int_equal(cg_toml_get(r, "yes", NULL)->kind, CG_TOML_BOOL);
    const cg_toml *arr = cg_toml_get(r, "arr", NULL);
    assert_int_equal(arr->n, 3);
    assert_string_equal(arr->items[2]->str, "z");
    assert_int_equal(arr->items[2]->line, 12);
    const cg_toml *a = cg_toml_get(r, "a", NULL);
    assert_int_equal(cg_toml_get(cg_toml_get(a, "b", NULL), "c", NULL)->integer, 1);
    const cg_toml *dd = cg_toml_get(a, "d", NULL);
    assert_string_equal(cg_toml_get(dd, "f g", NULL)->str, "h");
    const cg_toml *t = cg_toml_get(r, "t", NULL);
    assert_int_equal(t->n, 2);
    assert_int_equal(cg_toml_get(t->items[1], "k", NULL)->integer, 2);
    /* a dotted key under [[t]] lands in the last table of the array */
    assert_string_equal(cg_toml_get(cg_toml_get(t->items[1], "dotted", NULL), "key", NULL)->str, "v");
    uint32_t line;
    assert_non_null(cg_toml_get(r, "yes", &line));
    assert_int_equal(line, 10);
    cg_toml_free(d);
}

static void test_toml_errors(void **state)
{
    parse_bad("a = 1\nb = [1,\n", 2, "invalid TOML at column 8: expected a value: a \"string\", a number, true, false, an [array] or an {inline table}, found the end of the file");
    parse_bad("a = 1\na = 2\n", 2, "defined twice (first on line 1)");
    parse_bad("[x]\na = 1\n[x]\n", 3, "table [x] is defined twice");
    parse_bad("x = 1\n[x]\n", 2, "already defined as a value");
    parse_bad("s = \"bad \\q escape\"\n", 1, "invalid TOML at column 10: expected an escape");
    parse_bad("= 1\n", 1, "invalid TOML at column 1: expected a key, found '='");
    parse_bad("[tool.cglint\n", 1, "invalid TOML at column 13: expected ']' to close the table header, found the end of the line");
    parse_bad("a = [1 2]\n", 1, "invalid TOML at column 8: expected ',' or ']' after an array item, found '2'");
    parse_bad("a = {b = 1\n", 1, "invalid TOML at column 11: expected ',' or '}' in an inline table");
}

/* Deep nesting is refused with a message, never by running out of stack. */
static char *nested(const char *head, const char *open, const char *mid, const char *close, int n)
{
    size_t lo = strlen(open), lc = strlen(close), lh = strlen(head), lm = strlen(mid);
    char *t = malloc(lh + (size_t)n * (lo + lc) + lm + 64), *o = t;
    memcpy(o, head, lh); o += lh;
    for (int i = 0; i < n; i++) { memcpy(o, open, lo); o += lo; }
    memcpy(o, mid, lm); o += lm;
    for (int i = 0; i < n; i++) { memcpy(o, close, lc); o += lc; }
    *o++ = '\n';
    *o = 0;
    return t;
}

static void test_toml_deep(void **state)
{
    (void)state;
    cg_toml_doc *d0;
    uint32_t l0;
    char *t = nested("a = ", "[", "", "]", 100000);
    parse_bad(t, 1, "too deeply nested");
    free(t);
    t = nested("x = 1\ny = ", "{x=", "1", "}", 100000);
    parse_bad(t, 2, "too deeply nested");
    free(t);
    t = nested("a = ", "[", "", "]", 100);        /* the limit itself is fine */
    cg_toml_free(parse_ok(t));
    free(t);
    t = nested("a = ", "{b=", "1", "}", 100);
    cg_toml_free(parse_ok(t));
    free(t);
    t = nested("a = ", "[", "", "", 100000);       /* unclosed, and too deep to give tree-sitter */
    parse_bad(t, 1, "too deeply nested");
    free(t);
    t = nested("a = ", "[", "", "", 90);            /* unclosed: a syntax error */
    parse_bad(t, 1, "invalid TOML");
    free(t);
    /* brackets in strings and comments do not nest */
    t = nested("a = '", "[", "' # ", "{", 300);
    cg_toml_free(parse_ok(t));
    free(t);
    t = nested("a = \"\"\"\n", "[", "\n\"\"\"\nb = '''\n", "]", 300);
    strcat(t, "'''\nd = \"\\\"[[[\"\nc = 1\n");
    d0 = parse_ok(t);
    assert_int_equal(cg_toml_get(cg_toml_root(d0), "c", &l0)->integer, 1);
    assert_int_equal(l0, 8);
    cg_toml_free(d0);
    free(t);
    /* a dotted key of 100,000 parts */
    size_t n = 100000;
    t = malloc(2 * n + 8);
    for (size_t i = 0; i < n; i++) { t[2 * i] = 'k'; t[2 * i + 1] = '.'; }
    strcpy(t + 2 * n - 1, " = 1\n");
    parse_bad(t, 1, "too many dotted parts");
    free(t);
    cg_toml_doc *d = parse_ok("a.b.c.\"d e\".f = 1\n");
    const cg_toml *r = cg_toml_root(d);
    r = cg_toml_get(cg_toml_get(cg_toml_get(cg_toml_get(r, "a", NULL), "b", NULL), "c", NULL), "d e", NULL);
    assert_int_equal(cg_toml_get(r, "f", NULL)->integer, 1);
    cg_toml_free(d);
}

/* ---- configuration ------------------------------------------------------------------ */

static cg_config *cfg_ok(const char *text, int pyproject)
{
    char err[512];
    cg_config *c = NULL;
    int rc = cg_config_parse(&c, pyproject ? "pyproject.toml" : ".cglint.toml", text, strlen(text), pyproject,
                             err, sizeof err);
    if (rc != 0) fail_msg("config rejected (%d): %s", rc, err);
    return c;
}

static void cfg_bad(const char *text, const char *want)
{
    char err[512] = "";
    cg_config *c = NULL;
    int rc = cg_config_parse(&c, "pyproject.toml", text, strlen(text), 1, err, sizeof err);
    assert_int_equal(rc, -1);
    assert_null(c);
    if (!strstr(err, want)) fail_msg("error '%s' lacks '%s'", err, want);
}

static void test_config_keys(void **state)
{
    cg_config *c = cfg_ok("[project]\nname = 'x'\n[tool.cglint]\n"
                          "select = ['CG1', 'CG3']\nextend-select = ['CG401']\nignore = ['CG102']\n"
                          "exclude = ['gen']\nextend-exclude = ['*_pb2.py']\n"
                          "cuda-path = '/usr/local/cuda'\ncompile-commands = 'build'\n"
                          "jobs = 3\noutput-format = 'sarif'\nrespect-gitignore = false\n"
                          "[tool.cglint.per-file-ignores]\n\"tests/*\" = ['CG101', 'CG2']\n", 1);
    assert_true(c->in_pyproject);
    assert_true(c->has_select);
    assert_int_equal(c->select.n, 2);
    assert_string_equal(c->extend_select.items[0], "CG401");
    assert_int_equal(c->npfi, 1);
    assert_string_equal(c->pfi[0].glob, "tests/*");
    assert_int_equal(c->pfi[0].codes.n, 2);
    assert_true(c->has_exclude);
    assert_string_equal(c->cuda_path, "/usr/local/cuda");
    assert_true(c->compile_commands[0] == '/');   /* resolved against the file's directory */
    assert_int_equal(c->jobs, 3);
    assert_string_equal(c->output_format, "sarif");
    assert_int_equal(c->respect_gitignore, 0);
    cg_config_free(c);

    /* .cglint.toml: the keys are at the top level */
    c = cfg_ok("select = ['CG2']\n", 0);
    assert_int_equal(c->select.n, 1);
    cg_config_free(c);

    /* a pyproject.toml without [tool.cglint] is no configuration */
    char err[256];
    const char *t = "[project]\nname = 'x'\n[tool.ruff]\nline-length = 100\n";
    assert_int_equal(cg_config_parse(&c, "pyproject.toml", t, strlen(t), 1, err, sizeof err), 1);
    assert_null(c);
}

static void test_config_errors(void **state)
{
    cfg_bad("[tool.cglint]\nselct = ['CG1']\n", "pyproject.toml:2: unknown key 'selct' in [tool.cglint] (did you mean 'select'?)");
    cfg_bad("[tool.cglint]\nper_file_ignores = {}\n", "did you mean 'per-file-ignores'?");
    cfg_bad("[tool.cglint]\nfrobnicate = 1\n", "unknown key 'frobnicate'");
    cfg_bad("[tool.cglint]\nselect = 'CG1'\n", "pyproject.toml:2: select: expected an array of strings, got a string");
    cfg_bad("[tool.cglint]\nselect = [\n 'CG1',\n 3]\n", "pyproject.toml:4: select: expected an array of strings, but item 2 is an integer");
    cfg_bad("[tool.cglint]\nignore = ['CG1', 'E501']\n", "ignore: 'E501' is not a rule code or prefix");
    cfg_bad("[tool.cglint]\njobs = 0\n", "jobs: expected an integer from 1 to 1024, got 0");
    cfg_bad("[tool.cglint]\njobs = '4'\n", "jobs: expected an integer from 1 to 1024, got a string");
    cfg_bad("[tool.cglint]\noutput-format = 'xml'\n", "output-format: expected \"text\", \"concise\", \"json\", \"json-lines\", \"sarif\", \"github\", \"junit\", \"gitlab\" or \"html\", got \"xml\"");
    cfg_bad("[tool.cglint]\nrespect-gitignore = 'yes'\n", "respect-gitignore: expected true or false");
    cfg_bad("[tool.cglint]\nper-file-ignores = ['x']\n", "per-file-ignores: expected a table");
    cfg_bad("[tool.cglint.per-file-ignores]\n'a/*' = 'CG101'\n", "pyproject.toml:2: per-file-ignores: \"a/*\": expected an array");
    cfg_bad("[tool.cglint]\ncuda-path = 12\n", "cuda-path: expected a string, got an integer");
    cfg_bad("[tool.cglint]\nselect = ['CG1'\n", "pyproject.toml:2: invalid TOML");
    cfg_bad("[tool]\ncglint = 3\n", "tool.cglint: expected a table");
}

static void test_config_rules(void **state)
{
    cg_config *c = cfg_ok("[tool.cglint]\nselect = ['CG1']\nignore = ['CG102']\nextend-select = ['CG304']\n"
                          "per-file-ignores = { 'tests/*' = ['CG101'] }\n", 1);
    cg_ruleset rs;
    cg_config_rules(c, NULL, "src/x.py", &rs);
    assert_true(rs.on[CG_R_CG101]);
    assert_false(rs.on[CG_R_CG102]);
    assert_true(rs.on[CG_R_CG304]);
    assert_false(rs.on[CG_R_CG201]);
    cg_config_rules(c, NULL, "tests/test_x.py", &rs);
    assert_false(rs.on[CG_R_CG101]);
    assert_true(rs.on[CG_R_CG103]);
    /* the command line comes after the file: --select replaces, --ignore removes */
    cg_rule_cli cli = { .select = "CG2", .extend_select = NULL, .ignore = "CG203" };
    cg_config_rules(c, &cli, "src/x.py", &rs);
    assert_false(rs.on[CG_R_CG101]);
    assert_true(rs.on[CG_R_CG201]);
    assert_false(rs.on[CG_R_CG203]);
    cg_rule_cli cli2 = { .select = NULL, .extend_select = "CG102", .ignore = NULL };
    cg_config_rules(c, &cli2, "src/x.py", &rs);
    assert_true(rs.on[CG_R_CG102]);
    /* no configuration: everything */
    cg_config_rules(NULL, NULL, NULL, &rs);
    for (size_t i = 0; i < cg_rule_count; i++) assert_true(rs.on[i]);
    cg_config_free(c);

    assert_true(cg_config_glob("tests/*", "tests/a.py"));
    assert_true(cg_config_glob("*_pb2.py", "src/x_pb2.py"));
    assert_true(cg_config_glob("gen", "gen/x.py"));
    assert_true(cg_config_glob("./tests/*", "tests/a.py"));
    assert_false(cg_config_glob("tests/*", "src/a.py"));
}

static void test_paths(void **state)
{
    char *a = cg_path_abs("/a/b/../c/./d/");
    assert_string_equal(a, "/a/c/d");
    char *d = cg_path_dirname(a);
    assert_string_equal(d, "/a/c");
    assert_string_equal(cg_path_under(a, "/a"), "c/d");
    assert_string_equal(cg_path_under(a, "/a/c/d"), ".");
    assert_null(cg_path_under(a, "/a/cc"));
    assert_string_equal(cg_path_under(a, "/"), "a/c/d");
    char *r = cg_path_relative("/a/x/y.py", "/a/c/d");
    assert_string_equal(r, "../../x/y.py");
    char *r2 = cg_path_relative("/a", "/a/c");
    assert_string_equal(r2, "..");
    free(a); free(d); free(r); free(r2);
    char *root = cg_path_abs("/..");
    assert_string_equal(root, "/");
    free(root);
}

/* ---- suppression comments ------------------------------------------------------------ */

static void test_suppress_scan(void **state)
{
    const char *py =
        "x = t.item()  # cglint: ignore[CG101, CG102] -- reason\n"      /* 1 */
        "# cglint: ignore-next-line[CG104]\n"                            /* 2 */
        "y = 1  # noqa: E501,CG101\n"                                    /* 3 */
        "z = 2  # noqa\n"                                                /* 4 */
        "s = '# cglint: ignore[CG101]'  # type: ignore # cglint: ignore-file[CG301]\n" /* 5 */
        "doc = \"\"\"\n# cglint: ignore[CG999]\n\"\"\"\n"                /* 6-8 */
        "w = 3  # cglint: ignore[cg101]\n"                               /* 9 */
        "v = 4  # cglint: ignore\n";                                     /* 10 */
    cg_directive *d = NULL;
    size_t n = cg_suppress_scan(py, strlen(py), "#", &d);
    assert_int_equal(n, 6);
    assert_int_equal(d[0].line, 1);
    assert_int_equal(d[0].scope, CG_SUP_LINE);
    assert_int_equal(d[0].ncodes, 2);
    assert_int_equal(d[0].codes[1], CG_R_CG102);
    assert_int_equal(d[0].byte_col, 14);
    assert_int_equal(d[1].scope, CG_SUP_NEXT_LINE);
    assert_int_equal(d[2].ncodes, 1);                /* E501 is another tool's */
    assert_string_equal(d[2].form, "noqa");
    assert_int_equal(d[3].line, 5);                  /* not the one in the string */
    assert_int_equal(d[3].scope, CG_SUP_FILE);
    assert_int_equal(d[4].line, 9);
    assert_true(d[4].unknown_code);
    assert_non_null(strstr(d[4].problem, "upper-case"));
    assert_int_equal(d[5].line, 10);
    assert_int_equal(d[5].ncodes, -1);
    free(d);

    const char *cu =
        "cudaMemcpy(a, b, n, k);  // NOLINT(bugprone-x, CG104)\n"
        "// NOLINTNEXTLINE(CG104)\n"
        "f(\"// cglint: ignore[CG104]\");  /* // cglint: ignore[CG104] */\n"
        "g();  // NOLINT\n"
        "h();  // cglint: ignore[CG104] -- measured\n";
    n = cg_suppress_scan(cu, strlen(cu), "//", &d);
    assert_int_equal(n, 3);
    assert_string_equal(d[0].form, "NOLINT");
    assert_int_equal(d[0].ncodes, 1);
    assert_int_equal(d[1].scope, CG_SUP_NEXT_LINE);
    assert_int_equal(d[2].line, 5);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toml_values),
        cmocka_unit_test(test_toml_errors),
        cmocka_unit_test(test_toml_deep),
        cmocka_unit_test(test_config_keys),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_config_rules),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_suppress_scan),
    };
    return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
