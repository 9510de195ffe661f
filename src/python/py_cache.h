/* py_cache.h - the Python front end's use of the project index (py_cache.c). */
#ifndef CG_PY_CACHE_H
#define CG_PY_CACHE_H
#include <stddef.h>
#include <stdint.h>

struct py_project;

/* Before phase 1: 1 when the memo answered (findings and notices added,
 * directives set): the run is done.  0: analyse. */
int py_cache_begin(struct py_project *p);
/* Module i is about to be read: its stat, taken before, dates the bytes the
 * analysis sees (the memo records their digest only if it is unchanged). */
void py_cache_before_read(struct py_project *p, size_t i);
/* After the analysis: store the memo entry; frees the state. */
void py_cache_end(struct py_project *p);
void py_cache_abandon(struct py_project *p);
#endif
