#!/bin/bash
# cli_scalesim_replay.sh: the 174 layer rows of SCALE-Sim v2's runs in
# ../shared/validation/scalesim/reference.csv (DSE_SCALESIM_VALIDATION:
# another folder of the same form) simulated as they are, `dse sim RUN.cfg
# TOPOLOGY.csv`, dse's cycles against SCALE-Sim's total_cycles and its six
# SRAM and DRAM word counts against SCALE-Sim's (tests/cli/scalesim_replay.py;
# docs/design/mapper-plan.md, S5 and S6).  A ratchet, not a match: it
# asserts that at least WITHIN layers are within 1% and at least EXACT are
# exact, and per count at least the numbers of COUNTS, today's.  The tables
# it prints are docs/scalesim.md's, between its markers: they must be the
# same (UPDATE=1 rewrites the page's).  Skips when the folder is absent.
. "$(dirname "$0")/lib.sh"
WITHIN=174
EXACT=174
# SCALE-Sim's count, layers within 1%, layers exact (the 6 dram_ifmap_reads
# off are AlexNet's Conv1: docs/scalesim.md, "SRAM and DRAM counts")
COUNTS="sram_ifmap_reads 174 174
sram_filter_reads 174 174
sram_ofmap_writes 174 174
dram_ifmap_reads 169 168
dram_filter_reads 174 174
dram_ofmap_writes 174 174"
V=${DSE_SCALESIM_VALIDATION:-$SRC/../shared/validation/scalesim}
if [ ! -d "$V" ]; then
  echo "skipped: $V absent"
  finish
  exit
fi
run python3 "$SRC/tests/cli/scalesim_replay.py" "$DSE" "$V" --markdown "$TMP/tables.md" \
  --counts "$TMP/counts.md"
expect_code 0 "replay: $OUT"
echo "$OUT"
expect_out "30 runs, 0 failures" "replay"
# ratchet WHAT PREFIX WITHIN EXACT: the replay's line "PREFIX N within 1%,
# M exact" has N >= WITHIN and M >= EXACT
ratchet() {
  local what=$1 prefix=$2 got within exact
  got=$(echo "$OUT" | sed -n "s/^$prefix \([0-9]*\) within 1%, \([0-9]*\) exact\$/\1 \2/p")
  if [ -z "$got" ]; then bad "replay: no line '$prefix N within 1%, M exact'"; return; fi
  read -r within exact <<<"$got"
  if [ "$within" -ge "$3" ]; then ok; else
    bad "$what: $within of 174 layers within 1% of SCALE-Sim's, want at least $3"
  fi
  if [ "$exact" -ge "$4" ]; then ok; else
    bad "$what: $exact of 174 layers exact, want at least $4"
  fi
}
ratchet cycles "174 layers:" "$WITHIN" "$EXACT"
while read -r name within exact; do
  ratchet "$name" "count $name: 174 layers," "$within" "$exact"
done <<<"$COUNTS"
page_tables "$SRC/docs/scalesim.md" \
  '<!-- replay tables: tests/cli/cli_scalesim_replay.sh writes them (UPDATE=1) -->' \
  '<!-- end of the replay tables -->' "$TMP/tables.md"
page_tables "$SRC/docs/scalesim.md" \
  '<!-- count tables: tests/cli/cli_scalesim_replay.sh writes them (UPDATE=1) -->' \
  '<!-- end of the count tables -->' "$TMP/counts.md"
finish
