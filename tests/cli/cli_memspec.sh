#!/bin/bash
# Memory presets: every JEDEC relation dse check validates, ranks and the
# controller block.  Each bad preset: exit 2, FILE:LINE:COL at the value
# that breaks it, nothing written (docs/memory.md, "Timing").
. "$(dirname "$0")/lib.sh"

DDR4="$SRC/arch/memory/ddr4-3200.yaml"
# where KEY's value sits in FILE: LINE:COL
at() { awk -v k="  $2:" 'index($0, k) == 1 { print NR ":" index($0, ":") + 2; exit }' "$1"; }
# refused NAME SED-EXPR KEY MESSAGE: the edited ddr4-3200 is refused at KEY
refused() {
  local f="$TMP/$1.yaml"
  sed "$2" "$DDR4" > "$f"
  run "$DSE" mem "$f" --bytes 1MiB -o "$TMP/$1.json"
  expect_code 2 "$1: exit"
  expect_err "$f:$(at "$f" "$3"): error: $4" "$1: located message"
  expect_no_file "$TMP/$1.json" "$1: nothing written"
  run "$DSE" check "$f"; expect_code 2 "$1: dse check"
}
# ddr4-3200: CL 22, CWL 16, BL 4 tCK, tRCD 22, tRP 22, tRAS 52, tCCD 4/8,
# tRRD 4/8, tWTR_L 12 and tWTR_S 4, tRTW 12, tRFC 576
refused trc 's/^  tRC: 74/  tRC: 70/' tRC "timing.tRC: tRC (70) < tRAS + tRP (52 + 22 = 74) violates JEDEC"
refused tras 's/^  tRAS: 52/  tRAS: 20/' tRAS "timing.tRAS: tRAS (20) < tRCD (22): a row closes before it can be read"
refused tccdl 's/^  tCCD_L: 8/  tCCD_L: 3/' tCCD_L "timing.tCCD_L: tCCD_L (3) < tCCD_S (4)"
refused tccdswr 's/^  tCCD_L: 8/&\n  tCCD_S_WR: 2/' tCCD_S_WR \
  "timing.tCCD_S_WR: tCCD_S_WR (2) < tCCD_S (4): a write burst is no shorter than a read"
refused tccdlwr 's/^  tCCD_L: 8/&\n  tCCD_L_WR: 6/' tCCD_L_WR \
  "timing.tCCD_L_WR: tCCD_L_WR (6) < tCCD_L (8): a write burst is no shorter than a read"
refused twtr 's/^  tWTR_S: 4 /  tWTR_S: 13 /' tWTR_S \
  "timing.tWTR_S: tWTR_L (12) < tWTR_S (13) (tWTR_L, same bank group, against tWTR_S)"
refused trrdl 's/^  tRRD_L: 8 /  tRRD_L: 2 /' tRRD_L "timing.tRRD_L: tRRD_L (2) < tRRD_S (4)"
refused tfaw 's/^  tFAW: 34 /  tFAW: 3 /' tFAW "timing.tFAW: tFAW (3) < tRRD_S (4)"
refused taad 's/^  tRTP: 12/&\n  tAAD: 30/' tAAD \
  "timing.tAAD: tRCD (22) <= tAAD (30): a read would issue before its row's second activate"
refused trpab 's/^  tRTP: 12/&\n  tRPab: 20/' tRPab \
  "timing.tRPab: tRPab (20) < tRP (22): closing all banks takes no less than one"
refused trefi 's/^  tREFI: 12480 /  tREFI: 500 /' tREFI "timing.tREFI: tREFI (500) must exceed tRFC (576)"
refused trefi2 's/^  tREFI: 12480 /  tREFI: 600 /' tREFI \
  "timing.tREFI: tREFI (600) must exceed tRPab + tRFC + tRCD (22 + 576 + 22 = 620): the precharge, refresh and activate would fill the interval"
refused trfcpb 's/^  tRTP: 12/&\n  tRFCpb: 600/' tRFCpb \
  "timing.tRFCpb: tRFC (576) < tRFCpb (600): refreshing all banks takes no less than one"
refused tccdr 's/^  tRTP: 12/&\n  tCCDR: 3/' tCCDR \
  "timing.tCCDR: tCCDR (3) < tCCD_S (4): switching stack IDs adds to the column gap"
refused trtw 's/^  tRTW: 12 /  tRTW: 9 /' tRTW \
  "timing.tRTW: tRTW (9) < CL + BL - CWL (22 + 4 - 16 = 10): the write's data would collide with the read's"
# 4 ranks of 8 GiB are more than the 8 GiB DIMM; stack IDs are HBM3's
refused ranks 's/^  burst_length: 8 /&\n  ranks: 4\n /' ranks \
  "organization.ranks: 4 ranks need 32 GiB (1 pseudo-channels x 4 x 16 banks x 65536 rows x 8192 B), more than the capacity of 8 GiB"
refused sids 's/^  burst_length: 8 /&\n  stack_ids: 2\n /' stack_ids \
  "organization.stack_ids: stack IDs are an HBM3 organization; ddr4 has ranks (write organization.ranks)"
# the controller block: a queue of 0, watermarks the wrong way round
refused rq 's/^unit: dimm/&\ncontroller:\n  read_queue: 0/' read_queue "controller.read_queue"
refused wm 's/^unit: dimm/&\ncontroller:\n  wm_high: 0.3\n  wm_low: 0.4/' wm_high \
  "controller.wm_high: wm_high (0.3) must exceed wm_low (0.4): writes drain from above wm_high x write_queue down to wm_low x it"
refused sched 's/^unit: dimm/&\ncontroller:\n  scheduler: fcfs/' scheduler \
  "controller.scheduler: unknown value 'fcfs'; did you mean 'frfcfs'?"

# a 2-rank DIMM: twice the capacity, the rank digit in the map
sed 's/^  burst_length: 8 /&\n  ranks: 2\n /; s/^capacity: 8 GiB/capacity: 16 GiB/' "$DDR4" > "$TMP/r2.yaml"
run "$DSE" check "$TMP/r2.yaml"; expect_code 0 "2-rank DIMM"
expect_out "16 GiB per dimm" "2-rank capacity"
sed 's/^name: ddr4-3200/&\naddress_map: RoBaCoBgPcCh/' "$TMP/r2.yaml" > "$TMP/r2old.yaml"
run "$DSE" check "$TMP/r2old.yaml"; expect_code 2 "2 ranks, a map without Ra"
expect_err "r2old.yaml:16:14: error: address_map: 'RoBaCoBgPcCh' does not name Ra, and this organization has 2 ranks: add it, e.g. 'RoBaCoRaBgPcCh'" "what to write"
# its ranks share the channel's data bus: sequential reads stay under the
# 25.6 GB/s peak (docs/memory.md, "Ranks": 24.1 GB/s, 94.3%), and each rank
# refreshes (one rank: 88 REFab in 690 us; two: 178 in 695 us)
run "$DSE" mem "$TMP/r2.yaml"; expect_code 0 "2-rank sequential"
expect_out "24.1293 GB/s" "2-rank bandwidth: one data bus"
expect_out "0.94255" "2-rank efficiency under 1"
expect_out "$(printf '%-40s%9s' '  refreshes' 178)" "2-rank refresh per rank"
# every preset in arch/memory passes its own relations
for f in "$SRC"/arch/memory/*.yaml; do
  run "$DSE" check "$f"; expect_code 0 "check $(basename "$f")"
done

finish
