/* opts.h - a command's options as one table (curl's docs/cmdline-opts, in C):
 * the getopt_long arrays, the option lines of --help and the Markdown option
 * list of the docs are all made from it, so they cannot disagree
 * (scripts/gen-options writes the docs; ctest docs.options fails when they
 * are stale).
 *
 * A table is an array of cg_opt ended by an entry whose name is NULL. */
#ifndef CG_OPTS_H
#define CG_OPTS_H
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

typedef struct cg_opt {
    const char *group;  /* the heading this option starts ("Output"), or NULL: the group above */
    const char *name;   /* the long name, without "--" */
    int key;            /* what getopt_long returns: the short letter, or a value >= 256 */
    const char *arg;    /* the argument's name ("FILE"), or NULL: it takes none */
    const char *help;   /* --help's text: "\n" continues it on the next line, a leading "\n"
                           starts it there; NULL: not shown (aliases, benchmark switches) */
    const char *doc;    /* the docs' text (Markdown), or NULL: help's, on one line */
} cg_opt;

/* OUT: `longopts` (room for `nlong`: the table's entries and the zero entry
 * that ends them) and `short_out` (`short_n` bytes: ":" and each short letter,
 * with ':' after those taking an argument).  A table that does not fit is a
 * bug in cglint: one line on stderr and exit 2. */
void cg_opts_getopt(const cg_opt *table, struct option *longopts, size_t nlong, char *short_out, size_t short_n);
size_t cg_opts_count(const cg_opt *table);

/* The option lines of --help, grouped under "Group:" headings. */
void cg_opts_help(FILE *out, const cg_opt *table);

/* The docs' option list: a Markdown table, one row per shown option, a bold
 * row per group. */
void cg_opts_markdown(FILE *out, const cg_opt *table);
#endif
