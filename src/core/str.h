/* str.h - the string tests every front end writes again: equality that
 * treats NULL as "no string", prefix and suffix tests, membership in a
 * NULL-terminated list, and a one-line snippet of source for messages.
 *
 * All of them answer 0 ("no") for a NULL subject, so a caller can pass a
 * name it may not have (an external callee's qualified name, a method name)
 * without checking it first. */
#ifndef CG_STR_H
#define CG_STR_H
#include <stddef.h>
#include <string.h>
#include "arena.h"

/* a and b are both strings and equal. */
static inline int cg_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* s begins with prefix. */
static inline int cg_starts(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* s ends with suffix. */
static inline int cg_ends_with(const char *s, const char *suffix)
{
    size_t a = s ? strlen(s) : 0, b = strlen(suffix);
    return s && a >= b && strcmp(s + a - b, suffix) == 0;
}

/* s equals one of list[0], list[1], ... up to a NULL entry. */
static inline int cg_one_of(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (cg_eq(s, *list)) return 1;
    return 0;
}

/* The first line of text[0..len), at most `max` bytes (max >= 4), for a
 * message: when it has to be cut (at a newline, or past max bytes, where it
 * keeps max - 3) it ends in "...", and it is never cut inside a UTF-8
 * sequence.  The string belongs to the arena (freed with it). */
char *cg_snippet(cg_arena *arena, const char *text, size_t len, size_t max);
/* An expression of source code as a message quotes it: on one line, its
 * comments dropped (`#` when py, else // and block comments), each run of
 * blanks and line breaks one space (none just inside brackets or before a
 * comma), and, past `max` bytes, cut between tokens with "..." and the
 * brackets still open closed: `torch.tensor([offset] * n, dtype=...)`.
 * Never cut inside a string or a UTF-8 sequence.  The arena's. */
char *cg_snippet_code(cg_arena *arena, const char *text, size_t len, size_t max, int py);
#endif
