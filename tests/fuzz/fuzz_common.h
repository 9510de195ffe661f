/* fuzz_common.h - what the fuzz harnesses (tests/fuzz/fuzz_*.c) share.
 *
 * Every harness defines LLVMFuzzerTestOneInput (and may define
 * LLVMFuzzerInitialize).  It is linked either with libFuzzer
 * (-DCGLINT_FUZZ=ON, clang) or with replay_main.c, a plain main that runs
 * files through it once each (every build with tests: the regression and
 * seed-corpus replays under ctest).
 *
 * cglint reads files, not buffers, so an input is written to a per-process
 * scratch directory (under /dev/shm when there is one, else TMPDIR) and the
 * real entry points are run on it, as the command line would. */
#ifndef CG_FUZZ_COMMON_H
#define CG_FUZZ_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include "core/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The scratch directory (absolute), made on first use and removed at exit. */
const char *fz_dir(void);
/* Empty the scratch directory. */
void fz_reset(void);
/* Write `n` bytes to `rel` under the scratch directory (parents made);
 * returns the absolute path (a static buffer per slot 0-7), or NULL. */
const char *fz_write(int slot, const char *rel, const void *data, size_t n);
/* A malloc'ed copy of the input, NUL-terminated (the input itself is not). */
char *fz_strndup(const uint8_t *data, size_t n);

/* Multi-file inputs: the text is cut at lines "#--- NAME" (NAME: the next
 * file's path, letters, digits, '_', '-', '.', '/'; no "..", at most 3
 * components; an unusable one becomes partN<ext>).  What comes before the
 * first such line is the file `first` (unless the input starts with one).  At most `max` parts; returns how
 * many, with each part's name (malloc'ed) and bytes (pointers into data). */
typedef struct fz_part { char *name; const uint8_t *data; size_t len; } fz_part;
size_t fz_split(const uint8_t *data, size_t size, const char *first, const char *ext,
                fz_part *parts, size_t max);
void fz_parts_free(fz_part *parts, size_t n);

/* Emit the report in every format to /dev/null: the emitters see whatever
 * the front ends and loaders made of the input. */
void fz_emit_all(const cg_report *r);
/* The text format only (the cheap one: for harnesses whose target is not
 * the emitters, and whose reports are large). */
void fz_emit_text(const cg_report *r);
/* The harnesses' quiet setup: stdin and stdout at /dev/null (cglint reads
 * no terminal; --print-cuda-flags writes to stdout). */
void fz_quiet(void);
#endif
