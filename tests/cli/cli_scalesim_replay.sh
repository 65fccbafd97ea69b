#!/bin/bash
# cli_scalesim_replay.sh: the 174 layer rows of SCALE-Sim v2's runs in
# ../shared/validation/scalesim/reference.csv (DSE_SCALESIM_VALIDATION:
# another folder of the same form) simulated as they are, `dse sim RUN.cfg
# TOPOLOGY.csv`, dse's cycles against SCALE-Sim's total_cycles
# (tests/cli/scalesim_replay.py).  A ratchet, not a match: it asserts that at
# least WITHIN layers are within 1% and at least EXACT are exact, today's
# counts, which issue 12's later steps raise (docs/design/mapper-plan.md,
# S1 and S5).  The tables it prints are docs/scalesim.md's, between its
# markers: they must be the same (UPDATE=1 rewrites the page's).  Skips
# when the folder is absent.
. "$(dirname "$0")/lib.sh"
WITHIN=174
EXACT=174
V=${DSE_SCALESIM_VALIDATION:-$SRC/../shared/validation/scalesim}
if [ ! -d "$V" ]; then
  echo "skipped: $V absent"
  finish
  exit
fi
run python3 "$SRC/tests/cli/scalesim_replay.py" "$DSE" "$V" --markdown "$TMP/tables.md"
expect_code 0 "replay: $OUT"
echo "$OUT"
expect_out "30 runs, 0 failures" "replay"
# "174 layers: N within 1%, M exact"
counts=$(echo "$OUT" | sed -n 's/^174 layers: \([0-9]*\) within 1%, \([0-9]*\) exact$/\1 \2/p')
if [ -z "$counts" ]; then bad "replay: no line '174 layers: N within 1%, M exact'"; else
  read -r within exact <<<"$counts"
  if [ "$within" -ge "$WITHIN" ]; then ok; else
    bad "$within of 174 layers within 1% of SCALE-Sim's cycles, want at least $WITHIN"
  fi
  if [ "$exact" -ge "$EXACT" ]; then ok; else
    bad "$exact of 174 layers exact, want at least $EXACT"
  fi
fi
page_tables "$SRC/docs/scalesim.md" \
  '<!-- replay tables: tests/cli/cli_scalesim_replay.sh writes them (UPDATE=1) -->' \
  '<!-- end of the replay tables -->' "$TMP/tables.md"
finish
