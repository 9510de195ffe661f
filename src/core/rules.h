/* rules.h - the rule catalog as C data.
 *
 * The table itself (rules_table.c and rule_ids.h) is generated at build time
 * from rules/CG*.md by rules/gen_rules.py; nothing here is written by hand but
 * the struct.  To add a rule: scripts/add-rule CGnnn py|cu (rules/README.md). */
#ifndef CG_RULES_H
#define CG_RULES_H
#include <stddef.h>
#include "rule_ids.h"   /* generated: enum { CG_R_CG101, ..., CG_RULE_COUNT } */

typedef enum { CG_SEV_NOTE = 0, CG_SEV_WARNING = 1, CG_SEV_ERROR = 2 } cg_severity;

/* What `cglint run` matches to confirm a finding (src/run/join.c): a page's
 * `runtime-signal:` names, as bits of cg_rule.runtime_signals. */
enum {
    CG_SIG_ERROR = 1 << 0,    /* error: an exception or a failing CUDA call */
    CG_SIG_EAGER = 1 << 1,    /* eager: work ran eagerly on a stream that was not capturing */
    CG_SIG_CPU = 1 << 2,      /* cpu: an operator on CPU tensors during capture */
    CG_SIG_PIN = 1 << 3,      /* pin: a pinned allocation during capture */
    CG_SIG_DYNOP = 1 << 4,    /* dynop: an operator that failed at capture (dispatch) */
    CG_SIG_SCALAR = 1 << 5,   /* scalar: a Python number read at capture changed before a replay */
    CG_SIG_REBIND = 1 << 6,   /* rebind: a name read by the region held another tensor at a replay */
    CG_SIG_HPARAM = 1 << 7,   /* hparam: a captured optimizer hyperparameter changed */
    CG_SIG_MANY = 1 << 8,     /* many: one capture site captured again and again */
    CG_SIG_LINES = 1 << 9,    /* lines: the line ran at capture and not at replay */
    CG_SIG_BREAK = 1 << 12,   /* break: a torch.compile graph break at the line (Dynamo's hook) */
    CG_SIG_SKIP = 1 << 13,    /* skip: inductor skipped CUDA graphs for the function */
    /* modifiers: where else an observation may be */
    CG_SIG_REGION = 1 << 10,  /* region: anywhere in the finding's capture, if it is of this rule */
    CG_SIG_BLOCK = 1 << 11,   /* block: inside the `with` block that the finding's line opens */
};

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
    unsigned runtime_signals;  /* CG_SIG_* that confirm a finding; 0 exactly when runtime is NULL */
    const char *summary;       /* one sentence: SARIF shortDescription */
    const char *description;   /* "Why is this bad?" text: SARIF fullDescription */
    const char *fix;           /* one sentence: the text output's help: line */
    const char *fix_cu;        /* the same for C/C++/CUDA findings; NULL: fix */
    int compiled_as;           /* the rule a finding becomes under torch.compile(mode="reduce-overhead");
                                * -1: not reported there */
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
