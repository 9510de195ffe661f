/* alloc.h - the allocation wrapper: memory or one clear error.
 *
 * cglint cannot do anything useful without the memory it asks for, so these
 * never return NULL: on failure they print one line ("cglint: error: out of
 * memory ...") and exit with status 2, as any internal error does.  Callers
 * own what they get and free it with free().
 *
 * Torture mode, as curl has: CGLINT_FAIL_ALLOC=N makes the Nth allocation
 * through this wrapper fail (counted across threads), so a test can walk the
 * failure through every path and check that each ends in that one line and
 * exit 2, never a crash (tests/cli/alloc_torture.sh). */
#ifndef CG_ALLOC_H
#define CG_ALLOC_H
#include <stddef.h>

void *cg_xmalloc(size_t n);
void *cg_xcalloc(size_t n, size_t size);
void *cg_xrealloc(void *p, size_t n);
/* NULL stays NULL. */
char *cg_xstrdup(const char *s);
/* Where the out-of-memory line goes: the C/C++ front end sends stderr to a
 * file while libclang parses (its crash reports are replaced by ours) and
 * points this at the real stderr meanwhile; -1 restores STDERR_FILENO. */
void cg_alloc_error_fd(int fd);
#endif
