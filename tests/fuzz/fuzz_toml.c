/* fuzz_toml.c - the configuration reader: the input, as bytes that need not
 * end in NUL (cg_toml_parse and cg_config_parse take a length), is parsed
 * as TOML and every value visited; then loaded as a .cglint.toml and as a
 * pyproject.toml's [tool.cglint], and a loaded configuration's rule
 * selection, per-file-ignores and exclude globs are applied to a few paths. */
#include "fuzz_common.h"
#include "workflow/config.h"
#include "core/toml.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    fz_quiet();
    return 0;
}

static size_t visit(const cg_toml *v, int depth)
{
    size_t n = 1;
    if (!v || depth > 10000) return 0;
    switch (v->kind) {
    case CG_TOML_STRING: case CG_TOML_DATETIME: n += strlen(v->str); break;
    case CG_TOML_ARRAY:
        for (size_t i = 0; i < v->n; i++) n += visit(v->items[i], depth + 1);
        break;
    case CG_TOML_TABLE:
        for (size_t i = 0; i < v->n; i++) {
            n += strlen(v->keys[i]) + v->key_lines[i];
            if (cg_toml_get(v, v->keys[i], NULL) == NULL) abort();   /* every key is found */
            n += visit(v->items[i], depth + 1);
        }
        break;
    default: break;
    }
    (void)cg_toml_kind_name(v->kind);
    return n;
}

static const char *const some_paths[] = {
    "a.py", "src/train.py", "tests/test_x.py", "pkg/sub/mod.py", "kernels/a.cu", "build/x.py", "", ".", NULL,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 20)) return 0;
    /* an exact copy: an over-read past `size` is a sanitizer report */
    char *text = malloc(size ? size : 1);
    if (size) memcpy(text, data, size);
    char err[1024];
    uint32_t line = 0;
    cg_toml_doc *doc = cg_toml_parse(text, size, err, sizeof err, &line);
    if (doc) {
        volatile size_t n = visit(cg_toml_root(doc), 0);
        (void)n;
        cg_toml_free(doc);
    } else if (!err[0]) {
        abort();   /* a refusal says why */
    }
    for (int pyproject = 0; pyproject < 2; pyproject++) {
        cg_config *c = NULL;
        err[0] = 0;
        int rc = cg_config_parse(&c, pyproject ? "/fuzz/pyproject.toml" : "/fuzz/.cglint.toml", text, size,
                                 pyproject, err, sizeof err);
        if (rc < 0 && !err[0]) abort();
        if (rc != 0 || !c) { cg_config_free(c); continue; }
        cg_rule_cli cli = { "CG1", NULL, "CG104" };
        for (int i = 0; some_paths[i]; i++) {
            cg_ruleset rs;
            cg_config_rules(c, NULL, some_paths[i], &rs);
            cg_config_rules(c, &cli, some_paths[i], &rs);
            for (size_t k = 0; k < c->exclude.n; k++) (void)cg_config_glob(c->exclude.items[k], some_paths[i]);
            for (size_t k = 0; k < c->extend_exclude.n; k++)
                (void)cg_config_glob(c->extend_exclude.items[k], some_paths[i]);
        }
        cg_config_free(c);
    }
    free(text);
    return 0;
}
