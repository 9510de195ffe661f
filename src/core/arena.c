/* arena.c - bump allocator in 64 KiB chunks (see arena.h). */
#include "arena.h"
#include "alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#define CHUNK (64 * 1024)

typedef struct chunk { struct chunk *next; size_t used, size, pad; } chunk; /* 32 bytes: payload stays 16-aligned */
struct cg_arena { chunk *head; int passthrough; };

#define xmalloc cg_xmalloc

cg_arena *cg_arena_new(void)
{
    cg_arena *a = cg_xcalloc(1, sizeof *a);
    const char *e = getenv("CGLINT_ARENA_MALLOC");
    a->passthrough = e && *e == '1';
    return a;
}

void cg_arena_free(cg_arena *self)
{
    if (!self) return;
    for (chunk *c = self->head, *n; c; c = n) { n = c->next; free(c); }
    free(self);
}

void *cg_arena_alloc(cg_arena *self, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    chunk *c = self->head;
    if (self->passthrough || !c || c->size - c->used < n) {
        size_t size = self->passthrough ? n : (n > CHUNK / 4 ? n : CHUNK);
        chunk *nc = xmalloc(sizeof(chunk) + 16 + size);
        nc->size = size; nc->used = 0;
        if (c && !self->passthrough && size == n) { /* big block: keep head for small ones */
            nc->next = c->next; c->next = nc; nc->used = n;
            void *p = nc + 1;
            memset(p, 0, n);
            return p;
        }
        nc->next = c; self->head = nc; c = nc;
    }
    void *p = (char *)(c + 1) + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *cg_arena_strndup(cg_arena *self, const char *s, size_t n)
{
    char *p = cg_arena_alloc(self, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *cg_arena_strdup(cg_arena *self, const char *s)
{
    return cg_arena_strndup(self, s, strlen(s));
}

char *cg_arena_printf(cg_arena *self, const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = cg_arena_alloc(self, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, aq);
    va_end(aq);
    return p;
}

void cg_arena_push(cg_arena *self, void ***items, size_t *count, size_t *cap, void *item)
{
    if (*count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        void **n = cg_arena_alloc(self, ncap * sizeof *n);
        if (*count) memcpy(n, *items, *count * sizeof *n);
        *items = n; *cap = ncap;
    }
    (*items)[(*count)++] = item;
}
