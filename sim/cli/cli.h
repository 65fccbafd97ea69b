/* cli.h: subcommands of the dse executable.  Each returns the exit code:
 * 0 success, 1 internal failure, 2 bad input. */
#ifndef DSE_CLI_H
#define DSE_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "dse/dse.h"
#include "sweep/sweep.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_BAD = 2 };

/* Print every diagnostic on ctx to stderr; returns the exit code for err.
 * One with no file is about an argument: "dse: error: ARG: message", arg
 * naming it as the usage does ("ARCH", "PRESET"; NULL: no name). */
int cli_report(dse_ctx *ctx, int err, const char *arg);
struct pool_ranks;
/* ranks: mpirun's (sweep/pool.h; NULL: none) */
int cli_run(dse_ctx *ctx, int argc, char **argv, int quiet, int jobs, struct pool_ranks *ranks);
int cli_mem(dse_ctx *ctx, int argc, char **argv);
/* `dse export STORE`: a stored sweep as CSV or JSON (export.c). */
int cli_export(dse_ctx *ctx, int argc, char **argv);
/* `dse pareto STORE --objectives ...`: a stored sweep's fronts (export.c). */
int cli_pareto(dse_ctx *ctx, int argc, char **argv);
/* `dse report SOURCE -o DIR`: a report directory (report.c). */
int cli_report_cmd(dse_ctx *ctx, int argc, char **argv);
/* A front's objectives and budgets as given on the command line
 * (--objectives A,B; --constraints 'F<=N,...'): the names point into
 * list, the budgets' fields into fields. */
typedef struct cli_front_args {
  char list[1024], ctext[1024], fields[16][64];
  const char *names[16];
  size_t nobj, nbudgets;
  sweep_constraint budgets[16];
} cli_front_args;
/* objs and cons (NULL: not given) into a; CLI_OK, or CLI_BAD after the
 * usage error (an empty name, one given twice, more than 16; a budget
 * that is not FIELD, a comparison and a number). */
int cli_front_args_parse(const char *usage, const char *objs, const char *cons,
                         cli_front_args *a);
/* `dse import timeloop`: pos are ARCH PROBLEM [MAPPING]; ert and dir the
 * values of --ert and -o (NULL when not given). */
int cli_import_timeloop(dse_ctx *ctx, const char *const *pos, int npos, const char *ert,
                        const char *dir, const char *usage);
/* Whether path is a YAML file whose top level has key (a Timeloop
 * `architecture` or `mapping` file; 0 for a preset name or a bad file). */
int cli_timeloop_file(const char *path, const char *key);
/* `dse sim` of a Timeloop arch (docs/timeloop.md, "Simulating Timeloop files
 * directly"): the arch read with the ERT at ert (NULL: dse's technology models) into
 * the `levels:` document the importer writes, and that loaded; map_path's
 * mappings (NULL: none) read against it and the problem at prob_path when
 * it is a Timeloop mapping, else as dse's.  *arg names the argument an
 * error is in. */
int cli_timeloop_sim_load(dse_ctx *ctx, const char *arch_path, const char *prob_path,
                          const char *map_path, const char *ert_path, dse_arch **arch,
                          dse_mappings **pins, const char **arg);

/* Shared helpers of main.c. */

/* A usage error: "dse: error: MESSAGE" and the usage text on stderr;
 * returns CLI_BAD. */
int cli_usage_error(const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One option of a subcommand.  A value option (value set) stores its
 * argument in value[0] and may be given once; with max > 1 it may repeat up
 * to max times, the values in value[0..*n).  A flag (value NULL) counts how
 * often it was given in *n. */
typedef struct cli_opt {
  const char *name; /* "--format", "-o" */
  const char **value;
  size_t *n;
  size_t max;
} cli_opt;

/* Parse argv[0..argc) against opts (ended by a NULL name), and count the
 * positionals in *npos, storing them in pos[0..maxpos) when pos is not
 * NULL.  An unknown option, a missing or empty value, an option given more
 * often than it may be, an empty or an extra positional is a usage error.
 * Returns CLI_OK, CLI_BAD (the error printed), or -1 when --help printed
 * the usage (exit 0). */
int cli_parse(const char *usage, const cli_opt *opts, int argc, char **argv,
              const char **pos, int maxpos, int *npos);

/* The index of v in names (ended by NULL), or def when v is NULL (the
 * option not given); -1 after the usage error "unknown OPT 'v'; expected a,
 * b or c". */
int cli_choice(const char *usage, const char *opt, const char *v, const char *const *names,
               int def);

/* A whole number from min to max into *out, written as a YAML integer
 * field or a --param value is (unit_parse_whole: 64, 1e3, 1000.0); returns
 * 0, or -1 when v is not one. */
int cli_uint(const char *v, uint64_t min, uint64_t max, uint64_t *out);

/* -o PATH (NULL: none) can be written: not a directory, in an existing
 * directory that takes a new file.  Checked before any work, so a command
 * that cannot write its output says so at once ("dse: error: -o PATH: ..."),
 * exit 2.  Returns CLI_OK or CLI_BAD (the error printed). */
int cli_check_out(const char *path);
/* The directory a path names a file or directory in (".", "/", "a/b" for
 * "a/b/c" and "a/b/c/"). */
void cli_parent_dir(const char *path, char *dir, size_t n);

struct core_buf;
/* Output of a buffer to stdout or atomically to out_path. */
int cli_emit(const struct core_buf *b, const char *out_path);

#endif /* DSE_CLI_H */
