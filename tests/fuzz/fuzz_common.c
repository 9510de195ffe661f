/* fuzz_common.c - see fuzz_common.h. */
#include "fuzz_common.h"
#include "emit/emit.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[PATH_MAX];
static pid_t dir_owner;

static int rm_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    remove(path);
    return 0;
}

static void rm_dir(void)
{
    /* forked children (libFuzzer -fork, cglint's spawns) leave it alone */
    if (dir[0] && getpid() == dir_owner) nftw(dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fz_dir(void)
{
    if (dir[0]) return dir;
    struct stat st;
    const char *base = getenv("CGLINT_FUZZ_TMPDIR");
    if (!base || !*base) base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0
                                    ? "/dev/shm" : getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    snprintf(dir, sizeof dir, "%s/cglint-fuzz-XXXXXX", base);
    if (!mkdtemp(dir)) {
        fprintf(stderr, "fuzz: cannot make a scratch directory %s: %s\n", dir, strerror(errno));
        abort();
    }
    dir_owner = getpid();
    atexit(rm_dir);
    return dir;
}

static int reset_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag;
    if (ftw->level > 0) remove(path);
    return 0;
}

void fz_reset(void)
{
    nftw(fz_dir(), reset_cb, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fz_write(int slot, const char *rel, const void *data, size_t n)
{
    static char paths[8][PATH_MAX];
    if (slot < 0 || slot >= 8) abort();
    char *p = paths[slot];
    if (snprintf(p, PATH_MAX, "%s/%s", fz_dir(), rel) >= PATH_MAX) return NULL;
    for (char *s = p + strlen(fz_dir()) + 1; (s = strchr(s, '/')); s++) {
        *s = 0;
        mkdir(p, 0700);
        *s = '/';
    }
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return NULL;
    const char *b = data;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w <= 0) { close(fd); return NULL; }
        b += w;
        n -= (size_t)w;
    }
    close(fd);
    return p;
}

char *fz_strndup(const uint8_t *data, size_t n)
{
    char *s = malloc(n + 1);
    if (!s) abort();
    if (n) memcpy(s, data, n);
    s[n] = 0;
    return s;
}

static int name_ok(const char *s, size_t n)
{
    if (!n || n > 64 || s[0] == '/' || s[n - 1] == '/') return 0;
    int comps = 1;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '/') {
            if (++comps > 3 || s[i + 1] == '/') return 0;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '-' || c == '.'))
            return 0;
    }
    /* no "." or ".." components, nothing hidden */
    for (size_t i = 0; i < n; i++)
        if (s[i] == '.' && (i == 0 || s[i - 1] == '/')) return 0;
    return 1;
}

size_t fz_split(const uint8_t *data, size_t size, const char *first, const char *ext, fz_part *parts, size_t max)
{
    static const char mark[] = "#--- ";
    const size_t mlen = sizeof mark - 1;
    size_t np = 0;
    const char *s = (const char *)data, *end = s + size;
    const char *start = s;
    char *name = strdup(first);
    const char *p = s;
    while (p < end && np + 1 < max) {
        /* a marker at the start of a line */
        if ((p == s || p[-1] == '\n') && (size_t)(end - p) >= mlen && memcmp(p, mark, mlen) == 0) {
            const char *nm = p + mlen;
            const char *nl = memchr(nm, '\n', (size_t)(end - nm));
            const char *ne = nl ? nl : end;
            /* a marker on the first line names the first file */
            if (p == s) free(name);
            else parts[np++] = (fz_part){ name, (const uint8_t *)start, (size_t)(p - start) };
            size_t nn = (size_t)(ne - nm);
            while (nn && (nm[nn - 1] == '\r' || nm[nn - 1] == ' ')) nn--;
            if (name_ok(nm, nn)) {
                name = strndup(nm, nn);
            } else if (asprintf(&name, "part%zu%s", np, ext) < 0) {
                abort();
            }
            /* the same name twice: the later part wins the file, so rename it */
            for (size_t k = 0; k < np; k++)
                if (strcmp(parts[k].name, name) == 0) {
                    free(name);
                    if (asprintf(&name, "part%zu%s", np, ext) < 0) abort();
                    break;
                }
            start = p = nl ? nl + 1 : end;
            continue;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    parts[np++] = (fz_part){ name, (const uint8_t *)start, (size_t)(end - start) };
    /* a file and a directory of one name cannot both be */
    for (size_t i = 0; i < np; i++)
        for (size_t k = 0; k < np; k++) {
            size_t li = strlen(parts[i].name);
            if (i != k && strncmp(parts[k].name, parts[i].name, li) == 0 && parts[k].name[li] == '/') {
                free(parts[i].name);
                if (asprintf(&parts[i].name, "part%zu%s", i, ext) < 0) abort();
            }
        }
    return np;
}

void fz_parts_free(fz_part *parts, size_t n)
{
    for (size_t i = 0; i < n; i++) free(parts[i].name);
}

static FILE *devnull_out(void)
{
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
    return devnull;
}

void fz_emit_text(const cg_report *r)
{
    cg_emit_opts eo = { .color = 0, .tool_version = "0.0.0-fuzz" };
    cg_emit(devnull_out(), CG_FMT_TEXT, r, &eo);
    fflush(devnull_out());
}

void fz_emit_all(const cg_report *r)
{
    FILE *devnull = devnull_out();
    cg_emit_opts eo = { .color = 1, .tool_version = "0.0.0-fuzz" };
    for (int fmt = CG_FMT_TEXT; fmt <= CG_FMT_GITHUB; fmt++) cg_emit(devnull, (cg_format)fmt, r, &eo);
    eo.color = 0;
    eo.statistics = 1;
    cg_emit(devnull, CG_FMT_TEXT, r, &eo);
    fflush(devnull);
}

void fz_quiet(void)
{
    int fd = open("/dev/null", O_RDWR);
    if (fd < 0) return;
    dup2(fd, STDIN_FILENO);
    fflush(stdout);
    dup2(fd, STDOUT_FILENO);
    if (fd > STDERR_FILENO) close(fd);
}
