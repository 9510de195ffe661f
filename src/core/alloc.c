/* alloc.c - see alloc.h. */
#include "alloc.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long fail_at;               /* CGLINT_FAIL_ALLOC, read once */
static atomic_long count;
static atomic_int dying;
static atomic_int error_fd = STDERR_FILENO;

void cg_alloc_error_fd(int fd) { atomic_store(&error_fd, fd < 0 ? STDERR_FILENO : fd); }
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    const char *e = getenv("CGLINT_FAIL_ALLOC");
    fail_at = e ? strtol(e, NULL, 10) : 0;
}

static int should_fail(void)
{
    pthread_once(&once, read_env);
    return fail_at > 0 && atomic_fetch_add(&count, 1) + 1 == fail_at;
}

static _Noreturn void out_of_memory(size_t n)
{
    if (atomic_exchange(&dying, 1))
        for (;;) pause();           /* another thread is already saying it and exiting */
    dprintf(atomic_load(&error_fd), "cglint: error: out of memory (allocating %zu bytes)\n", n);
    /* _exit, not exit: exit() runs atexit handlers and stdio flushes while other
     * threads go on, and races a main thread that is itself exiting (status 1
     * after the message, seen under ASan); an out-of-memory run writes no
     * report (-o renames a finished temporary file only) */
    _exit(2);
}

void *cg_xmalloc(size_t n)
{
    void *p = should_fail() ? NULL : malloc(n ? n : 1);
    if (!p) out_of_memory(n);
    return p;
}

void *cg_xcalloc(size_t n, size_t size)
{
    void *p = should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory(n * size);
    return p;
}

void *cg_xrealloc(void *p, size_t n)
{
    void *q = should_fail() ? NULL : realloc(p, n ? n : 1);
    if (!q) out_of_memory(n);
    return q;
}

char *cg_xstrdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *p = cg_xmalloc(n);
    memcpy(p, s, n);
    return p;
}
