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
# be the same (UPDATE=1 rewrites the page's).  Skips when the folder is absent.
. "$(dirname "$0")/lib.sh"
V=${DSE_TIMELOOP_VALIDATION:-$SRC/../shared/validation/timeloop}
if [ ! -d "$V" ]; then
  echo "skipped: $V absent"
  finish
  exit
fi
run python3 "$SRC/tests/cli/timeloop_replay.py" "$DSE" "$V" --markdown "$TMP/tables.md"
expect_code 0 "replay: $OUT"
expect_out "14 runs, 0 failures" "replay"
page="$SRC/docs/validation.md"
begin='<!-- replay tables: tests/cli/cli_timeloop_replay.sh writes them (UPDATE=1) -->'
end='<!-- end of the replay tables -->'
# the page's lines strictly between the markers (awk: the markers hold '/')
between() { awk -v b="$begin" -v e="$end" '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' "$1"; }
if [ "${UPDATE:-0}" = 1 ]; then
  awk -v b="$begin" -v e="$end" -v t="$TMP/tables.md" '
    $0 == e { on = 0 }
    !on { print }
    $0 == b { on = 1; print ""; while ((getline l < t) > 0) print l }' "$page" >"$TMP/page"
  cp "$TMP/page" "$page"
fi
between "$page" | sed '1{/^$/d}' >"$TMP/shown"
if diff -u "$TMP/shown" "$TMP/tables.md" >"$TMP/diff"; then ok; else
  bad "docs/validation.md's tables differ from the replay's (UPDATE=1 rewrites them):"; head -40 "$TMP/diff" >&2
fi
finish
