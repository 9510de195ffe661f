/* html.c - one self-contained HTML page for `cglint run --format html` (and
 * `cglint -f html`): the program and its GPU, a verdict bar, each capture
 * region with its captures, replays, graph nodes and replay time (inline
 * SVG bars), and each finding with its verdict and evidence.
 *
 * Self-contained means: the style is inline, the charts are inline SVG, there
 * is no script at all and no URL the page loads (a report opened from a CI
 * artifact must not call out, and must look the same offline).  Everything
 * from the program or the files is escaped as HTML text. */
#include "emit.h"
#include "emit_int.h"
#include "cglint_version.h"
#include <stdlib.h>
#include <string.h>

static void h(FILE *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f) fputs("\xef\xbf\xbd", out);
            else fputc(*p, out);
        }
    }
}

static const char *verdict_color(cg_verdict v)
{
    switch (v) {
    case CG_VERDICT_CONFIRMED: return "#c62828";
    case CG_VERDICT_RUNTIME: return "#8e24aa";
    case CG_VERDICT_NOT_REPRODUCED: return "#2e7d32";
    case CG_VERDICT_NOT_EXERCISED: return "#9e9e9e";
    case CG_VERDICT_STATIC_ONLY: return "#1565c0";
    default: return "#616161";
    }
}

static const char *severity_color(cg_severity s)
{
    return s == CG_SEV_ERROR ? "#c62828" : s == CG_SEV_WARNING ? "#ef6c00" : "#1565c0";
}

static const char style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:1100px;"
    "color:#212121;padding:0 16px}h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;"
    "border-bottom:1px solid #e0e0e0;padding-bottom:4px}code,pre{font:12.5px/1.4 ui-monospace,'DejaVu Sans Mono',"
    "monospace}pre{background:#f5f5f5;padding:8px 10px;border-radius:4px;overflow-x:auto;margin:6px 0}"
    "table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #eee;"
    "vertical-align:top}th{font-weight:600;background:#fafafa}.muted{color:#757575}.pill{display:inline-block;"
    "padding:1px 8px;border-radius:10px;color:#fff;font-size:12px;font-weight:600;white-space:nowrap}"
    ".finding{border:1px solid #e0e0e0;border-left:5px solid #9e9e9e;border-radius:4px;padding:8px 12px;"
    "margin:10px 0}.finding h3{font-size:14px;margin:0 0 4px;font-weight:600}.num{text-align:right;"
    "font-variant-numeric:tabular-nums}";

/* A horizontal stacked bar of the verdict counts, with its legend. */
static void html_verdict_bar(FILE *out, const cg_report *r)
{
    size_t total = 0, n[CG_VERDICT_COUNT] = {0};
    for (int v = CG_VERDICT_CONFIRMED; v < CG_VERDICT_COUNT; v++)
        total += n[v] = cg_report_count_verdict(r, (cg_verdict)v);
    const int W = 600, H = 22;
    fprintf(out, "<svg width=\"%d\" height=\"%d\" role=\"img\" "
                 "aria-label=\"verdicts\">\n", W, H + 24);
    double x = 0;
    if (!total) fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#eeeeee\"/>\n", W, H);
    for (int v = CG_VERDICT_CONFIRMED; v < CG_VERDICT_COUNT && total; v++) {
        if (!n[v]) continue;
        double w = (double)W * (double)n[v] / (double)total;
        fprintf(out, "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%zu %s</title></rect>\n",
                x, w, H, verdict_color((cg_verdict)v), n[v], cg_verdict_name((cg_verdict)v));
        x += w;
    }
    x = 0;
    for (int v = CG_VERDICT_CONFIRMED; v < CG_VERDICT_COUNT; v++) {
        fprintf(out, "<rect x=\"%.0f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                     "<text x=\"%.0f\" y=\"%d\" font-size=\"11\" fill=\"#424242\">%zu %s</text>\n",
                x, H + 8, verdict_color((cg_verdict)v), x + 14, H + 17, n[v], cg_verdict_name((cg_verdict)v));
        x += 120;
    }
    fputs("</svg>\n", out);
}

/* Horizontal bars on one scale (maxv), each labelled and followed by its
 * value (`decimals` places, then `unit`). */
typedef struct html_bar { const char *label; double v; const char *color; } html_bar;

static void html_bars(FILE *out, const char *aria, const html_bar *bars, int n, double maxv, int W, int BH,
                      int decimals, const char *unit)
{
    fprintf(out, "<svg width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">\n", W + 120, n * (BH + 6), aria);
    for (int i = 0; i < n; i++) {
        double w = maxv > 0 ? (double)W * bars[i].v / maxv : 0;
        if (bars[i].v > 0 && w < 2) w = 2;
        int y = i * (BH + 6);
        fprintf(out, "<text x=\"0\" y=\"%d\" font-size=\"11\" fill=\"#424242\">%s</text>"
                     "<rect x=\"60\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
                     "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#212121\">%.*f%s</text>\n",
                y + BH - 1, bars[i].label, y, w, BH, bars[i].color, 64 + w, y + BH - 1, decimals, bars[i].v, unit);
    }
    fputs("</svg>", out);
}

/* Per region: captures, failed captures and replays as bars on one scale. */
static void html_region_chart(FILE *out, const cg_region_stat *g, unsigned long maxv)
{
    const html_bar bars[] = {
        { "captures", (double)g->captures, "#1565c0" },
        { "failed", (double)g->failed, "#c62828" },
        { "replays", (double)g->replays, "#2e7d32" },
    };
    html_bars(out, "captures and replays", bars, 3, (double)maxv, 260, 12, 0, "");
}

/* The replay against the same step run eagerly: two bars on one scale. */
static void html_replay_vs_eager(FILE *out, const cg_region_stat *g)
{
    const html_bar bars[] = {
        { "replay", g->mean_replay_ms, "#2e7d32" },
        { "eager", g->eager_step_ms, "#ef6c00" },
    };
    html_bars(out, "replay against eager", bars, 2,
              g->eager_step_ms > g->mean_replay_ms ? g->eager_step_ms : g->mean_replay_ms, 160, 10, 3, " ms");
}

static void html_run(FILE *out, const cg_report *r)
{
    const cg_run_info *ri = r->run;
    fputs("<h2>Program</h2>\n<pre>", out);
    for (size_t i = 0; i < ri->argc; i++) {
        if (i) fputc(' ', out);
        h(out, ri->argv[i]);
    }
    fputs("</pre>\n<p>", out);
    if (ri->signal) fprintf(out, "Killed by signal %d", ri->signal);
    else fprintf(out, "Exited with status %d", ri->exit_code);
    fprintf(out, "; %zu process%s observed", ri->processes, ri->processes == 1 ? "" : "es");
    if (ri->gpu) { fputs("; GPU ", out); h(out, ri->gpu); }
    if (ri->driver) { fputs(", driver ", out); h(out, ri->driver); }
    if (ri->cuda) { fputs(", CUDA ", out); h(out, ri->cuda); }
    if (ri->torch) { fputs(", PyTorch ", out); h(out, ri->torch); }
    fputs(".</p>\n<h2>Verdicts</h2>\n", out);
    html_verdict_bar(out, r);
    fputs("<h2>Capture regions</h2>\n", out);
    if (!ri->nregions) {
        fputs("<p class=\"muted\">No capture ran.</p>\n", out);
        return;
    }
    unsigned long maxv = 0;
    for (size_t i = 0; i < ri->nregions; i++) {
        const cg_region_stat *g = &ri->regions[i];
        if (g->captures > maxv) maxv = g->captures;
        if (g->replays > maxv) maxv = g->replays;
    }
    fputs("<table>\n<tr><th>Region</th><th>Kind</th><th class=\"num\">Graph nodes</th>"
          "<th class=\"num\">Mean replay</th><th>The step run eagerly</th><th>Captures and replays</th></tr>\n", out);
    for (size_t i = 0; i < ri->nregions; i++) {
        const cg_region_stat *g = &ri->regions[i];
        fputs("<tr><td><code>", out);
        h(out, g->site.path ? g->site.path : "?");
        fprintf(out, ":%u</code></td><td>", (unsigned)g->site.line);
        h(out, g->kind ? g->kind : "capture");
        fputs("</td><td class=\"num\">", out);
        if (g->nodes >= 0) fprintf(out, "%ld", g->nodes);
        else fputs("<span class=\"muted\">unknown</span>", out);
        fputs("</td><td class=\"num\">", out);
        if (g->mean_replay_ms >= 0) fprintf(out, "%.3f ms", g->mean_replay_ms);
        else fputs("<span class=\"muted\">not sampled</span>", out);
        fputs("</td><td>", out);
        if (g->eager_step_ms >= 0) {
            fputs("<code>", out);
            h(out, g->eager_step ? g->eager_step : "?");
            fprintf(out, "</code>: %.3f ms (median of %lu call%s)", g->eager_step_ms, g->eager_calls,
                    g->eager_calls == 1 ? "" : "s");
            if (g->mean_replay_ms > 0)
                fprintf(out, "; replays <b>%.1f&times;</b> faster", g->eager_step_ms / g->mean_replay_ms);
            if (g->mean_replay_ms >= 0) {
                fputs("<br>", out);
                html_replay_vs_eager(out, g);
            }
        } else {
            fputs("<span class=\"muted\">not run outside captures, or not timed</span>", out);
        }
        fputs("</td><td>", out);
        html_region_chart(out, g, maxv);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void html_finding(FILE *out, const cg_finding *f)
{
    const cg_rule *rule = &cg_rules[f->rule];
    const char *vc = f->verdict != CG_VERDICT_NONE ? verdict_color(f->verdict) : severity_color(f->level);
    fprintf(out, "<div class=\"finding\" id=\"f-%s-%u-%u\" style=\"border-left-color:%s\">\n<h3>",
            rule->id, (unsigned)f->loc.line, (unsigned)f->loc.col, vc);
    fprintf(out, "<span class=\"pill\" style=\"background:%s\">%s</span> ", severity_color(f->level),
            cg_severity_name(f->level));
    if (f->verdict != CG_VERDICT_NONE) {
        fprintf(out, "<span class=\"pill\" style=\"background:%s\">", verdict_color(f->verdict));
        h(out, cg_verdict_name(f->verdict));
        fputs("</span> ", out);
    }
    fprintf(out, "%s <span class=\"muted\">%s</span> &middot; <code>", rule->id, rule->name);
    h(out, f->loc.path ? f->loc.path : "?");
    fprintf(out, ":%u:%u</code></h3>\n<p>", (unsigned)f->loc.line, (unsigned)f->loc.col);
    h(out, f->message);
    fputs("</p>\n", out);
    if (f->line_text && *f->line_text) {
        fprintf(out, "<pre>%u | ", (unsigned)f->loc.line);
        h(out, f->line_text);
        fputs("</pre>\n", out);
    }
    if (f->has_capture) {
        fputs("<p class=\"muted\">", out);
        fputs(f->npath ? "Reached from the capture at <code>" : "Inside the capture at <code>", out);
        h(out, f->capture.path ? f->capture.path : "?");
        fprintf(out, ":%u</code>", (unsigned)f->capture.line);
        if (f->capture_kind) { fputs(" (", out); h(out, f->capture_kind); fputc(')', out); }
        for (size_t k = 0; k < f->npath; k++) {
            fputs(k ? " &rarr; " : " via ", out);
            h(out, f->path[k].function);
        }
        fputs(".</p>\n", out);
    }
    if (f->verdict != CG_VERDICT_NONE) {
        fputs("<p><b>Verdict:</b> ", out);
        h(out, cg_verdict_name(f->verdict));
        if (f->evidence && *f->evidence) { fputs(". <b>Evidence:</b> ", out); h(out, f->evidence); }
        fputs("</p>\n", out);
    }
    const char *fix = f->fix && *f->fix ? f->fix : rule->fix;
    if (fix) {
        /* one sentence, as the text format's help: capitalised, with a full stop */
        size_t n = strlen(fix);
        fputs("<p><b>Fix:</b> ", out);
        if (fix[0] >= 'a' && fix[0] <= 'z') { fputc(fix[0] - 'a' + 'A', out); h(out, fix + 1); }
        else h(out, fix);
        if (n && !strchr(".!?:", fix[n - 1])) fputc('.', out);
        fputs("</p>\n", out);
    }
    fputs("</div>\n", out);
}

static void html_head(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
    h(out, title);
    fputs("</title>\n<style>", out);
    fputs(style, out);
    fputs("</style>\n</head>\n<body>\n<h1>", out);
    h(out, title);
    fputs("</h1>\n", out);
}

/* --statistics -f html: the count table on a page of its own. */
void cg_emit_html_statistics(FILE *out, const cg_stat_row *rows, size_t n, size_t total, const cg_emit_opts *o)
{
    html_head(out, "cglint statistics");
    fprintf(out, "<p class=\"muted\">cglint %s &middot; %zu finding%s</p>\n",
            o && o->tool_version ? o->tool_version : CGLINT_VERSION, total, total == 1 ? "" : "s");
    if (!n) fputs("<p class=\"muted\">No findings.</p>\n", out);
    else {
        fputs("<table>\n<tr><th class=\"num\">Count</th><th>Rule</th><th>Name</th><th class=\"num\">Fixable</th>"
              "<th>Severity</th></tr>\n", out);
        for (size_t i = 0; i < n; i++) {
            const cg_rule *r = &cg_rules[rows[i].rule];
            fprintf(out, "<tr><td class=\"num\">%zu</td><td><code>%s</code></td><td>", rows[i].count, r->id);
            h(out, r->name);
            fprintf(out, "</td><td class=\"num\">%zu</td><td>%s</td></tr>\n", rows[i].fixable,
                    cg_severity_name(r->severity));
        }
        fputs("</table>\n", out);
    }
    fputs("</body>\n</html>\n", out);
}

/* --list-rules -f html (only < 0): the catalog; --explain (only >= 0): the
 * rule's page as preformatted text (no Markdown renderer is linked). */
void cg_emit_html_rules(FILE *out, int only)
{
    if (only >= 0) {
        const cg_rule *r = &cg_rules[only];
        char title[160];
        snprintf(title, sizeof title, "%s %s", r->id, r->name);
        html_head(out, title);
        fputs("<pre>", out);
        h(out, r->doc);
        fputs("</pre>\n</body>\n</html>\n", out);
        return;
    }
    html_head(out, "cglint rules");
    fputs("<table>\n<tr><th>Rule</th><th>Name</th><th>Category</th><th>Severity</th><th>Languages</th>"
          "<th>Summary</th></tr>\n", out);
    for (size_t i = 0; i < cg_rule_count; i++) {
        const cg_rule *r = &cg_rules[i];
        fprintf(out, "<tr><td><code>%s</code></td><td>", r->id);
        h(out, r->name);
        fputs("</td><td>", out);
        h(out, r->category_name);
        fprintf(out, "</td><td>%s</td><td>", cg_severity_name(r->severity));
        h(out, r->languages);
        fputs("</td><td>", out);
        h(out, r->summary);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n</body>\n</html>\n", out);
}

int cg_emit_html(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    html_head(out, "cglint report");
    fputs("<p class=\"muted\">", out);
    fprintf(out, "cglint %s", o && o->tool_version ? o->tool_version : "");
    if (r->root) { fputs(" &middot; paths relative to <code>", out); h(out, r->root); fputs("</code>", out); }
    fputs("</p>\n", out);
    if (r->run) html_run(out, r);
    fprintf(out, "<h2>Findings (%zu)</h2>\n", r->nfindings);
    if (!r->nfindings) fputs("<p class=\"muted\">No findings.</p>\n", out);
    for (size_t i = 0; i < r->nfindings; i++) html_finding(out, &r->findings[i]);
    size_t errors = 0;
    for (size_t i = 0; i < r->nnotices; i++) errors += r->notices[i].level >= CG_WARN;
    if (errors) {
        fputs("<h2>Messages</h2>\n<ul>\n", out);
        for (size_t i = 0; i < r->nnotices; i++) {
            const cg_notice *n = &r->notices[i];
            if (n->level < CG_WARN) continue;
            fputs("<li>", out);
            fputs(n->level == CG_ERROR ? "error: " : "warning: ", out);
            if (n->path) { fputs("<code>", out); h(out, n->path); fputs("</code>: ", out); }
            h(out, n->message);
            fputs("</li>\n", out);
        }
        fputs("</ul>\n", out);
    }
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}
