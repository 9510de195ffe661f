/* arena.h - bump allocator: one per analysed file or analysis run, freed at once.
 *
 * Every pointer returned by cg_arena_* belongs to the arena and is freed by
 * cg_arena_free(); never free() it.  Set CGLINT_ARENA_MALLOC=1 in the
 * environment to pass each allocation through to malloc (kept in a list), so
 * AddressSanitizer and valgrind see individual blocks, as libgit2's git_pool
 * debug mode does. */
#ifndef CG_ARENA_H
#define CG_ARENA_H
#include <stddef.h>
#include <stdarg.h>

typedef struct cg_arena cg_arena;

cg_arena *cg_arena_new(void);                 /* NULL on out of memory */
void cg_arena_free(cg_arena *self);           /* NULL is fine */
void *cg_arena_alloc(cg_arena *self, size_t n); /* zeroed; aborts on OOM */
char *cg_arena_strndup(cg_arena *self, const char *s, size_t n);
char *cg_arena_strdup(cg_arena *self, const char *s);
char *cg_arena_printf(cg_arena *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Grow a pointer array kept in the arena: *items holds *count entries and
 * room for *cap; returns 0. */
void cg_arena_push(cg_arena *self, void ***items, size_t *count, size_t *cap, void *item);
#endif
