/* rules.c - lookups over the generated catalog and rule selection. */
#include "rules.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int cg_rule_index(const char *id)
{
    for (size_t i = 0; i < cg_rule_count; i++)
        if (strcasecmp(cg_rules[i].id, id) == 0) return (int)i;
    return -1;
}

const char *cg_severity_name(cg_severity sev)
{
    switch (sev) {
    case CG_SEV_ERROR: return "error";
    case CG_SEV_WARNING: return "warning";
    default: return "note";
    }
}

void cg_ruleset_all(cg_ruleset *out)
{
    memset(out->on, 1, sizeof out->on);
}

/* Apply `value` to every rule matching one code of the comma list. */
static int apply(cg_ruleset *self, const char *list, unsigned char value, char *bad, size_t badlen)
{
    const char *p = list;
    while (*p) {
        while (*p == ',' || isspace((unsigned char)*p)) p++;
        if (!*p) break;
        const char *s = p;
        while (*p && *p != ',' && !isspace((unsigned char)*p)) p++;
        size_t n = (size_t)(p - s);
        int matched = 0;
        if (n == 3 && strncasecmp(s, "ALL", 3) == 0) {
            memset(self->on, value, sizeof self->on);
            matched = 1;
        } else {
            for (size_t i = 0; i < cg_rule_count; i++)
                if (strlen(cg_rules[i].id) >= n && strncasecmp(cg_rules[i].id, s, n) == 0) {
                    self->on[i] = value;
                    matched = 1;
                }
        }
        /* A well-formed code with no rule yet ("CG5" before memory rules
         * exist) is not an error; a malformed one is. */
        if (!matched) {
            int wellformed = n >= 2 && n <= 5 && strncasecmp(s, "CG", 2) == 0;
            for (size_t k = 2; wellformed && k < n; k++)
                wellformed = isdigit((unsigned char)s[k]);
            if (!wellformed) {
                snprintf(bad, badlen, "%.*s", (int)n, s);
                return -1;
            }
        }
    }
    return 0;
}

int cg_ruleset_select(cg_ruleset *self, const char *list, int first, char *bad, size_t badlen)
{
    if (first) memset(self->on, 0, sizeof self->on);
    return apply(self, list, 1, bad, badlen);
}

int cg_ruleset_ignore(cg_ruleset *self, const char *list, char *bad, size_t badlen)
{
    return apply(self, list, 0, bad, badlen);
}
