/* formats.c - the formats that other tools read one finding at a time:
 *
 *   concise     path:line:col: CG101 [*] message      (ruff's concise; [*]: --fix fixes it)
 *   json-lines  one finding per line, the JSON format's finding object
 *   junit       JUnit XML: a testsuite per file, a failing testcase per finding
 *               (Jenkins, GitLab and Azure test reports read it)
 *   gitlab      GitLab Code Quality: a JSON array of Code Climate issues
 *
 * plus --statistics, --list-rules and --explain in every format.
 * The GitLab fingerprint must differ between findings (GitLab shows only the
 * first of equal ones) and survive lines moving, so it is the SARIF
 * fingerprint's recipe: the rule, the path and the line's text without
 * whitespace, numbered when equal within a file. */
#include "emit.h"
#include "emit_int.h"
#include "core/hash.h"
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* ---- concise ---------------------------------------------------------------------- */

int cg_emit_concise(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        const cg_finding *f = &r->findings[i];
        cg_emit_escaped(out, f->loc.path ? f->loc.path : "?");
        fprintf(out, ":%u:%u: %s %s", (unsigned)f->loc.line, (unsigned)f->loc.col, cg_rules[f->rule].id,
                f->nedits && f->fix_safe ? "[*] " : "");
        cg_emit_escaped(out, f->message ? f->message : "");
        if (f->verdict != CG_VERDICT_NONE) fprintf(out, " (%s)", cg_verdict_name(f->verdict));
        fputc('\n', out);
    }
    if (!o->quiet) {
        size_t fixable = 0;
        for (size_t i = 0; i < r->nfindings; i++) fixable += r->findings[i].nedits && r->findings[i].fix_safe;
        if (!r->nfindings) fputs("No findings.\n", out);
        else fprintf(out, "Found %zu finding%s.%s\n", r->nfindings, r->nfindings == 1 ? "" : "s",
                     fixable ? " [*] fixable with --fix." : "");
    }
    return ferror(out) ? -1 : 0;
}

/* ---- json-lines --------------------------------------------------------------------- */

static int jsonl_write(FILE *out, json_t *o)
{
    if (!o) return -1;
    int rc = json_dumpf(o, out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(o);
    fputc('\n', out);
    return rc;
}

int cg_emit_json_lines(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    (void)o;
    for (size_t i = 0; i < r->nfindings; i++)
        if (jsonl_write(out, cg_emit_json_finding(&r->findings[i])) < 0) return -1;
    return ferror(out) ? -1 : 0;
}

/* ---- fingerprints (gitlab) ------------------------------------------------------------- */

typedef struct {
    cg_map map;     /* "path\0hash" -> occurrences so far */
    char **keys;
    size_t nkeys;
} fp_occ;

static void fingerprint(fp_occ *occ, const cg_finding *f, char out[33])
{
    const char *id = cg_rules[f->rule].id, *path = f->loc.path ? f->loc.path : "";
    const char *line = f->line_text ? f->line_text : "";
    size_t idl = strlen(id), pl = strlen(path), n = strlen(line), k = 0;
    char *buf = malloc(idl + pl + n + 2);
    if (!buf) { snprintf(out, 33, "%032x", 0); return; }
    memcpy(buf, id, idl);
    k = idl;
    buf[k++] = 0;
    memcpy(buf + k, path, pl);
    k += pl;
    buf[k++] = 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr(" \t\r\n\f\v", line[i])) buf[k++] = line[i];
    uint64_t h = cg_hash_bytes(buf, k);
    free(buf);
    char key[17];
    snprintf(key, sizeof key, "%016" PRIx64, h);
    size_t nth = (size_t)(uintptr_t)cg_map_get(&occ->map, key, 16) + 1;
    char **keys = realloc(occ->keys, (occ->nkeys + 1) * sizeof *keys);
    char *kc = strdup(key);
    if (keys && kc) {
        occ->keys = keys;
        occ->keys[occ->nkeys++] = kc;
        cg_map_put(&occ->map, kc, 16, (void *)(uintptr_t)nth);
    } else {
        free(kc);
        if (keys) occ->keys = keys;
    }
    char seed[64];
    snprintf(seed, sizeof seed, "%s:%zu", key, nth);
    snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, h, cg_hash_bytes(seed, strlen(seed)));
}

/* ---- gitlab ------------------------------------------------------------------------------ */

static const char *gitlab_severity(cg_severity s)
{
    /* Code Climate's scale: info, minor, major, critical, blocker */
    return s == CG_SEV_ERROR ? "critical" : s == CG_SEV_WARNING ? "major" : "info";
}

int cg_emit_gitlab(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    (void)o;
    fp_occ occ = {0};
    cg_map_init(&occ.map);
    json_t *a = json_array();
    for (size_t i = 0; i < r->nfindings; i++) {
        const cg_finding *f = &r->findings[i];
        const cg_rule *rule = &cg_rules[f->rule];
        char fp[33], name[128];
        fingerprint(&occ, f, fp);
        snprintf(name, sizeof name, "%s %s", rule->id, rule->name);
        json_t *x = json_object();
        json_object_set_new(x, "type", json_string("issue"));
        json_object_set_new(x, "check_name", cg_emit_json_string(name));
        json_object_set_new(x, "description", cg_emit_json_string(f->message ? f->message : rule->summary));
        json_t *cats = json_array();
        json_array_append_new(cats, json_string("Bug Risk"));
        json_object_set_new(x, "categories", cats);
        json_object_set_new(x, "fingerprint", json_string(fp));
        json_object_set_new(x, "severity", json_string(gitlab_severity(f->level)));
        json_t *loc = json_object(), *lines = json_object();
        json_object_set_new(loc, "path", cg_emit_json_string(f->loc.path ? f->loc.path : ""));
        json_object_set_new(lines, "begin", json_integer(f->loc.line ? f->loc.line : 1));
        json_object_set_new(lines, "end", json_integer(f->loc.end_line > f->loc.line ? f->loc.end_line
                                                       : f->loc.line ? f->loc.line : 1));
        json_object_set_new(loc, "lines", lines);
        json_object_set_new(x, "location", loc);
        json_array_append_new(a, x);
    }
    for (size_t i = 0; i < occ.nkeys; i++) free(occ.keys[i]);
    free(occ.keys);
    cg_map_free(&occ.map);
    int rc = json_dumpf(a, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(a);
    fputc('\n', out);
    return rc < 0 || ferror(out) ? -1 : 0;
}

/* ---- junit --------------------------------------------------------------------------------- */

/* XML 1.0 text or attribute: the five entities, and characters XML cannot
 * hold at all (C0 controls but tab and newline) as U+FFFD. */
static void xml_text(FILE *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        case '\n': fputs("&#10;", out); break;
        case '\t': fputc('\t', out); break;
        default:
            if (*p < 0x20 || *p == 0x7f) fputs("\xef\xbf\xbd", out);
            else fputc(*p, out);
        }
    }
}

int cg_emit_junit(FILE *out, const cg_report *r, const cg_emit_opts *o)
{
    (void)o;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    size_t errors = cg_report_errors(r);
    fprintf(out, "<testsuites name=\"cglint\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
            (r->nfindings ? r->nfindings : 1) + errors, r->nfindings, errors);
    if (!r->nfindings) {
        fputs("  <testsuite name=\"cglint\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"
              "    <testcase name=\"no findings\" classname=\"cglint\"/>\n"
              "  </testsuite>\n", out);
    }
    /* findings are sorted by path: one testsuite per run of equal paths */
    for (size_t i = 0; i < r->nfindings;) {
        const char *path = r->findings[i].loc.path ? r->findings[i].loc.path : "";
        size_t j = i;
        while (j < r->nfindings && strcmp(r->findings[j].loc.path ? r->findings[j].loc.path : "", path) == 0) j++;
        fputs("  <testsuite name=\"", out);
        xml_text(out, path);
        fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", j - i, j - i);
        for (size_t k = i; k < j; k++) {
            const cg_finding *f = &r->findings[k];
            const cg_rule *rule = &cg_rules[f->rule];
            fprintf(out, "    <testcase name=\"%s %s at %u:%u\" classname=\"", rule->id, rule->name,
                    (unsigned)f->loc.line, (unsigned)f->loc.col);
            xml_text(out, path);
            fputs("\" file=\"", out);
            xml_text(out, path);
            fprintf(out, "\" line=\"%u\">\n      <failure type=\"%s\" message=\"", (unsigned)f->loc.line, rule->id);
            xml_text(out, f->message);
            fputs("\">", out);
            xml_text(out, path);
            fprintf(out, ":%u:%u: %s: ", (unsigned)f->loc.line, (unsigned)f->loc.col, cg_severity_name(f->level));
            xml_text(out, f->message);
            fprintf(out, " [%s]", rule->id);
            const char *fix = f->fix && *f->fix ? f->fix : rule->fix;
            if (fix) { fputs("&#10;help: ", out); xml_text(out, fix); }
            if (f->verdict != CG_VERDICT_NONE) {
                fputs("&#10;verdict: ", out);
                xml_text(out, cg_verdict_name(f->verdict));
            }
            fputs("</failure>\n    </testcase>\n", out);
        }
        fputs("  </testsuite>\n", out);
        i = j;
    }
    /* inputs that could not be analysed: JUnit's errors, in a suite of their own */
    if (errors) {
        fprintf(out, "  <testsuite name=\"cglint: inputs that could not be analysed\" tests=\"%zu\" failures=\"0\" "
                "errors=\"%zu\" skipped=\"0\">\n", errors, errors);
        for (size_t i = 0; i < r->nnotices; i++) {
            const cg_notice *n = &r->notices[i];
            if (n->level != CG_ERROR) continue;
            fputs("    <testcase name=\"", out);
            xml_text(out, n->path ? n->path : "cglint");
            fputs("\" classname=\"cglint\">\n      <error message=\"", out);
            xml_text(out, n->message);
            fputs("\"/>\n    </testcase>\n", out);
        }
        fputs("  </testsuite>\n", out);
    }
    fputs("</testsuites>\n", out);
    return ferror(out) ? -1 : 0;
}

/* ---- --statistics ------------------------------------------------------------------------- */

static int stat_cmp(const void *pa, const void *pb)
{
    const cg_stat_row *a = pa, *b = pb;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return strcmp(cg_rules[a->rule].id, cg_rules[b->rule].id);
}

static json_t *stat_object(const cg_stat_row *st)
{
    const cg_rule *rule = &cg_rules[st->rule];
    json_t *x = json_object();
    json_object_set_new(x, "code", json_string(rule->id));
    json_object_set_new(x, "name", json_string(rule->name));
    json_object_set_new(x, "count", json_integer((json_int_t)st->count));
    json_object_set_new(x, "fixable", json_integer((json_int_t)st->fixable));
    return x;
}

static int json_doc(FILE *out, json_t *doc)
{
    int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(doc);
    return rc;
}

/* The formats whose readers take findings at a line (GitHub's annotations,
 * GitLab's Code Quality widget) have no place for counts or a catalog: they
 * write what text (the Actions log shows it) and json (a script reads it)
 * write. */
static cg_format info_format(cg_format fmt)
{
    return fmt == CG_FMT_GITHUB ? CG_FMT_TEXT : fmt == CG_FMT_GITLAB ? CG_FMT_JSON : fmt;
}

int cg_emit_statistics(FILE *out, cg_format fmt, const cg_report *r, const cg_emit_opts *o)
{
    fmt = info_format(fmt);
    if (fmt == CG_FMT_TEXT) return cg_emit_text(out, r, o);   /* the table and the summary */
    cg_stat_row *st = calloc(cg_rule_count ? cg_rule_count : 1, sizeof *st);
    if (!st) return -1;
    for (size_t i = 0; i < cg_rule_count; i++) st[i].rule = i;
    for (size_t i = 0; i < r->nfindings; i++) {
        st[r->findings[i].rule].count++;
        st[r->findings[i].rule].fixable += r->findings[i].nedits && r->findings[i].fix_safe;
    }
    qsort(st, cg_rule_count, sizeof *st, stat_cmp);
    size_t n = 0, total = 0;
    while (n < cg_rule_count && st[n].count) total += st[n++].count;
    int rc = 0;
    switch (fmt) {
    case CG_FMT_CONCISE:
        for (size_t i = 0; i < n; i++)
            fprintf(out, "%5zu  %s  %s%s\n", st[i].count, cg_rules[st[i].rule].id, st[i].fixable ? "[*] " : "",
                    cg_rules[st[i].rule].name);
        break;
    case CG_FMT_JSON_LINES:
        for (size_t i = 0; i < n && rc == 0; i++) rc = jsonl_write(out, stat_object(&st[i]));
        break;
    case CG_FMT_JUNIT:
        /* a failing testcase per rule that fired, its count the failure's message */
        fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<testsuites name=\"cglint statistics\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n"
                "  <testsuite name=\"cglint statistics\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
                n ? n : 1, n, n ? n : 1, n);
        if (!n) fputs("    <testcase name=\"no findings\" classname=\"cglint\"/>\n", out);
        for (size_t i = 0; i < n; i++) {
            const cg_rule *rule = &cg_rules[st[i].rule];
            fprintf(out, "    <testcase name=\"%s %s\" classname=\"cglint\">\n"
                    "      <failure message=\"%zu finding%s (%zu fixable)\" type=\"%s\"/>\n    </testcase>\n",
                    rule->id, rule->name, st[i].count, st[i].count == 1 ? "" : "s", st[i].fixable, rule->id);
        }
        fputs("  </testsuite>\n</testsuites>\n", out);
        break;
    case CG_FMT_HTML:
        cg_emit_html_statistics(out, st, n, total, o);
        break;
    case CG_FMT_SARIF:
    case CG_FMT_JSON: {
        json_t *a = json_array();
        for (size_t i = 0; i < n; i++) json_array_append_new(a, stat_object(&st[i]));
        rc = fmt == CG_FMT_JSON ? json_doc(out, a) : cg_emit_sarif_info(out, -1, a);
        break;
    }
    default: break;
    }
    free(st);
    return rc < 0 || ferror(out) ? -1 : 0;
}

/* ---- --list-rules, --explain ------------------------------------------------------------- */

static json_t *rule_object(const cg_rule *r)
{
    json_t *x = json_object();
    json_object_set_new(x, "code", json_string(r->id));
    json_object_set_new(x, "name", json_string(r->name));
    json_object_set_new(x, "category", json_string(r->category_name));
    json_object_set_new(x, "severity", json_string(cg_severity_name(r->severity)));
    json_object_set_new(x, "languages", json_string(r->languages));
    json_object_set_new(x, "status", json_string(r->status));
    json_object_set_new(x, "runtime", json_boolean(r->runtime != NULL));
    json_object_set_new(x, "summary", cg_emit_json_string(r->summary));
    return x;
}

int cg_emit_rule_info(FILE *out, cg_format fmt, int only)
{
    if (only >= (int)cg_rule_count) return -1;
    size_t lo = only < 0 ? 0 : (size_t)only, hi = only < 0 ? cg_rule_count : (size_t)only + 1;
    int rc = 0;
    switch (info_format(fmt)) {
    case CG_FMT_TEXT:
        if (only >= 0) { fputs(cg_rules[only].doc, out); break; }
        fprintf(out, "%-6s  %-30s  %-8s  %-8s  %-5s  %s\n", "ID", "NAME", "CATEGORY", "SEVERITY", "LANG", "SUMMARY");
        for (size_t i = 0; i < cg_rule_count; i++) {
            const cg_rule *r = &cg_rules[i];
            fprintf(out, "%-6s  %-30s  %-8s  %-8s  %-5s  %s\n", r->id, r->name, r->category_name,
                    cg_severity_name(r->severity), r->languages, r->summary);
        }
        break;
    case CG_FMT_CONCISE:
        for (size_t i = lo; i < hi; i++) fprintf(out, "%s %s\n", cg_rules[i].id, cg_rules[i].name);
        break;
    case CG_FMT_JSON:
        if (only >= 0) {
            json_t *x = rule_object(&cg_rules[only]);
            json_object_set_new(x, "explanation", cg_emit_json_string(cg_rules[only].doc));
            rc = json_doc(out, x);
        } else {
            json_t *a = json_array();
            for (size_t i = 0; i < cg_rule_count; i++) json_array_append_new(a, rule_object(&cg_rules[i]));
            rc = json_doc(out, a);
        }
        break;
    case CG_FMT_JSON_LINES:
        for (size_t i = lo; i < hi && rc == 0; i++) {
            json_t *x = rule_object(&cg_rules[i]);
            if (only >= 0) json_object_set_new(x, "explanation", cg_emit_json_string(cg_rules[i].doc));
            rc = jsonl_write(out, x);
        }
        break;
    case CG_FMT_SARIF:   /* the catalog is tool.driver.rules of a run with no results */
        rc = cg_emit_sarif_info(out, only, NULL);
        break;
    case CG_FMT_JUNIT:   /* a passing testcase per rule: the checks this tool runs */
        fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<testsuites name=\"cglint rules\" tests=\"%zu\" failures=\"0\" errors=\"0\">\n"
                "  <testsuite name=\"cglint rules\" tests=\"%zu\" failures=\"0\" errors=\"0\" skipped=\"0\">\n",
                hi - lo, hi - lo);
        for (size_t i = lo; i < hi; i++) {
            const cg_rule *r = &cg_rules[i];
            fprintf(out, "    <testcase name=\"%s %s\" classname=\"cglint.%s\">", r->id, r->name, r->category_name);
            if (only >= 0) {
                fputs("<system-out>", out);
                xml_text(out, r->doc);
                fputs("</system-out>", out);
            }
            fputs("</testcase>\n", out);
        }
        fputs("  </testsuite>\n</testsuites>\n", out);
        break;
    case CG_FMT_HTML:
        cg_emit_html_rules(out, only);
        break;
    default: break;
    }
    return rc < 0 || ferror(out) ? -1 : 0;
}

int cg_emit_rules(FILE *out, cg_format fmt) { return cg_emit_rule_info(out, fmt, -1); }
