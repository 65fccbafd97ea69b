/* fuzz.h: what every harness shares (docs/testing.md, "Fuzzing").
 *
 * A harness is one LLVMFuzzerTestOneInput.  Built with clang and
 * -fsanitize=fuzzer (make fuzz) it is a libFuzzer target; built with any
 * compiler and replay.c it is a program that runs the function over the
 * files and folders it is given, which is how the seed corpus and every
 * input a fuzzer found run in `make test`. */
#ifndef DSE_FUZZ_H
#define DSE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "dse/dse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input written to this process's scratch file whose name ends in ext
 * (".yaml", ".onnx", ...), the loaders reading files by path; the path
 * (valid until the next call), or NULL when it cannot be written (the
 * harness then returns). */
const char *fz_file(const uint8_t *data, size_t size, const char *ext);

/* The input as a NUL-terminated copy (malloc'd; NULL: out of memory). */
char *fz_text(const uint8_t *data, size_t size);

/* A context whose data folder is the source tree (DSE_DATA_DIR when set),
 * so presets and zoo names resolve; the caller frees it. */
dse_ctx *fz_ctx(void);

/* Free a harness's context; with DSE_FUZZ_VERBOSE set, its diagnostics
 * printed first (to see what the inputs reach). */
void fz_done(dse_ctx *ctx);

#endif /* DSE_FUZZ_H */
