/* path.c - see path.h. */
#include "path.h"
#include "alloc.h"
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The working directory, read once: nothing in cglint changes it, and a
 * named-file run makes thousands of paths absolute. */
static char cwd_buf[PATH_MAX];
static pthread_once_t cwd_once = PTHREAD_ONCE_INIT;
static void read_cwd(void)
{
    if (!getcwd(cwd_buf, sizeof cwd_buf)) strcpy(cwd_buf, "/");
}

char *cg_path_abs(const char *path)
{
    const char *base = "";
    if (path[0] != '/') {
        pthread_once(&cwd_once, read_cwd);
        base = cwd_buf;
    }
    size_t n = strlen(base) + strlen(path) + 3;
    char *joined = cg_xmalloc(n);
    snprintf(joined, n, "%s/%s", base, path);
    char *out = cg_xmalloc(n);
    size_t o = 0;
    const char *p = joined;
    while (*p) {
        while (*p == '/') p++;
        if (!*p) break;
        const char *s = p;
        while (*p && *p != '/') p++;
        size_t len = (size_t)(p - s);
        if (len == 1 && s[0] == '.') continue;
        if (len == 2 && s[0] == '.' && s[1] == '.') {
            while (o > 0 && out[o - 1] != '/') o--;
            if (o > 0) o--;
            continue;
        }
        out[o++] = '/';
        memcpy(out + o, s, len);
        o += len;
    }
    if (o == 0) out[o++] = '/';
    out[o] = 0;
    free(joined);
    return out;
}

char *cg_path_dirname(const char *abs)
{
    const char *s = strrchr(abs, '/');
    size_t n = s && s != abs ? (size_t)(s - abs) : 1;
    char *d = cg_xmalloc(n + 1);
    memcpy(d, abs, n);
    d[n] = 0;
    return d;
}

const char *cg_path_under(const char *abs, const char *base)
{
    size_t bl = strlen(base);
    if (bl == 1 && base[0] == '/') return abs[1] ? abs + 1 : ".";
    if (strncmp(abs, base, bl) != 0) return NULL;
    if (abs[bl] == 0) return ".";
    if (abs[bl] != '/') return NULL;
    return abs + bl + 1;
}

char *cg_path_relative(const char *abs, const char *base)
{
    const char *u = cg_path_under(abs, base);
    if (u) return cg_xstrdup(u);
    /* climb from base until abs is under it */
    char *up = cg_xstrdup(base);
    int levels = 0;
    while (!(u = cg_path_under(abs, up))) {
        char *d = cg_path_dirname(up);
        free(up);
        up = d;
        levels++;
    }
    size_t n = (size_t)levels * 3 + strlen(u) + 1;
    char *out = cg_xmalloc(n);
    out[0] = 0;
    for (int i = 0; i < levels; i++) strcat(out, i + 1 < levels || strcmp(u, ".") ? "../" : "..");
    if (strcmp(u, ".") != 0) strcat(out, u);
    free(up);
    return out;
}
