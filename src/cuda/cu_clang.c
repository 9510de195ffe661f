/* cu_clang.c - see cu_clang.h. */
#include "cu_clang.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CGLINT_LIBCLANG_PATH
#define CGLINT_LIBCLANG_PATH "libclang.so.1"
#endif

cu_clang_api cu_clang;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status = -1;
static char why[1024];

/* the library cglint was built with, then its file name alone (the
 * loader's search path), or what CGLINT_LIBCLANG names */
static void load(void)
{
    const char *env = getenv("CGLINT_LIBCLANG");
    const char *path = env && *env ? env : CGLINT_LIBCLANG_PATH;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const char *base = strrchr(path, '/');
    if (!h && !(env && *env) && base) h = dlopen(base + 1, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "cannot load libclang (%s): %s", path, e ? e : "unknown error");
        return;
    }
#define CU_CLANG_RESOLVE(name)                                                              \
    if (!(cu_clang.name = (__typeof__(cu_clang.name))dlsym(h, "clang_" #name))) {          \
        snprintf(why, sizeof why, "cannot load libclang (%s): it has no clang_%s (19 or newer is " \
                 "needed)", path, #name);                                                    \
        memset(&cu_clang, 0, sizeof cu_clang);                                               \
        dlclose(h);                                                                          \
        return;                                                                              \
    }
    CU_CLANG_FUNCS(CU_CLANG_RESOLVE)
#undef CU_CLANG_RESOLVE
    status = 0;   /* loaded for the rest of the process: never closed */
}

int cu_clang_load(char *err, size_t errlen)
{
    pthread_once(&once, load);
    if (status != 0 && err && errlen) snprintf(err, errlen, "%s", why);
    return status;
}
