#!/bin/bash
# cli_timeloop_replay.sh: the 14 Timeloop reference runs of
# ../shared/validation/timeloop/ (DSE_TIMELOOP_VALIDATION: another folder of
# the same form) simulated as they are, `dse sim ARCH PROBLEM --mappings MAP
# --ert ERT`, against reference/per_level.csv and summary.csv: per level and
# tensor reads, fills and updates per instance and in total, and utilized
# instances, exactly; cycles exactly; energy per level (tensors + leakage)
# and in total within 1%; the 3 blind runs against their MACs, utilized MACs
# and cycles worked out by hand (tests/cli/timeloop_replay.py holds the run
# table, the hand figures and the expected deviations, none today).  The
# tables it prints are docs/validation.md's, between its markers: they must
# be the same (UPDATE=1 rewrites the page's); likewise docs/timeloop.md's
# table of the same runs without their ERT (dse's technology models).
# Skips when the folder is absent.
. "$(dirname "$0")/lib.sh"
V=${DSE_TIMELOOP_VALIDATION:-$SRC/../shared/validation/timeloop}
if [ ! -d "$V" ]; then
  echo "skipped: $V absent"
  finish
  exit
fi
run python3 "$SRC/tests/cli/timeloop_replay.py" "$DSE" "$V" --markdown "$TMP/tables.md" \
  --no-ert "$TMP/no_ert.md"
expect_code 0 "replay: $OUT"
expect_out "14 runs, 0 failures" "replay"
page_tables "$SRC/docs/validation.md" \
  '<!-- replay tables: tests/cli/cli_timeloop_replay.sh writes them (UPDATE=1) -->' \
  '<!-- end of the replay tables -->' "$TMP/tables.md"
page_tables "$SRC/docs/timeloop.md" \
  '<!-- no-ERT table: tests/cli/cli_timeloop_replay.sh writes it (UPDATE=1) -->' \
  '<!-- end of the no-ERT table -->' "$TMP/no_ert.md"
finish
