/* file.h - the one way cglint opens, reads and writes files.
 *
 * Every input (sources, configuration, .gitignore-adjacent probes, the
 * baseline, compile databases, --findings reports, event files) is opened
 * with cg_file_open: only regular files, never blocking (a FIFO or a device
 * named like an input is refused before a byte is read), with one clear
 * sentence when it cannot be used.  Reads are bounded.
 *
 * Outputs (-o, --write-baseline, --fix) go through cg_file_write: a regular
 * file is replaced atomically (a temporary file in its directory, fsync,
 * rename); a symbolic link is followed and its target replaced, so the link
 * stays a link; a device, FIFO or socket (-o /dev/stdout) is written
 * through, never replaced. */
#ifndef CG_FILE_H
#define CG_FILE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

/* Open `path` for reading if it is a regular file (symbolic links are
 * followed).  Returns a descriptor (close-on-exec, blocking) and fills *st
 * when st is not NULL; or -1 with errno set and one sentence in err, no path
 * and no trailing period: "not a regular file (a FIFO)", "symbolic link
 * loop", "broken symbolic link (its target does not exist)", "cannot open:
 * Permission denied". */
int cg_file_open(const char *path, struct stat *st, char *err, size_t errlen);

/* cg_file_open as a stdio stream ("r"); NULL with err filled. */
FILE *cg_file_fopen(const char *path, char *err, size_t errlen);

/* The whole regular file, NUL-terminated (malloc'ed), its size in *len.
 * max > 0: a file larger than max bytes is refused ("file is 12.0 MiB, over
 * the 8.0 MiB limit").  NULL with err filled. */
char *cg_file_read(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Line `line` (1-based) of a regular file without its terminator (LF, CRLF
 * or CR), at most maxlen bytes of it (a longer line is cut); NULL when the
 * file cannot be read or is shorter.  Reads no further than that line. */
char *cg_file_line(const char *path, uint32_t line, size_t maxlen);

enum {
    CG_FILE_KEEP = 1 << 0,      /* an existing file keeps its mode, owner and group,
                                   and its hard links (then it is rewritten in place) */
    CG_FILE_REFUSE_RO = 1 << 1, /* refuse to write a file that has no write permission */
};

/* Write len bytes of data to `path` as described above.  A new file gets
 * mode & ~umask.  Returns 0, or -1 with one sentence in err (no path). */
int cg_file_write(const char *path, const void *data, size_t len, mode_t mode, unsigned flags,
                  char *err, size_t errlen);
/* The entries of directory `dir` that are neither regular files nor
 * directories once links are followed: FIFOs, devices, sockets (what a tool
 * that opens files by name itself, like libclang for #include, must be kept
 * from).  Full paths, each malloc'ed, in a malloc'ed *out; returns how many
 * (0 and NULL when none or the directory cannot be read). */
size_t cg_file_specials(const char *dir, char ***out);

/* "812 bytes", "34.5 KiB", "50.0 MiB": a size people can act on. */
void cg_format_size(char *out, size_t outlen, size_t bytes);
#endif
