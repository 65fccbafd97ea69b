/* cli.h: subcommands of the dse executable.  Each returns the exit code:
 * 0 success, 1 internal failure, 2 bad input. */
#ifndef DSE_CLI_H
#define DSE_CLI_H

#include "dse/dse.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_BAD = 2 };

/* Print every diagnostic on ctx to stderr; returns the exit code for err. */
int cli_report(dse_ctx *ctx, int err);
int cli_run(dse_ctx *ctx, int argc, char **argv);
int cli_mem(dse_ctx *ctx, int argc, char **argv);
/* Shared helpers of main.c: a usage error (exit code 2), `--help`, and
 * output of a buffer to stdout or atomically to out_path. */
int cli_bad_usage(const char *usage, const char *fmt, const char *arg);
int cli_is_help(const char *s);
struct core_buf;
int cli_emit(const struct core_buf *b, const char *out_path);

#endif /* DSE_CLI_H */
