#!/bin/bash
# cli_run.sh: `dse run` on scripts that hand the module bad tables (issue
# 9): exit 2, exactly the expected first line on stderr, no output file;
# and SIGINT: exit 130 after the cleanup, no half-written or temporary file.
. "$(dirname "$0")/lib.sh"

# bad NAME LINE MESSAGE: $TMP/NAME.lua (given the output path as arg[1])
# fails at LINE with MESSAGE, exit 2, and writes nothing next to it
check_bad() {
  run "$DSE" run "$TMP/$1.lua" "$TMP/outdir/result"
  expect_code 2 "$1"
  local first want
  first=$(printf '%s\n' "$ERR" | head -1)
  want="$TMP/$1.lua:$2:1: error: $3"
  [ "$first" = "$want" ] && ok || bad "$1: got '$first', want '$want'"
  [ -z "$(ls -A "$TMP/outdir")" ] && ok || bad "$1: wrote $(ls "$TMP/outdir")"
}
mkdir -p "$TMP/outdir"
script() { # script NAME BODY: the body runs with `dse`, `out` and nest(n, key)
  cat >"$TMP/$1.lua" <<LUA
local out = ...; local dse = require "dse"
local function nest(n, key) local t = {}; local c = t; for _ = 2, n do c[key] = {}; c = c[key] end; return t end
$2
LUA
}
a31=$(printf 'a.%.0s' $(seq 31)); a31=${a31%.}
a64=$(printf 'a.%.0s' $(seq 64)); a64=${a64%.}
l31=$(printf '[1]%.0s' $(seq 31))

# cyclic and deep tables: these crashed (exit 139) or spun for minutes
script json_self 'local t = {}; t.self = t; dse.write_json(out, t)'
check_bad json_self 3 "dse.write_json: cyclic table at self"
script json_deep 'dse.write_json(out, nest(70, "a"))'
check_bad json_deep 3 "dse.write_json: $a64: tables nested too deeply (limit 64)"
script arch_self 'local t = { name = "x" }; t.self = t; dse.arch(t)'
check_bad arch_self 3 "cyclic table at self"
script arch_deep 'dse.arch(nest(40, "a"))'
check_bad arch_deep 3 "$a31.a: tables nested too deeply (limit 32)"
script with_self 'local t = {}; t.self = t; dse.arch("tpu-v1"):with { dram = t }'
check_bad with_self 3 "cyclic table at dram.self"
script with_deep 'dse.arch("tpu-v1"):with { dram = nest(40, "a") }'
check_bad with_deep 3 "dram.$a31.a: tables nested too deeply (limit 32)"
script layers_self 'local t = {}; t[1] = t; dse.workload { name = "w", layers = t }'
check_bad layers_self 3 "cyclic table at layers[1]"
script layers_deep 'dse.workload { name = "w", layers = nest(40, 1) }'
check_bad layers_deep 3 "layers$l31: tables nested too deeply (limit 32)"

# messages located at the script's line, naming the key
script sweep_list 'dse.sweep { arch = { "tpu-v1", "npu-hbm2e" }, workload = "alexnet" }'
check_bad sweep_list 3 "dse.sweep: arch: expected one arch (a preset name, path, table or dse.Arch), got a list of 2 values; sweep each arch in turn, or vary its keys in 'grid'"
script report_5 'dse.report { path = out, results = 5 }'
check_bad report_5 3 "dse.report: results: expected a list of results (from dse.sweep or dse.simulate), got number"
script report_latency '
local r = dse.simulate("tpu-v1", "alexnet", { fidelity = "analytic" })
dse.report { path = out, results = { r }, objectives = { "latency" } }'
check_bad report_latency 5 "dse.report: objective 'latency' not found in results[1]; did you mean 'latency_s'?"
# a mapper objective that does not exist: the valid ones, located in the script
script sim_objective '
local r = dse.simulate("tpu-v1", "alexnet", { objective = "throughput" })
dse.write_json(out, r)'
check_bad sim_objective 4 "dse.simulate: unknown objective 'throughput'; expected one of: latency, energy, edp, dram"

# SIGINT: exit 130 once the state is closed; every write is whole
# wait_for FILE: up to 60 s (a sanitizer build is slow to start)
wait_for() { for _ in $(seq 600); do [ -e "$1" ] && return 0; sleep 0.1; done; return 1; }
# interrupt PID: SIGINT, then its exit code in CODE (SIGKILL and 137 if it
# is still running 60 s later)
interrupt() {
  kill -INT "$1"
  for _ in $(seq 600); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null
  wait "$1"
  CODE=$?
}
script sigint_write '
local n = 0
while true do
  n = n + 1
  dse.write_text(out, string.rep("x", 1 << 20) .. "\nend " .. n .. "\n")
end'
"$DSE" run "$TMP/sigint_write.lua" "$TMP/sig.txt" 2>"$TMP/sig.err" &
pid=$!
wait_for "$TMP/sig.txt" && sleep 0.5
interrupt $pid
ERR=$(cat "$TMP/sig.err")
expect_code 130 "SIGINT during writes"
expect_err "interrupted!" "SIGINT message"; expect_err "sigint_write.lua:7: in main chunk" "SIGINT traceback"
[ "$(head -1 "$TMP/sig.txt" | wc -c)" -eq $(((1 << 20) + 1)) ] && ok || bad "SIGINT: first line cut"
tail -1 "$TMP/sig.txt" | grep -qx 'end [0-9]*' && ok || bad "SIGINT: file cut: $(tail -c 40 "$TMP/sig.txt")"
ls "$TMP"/sig.txt.tmp.* >/dev/null 2>&1 && bad "SIGINT: temporary file left" || ok
# a script that catches every error still stops
script sigint_pcall '
dse.write_text(out, "started\n")
while true do pcall(function() for i = 1, 1e6 do local _ = i * i end end) end'
"$DSE" run "$TMP/sigint_pcall.lua" "$TMP/started" 2>"$TMP/sig.err" &
pid=$!
wait_for "$TMP/started" && sleep 0.2
interrupt $pid
expect_code 130 "SIGINT inside pcall"
# the script itself: missing, a directory, a syntax error (Lua gives no
# column: 1, as for every located script error), a misspelt override path
first_err() { printf '%s\n' "$ERR" | head -1; }
run "$DSE" run "$TMP/missing.lua"; expect_code 2 "missing script"
[ "$(first_err)" = "$TMP/missing.lua: error: no such file" ] && ok || bad "missing script: $(first_err)"
mkdir -p "$TMP/adir.lua"
run "$DSE" run "$TMP/adir.lua"; expect_code 2 "directory script"
[ "$(first_err)" = "$TMP/adir.lua: error: is a directory, not a file" ] && ok || bad "directory script: $(first_err)"
printf 'local x = 1\nlocal y = = 2\n' >"$TMP/syntax.lua"
run "$DSE" run "$TMP/syntax.lua"; expect_code 2 "syntax error"
[ "$(first_err)" = "$TMP/syntax.lua:2:1: error: unexpected symbol near '='" ] && ok || bad "syntax error: $(first_err)"
script with_typo 'dse.arch("tpu-v1"):with { ["pe_aray.rows"] = 4 }'
check_bad with_typo 3 "pe_aray.rows: no key 'pe_aray' to descend into; did you mean 'pe_array'?"
# a name the library cannot place in a file: at the script's line
script wl_unknown 'dse.sweep { arch = "tpu-v1", workloads = { "alexnet", "nosuchwl" } }'
check_bad wl_unknown 3 "unknown workload 'nosuchwl'; known: alexnet, alexnet_conv, bert_base, gpt2, llama2_7b, mobilenet_v2, resnet50, vgg16"

# a sweep's summary on stderr (not a terminal: no progress line in a short
# sweep), nothing with --quiet or progress = false; --quiet goes before the
# script (after it, it is the script's argument)
script sweep_two 'local r = dse.sweep { arch = "tpu-v1", workloads = { "alexnet", "llama2_7b" },
  grid = { ["dram.capacity"] = { "1 GiB", "64 GiB" } }, fidelity = "analytic", progress = out ~= "quiet" }
print(#r)'
run "$DSE" run "$TMP/sweep_two.lua" x; expect_code 0 "sweep summary"
[ "$OUT" = 4 ] && ok || bad "sweep summary: stdout '$OUT'"
printf '%s\n' "$ERR" | grep -qx 'dse.sweep: 2 design points x 2 workloads = 4 results in [0-9.]* s, 1 infeasible' &&
  ok || bad "sweep summary: stderr '$ERR'"
run "$DSE" run --quiet "$TMP/sweep_two.lua" x; expect_code 0 "--quiet"
[ "$OUT" = 4 ] && [ -z "$ERR" ] && ok || bad "--quiet: stdout '$OUT', stderr '$ERR'"
run "$DSE" run "$TMP/sweep_two.lua" quiet; expect_code 0 "progress = false"
[ -z "$ERR" ] && ok || bad "progress = false: stderr '$ERR'"
run "$DSE" run --quite "$TMP/sweep_two.lua"; expect_code 2 "dse run --quite"
expect_err "unknown option '--quite'" "dse run --quite"
run "$DSE" run --quiet; expect_code 2 "dse run --quiet alone"
expect_err "expected SCRIPT.lua" "dse run --quiet alone"
script sweep_progress 'dse.sweep { arch = "tpu-v1", workload = "alexnet", progress = 1 }'
check_bad sweep_progress 3 "dse.sweep: progress: expected true or false, got number"

finish
