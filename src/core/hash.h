/* hash.h - string-keyed hash map (open addressing) and FNV-1a hashing.
 * Keys are not copied: they must outlive the map (arena strings do). */
#ifndef CG_HASH_H
#define CG_HASH_H
#include <stddef.h>
#include <stdint.h>

uint64_t cg_hash_bytes(const void *p, size_t n);

typedef struct cg_map {
    const char **keys;
    size_t *klen;
    void **vals;
    size_t cap, count;
} cg_map;

void cg_map_init(cg_map *self);
void cg_map_free(cg_map *self);
/* Value for key, or NULL. */
void *cg_map_get(const cg_map *self, const char *key, size_t klen);
/* Insert or replace. */
void cg_map_put(cg_map *self, const char *key, size_t klen, void *val);
#endif
