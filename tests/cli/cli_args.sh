#!/bin/bash
# cli_args.sh: bad command-line arguments of every subcommand.  Each is
# rejected with exit 2, a first stderr line that names the option (or the
# argument) and the problem, nothing on stdout and no output file.
. "$(dirname "$0")/lib.sh"

O="$TMP/out.x"
# rejects MESSAGE ARGS...: `dse ARGS` exits 2 and says "dse: error: MESSAGE"
# first; stdout stays empty and $O is not written.
rejects() {
  local want="dse: error: $1" first
  shift
  rm -f "$O"
  run "$DSE" "$@"
  expect_code 2 "dse $*"
  first=$(printf '%s\n' "$ERR" | head -1)
  [ "$first" = "$want" ] && ok || bad "dse $*: says '$first', want '$want'"
  [ -z "$OUT" ] && ok || bad "dse $*: wrote to stdout"
  expect_no_file "$O" "dse $*"
}

# sim: --batch and --param are named with the value they were given
S=(sim tpu-v1 resnet50 -o "$O")
rejects "--batch 0: must be between 1 and 1000000 (got 0)" "${S[@]}" --batch 0
rejects "--batch -1: must be between 1 and 1000000 (got -1)" "${S[@]}" --batch -1
rejects "--batch 99999999999999999999: must be between 1 and 1000000 (got 99999999999999999999)" \
  "${S[@]}" --batch 99999999999999999999
rejects "--batch two: expected an integer, got 'two'" "${S[@]}" --batch two
rejects "--batch 1.5: must be an integer (got 1.5)" "${S[@]}" --batch 1.5
rejects "--batch 8 KiB: expected a plain integer, got '8 KiB' (a size)" "${S[@]}" --batch "8 KiB"
rejects "--batch needs a value" "${S[@]}" --batch
rejects "--batch needs a value, got ''" "${S[@]}" --batch ""
rejects "--batch given twice ('2', then '3')" "${S[@]}" --batch 2 --batch 3
# a missing value does not take the next option (it said "unexpected
# argument 'y.json'"); a negative number is still a value
rejects "--batch needs a value (got the option '-o')" sim tpu-v1 alexnet --batch -o "$O"
rejects "--format needs a value (got the option '--batch')" "${S[@]}" --format --batch 2
rejects "--param needs a value (got the option '--help')" "${S[@]}" --param --help
G=(sim npu-hbm2e gpt2 -o "$O")
rejects "--param phse=decode: unknown parameter 'phse' of workload 'gpt2'; did you mean 'phase'?" \
  "${G[@]}" --param phse=decode
rejects "--param x=1: unknown parameter 'x' of workload 'gpt2'; expected one of: batch, phase, seq" \
  "${G[@]}" --param x=1
rejects "--param seq=5: unknown parameter 'seq' of workload 'resnet50'; expected one of: batch" \
  "${S[@]}" --param seq=5
rejects "--param phase=decodr: unknown value 'decodr'; did you mean 'decode'? (one of prefill, decode)" \
  "${G[@]}" --param phase=decodr
rejects "--param seq=0: must be between 1 and 10000000 (got 0)" "${G[@]}" --param seq=0
rejects "--param seq=abc: expected an integer, got 'abc'" "${G[@]}" --param seq=abc
rejects "--param batch=0: must be between 1 and 1000000 (got 0)" "${G[@]}" --param batch=0
rejects "--param expects KEY=VALUE, got 'novalue'" "${G[@]}" --param novalue
rejects "--param expects KEY=VALUE, got '=decode'" "${G[@]}" --param =decode
rejects "--param a.b=1: 'a.b' is not a parameter name" "${G[@]}" --param a.b=1
rejects "--param phase=prefill: parameter 'phase' given twice (also --param phase=decode)" \
  "${G[@]}" --param phase=decode --param phase=prefill
rejects "--param batch=3: the batch is already given by --batch 2" "${G[@]}" --batch 2 --param batch=3
many=()
for i in $(seq 33); do many+=(--param "k$i=1"); done
rejects "--param given more than 32 times" "${G[@]}" "${many[@]}"
# the other sim options
rejects "unknown --dram-model 'ful'; expected profile or full" \
  "${S[@]}" --dram-model ful
for v in 0 -5 100001 abc " 5" 2.5 0x10 1_000 1e6 "5 B"; do
  rejects "--map-budget expects an integer from 1 to 100000, got '$v'" "${S[@]}" --map-budget "$v"
done
# one integer syntax everywhere, YAML's (unit_parse_whole): 1e3 and 2.0 are
# whole numbers for --batch, --param, --map-budget and dse mem's options alike
for v in 1e3 1000.0 +1000; do
  run "$DSE" sim tpu-v1 alexnet --fidelity cycle --map-budget "$v" --format csv
  expect_code 0 "--map-budget $v"
done
run "$DSE" sim tpu-v1 alexnet --map-budget 1000 --format csv; want="$OUT"
run "$DSE" sim tpu-v1 alexnet --map-budget 1e3 --format csv
[ "$OUT" = "$want" ] && ok || bad "--map-budget 1e3 differs from 1000"
run "$DSE" sim tpu-v1 alexnet --batch 2 --format csv --fidelity analytic; want="$OUT"
for b in "--batch 2.0" "--batch 2e0" "--param batch=2.0"; do
  run "$DSE" sim tpu-v1 alexnet $b --format csv --fidelity analytic
  [ "$OUT" = "$want" ] && ok || bad "$b differs from --batch 2"
done
rejects "--count expects an integer from 1 to 4096, got '2.5'" mem hbm3-6400 --count 2.5
rejects "--count expects an integer from 1 to 4096, got '1e4'" mem hbm3-6400 --count 1e4
run "$DSE" mem hbm3-6400 --count 1e1 --format csv; expect_code 0 "mem --count 1e1"
expect_out "hbm3-6400,10,seq," "mem --count 1e1 is 10"
run "$DSE" mem hbm3-6400 --pattern random --seed 18446744073709551615 --bytes 64KiB --format csv
expect_code 0 "mem --seed 2^64-1 (exact)"
rejects "--seed expects an integer from 0 to 18446744073709551615, got '18446744073709551616'" \
  mem hbm3-6400 --pattern random --seed 18446744073709551616
# level 2's options at level 1 are an error, not ignored; --mapping has a
# place only in the table
for o in "--map-budget 5" "--objective energy" "--mapping" "--dram-model full"; do
  rejects "${o%% *} needs --fidelity cycle: level 1 (analytic) maps no loop nests" \
    "${S[@]}" --fidelity analytic $o
done
rejects "--map-budget needs --fidelity cycle: level 1 (analytic) maps no loop nests" \
  "${S[@]}" --fidelity analytic --map-budget 5 --objective energy
rejects "--mapping prints the loop nests under the table (--format table); CSV has no column for them: --format json gives each layer's \"mapping\"" \
  "${S[@]}" --mapping --format csv
rejects "--mapping prints the loop nests under the table (--format table); the JSON result has them anyway, in each layer's \"mapping\"" \
  "${S[@]}" --mapping --format json
rejects "unknown --format 'xml'; expected table, csv or json" "${S[@]}" --format xml
rejects "--format given twice ('csv', then 'json')" "${S[@]}" --format csv --format json
rejects "unknown --fidelity 'cycles'; expected analytic or cycle" "${S[@]}" --fidelity cycles
rejects "unknown --objective 'speed'; expected latency, energy, edp or dram" "${S[@]}" --objective speed
rejects "--mappings needs --fidelity cycle: level 1 (analytic) maps no loop nests" \
  "${S[@]}" --mappings m.yaml --fidelity analytic
rejects "--mappings needs a value, got ''" "${S[@]}" --mappings ""
rejects "-o needs a value, got ''" sim tpu-v1 resnet50 -o ""
rejects "-o given twice ('$O', then '$TMP/b.json')" "${S[@]}" -o "$TMP/b.json"
expect_no_file "$TMP/b.json" "-o twice"
rejects "unknown option '--fromat'; did you mean '--format'?" "${S[@]}" --fromat csv
rejects "unknown option '-x'" "${S[@]}" -x
rejects "unexpected argument 'extra'" "${S[@]}" extra
rejects "empty argument (''): expected a name or a path" sim "" resnet50 -o "$O"
rejects "expected ARCH and WORKLOAD" sim tpu-v1 -o "$O"

# show
rejects "--batch 0: must be between 1 and 1000000 (got 0)" show workload gpt2 --batch 0
rejects "--param phse=decode: unknown parameter 'phse' of workload 'gpt2'; did you mean 'phase'?" \
  show workload gpt2 --param phse=decode
rejects "--param phase=decode: an encoder has no decode phase; use prefill" \
  show workload bert_base --param phase=decode
rejects "unknown --precision 'int3'; expected int4, int8, int16, fp8, bf16, fp16 or fp32" \
  show workload gpt2 --precision int3
rejects "--precision needs a value" show workload gpt2 --precision
rejects "unknown --format 'csv'; expected table or json" show workload gpt2 --format csv
rejects "unknown option '-o'" show workload gpt2 -o "$O"
rejects "expected 'workload'" show arch tpu-v1
rejects "expected a workload NAME" show workload

# mem: sizes name the option and the limit
M=(mem hbm3-6400 -o "$O")
rejects "--bytes '1 PiB' is over the limit of 4 GiB (a few seconds of simulation)" "${M[@]}" --bytes "1 PiB"
rejects "--bytes '5GiB' is over the limit of 4 GiB (a few seconds of simulation)" "${M[@]}" --bytes 5GiB
rejects "--bytes '0' is under the minimum of 1 B" "${M[@]}" --bytes 0
rejects "--bytes '-1' is under the minimum of 1 B" "${M[@]}" --bytes -1
rejects "--bytes '3 bit' is under the minimum of 1 B" "${M[@]}" --bytes "3 bit"
rejects "--bytes '1.5' is not a whole number of bytes" "${M[@]}" --bytes 1.5
rejects "--bytes: '4 GHz' is a frequency; expected a plain number (e.g. '4') or a size (e.g. '2 MiB')" \
  "${M[@]}" --bytes "4 GHz"
rejects "--bytes: expected a plain number (e.g. '4') or a size (e.g. '2 MiB'), got 'lots'" \
  "${M[@]}" --bytes lots
rejects "--stride '0' is under the minimum of 1 B" "${M[@]}" --pattern strided --stride 0
rejects "--stride '-1' is under the minimum of 1 B" "${M[@]}" --pattern strided --stride -1
rejects "--stride needs a value (got the option '--pattern')" "${M[@]}" --stride --pattern strided
rejects "--stride '32 GiB' is larger than the memory (hbm3-6400 x 1: 16 GiB)" \
  "${M[@]}" --pattern strided --stride "32 GiB"
rejects "--stride applies to --pattern strided only" "${M[@]}" --stride 8KiB
rejects "--size '0' is under the minimum of 1 B" "${M[@]}" --pattern random --size 0
rejects "--size '8 GiB' is over the limit of 4 GiB" "${M[@]}" --pattern random --size "8 GiB"
rejects "--size applies to --pattern random or strided (seq walks 4 KiB requests)" "${M[@]}" --size 128
rejects "--bytes 3 B is less than one request (--size 64 B)" "${M[@]}" --pattern random --bytes 3
rejects "--bytes 1 GiB in --size 1 B requests is 1073741824 requests, over the limit of 67108864: use a larger --size or fewer --bytes" \
  "${M[@]}" --pattern random --size 1 --bytes 1GiB
for v in 1.5 -0.1 abc " 0.5" nan; do
  rejects "--read-ratio expects a number from 0 to 1, got '$v'" "${M[@]}" --read-ratio "$v"
done
for v in 0 4097 abc -1 2.5 1e4 0x10; do
  rejects "--count expects an integer from 1 to 4096, got '$v'" "${M[@]}" --count "$v"
done
for v in 0 4097; do
  rejects "--window expects an integer from 1 to 4096, got '$v'" "${M[@]}" --window "$v"
  rejects "--read-queue expects an integer from 1 to 4096, got '$v'" "${M[@]}" --read-queue "$v"
  rejects "--write-queue expects an integer from 1 to 4096, got '$v'" "${M[@]}" --write-queue "$v"
done
# the closed loop holds at most the two queues: 32 + 32 by default, or
# what --read-queue / --write-queue / --window make them
for v in 0 65 abc; do
  rejects "--outstanding expects an integer from 1 to 64 (the read queue plus the write queue), got '$v'" \
    "${M[@]}" --outstanding "$v"
done
rejects "--outstanding expects an integer from 1 to 24 (the read queue plus the write queue), got '25'" \
  "${M[@]}" --read-queue 16 --write-queue 8 --outstanding 25
rejects "--outstanding expects an integer from 1 to 8 (the read queue plus the write queue), got '9'" \
  "${M[@]}" --window 4 --outstanding 9
rejects "unknown --frontend 'fifo'; expected inorder or per-channel" "${M[@]}" --frontend fifo
for v in -1 99999999999999999999999; do
  rejects "--seed expects an integer from 0 to 18446744073709551615, got '$v'" "${M[@]}" --seed "$v"
done
rejects "unknown --pattern 'zigzag'; expected seq, random or strided" "${M[@]}" --pattern zigzag
rejects "unknown --format 'xml'; expected table, csv or json" "${M[@]}" --format xml
rejects "--count given twice ('2', then '3')" "${M[@]}" --count 2 --count 3
rejects "--count needs a value" "${M[@]}" --count
rejects "unknown option '--byte'; did you mean '--bytes'?" "${M[@]}" --byte 1MiB
rejects "unexpected argument 'extra'" "${M[@]}" extra
rejects "expected a memory PRESET" mem -o "$O"

# A name that is no preset or zoo entry is named as the argument it was
# given for, after the program's name, as every other CLI-level error
K="known: edge-npu, eyeriss, npu-gddr6, npu-gddr7, npu-hbm2e, npu-hbm2e-dram, npu-hbm3, npu-lpddr5x, tpu-v1"
Z="known: alexnet, alexnet_conv, bert_base, gpt2, llama2_7b, mobilenet_v2, resnet50, vgg16"
rejects "ARCH: unknown arch preset 'nope'; $K" sim nope resnet50 -o "$O"
rejects "WORKLOAD: unknown workload 'nope'; $Z" sim tpu-v1 nope -o "$O"
rejects "NAME: unknown workload 'nope'; $Z" show workload nope
rejects "PRESET: unknown memory preset 'hbm3-640'; did you mean 'hbm3-6400'? (known: ddr3-1600, ddr4-3200, ddr5-4800, ddr5-6400, gddr6-14000, gddr6-16000, gddr6x-21000, gddr7-28000, gddr7-32000, hbm2-2000, hbm2-2400, hbm2e-3200, hbm3-6400, hbm3e-9200, lpddr5-6400, lpddr5x-8533)" \
  mem hbm3-640 -o "$O"
# -o: a directory, a missing directory, a file as a directory, a place
# nothing can be written; all found before any work, nothing written
mkdir -p "$TMP/d"
for c in "sim tpu-v1 alexnet" "mem hbm3-6400" "import scalesim $SRC/examples/scalesim/small_cnn.csv"; do
  rejects "-o $TMP/d: is a directory; expected a file name" $c -o "$TMP/d"
  rejects "-o $TMP/none/x.json: no directory '$TMP/none' (dse creates none)" $c -o "$TMP/none/x.json"
  expect_no_file "$TMP/none" "-o into a missing directory"
done
touch "$TMP/f"
rejects "-o $TMP/f/x.json: '$TMP/f' is not a directory" sim tpu-v1 alexnet -o "$TMP/f/x.json"
rejects "-o /proc/self/x.json: cannot create a file in '/proc/self': Operation not permitted" \
  sim tpu-v1 alexnet -o /proc/self/x.json
rejects "-o: cannot write '/proc/x.json': No such file or directory" sim tpu-v1 alexnet -o /proc/x.json
if [ "$(id -u)" != 0 ]; then # root writes anywhere
  mkdir -p "$TMP/ro"; chmod 555 "$TMP/ro"
  rejects "-o $TMP/ro/x.json: cannot create a file in '$TMP/ro': Permission denied" \
    sim tpu-v1 alexnet -o "$TMP/ro/x.json"
fi

# import, check, list, run
rejects "expected FILE" import scalesim -o "$O"
rejects "unexpected argument 'b.csv'" import scalesim a.csv b.csv -o "$O"
rejects "-o given twice ('$O', then '$TMP/b.yaml')" import scalesim a.csv -o "$O" -o "$TMP/b.yaml"
rejects "expected 'scalesim', 'timeloop' or 'onnx'" import bogus a.yaml -o "$O"
rejects "expected ARCH and PROBLEM (and a MAPPING)" import timeloop a.yaml -o "$O"
rejects "unexpected argument 'd.yaml'" import timeloop a.yaml b.yaml c.yaml d.yaml -o "$O"
rejects "unknown option '--bogus'" check --bogus
rejects "empty argument (''): expected a name or a path" check ""
rejects "expected FILE.yaml" check
rejects "unknown option '--bogus'" list --bogus
rejects "unexpected argument 'workloads'" list archs workloads
rejects "unknown option '--bogus'" run --bogus
rejects "expected SCRIPT.lua, got ''" run ""

# A flag given twice is harmless.
run "$DSE" sim tpu-v1 alexnet --mapping --mapping; expect_code 0 "--mapping twice"

# A parameter set from Lua is located at the script, not in the zoo file.
printf 'local dse = require "dse"\nlocal w = dse.workload("gpt2", {phse = "decode"})\n' > "$TMP/p.lua"
run "$DSE" run "$TMP/p.lua"; expect_code 2 "lua param typo"
expect_err "p.lua:2:1: error: params.phse: unknown key 'phse'; did you mean 'phase'?" "lua param typo"
finish
