/* github.c - GitHub Actions workflow commands, one annotation per line:
 *
 *   ::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=CG101 (name)::MESSAGE
 *
 * The runner splits a command at the first "::" and its properties at ',' and
 * '=', and ends it at a newline, so values are escaped exactly as
 * @actions/core's toCommandValue/escapeData/escapeProperty do: '%', CR and LF
 * everywhere, ':' and ',' in property values as well. */
#include "emit.h"

static void github_escape(FILE *out, const char *s, int property)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '%': fputs("%25", out); break;
        case '\r': fputs("%0D", out); break;
        case '\n': fputs("%0A", out); break;
        case ':': if (property) fputs("%3A", out); else fputc(':', out); break;
        case ',': if (property) fputs("%2C", out); else fputc(',', out); break;
        default: fputc(*s, out);
        }
    }
}

static const char *github_command(int level)
{
    /* cg_severity and cg_level share their numbering: note 0, warning 1, error 2. */
    return level == 2 ? "error" : level == 1 ? "warning" : "notice";
}

static void github_finding(FILE *out, const cg_finding *f)
{
    const cg_rule *rule = &cg_rules[f->rule];
    fprintf(out, "::%s file=", github_command(f->level));
    github_escape(out, f->loc.path, 1);
    fprintf(out, ",line=%u", (unsigned)f->loc.line);
    /* GitHub takes columns only for an annotation on one line (the toolkit
     * says col/endColumn "cannot be sent when line and endLine differ"). */
    if (f->loc.end_line > f->loc.line)
        fprintf(out, ",endLine=%u", (unsigned)f->loc.end_line);
    else if (f->loc.col) {
        fprintf(out, ",col=%u", (unsigned)f->loc.col);
        if (f->loc.end_col > f->loc.col)
            fprintf(out, ",endLine=%u,endColumn=%u", (unsigned)f->loc.line, (unsigned)f->loc.end_col);
    }
    fputs(",title=", out);
    github_escape(out, rule->id, 1);
    fputs(" (", out);
    github_escape(out, rule->name, 1);
    fputs(")::", out);
    github_escape(out, f->message, 0);
    /* An annotation shows one line of the file: the capture that makes it a
     * hazard is otherwise invisible when it lives in another function. */
    if (f->has_capture && f->npath) {
        char lineno[16];
        fputs(" (reached from the capture at ", out);
        github_escape(out, f->capture.path, 0);
        snprintf(lineno, sizeof lineno, ":%u via ", (unsigned)f->capture.line);
        fputs(lineno, out);
        for (size_t k = 0; k < f->npath; k++) {
            if (k) fputs(" -> ", out);
            github_escape(out, f->path[k].function, 0);
        }
        fputc(')', out);
    }
    if (f->verdict != CG_VERDICT_NONE) {
        fputs(" [", out);
        github_escape(out, cg_verdict_name(f->verdict), 0);
        if (f->evidence && *f->evidence) {
            fputs(": ", out);
            github_escape(out, f->evidence, 0);
        }
        fputc(']', out);
    }
    fputc('\n', out);
}

static void github_notice(FILE *out, const cg_notice *n)
{
    fprintf(out, "::%s", github_command(n->level));
    if (n->path) {
        fputs(" file=", out);
        github_escape(out, n->path, 1);
        if (n->line) fprintf(out, ",line=%u", (unsigned)n->line);
        if (n->line && n->col) fprintf(out, ",col=%u", (unsigned)n->col);
    }
    fputs("::", out);
    github_escape(out, n->message, 0);
    fputc('\n', out);
}

int cg_emit_github(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    for (size_t i = 0; i < r->nfindings; i++) github_finding(out, &r->findings[i]);
    for (size_t i = 0; i < r->nnotices; i++) github_notice(out, &r->notices[i]);
    return ferror(out) ? -1 : 0;
}
