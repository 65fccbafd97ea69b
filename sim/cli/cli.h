/* cli.h: subcommands of the dse executable.  Each returns the exit code:
 * 0 success, 1 internal failure, 2 bad input. */
#ifndef DSE_CLI_H
#define DSE_CLI_H

#include "dse/dse.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_BAD = 2 };

/* Print every diagnostic on ctx to stderr; returns the exit code for err. */
int cli_report(dse_ctx *ctx, int err);
int cli_run(dse_ctx *ctx, int argc, char **argv);

#endif /* DSE_CLI_H */
