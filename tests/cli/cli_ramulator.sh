#!/bin/bash
# dse mem --pattern ramulator:NAME: the Ramulator 2.1 reference patterns
# (docs/memory.md, "Checking against Ramulator"); bad input.
. "$(dirname "$0")/lib.sh"

# seq_rw: 64 B requests at i x 64, each a write with probability 0.5 drawn
# by mt19937_64 seed 12345 as libstdc++'s bernoulli_distribution does:
# 131039 writes of 262144 (g++ 12 gives the same count)
run "$DSE" mem ddr4-3200 --pattern ramulator:seq_rw --format json; expect_code 0 "seq_rw"
expect_out '"pattern": "ramulator:seq_rw", "read_ratio": 0.5,' "seq_rw header"
expect_out '"bytes": 16777216, "bus_bytes": 16777216, "request_bytes": 64, "burst_bytes": 64, "reads": 131105, "writes": 131039,' "seq_rw draws"
# implies --steady: the steady figures are numbers, not null
case "$OUT" in *'"steady_bandwidth_bytes_per_s": null'*) bad "steady not implied" ;; *) ok ;; esac
run "$DSE" mem ddr4-3200 --pattern ramulator:seq_rw --seed 1 --format json
expect_out '"reads": 131392, "writes": 130752,' "--seed changes the draws (g++: 130752)"

# seq_rd is the strided stream of 64 B requests in 1 GiB, nothing else
run "$DSE" mem ddr4-3200 --pattern ramulator:seq_rd --format csv; a=$(echo "$OUT" | tail -1 | cut -d, -f4-)
run "$DSE" mem ddr4-3200 --pattern strided --stride 64 --size 64 --region 1GiB --steady --format csv
b=$(echo "$OUT" | tail -1 | cut -d, -f4-)
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "ramulator:seq_rd differs from strided 64 B: $a vs $b"

# HBM3: a 64 B request is two 32 B bursts (channels c and c+1)
run "$DSE" mem hbm3-6400 --pattern ramulator:rand_rd --bytes 64MiB --format json
expect_out '"bytes": 67108864, "bus_bytes": 67108864, "request_bytes": 64, "burst_bytes": 32, "reads": 2097152, "writes": 0,' "rand_rd on hbm3"
run "$DSE" mem hbm3-6400 --pattern ramulator:lat_seq --bytes 1280000
expect_code 0 "lat_seq"; expect_out "hbm3-6400 x 1 stack, ramulator:lat_seq pattern, read ratio 1" "lat_seq table"

# bad input: exit 2, a usage error, nothing written
run "$DSE" mem ddr4-3200 --pattern ramulator:seq_r -o "$TMP/x.json"; expect_code 2 "unknown name"
expect_err "dse: error: unknown --pattern 'ramulator:seq_r' (did you mean 'ramulator:seq_rd'?); the Ramulator patterns are seq_rd, seq_wr, seq_rw, rand_rd, stride4k_rd, lat_rand, lat_seq" "unknown name message"
expect_no_file "$TMP/x.json" "unknown name"
for opt in "--region 1GiB" "--size 128" "--stride 4096" "--read-ratio 1"; do
  run "$DSE" mem ddr4-3200 --pattern ramulator:stride4k_rd $opt -o "$TMP/x.json"
  expect_code 2 "$opt"
  expect_err "dse: error: ${opt%% *} does not apply to --pattern ramulator:stride4k_rd (it fixes 64 B requests, their stride and read ratio, and a 1 GiB region)" "$opt message"
  expect_no_file "$TMP/x.json" "$opt"
done
run "$DSE" mem ddr4-3200 --pattern ramulator: ; expect_code 2 "empty name"
expect_err "dse: error: unknown --pattern 'ramulator:'; the Ramulator patterns are" "empty name message"
finish
