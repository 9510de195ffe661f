/* pool.h - run fn(ctx, i) for i in [0, n) on `jobs` threads (work stealing by
 * an atomic counter).  jobs <= 0 means one per online core. */
#ifndef CG_POOL_H
#define CG_POOL_H
#include <stddef.h>
int cg_pool_cores(void);
void cg_pool_for(size_t n, int jobs, void (*fn)(void *ctx, size_t i), void *ctx);
#endif
