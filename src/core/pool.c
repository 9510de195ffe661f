/* pool.c - see pool.h. */
#include "pool.h"
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct job { size_t n; atomic_size_t next; void (*fn)(void *, size_t); void *ctx; } job;

int cg_pool_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void *worker(void *arg)
{
    job *j = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n) break;
        j->fn(j->ctx, i);
    }
    return NULL;
}

void cg_pool_for(size_t n, int jobs, void (*fn)(void *ctx, size_t i), void *ctx)
{
    if (jobs <= 0) jobs = cg_pool_cores();
    if ((size_t)jobs > n) jobs = (int)n;
    job j = { .n = n, .fn = fn, .ctx = ctx };
    atomic_init(&j.next, 0);
    if (jobs <= 1) { worker(&j); return; }
    pthread_t tid[256];
    if (jobs > 256) jobs = 256;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 16u << 20);  /* deep ASTs recurse */
    int started = 0;
    for (int t = 0; t < jobs - 1; t++)
        if (pthread_create(&tid[started], &attr, worker, &j) == 0) started++;
    pthread_attr_destroy(&attr);
    worker(&j);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
}
