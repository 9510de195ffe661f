/* rules.h - the rule catalog as C data.
 *
 * The table itself (rules_table.c and rule_ids.h) is generated at build time
 * from rules/CG*.md by rules/gen_rules.py; nothing here is written by hand but
 * the struct.  To add a rule: write rules/CGnnn.md, then its checker in the
 * front end (src/python/checks.c lists them all). */
#ifndef CG_RULES_H
#define CG_RULES_H
#include <stddef.h>
#include "rule_ids.h"   /* generated: enum { CG_R_CG101, ..., CG_RULE_COUNT } */

typedef enum { CG_SEV_NOTE = 0, CG_SEV_WARNING = 1, CG_SEV_ERROR = 2 } cg_severity;

typedef struct cg_rule {
    const char *id;            /* "CG101": permanent */
    const char *name;          /* "host-scalar-read": kebab-case */
    int category;              /* first digit of the id */
    const char *category_name; /* "sync", "dynamic", "cpu", "stream", ... */
    cg_severity severity;      /* default level */
    const char *languages;     /* "py", "cu" or "py cu" */
    const char *status;        /* "stable" | "preview" | "deprecated" */
    const char *since;         /* cglint version that added it */
    const char *runtime;       /* what the harness can observe; NULL: static only */
    const char *summary;       /* one sentence: SARIF shortDescription */
    const char *description;   /* "Why is this bad?" text: SARIF fullDescription */
    const char *fix;           /* one sentence: the text output's help: line */
    const char *doc;           /* the whole Markdown page: --explain, SARIF help */
} cg_rule;

extern const cg_rule cg_rules[];
extern const size_t cg_rule_count;

/* Index of rule `id` ("CG101", case-insensitive), or -1. */
int cg_rule_index(const char *id);
const char *cg_severity_name(cg_severity sev);

/* A rule selection: which rules report.  ruff semantics: --select picks by id
 * or prefix ("CG1", "CG101", "ALL"), --ignore removes by id or prefix. */
typedef struct cg_ruleset { unsigned char on[CG_RULE_COUNT]; } cg_ruleset;
void cg_ruleset_all(cg_ruleset *out);
/* Apply a comma-separated list.  Returns 0, or -1 with the unknown code in
 * bad (which is not a prefix of any rule). */
int cg_ruleset_select(cg_ruleset *self, const char *list, int first, char *bad, size_t badlen);
int cg_ruleset_ignore(cg_ruleset *self, const char *list, char *bad, size_t badlen);
#endif
