/* opts.c - getopt_long, --help and the docs from one option table (opts.h). */
#include "opts.h"

#include <stdlib.h>
#include <string.h>

enum { HELP_COLUMN = 26 };

size_t cg_opts_count(const cg_opt *table)
{
    size_t n = 0;
    while (table[n].name) n++;
    return n;
}

void cg_opts_getopt(const cg_opt *table, struct option *longopts, size_t nlong, char *short_out, size_t short_n)
{
    if (cg_opts_count(table) + 1 > nlong || short_n < 2 * cg_opts_count(table) + 2) {
        fputs("cglint: error: internal: an option table larger than its getopt arrays\n", stderr);
        exit(2);
    }
    size_t s = 0;
    short_out[s++] = ':';   /* a missing value is ':', not '?' */
    for (const cg_opt *o = table; o->name; o++, longopts++) {
        *longopts = (struct option){ o->name, o->arg ? required_argument : no_argument, NULL, o->key };
        if (o->key >= 256 || (s && memchr(short_out, o->key, s))) continue;   /* aliases share a letter */
        short_out[s++] = (char)o->key;
        if (o->arg) short_out[s++] = ':';
    }
    *longopts = (struct option){ 0, 0, 0, 0 };
    short_out[s] = 0;
}

/* "  -f, --format FMT" or "      --color WHEN" */
static int left_column(FILE *out, const cg_opt *o)
{
    int n = o->key < 256 ? fprintf(out, "  -%c, --%s", o->key, o->name) : fprintf(out, "      --%s", o->name);
    if (o->arg) n += fprintf(out, " %s", o->arg);
    return n;
}

void cg_opts_help(FILE *out, const cg_opt *table)
{
    for (const cg_opt *o = table; o->name; o++) {
        if (o->group) fprintf(out, "%s:\n", o->group);
        if (!o->help) continue;
        int n = left_column(out, o);
        const char *h = o->help;
        if (*h == '\n') { fprintf(out, "\n%*s", HELP_COLUMN, ""); h++; }   /* starts on the next line */
        else fprintf(out, "%*s", n <= HELP_COLUMN - 2 ? HELP_COLUMN - n : 2, "");
        for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
            fprintf(out, "%.*s\n%*s", (int)(nl - h), h, HELP_COLUMN, "");
        fprintf(out, "%s\n", h);
    }
}

/* Markdown text: help's lines joined by spaces, '|' escaped. */
static void md_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n') { if (s[1] && s[-1] != ' ') fputc(' ', out); }
        else if (*s == '|') fputs("\\|", out);
        else fputc(*s, out);
    }
}

void cg_opts_markdown(FILE *out, const cg_opt *table)
{
    fputs("| option | |\n|---|---|\n", out);
    for (const cg_opt *o = table; o->name; o++) {
        if (o->group) fprintf(out, "| **%s** | |\n", o->group);
        if (!o->help) continue;
        fputs("| `", out);
        if (o->key < 256) fprintf(out, "-%c, ", o->key);
        fprintf(out, "--%s", o->name);
        if (o->arg) fprintf(out, " %s", o->arg);
        fputs("` | ", out);
        if (o->doc) fputs(o->doc, out);
        else md_text(out, o->help + (*o->help == '\n'));
        fputs(" |\n", out);
    }
}
