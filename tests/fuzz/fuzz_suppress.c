/* fuzz_suppress.c - suppression comments: the input is scanned for
 * directives with the Python (`#`) and the C (`//`) comment markers, as
 * bytes without a terminating NUL; then it is written as a.py and as a.cu
 * with findings on its first 256 lines (the rules each line and the line
 * above it name, and one more per line) and cg_suppress_apply drops what
 * the directives suppress and reports what is wrong with them (CG001), as a
 * run would after the analysis; the text report is written (the other
 * emitters are the other harnesses' business: they made this one slow). */
#include "fuzz_common.h"
#include "core/rules.h"
#include "workflow/suppress.h"
#include "workflow/walk.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    fz_quiet();
    return 0;
}

static void add(cg_report *r, const char *path, int rule, uint32_t line, const char *text, size_t len)
{
    char lt[256];
    snprintf(lt, sizeof lt, "%.*s", (int)(len < 255 ? len : 255), text);
    cg_finding f = { .rule = rule, .level = cg_rules[rule].severity,
                     .loc = { path, line, 1, line, 2 }, .message = "fuzz", .line_text = lt };
    cg_report_add(r, &f);
}

static void codes_in(const char *s, size_t n, int *out, int *nout)
{
    for (size_t i = 0; i + 5 <= n && *nout < 8; i++)
        if (s[i] == 'C' && s[i + 1] == 'G') {
            char code[6];
            memcpy(code, s + i, 5);
            code[5] = 0;
            int idx = cg_rule_index(code);
            if (idx >= 0) out[(*nout)++] = idx;
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 20)) return 0;
    char *text = malloc(size ? size : 1);
    if (size) memcpy(text, data, size);
    (void)cg_suppress_maybe(text, size);
    static const char *const markers[] = { "#", "//" };
    for (int m = 0; m < 2; m++) {
        cg_directive *d = NULL;
        size_t nd = cg_suppress_scan(text, size, markers[m], &d);
        for (size_t i = 0; i < nd; i++)
            if (d[i].ncodes > CG_SUP_MAX_CODES || d[i].byte_end < d[i].byte_col) abort();
        free(d);
    }
    free(text);

    fz_reset();
    static const char *const names[] = { "a.py", "a.cu" };
    for (int m = 0; m < 2; m++) {
        const char *path = fz_write(0, names[m], data, size);
        if (!path) continue;
        cg_report r;
        cg_report_init(&r, NULL);
        const char *s = (const char *)data, *end = s + size;
        const char *prev = s;
        size_t prevlen = 0;
        for (uint32_t line = 1; s <= end && line <= 256; line++) {
            const char *nl = memchr(s, '\n', (size_t)(end - s));
            size_t len = (size_t)((nl ? nl : end) - s);
            int codes[16], nc = 0;
            codes_in(s, len, codes, &nc);
            codes_in(prev, prevlen, codes, &nc);
            for (int k = 0; k < nc; k++) add(&r, path, codes[k], line, s, len);
            unsigned h = 0;
            for (size_t k = 0; k < len; k++) h = h * 31 + (unsigned char)s[k];
            add(&r, path, (int)(h % cg_rule_count), line, s, len);
            prev = s;
            prevlen = len;
            if (!nl) break;
            s = nl + 1;
        }
        cg_file f = { .path = (char *)path, .lang = m ? CG_LANG_CU : CG_LANG_PY, .is_explicit = 1, .report = 1 };
        cg_ruleset rs;
        cg_ruleset_all(&rs);
        cg_suppress_apply(&r, &f, 1, &rs);
        fz_emit_text(&r);
        cg_report_free(&r);
    }
    return 0;
}
