/* emit.c - format names and the dispatch over the emitters.
 *
 * The emitters themselves are independent readers of one cg_report (see
 * report.h): text.c for people, json.c for scripts, sarif.c for code-scanning
 * services and SARIF viewers, github.c for GitHub Actions annotations.  None
 * of them filters, sorts or decides exit codes; the driver does. */
#include "emit.h"
#include <string.h>

int cg_format_parse(const char *name)
{
    if (!name) return -1;
    if (strcmp(name, "text") == 0) return CG_FMT_TEXT;
    if (strcmp(name, "json") == 0) return CG_FMT_JSON;
    if (strcmp(name, "sarif") == 0) return CG_FMT_SARIF;
    if (strcmp(name, "github") == 0) return CG_FMT_GITHUB;
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
    }
    return -1;
}
