/* fuzz_compdb.c - the compile_commands.json reader: the input is cut at
 * lines "#--- NAME" (fuzz_common.h); the first part is the project's
 * compile_commands.json, the others are files beside it (response files
 * that `@file` or `--options-file` name, headers).  The project, one a.cu
 * and one b.cpp, is run as `cglint --print-cuda-flags --cuda-mode shim -p DIR
 * DIR` would: the database is read, each file's entry found and its
 * command line filtered into clang arguments; nothing is parsed (fast). */
#include "fuzz_common.h"
#include "driver.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    fz_quiet();   /* the arguments go to stdout */
    unsetenv("CUDA_PATH");
    unsetenv("CUDA_HOME");
    setenv("TMPDIR", fz_dir(), 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 20)) return 0;
    fz_reset();
    fz_part parts[4];
    size_t n = fz_split(data, size, "compile_commands.json", ".rsp", parts, 4);
    for (size_t i = 0; i < n; i++) fz_write((int)i, parts[i].name, parts[i].data, parts[i].len);
    static const char cu[] = "#include <cuda_runtime.h>\nint main(void) { return 0; }\n";
    fz_write(4, "a.cu", cu, sizeof cu - 1);
    fz_write(5, "src/b.cpp", cu, sizeof cu - 1);
    const char *dirs[] = { fz_dir() };
    cg_report r;
    cg_report_init(&r, NULL);
    cg_analyze_opts o = { .paths = dirs, .npaths = 1, .jobs = 1, .respect_gitignore = -1, .floor = 3,
                      .cuda_mode = 2, .compile_commands = fz_dir() };
    cg_analyze(&o, &r);
    fflush(stdout);
    fz_emit_all(&r);
    cg_report_free(&r);
    fz_parts_free(parts, n);
    return 0;
}
