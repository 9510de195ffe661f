/* path.h - lexical path helpers shared by configuration discovery, the
 * driver and the baseline.  Nothing here touches symbolic links: paths are
 * made absolute against the current directory and "." and ".." components
 * are folded, as a user reads them.
 *
 * Every char * returned is malloc'ed; the caller frees it. */
#ifndef CG_PATH_H
#define CG_PATH_H

/* `path` made absolute and normalised ("/a/b/../c/." -> "/a/c"). */
char *cg_path_abs(const char *path);
/* The directory part of an absolute normalised path ("/a/b" -> "/a", "/a" -> "/"). */
char *cg_path_dirname(const char *abs);
/* `abs` relative to the directory `base` (both absolute, normalised):
 * "x/y.py" when abs is under base, "." when equal, NULL when outside. */
const char *cg_path_under(const char *abs, const char *base);
/* `abs` relative to `base`, climbing with ".." when needed ("../x.py").
 * Malloc'ed. */
char *cg_path_relative(const char *abs, const char *base);
#endif
