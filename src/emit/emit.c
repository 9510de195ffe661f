/* emit.c - format names and the dispatch over the emitters.
 *
 * The emitters themselves are independent readers of one cg_report (see
 * report.h): text.c for people, json.c for scripts, sarif.c for code-scanning
 * services and SARIF viewers, github.c for GitHub Actions annotations.  None
 * of them filters, sorts or decides exit codes; the driver does. */
#include "emit.h"
#include "emit_int.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int stderr_color = -1;

void cg_emit_stderr_color(int when) { stderr_color = when; }

const char *cg_emit_level_prefix(int level)
{
    if (stderr_color < 0) {
        const char *nc = getenv("NO_COLOR");
        stderr_color = isatty(STDERR_FILENO) && !(nc && *nc);
    }
    if (stderr_color)
        return level == CG_ERROR ? "cglint: \x1b[1;31merror\x1b[0m: "
             : level == CG_WARN ? "cglint: \x1b[1;33mwarning\x1b[0m: " : "cglint: \x1b[1;36mnote\x1b[0m: ";
    return level == CG_ERROR ? "cglint: error: " : level == CG_WARN ? "cglint: warning: " : "cglint: note: ";
}

const char *cg_emit_error_prefix(void) { return cg_emit_level_prefix(CG_ERROR); }

const char *const cg_format_names[CG_FMT_COUNT] = {
    "text", "json", "sarif", "github", "concise", "json-lines", "junit", "gitlab", "html",
};

int cg_format_parse(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < CG_FMT_COUNT; i++)
        if (strcmp(name, cg_format_names[i]) == 0) return i;
    return -1;
}

int cg_emit(FILE *out, cg_format fmt, const cg_report *r, const cg_emit_opts *o)
{
    /* Callers that only want defaults may pass no options. */
    static const cg_emit_opts defaults = {0};
    if (!o) o = &defaults;
    switch (fmt) {
    case CG_FMT_TEXT: return cg_emit_text(out, r, o);
    case CG_FMT_JSON: return cg_emit_json(out, r, o);
    case CG_FMT_SARIF: return cg_emit_sarif(out, r, o);
    case CG_FMT_GITHUB: return cg_emit_github(out, r, o);
    case CG_FMT_CONCISE: return cg_emit_concise(out, r, o);
    case CG_FMT_JSON_LINES: return cg_emit_json_lines(out, r, o);
    case CG_FMT_JUNIT: return cg_emit_junit(out, r, o);
    case CG_FMT_GITLAB: return cg_emit_gitlab(out, r, o);
    case CG_FMT_HTML: return cg_emit_html(out, r, o);
    }
    return -1;
}

/* A JSON string, or null for NULL.  jansson refuses invalid UTF-8; the model
 * should never hold any (sources are validated on load), but a message built
 * from a truncated buffer must not make a key vanish, so bad bytes become
 * U+FFFD. */
json_t *cg_emit_json_string(const char *s)
{
    if (!s) return json_null();
    json_t *j = json_string(s);
    if (j) return j;
    size_t n = strlen(s), o = 0;
    char *buf = malloc(n * 3 + 1);
    if (!buf) return NULL;
    for (size_t i = 0; i < n;) {
        const unsigned char *u = (const unsigned char *)s + i;
        size_t len = u[0] < 0x80 ? 1 : u[0] >= 0xc2 && u[0] <= 0xdf ? 2
                   : u[0] >= 0xe0 && u[0] <= 0xef ? 3 : u[0] >= 0xf0 && u[0] <= 0xf4 ? 4 : 0;
        for (size_t k = 1; len && k < len; k++)
            if (i + k >= n || (u[k] & 0xc0) != 0x80) len = 0;
        /* Overlong 3/4-byte forms and surrogates, which jansson also rejects. */
        if (len == 3 && ((u[0] == 0xe0 && u[1] < 0xa0) || (u[0] == 0xed && u[1] >= 0xa0))) len = 0;
        if (len == 4 && ((u[0] == 0xf0 && u[1] < 0x90) || (u[0] == 0xf4 && u[1] >= 0x90))) len = 0;
        if (len) {
            memcpy(buf + o, u, len);
            o += len;
            i += len;
        } else {
            memcpy(buf + o, "\xef\xbf\xbd", 3);
            o += 3;
            i++;
        }
    }
    j = json_stringn(buf, o);
    free(buf);
    return j;
}
