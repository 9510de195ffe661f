/* callpath.h - the calls that lead from a capture site to the code being
 * analysed, as findings report them (cg_finding.path).
 *
 * Bounded: a front end follows calls only so deep, and a finding's path is
 * copied whole into the report.  A push past the bound is not kept but
 * counted (`over`, still owed a pop, and `truncated`, over the run), so a
 * front end can either refuse the call (cg_callpath_full) or go on with a
 * shortened path, and never drops steps without saying so. */
#ifndef CG_CALLPATH_H
#define CG_CALLPATH_H
#include "report.h"

#define CG_CALLPATH_CAP 32

typedef struct cg_callpath {
    cg_step step[CG_CALLPATH_CAP]; /* outermost first; strings are the caller's */
    int n;                         /* steps kept */
    int limit;                     /* at most this many kept: 1..CG_CALLPATH_CAP (0 means CAP) */
    int over;                      /* pushes past the limit still open */
    unsigned long truncated;       /* calls past the limit, refused or unrecorded, this run */
} cg_callpath;

static inline int cg_callpath_limit(const cg_callpath *p)
{
    return p->limit > 0 && p->limit < CG_CALLPATH_CAP ? p->limit : CG_CALLPATH_CAP;
}

/* Is the path at its bound?  When it is, the call the caller is about to
 * refuse is counted in `truncated`. */
static inline int cg_callpath_full(cg_callpath *p)
{
    if (p->n < cg_callpath_limit(p)) return 0;
    p->truncated++;
    return 1;
}

/* Enter `function` (not copied) from the call at `loc`.  Returns 1 when the
 * step is kept, 0 when the path is full (counted; the pop is still owed). */
static inline int cg_callpath_push(cg_callpath *p, const char *function, cg_loc loc)
{
    if (p->over == 0 && p->n < cg_callpath_limit(p)) {
        p->step[p->n].function = (char *)function;
        p->step[p->n].loc = loc;
        p->n++;
        return 1;
    }
    p->over++;
    p->truncated++;
    return 0;
}

/* Empty the path (a new walk from a capture site); `truncated` is kept. */
static inline void cg_callpath_clear(cg_callpath *p) { p->n = 0; p->over = 0; }

/* Leave the innermost call (kept or not). */
static inline void cg_callpath_pop(cg_callpath *p)
{
    if (p->over > 0) p->over--;
    else if (p->n > 0) p->n--;
}
#endif
