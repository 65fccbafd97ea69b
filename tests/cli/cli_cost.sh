#!/bin/bash
# Memory cost and PHY area: a preset that names its memory technology is
# priced by it; a plain channel without one says it is not modelled (table,
# JSON, Lua, CSV); bad dram.technology values are located (exit 2).
. "$(dirname "$0")/lib.sh"

# npu-hbm2e (plain channel, technology hbm2e-3200) costs what the simulated
# stacks of npu-hbm2e-dram cost: 2 x 16 GiB x $7 = $224 of memory
run "$DSE" sim npu-hbm2e resnet50 --batch 8 --fidelity analytic; expect_code 0 "npu-hbm2e"
expect_out "memory PHYs 20.9 + controllers 11.5" "npu-hbm2e PHYs"
expect_out "unit cost \$418 (die \$17, package \$177, memory \$224)" "npu-hbm2e unit cost"
expect_out "memory: 2 x hbm2e-3200 (hbm2e), 32 GiB, \$224: whole stacks price the plain channel" "npu-hbm2e memory line"

# whole units are priced: 4 counted stacks cost what 4 simulated ones do
# ($448), and 1 GiB at 819.2 GB/s still takes (and pays for) two stacks
sed 's/  technology: hbm2e-3200/&\n  stacks: 4/' "$SRC/arch/npu-hbm2e.yaml" > "$TMP/st4.yaml"
run "$DSE" sim "$TMP/st4.yaml" resnet50 --fidelity analytic; expect_code 0 "4 stacks"
expect_out "memory: 4 x hbm2e-3200 (hbm2e), 64 GiB (the channel's capacity: 32 GiB), \$448:" "4 stacks priced whole"
sed 's/stacks: 2/stacks: 4/' "$SRC/arch/npu-hbm2e-dram.yaml" > "$TMP/p4.yaml"
run "$DSE" sim "$TMP/p4.yaml" resnet50 --fidelity analytic
expect_out "memory: 4 x hbm2e-3200 (hbm2e), 64 GiB, \$448" "4 simulated stacks"
sed 's/capacity: 32 GiB/capacity: 1 GiB/' "$SRC/arch/npu-hbm2e.yaml" > "$TMP/c1.yaml"
run "$DSE" sim "$TMP/c1.yaml" resnet50 --fidelity analytic; expect_code 0 "1 GiB"
expect_out "memory: 2 x hbm2e-3200 (hbm2e), 32 GiB (the channel's capacity: 1 GiB), \$224:" "bandwidth sets the count"
sed 's/  technology: hbm2e-3200/&\n  stacks: 1/' "$TMP/c1.yaml" > "$TMP/c1s.yaml"
run "$DSE" sim "$TMP/c1s.yaml" resnet50 -o "$TMP/c1s.json"; expect_code 2 "1 stack for 819.2 GB/s"
expect_err "c1s.yaml:31:14: error: dram.bandwidth: more than 1 x hbm2e-3200 deliver (409.6 GB/s, 409.6 GB/s per stack); count more stacks or lower the bandwidth" "bandwidth located"
expect_no_file "$TMP/c1s.json" "no output when the count is short"
run "$DSE" sim npu-hbm2e-dram resnet50 --batch 8 --fidelity analytic
expect_out "unit cost \$418 (die \$17, package \$177, memory \$224)" "npu-hbm2e-dram unit cost"
run "$DSE" sim npu-gddr6 resnet50 --batch 8 --fidelity analytic
expect_out "memory \$54)" "npu-gddr6: 16 GiB x \$3.36"

# a plain channel without a technology: said, not printed as $0
run "$DSE" sim tpu-v1 alexnet --fidelity analytic; expect_code 0 "tpu-v1"
expect_out "memory cost: not modelled (plain channel; name dram.technology" "not modelled line"
expect_out "unit cost not modelled (die \$18, package \$21, memory not priced)" "no unit cost without memory"
case "$OUT" in *"\$0"*) bad "tpu-v1 prints \$0" ;; *) ok ;; esac
# the hint names no technology: TPU v1's DDR3 is none of the presets, and
# HBM2E (the old example) would be a wrong one
case "$OUT" in *hbm*) bad "tpu-v1's hint suggests HBM: $OUT" ;; *) ok ;; esac
expect_out "memory cost: not modelled (plain channel; name dram.technology, the preset of its memory from 'dse list memories', to price it)" "hint"
run "$DSE" sim tpu-v1 alexnet --fidelity analytic --format json
expect_out '"memory_cost_modelled": false' "json flag false"
expect_out '"cost_modelled": false' "json cost flag false"
expect_out '"memory_cost_usd": null' "json keeps memory_cost_usd, as null"
expect_out '"cost_usd": null' "json keeps cost_usd, as null"

# no technology.node (every SCALE-Sim import): no area, cost, yield,
# leakage or clock, said in the table, null in JSON, refused as objectives
run "$DSE" sim "$SRC/examples/scalesim/ws_32x32.cfg" "$SRC/examples/scalesim/small_cnn.csv"; expect_code 0 "scalesim"
expect_out "silicon: area and cost not modelled (no technology.node), nor static and clock power: energy is dynamic only" "node-less table"
run "$DSE" sim "$SRC/examples/scalesim/ws_32x32.cfg" "$SRC/examples/scalesim/small_cnn.csv" --format json
for f in cost_usd area_mm2 die_yield static_power_w clock_power_w; do expect_out "\"$f\": null" "node-less $f"; done
expect_out '"area_modelled": false' "area flag"
expect_out '"static_modelled": false' "static flag"
cat > "$TMP/front.lua" <<'LUA'
local dse = require "dse"
local ws = dse.simulate(arg[1] .. "/examples/scalesim/ws_32x32.cfg", "alexnet")
local g6 = dse.simulate("npu-gddr6", "alexnet")
assert(ws.total.cost_usd == nil and ws.total.area_mm2 == nil, "node-less cost and area are nil")
print(#dse.pareto({ ws, g6 }, { "latency_s" }))
dse.pareto({ ws, g6 }, { "latency_s", "cost_usd" })
LUA
run "$DSE" run "$TMP/front.lua" "$SRC"; expect_code 2 "cost front with a node-less arch"
expect_out "1" "latency front"
expect_err "front.lua:6:1: error: dse.pareto: objective 'cost_usd' is not modelled for results[1] (arch 'ws_32x32'): the arch names no technology.node (cost_modelled false); model it or leave 'cost_usd' out of the objectives" "cost front refused"
run "$DSE" sim npu-hbm2e alexnet --fidelity analytic --format json
expect_out '"memory_cost_modelled": true' "json flag true"

# Lua and CSV
cat > "$TMP/c.lua" <<'LUA'
local dse = require "dse"
local a = dse.simulate("tpu-v1", "alexnet", { fidelity = "analytic" })
local b = dse.simulate("npu-hbm2e", "alexnet", { fidelity = "analytic" })
assert(a.total.memory_cost_modelled == false, "tpu-v1 modelled")
assert(a.total.memory_cost_usd == nil and a.total.cost_usd == nil, "tpu-v1 memory and unit cost nil")
assert(b.total.memory_cost_modelled == true, "npu-hbm2e not modelled")
assert(b.total.memory_cost_usd == 224, "npu-hbm2e memory " .. b.total.memory_cost_usd)
assert(b.total.memory_units == 2, "npu-hbm2e stacks " .. tostring(b.total.memory_units))
dse.write_csv(arg[1], { a, b })
print("ok")
LUA
run "$DSE" run "$TMP/c.lua" "$TMP/c.csv"; expect_code 0 "lua"; expect_out "ok" "lua checks"
col=$(head -1 "$TMP/c.csv" | tr ',' '\n' | grep -n '^memory_cost_modelled$' | cut -d: -f1)
[ -n "$col" ] && ok || bad "csv lacks memory_cost_modelled"
[ "$(sed -n 2p "$TMP/c.csv" | cut -d, -f"$col")" = "false" ] && ok || bad "csv tpu-v1 not false"
[ "$(sed -n 3p "$TMP/c.csv" | cut -d, -f"$col")" = "true" ] && ok || bad "csv npu-hbm2e not true"
col=$(head -1 "$TMP/c.csv" | tr ',' '\n' | grep -n '^cost_usd$' | cut -d: -f1)
[ "$(sed -n 2p "$TMP/c.csv" | cut -d, -f"$col")" = "" ] && ok || bad "csv tpu-v1 cost_usd not empty"
case "$(sed -n 3p "$TMP/c.csv" | cut -d, -f"$col")" in 417.66*) ok ;; *) bad "csv npu-hbm2e cost_usd" ;; esac

# bad values: located, exit 2, nothing written
sed 's/  technology: hbm2e-3200/  technology: hbm2e-3300/' "$SRC/arch/npu-hbm2e.yaml" > "$TMP/bad.yaml"
run "$DSE" sim "$TMP/bad.yaml" alexnet -o "$TMP/bad.json"; expect_code 2 "unknown technology"
expect_err "bad.yaml:37:15: error: dram.technology: unknown memory preset 'hbm2e-3300'; did you mean 'hbm2e-3200'?" "located"
expect_no_file "$TMP/bad.json" "no output on bad technology"
sed 's/  technology: hbm2e-3200/  technology: hbm2e-3200\n  devices: 2/' "$SRC/arch/npu-hbm2e.yaml" > "$TMP/bad2.yaml"
run "$DSE" check "$TMP/bad2.yaml"; expect_code 2 "wrong count"
expect_err "bad2.yaml:38:12: error: dram.devices: 'hbm2e-3200' counts stacks; write 'stacks: N'" "count located"
finish
