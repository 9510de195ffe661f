/* hash.c - see hash.h. */
#include "hash.h"
#include "alloc.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

uint64_t cg_hash_bytes(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) { h ^= s[i]; h *= 1099511628211ULL; }
    return h;
}

void cg_map_init(cg_map *self) { memset(self, 0, sizeof *self); }

void cg_map_free(cg_map *self)
{
    free(self->keys); free(self->klen); free(self->vals);
    memset(self, 0, sizeof *self);
}

static size_t slot(const cg_map *m, const char *key, size_t klen)
{
    size_t i = cg_hash_bytes(key, klen) & (m->cap - 1);
    while (m->keys[i] && !(m->klen[i] == klen && memcmp(m->keys[i], key, klen) == 0))
        i = (i + 1) & (m->cap - 1);
    return i;
}

void *cg_map_get(const cg_map *self, const char *key, size_t klen)
{
    if (!self->cap) return NULL;
    size_t i = slot(self, key, klen);
    return self->keys[i] ? self->vals[i] : NULL;
}

static void grow(cg_map *m)
{
    cg_map n = {0};
    n.cap = m->cap ? m->cap * 2 : 16;
    n.keys = cg_xcalloc(n.cap, sizeof *n.keys);
    n.klen = cg_xcalloc(n.cap, sizeof *n.klen);
    n.vals = cg_xcalloc(n.cap, sizeof *n.vals);
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) {
            size_t j = slot(&n, m->keys[i], m->klen[i]);
            n.keys[j] = m->keys[i]; n.klen[j] = m->klen[i]; n.vals[j] = m->vals[i];
            n.count++;
        }
    cg_map_free(m);
    *m = n;
}

void cg_map_put(cg_map *self, const char *key, size_t klen, void *val)
{
    if ((self->count + 1) * 4 > self->cap * 3) grow(self);
    size_t i = slot(self, key, klen);
    if (!self->keys[i]) { self->keys[i] = key; self->klen[i] = klen; self->count++; }
    self->vals[i] = val;
}
