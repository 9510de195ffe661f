/* cu_cache.h - the C/C++/CUDA front end's memo in the project index (cu_cache.c). */
#ifndef CG_CU_CACHE_H
#define CG_CU_CACHE_H
#include "cu_clang.h"

struct cu_project;
struct cg_cache;
typedef struct cu_cache_state cu_cache_state;

/* Before parsing: 1 when the memo answered (findings, notices and counts
 * added); 0 with *out set (or NULL without a cache): analyse, then call
 * cu_cache_end. */
int cu_cache_begin(struct cu_project *p, struct cg_cache *c, cu_cache_state **out);
void cu_cache_end(struct cu_project *p, cu_cache_state *s);
/* Files libclang read for a translation unit, and others the front end
 * read (the compile database, response files): part of the memo's
 * manifest.  No-ops outside a run that writes a memo. */
void cu_cache_note_tu(CXTranslationUnit tu);
void cu_cache_note_path(const char *path);
#endif
