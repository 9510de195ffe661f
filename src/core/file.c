/* file.c - see file.h. */
#include "file.h"
#include "core/alloc.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" :
           S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" : "not a file";
}

/* The message for a path that cannot be opened or stat'ed with errno e. */
static void open_error(const char *path, int e, char *err, size_t errlen)
{
    struct stat lst;
    if (e == ENOENT && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
        snprintf(err, errlen, "broken symbolic link (its target does not exist)");
    else if (e == ELOOP)
        snprintf(err, errlen, "symbolic link loop");
    else
        snprintf(err, errlen, "cannot open: %s", strerror(e));
}

int cg_file_open(const char *path, struct stat *st_out, char *err, size_t errlen)
{
    struct stat st;
    /* Look before opening: opening a device can have effects of its own,
     * and a FIFO must not be opened at all. */
    if (stat(path, &st) != 0) {
        int e = errno;
        open_error(path, e, err, errlen);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "not a regular file (%s)", kind_of(st.st_mode));
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    /* O_NONBLOCK: the path may have become a FIFO since. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        open_error(path, e, err, errlen);
        errno = e;
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        int e = errno;
        snprintf(err, errlen, "cannot stat: %s", strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "not a regular file (%s)", kind_of(st.st_mode));
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    /* (O_NONBLOCK stays: it changes nothing for a regular file's reads) */
    if (st_out) *st_out = st;
    return fd;
}

FILE *cg_file_fopen(const char *path, char *err, size_t errlen)
{
    int fd = cg_file_open(path, NULL, err, errlen);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "cannot open: %s", strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

void cg_format_size(char *out, size_t outlen, size_t bytes)
{
    if (bytes < 10 * 1024) snprintf(out, outlen, "%zu bytes", bytes);
    else if (bytes < 10 * 1024 * 1024) snprintf(out, outlen, "%.1f KiB", bytes / 1024.0);
    else snprintf(out, outlen, "%.1f MiB", bytes / 1048576.0);
}

char *cg_file_read(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    struct stat st;
    int fd = cg_file_open(path, &st, err, errlen);
    if (fd < 0) return NULL;
    size_t size = (size_t)st.st_size;
    if (max && size > max) {
        char have[32], limit[32];
        cg_format_size(have, sizeof have, size);
        cg_format_size(limit, sizeof limit, max);
        snprintf(err, errlen, "file is %s, over the %s limit", have, limit);
        close(fd);
        errno = EFBIG;
        return NULL;
    }
    /* Read what is there now: a file may shrink or grow while it is read
     * (and /proc files say 0 bytes); a growing one stops at the limit. */
    size_t cap = size + 1, n = 0;
    /* raw malloc: sized by the input, so failing is this file's error (a notice), not the run's */
    char *buf = malloc(cap);
    if (!buf) {
        snprintf(err, errlen, "out of memory reading %zu bytes", size);
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    for (;;) {
        if (n + 1 == cap) {
            char probe;
            ssize_t pr = 0;
            if (max && n >= max) {
                while ((pr = read(fd, &probe, 1)) < 0 && errno == EINTR) {}
                if (pr == 0) break;   /* exactly at the limit */
            }
            if (max && n >= max) {
                char limit[32];
                cg_format_size(limit, sizeof limit, max);
                snprintf(err, errlen, "file grew over the %s limit while it was read", limit);
                free(buf);
                close(fd);
                errno = EFBIG;
                return NULL;
            }
            size_t ncap = cap < 4096 ? 4096 : cap * 2;
            if (max && ncap > max + 1) ncap = max + 1 > cap ? max + 1 : cap + 1;
            char *g = realloc(buf, ncap);
            if (!g) {
                snprintf(err, errlen, "out of memory reading %zu bytes", n);
                free(buf);
                close(fd);
                errno = ENOMEM;
                return NULL;
            }
            buf = g;
            cap = ncap;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            snprintf(err, errlen, "read error: %s", strerror(e));
            free(buf);
            close(fd);
            errno = e;
            return NULL;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = 0;
    *len = n;
    return buf;
}

char *cg_file_line(const char *path, uint32_t line, size_t maxlen)
{
    if (!path || !line) return NULL;
    char err[256];
    int fd = cg_file_open(path, NULL, err, sizeof err);
    if (fd < 0) return NULL;
    char chunk[65536];
    uint32_t at = 1;
    int prev_cr = 0, found = 0;
    size_t n = 0;
    char *out = cg_xmalloc(maxlen + 1);
    for (;;) {
        ssize_t r = read(fd, chunk, sizeof chunk);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { found = at == line && n > 0; break; }   /* a last line without a terminator */
        for (ssize_t i = 0; i < r; i++) {
            char c = chunk[i];
            if (c == '\n' && prev_cr) { prev_cr = 0; continue; }   /* CRLF: one line end */
            prev_cr = c == '\r';
            if (c == '\n' || c == '\r') {
                if (at == line) { found = 1; goto done; }
                at++;
                continue;
            }
            if (at == line && n < maxlen) out[n++] = c;
        }
    }
done:
    close(fd);
    if (!found) { free(out); return NULL; }
    out[n] = 0;
    return out;
}

size_t cg_file_specials(const char *dir, char ***out)
{
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_type == DT_REG || e->d_type == DT_DIR) continue;   /* the common case: no stat */
        char *p = NULL;
        if (asprintf(&p, "%s/%s", dir, e->d_name) < 0) continue;
        struct stat st;
        if (stat(p, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) { free(p); continue; }
        *out = cg_xrealloc(*out, (n + 1) * sizeof **out);
        (*out)[n++] = p;
    }
    closedir(d);
    return n;
}

/* ---- writing ------------------------------------------------------------------- */

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return -1;
        if (w == 0) { errno = EIO; return -1; }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor N
 * itself (bash's meaning); -1 for any other path. */
static int fd_path(const char *path)
{
    if (strcmp(path, "/dev/stdin") == 0) return 0;
    if (strcmp(path, "/dev/stdout") == 0) return 1;
    if (strcmp(path, "/dev/stderr") == 0) return 2;
    const char *num = NULL;
    if (strncmp(path, "/dev/fd/", 8) == 0) num = path + 8;
    else if (strncmp(path, "/proc/self/fd/", 14) == 0) num = path + 14;
    if (!num || !*num) return -1;
    char *end;
    long v = strtol(num, &end, 10);
    if (*end || v < 0 || v > INT_MAX) return -1;
    return (int)v;
}

static int write_through(const char *path, int fd, const void *data, size_t len, char *err, size_t errlen)
{
    int own = fd < 0;
    if (own) fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 || write_all(fd, data, len) != 0) {
        int e = errno;
        snprintf(err, errlen, "%s", strerror(e));
        if (own && fd >= 0) close(fd);
        errno = e;
        return -1;
    }
    if (own && close(fd) != 0) {
        int e = errno;
        snprintf(err, errlen, "%s", strerror(e));
        errno = e;
        return -1;
    }
    return 0;
}

/* Rewrite the existing file in place: its inode, links, owner and mode stay. */
static int write_in_place(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
    int ok = fd >= 0 && write_all(fd, data, len) == 0 && fsync(fd) == 0;
    int e = errno;
    if (fd >= 0 && close(fd) != 0 && ok) { ok = 0; e = errno; }
    if (!ok) {
        snprintf(err, errlen, "%s", strerror(e ? e : EIO));
        errno = e;
        return -1;
    }
    return 0;
}

int cg_file_write(const char *path, const void *data, size_t len, mode_t mode, unsigned flags,
                  char *err, size_t errlen)
{
    int fdn = fd_path(path);
    if (fdn >= 0) return write_through(path, fdn, data, len, err, errlen);

    struct stat st, lst;
    int have = stat(path, &st) == 0;
    if (!have && errno != ENOENT) {
        int e = errno;
        snprintf(err, errlen, "%s", e == ELOOP ? "symbolic link loop" : strerror(e));
        errno = e;
        return -1;
    }
    if (have && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s", strerror(EISDIR));
        errno = EISDIR;
        return -1;
    }
    /* a device, a FIFO, a socket: written to, never replaced */
    if (have && !S_ISREG(st.st_mode)) return write_through(path, -1, data, len, err, errlen);

    char *resolved = NULL;
    const char *target = path;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        if (!have) {
            /* a link to nothing yet: create its target, as `>` would */
            int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, mode);
            if (fd < 0) {
                int e = errno;
                snprintf(err, errlen, "%s", strerror(e));
                errno = e;
                return -1;
            }
            close(fd);
            return write_in_place(path, data, len, err, errlen);
        }
        resolved = realpath(path, NULL);
        if (!resolved) return write_in_place(path, data, len, err, errlen);
        target = resolved;
    }
    if (have && (flags & CG_FILE_REFUSE_RO) && (!(st.st_mode & 0222) || access(target, W_OK) != 0)) {
        snprintf(err, errlen, "the file is read-only (mode %04o)", (unsigned)(st.st_mode & 07777));
        free(resolved);
        errno = EACCES;
        return -1;
    }
    int keep = have && (flags & CG_FILE_KEEP);
    if (keep && st.st_nlink > 1) {
        /* replacing it would split its hard links */
        int rc = write_in_place(target, data, len, err, errlen);
        free(resolved);
        return rc;
    }

    char *d1 = cg_xstrdup(target), *d2 = cg_xstrdup(target);
    char *tmpl = NULL;
    if (!d1 || !d2 || asprintf(&tmpl, "%s/.%s.cglint-XXXXXX", dirname(d1), basename(d2)) < 0) tmpl = NULL;
    free(d1);
    free(d2);
    int fd = tmpl ? mkstemp(tmpl) : -1;
    if (fd < 0) {
        int e = tmpl ? errno : ENOMEM;
        free(tmpl);
        if (keep && (e == EACCES || e == EPERM)) {
            /* a directory we may not write to, a file we may */
            int rc = write_in_place(target, data, len, err, errlen);
            free(resolved);
            return rc;
        }
        snprintf(err, errlen, "cannot create a temporary file next to it: %s", strerror(e));
        free(resolved);
        errno = e;
        return -1;
    }
    int ok = 1;
    if (keep && (st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(fd, st.st_uid, st.st_gid) != 0) {
        /* the owner cannot be kept by a new file: rewrite the old one */
        close(fd);
        unlink(tmpl);
        free(tmpl);
        int rc = write_in_place(target, data, len, err, errlen);
        free(resolved);
        return rc;
    }
    if (keep) {
        ok = fchmod(fd, st.st_mode & 07777) == 0;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        ok = fchmod(fd, mode & ~mask & 07777) == 0;
    }
    if (ok) ok = write_all(fd, data, len) == 0;
    if (ok) ok = fsync(fd) == 0;
    int e = ok ? 0 : errno;
    if (close(fd) != 0 && ok) { ok = 0; e = errno; }
    if (ok && rename(tmpl, target) != 0) { ok = 0; e = errno; }
    if (!ok) {
        snprintf(err, errlen, "%s", strerror(e ? e : EIO));
        unlink(tmpl);
    }
    free(tmpl);
    free(resolved);
    if (!ok) errno = e ? e : EIO;
    return ok ? 0 : -1;
}
