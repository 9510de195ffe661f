/* fuzz_cuda.c - the C/C++/CUDA analysis of one file in shim mode
 * (--cuda-mode shim --cuda-parse-all: cglint's own CUDA declarations, no
 * toolkit): the input is a.cu, parsed by libclang, lowered, analysed, its
 * suppression comments applied and the report emitted.  libclang itself is
 * not instrumented; what is fuzzed is cglint's reading of its cursors.
 * Slow per input (a libclang parse each): that is expected. */
#include "fuzz_common.h"
#include "driver.h"
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    fz_quiet();
    /* libclang's crash reports and a sanitizer's report must reach the
     * fuzzer's stderr, not the file cglint holds them in while parsing */
    setenv("CGLINT_LIBCLANG_STDERR", "1", 1);
    /* no toolkit is looked for: shim mode is asked for, and these unset */
    unsetenv("CUDA_PATH");
    unsetenv("CUDA_HOME");
    /* the temporary directory cglint makes per run (shim headers) */
    setenv("TMPDIR", fz_dir(), 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (256 << 10)) return 0;
    fz_reset();
    const char *path = fz_write(0, "src/a.cu", data, size);
    if (!path) return 0;
    const char *paths[] = { path };
    cg_report r;
    cg_report_init(&r, NULL);
    cg_analyze_opts o = { .paths = paths, .npaths = 1, .jobs = 1, .max_file_size = 256 << 10,
                      .respect_gitignore = -1, .cuda_mode = 2, .cuda_parse_all = 1 };
    cg_analyze(&o, &r);
    fz_emit_all(&r);
    cg_report_free(&r);
    return 0;
}
