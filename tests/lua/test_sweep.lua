-- test_sweep.lua: grid order, point bookkeeping, Pareto properties,
-- determinism, and the default main job (scripts/sweep.lua).
package.path = "./?.lua;" .. package.path
local H = require "harness"
local dse = require "dse"

local res = dse.sweep {
  arch = "edge-npu",
  workloads = { "alexnet", dse.workload("mobilenet_v2", { batch = 2 }) },
  grid = { ["pe_array.rows"] = { 16, 32 }, ["pe_array.cols"] = { 8, 16, 32 } },
}
H.eq(#res, 12, "2 x 3 archs x 2 workloads")
-- keys in alphabetical order, the last one fastest; workloads innermost
H.eq(res[1].point["pe_array.cols"], 8, "p1 cols")
H.eq(res[1].point["pe_array.rows"], 16, "p1 rows")
H.eq(res[1].workload.name, "alexnet", "p1 workload")
H.eq(res[2].workload.name, "mobilenet_v2", "p2 workload")
H.eq(res[2].workload.batch, 2, "p2 batch")
H.eq(res[3].point["pe_array.rows"], 32, "p3 rows")
H.eq(res[3].arch.pe_rows, 32, "p3 arch rows")
H.eq(res[12].arch.pe_cols, 32, "p12 cols")
for _, r in ipairs(res) do
  H.eq(r.arch.pe_rows, r.point["pe_array.rows"], "point matches arch rows")
  H.eq(r.arch.pe_cols, r.point["pe_array.cols"], "point matches arch cols")
end
-- more PEs never slow a compute-heavy CNN down in this model
H.check(res[11].total.latency_s <= res[1].total.latency_s, "32x32 beats 16x8 on alexnet")

-- Pareto: no front point is dominated by any point
local alex = {}
for _, r in ipairs(res) do if r.workload.name == "alexnet" then alex[#alex + 1] = r end end
local obj = { "latency_s", "energy_j" }
local front = dse.pareto(alex, obj)
H.check(#front >= 1 and #front <= #alex, "front size")
for _, f in ipairs(front) do
  for _, r in ipairs(alex) do
    local dominated = r.total.latency_s <= f.total.latency_s and r.total.energy_j <= f.total.energy_j
      and (r.total.latency_s < f.total.latency_s or r.total.energy_j < f.total.energy_j)
    H.check(not dominated, "front point dominated")
  end
end

-- over a sweep of two workloads, a front per workload by default: the
-- union of each workload's own front, in input order; by = false, one
-- front over everything, where MobileNet-v2's points (fewer MACs) push
-- AlexNet's out
local mob = {}
for _, r in ipairs(res) do if r.workload.name == "mobilenet_v2" then mob[#mob + 1] = r end end
local per, own_a, own_m = dse.pareto(res, obj), dse.pareto(alex, obj), dse.pareto(mob, obj)
H.eq(#per, #own_a + #own_m, "a front per workload")
local ia, im = 1, 1
for _, r in ipairs(per) do
  if r.workload.name == "alexnet" then
    H.check(r == own_a[ia], "alexnet's own front, in order"); ia = ia + 1
  else
    H.check(r == own_m[im], "mobilenet_v2's own front, in order"); im = im + 1
  end
end
local one = dse.pareto(res, obj, { by = false })
H.check(#one < #per, "one front over both workloads is smaller")
local mixed = {}
for _, r in ipairs(one) do mixed[r.workload.name] = true end
H.check(not (mixed.alexnet and mixed.mobilenet_v2), "one front: one workload dominates")
H.eq(#dse.pareto(res, obj, { by = "workload" }), #per, "by = workload, the default")
H.fails(function() dse.pareto(res, obj, { by = "arch" }) end,
  'dse.pareto: by: expected "workload" (a front per workload, the default) or false (one front over every result), got "arch"',
  "pareto by")
H.fails(function() dse.pareto(res, obj, { bye = false }) end, "dse.pareto: unknown option 'bye'; did you mean 'by'?", "pareto option")
H.fails(function() dse.pareto(res, obj, 3) end, "dse.pareto: options: expected a table such as {by = false}, got number", "pareto options")

-- a store (docs/store.md): the same sweep again reads every result back
-- (the same totals and CSV, layers simulated when read); another option
-- or a new value runs only what the store does not hold
local db = H.tmpname(".db")
os.remove(db)
local function stored_sweep(extra)
  local t = { arch = "edge-npu", workloads = { "alexnet", "llama2_7b" }, store = db, name = "t",
    grid = { ["pe_array.rows"] = { 16, 32 }, ["dram.capacity"] = { "4 GiB", "16 GiB" } },
    objective = "latency", progress = false }
  for k, v in pairs(extra or {}) do t[k] = v end
  return dse.sweep(t)
end
dse.clear_memo() -- (map_cache_hits counts what earlier sweeps mapped)
local first, second = stored_sweep(), stored_sweep()
H.eq(#second, 8, "store: 8 results again")
local fresh, back = 0, 0
for i, r in ipairs(second) do
  H.eq(r.feasible, first[i].feasible, "store: feasible")
  if r.feasible then
    back = back + 1
    H.check(r.stored and not first[i].stored, "store: read back")
    H.eq(r.total.latency_s, first[i].total.latency_s, "store: latency")
    H.eq(r.total.energy_j, first[i].total.energy_j, "store: energy")
    H.eq(r.total.energy_breakdown_j.buffers.sram, first[i].total.energy_breakdown_j.buffers.sram,
         "store: the SRAM's energy")
    H.eq(r.point["pe_array.rows"], first[i].point["pe_array.rows"], "store: point")
    H.eq(#r.layers, #first[i].layers, "store: layers when read")
    H.eq(r.layers[2].cycles, first[i].layers[2].cycles, "store: a layer's cycles")
  else
    H.eq(r.reason, first[i].reason, "store: reason")
  end
end
H.eq(back, 6, "store: 6 feasible results read back")
local ca, cb = H.tmpname(".csv"), H.tmpname(".csv")
dse.write_csv(ca, first)
dse.write_csv(cb, second)
H.eq(H.read(cb), H.read(ca), "store: the same CSV")
-- the handle (docs/lua.md): a row table built when read, from one snapshot
H.eq(type(first), "userdata", "handle: a userdata")
H.eq(tostring(first), "dse.Results: 8 results of sweep 't' in " .. db, "handle: tostring")
H.eq(first[0], nil, "handle: [0]")
H.eq(first[9], nil, "handle: [#h + 1]")
H.eq(first[1].status, "ok", "handle: a row's status")
H.eq(first[1].arch.pe_rows, 16, "handle: the point's arch when read")
local n, lat = 0, 0
for r in second:iter() do
  n = n + 1
  if r.feasible then lat = lat + r.total.latency_s end
end
local lat2 = 0
for i = 1, #second do if second[i].feasible then lat2 = lat2 + second[i].total.latency_s end end
H.eq(n, 8, "handle: iter")
H.eq(lat, lat2, "handle: iter and [i] give the same rows")
local ok = second:filter { status = "ok" }
H.eq(#ok, 6, "filter: status")
H.eq(#second:filter { workload = "alexnet" }, 4, "filter: workload by name")
H.eq(#second:filter { workload = dse.workload("llama2_7b"), status = "infeasible" }, 2,
     "filter: a Workload and a status")
local wide = ok:filter(function(r) return r.point["pe_array.rows"] == 32 end)
H.eq(#wide, 3, "filter: a function, of a filter")
H.eq(wide[1].point["pe_array.rows"], 32, "filter: its rows")
H.fails(function() second:filter { status = "okay" } end,
  "results:filter: unknown status 'okay'; did you mean 'ok'? expected one of: ok, infeasible, failed, pruned",
  "filter: status typo")
H.fails(function() second:filter { workloads = "alexnet" } end,
  "results:filter: unknown key 'workloads'; did you mean 'workload'?", "filter: key typo")
H.eq(#second:list(), 8, "list")
-- the same sweep without a store (a list of full results) writes the same
-- CSV and finds the same fronts: the handle's writer and Pareto are the
-- store's (reports/export.c), the list's the module's
dse.clear_memo()
local plain = dse.sweep { arch = "edge-npu", workloads = { "alexnet", "llama2_7b" },
  grid = { ["pe_array.rows"] = { 16, 32 }, ["dram.capacity"] = { "4 GiB", "16 GiB" } },
  objective = "latency", progress = false }
local cp = H.tmpname(".csv")
dse.write_csv(cp, plain)
-- (but for map_cache_hits: a stored sweep's is 0, what a process's memo
-- held not being the point's)
local function without_hits(text)
  local at, out = nil, {}
  for line in text:gmatch("[^\n]+") do
    local cells, i = {}, 0
    for c in line:gmatch("([^,]*),?") do i = i + 1; cells[i] = c end
    if not at then for k, c in ipairs(cells) do if c == "map_cache_hits" then at = k end end end
    table.remove(cells, at)
    out[#out + 1] = table.concat(cells, ",")
  end
  return table.concat(out, "\n")
end
H.eq(without_hits(H.read(cp)), without_hits(H.read(ca)), "handle and list: the same CSV")
H.check(H.read(ca):find("\nedge%-npu,alexnet,,,true,4 GiB,16,") ~= nil, "handle: a CSV row")
for _, by in ipairs { "workload", false } do
  local fh = dse.pareto(second, { "latency_s", "energy_j" }, { by = by })
  local fl = dse.pareto(plain, { "latency_s", "energy_j" }, { by = by })
  H.eq(#fh, #fl, "handle and list: the same front size")
  for i = 1, math.min(#fh, #fl) do
    H.eq(fh[i].point["pe_array.rows"], fl[i].point["pe_array.rows"], "handle and list: front point")
    H.eq(fh[i].total.latency_s, fl[i].total.latency_s, "handle and list: front latency")
  end
end
local front = dse.pareto(second:filter { workload = "alexnet" }, { "latency_s", "area_mm2" })
for r in front:iter() do H.eq(r.workload.name, "alexnet", "pareto of a filter: its rows only") end
H.fails(function() dse.pareto(second, { "latency" }) end,
  "dse.pareto: 'latency' is not a total field; did you mean 'latency_s'? (the fields of dse sim --format json's total)",
  "pareto of a handle: unknown objective")
H.fails(function() dse.write_csv(cp, second, { "arch" }) end,
  "dse.write_csv: columns: not with a results handle (it writes every column); write results:list() to choose them",
  "write_csv of a handle with columns")
os.remove(cp)
local wider = { ["pe_array.rows"] = { 16, 32, 64 }, ["dram.capacity"] = { "4 GiB", "16 GiB" } }
local more = stored_sweep { grid = wider }
local new = 0
for _, r in ipairs(more) do if r.feasible and not r.stored then new = new + 1 end end
H.eq(#more, 12, "store: a value more")
H.eq(new, 3, "store: only the new value's points run")
-- another objective: every point again; the sweep then holds that run's
more = stored_sweep { grid = wider, objective = "edp" }
for _, r in ipairs(more) do
  if r.feasible then fresh = fresh + (r.stored and 0 or 1) end
end
H.eq(fresh, 9, "store: another objective runs again")
-- workers (jobs = N): the same store, byte for byte, whatever N; without
-- a store, a temporary one that goes with the handle
local by_jobs = {}
for _, n in ipairs { 1, 2, 3 } do
  local path = H.tmpname(".db")
  os.remove(path)
  local h = dse.sweep { arch = "edge-npu", workloads = { "alexnet", "llama2_7b" }, store = path,
    grid = { ["pe_array.rows"] = { 8, 16, 32 }, ["dram.capacity"] = { "4 GiB", "16 GiB" },
             ["buffers.2.size"] = { "256 KiB", "1 MiB" } },
    objective = "latency", progress = false, jobs = n }
  H.eq(#h, 24, "jobs " .. n .. ": every result")
  local csv = H.tmpname(".csv")
  dse.write_csv(csv, h)
  by_jobs[n] = H.read(csv)
  os.remove(csv)
  h = nil
  collectgarbage()
  os.remove(path)
end
H.eq(by_jobs[2], by_jobs[1], "jobs 2: the results of jobs 1")
H.eq(by_jobs[3], by_jobs[1], "jobs 3: the results of jobs 1")
local temp = dse.sweep { arch = "edge-npu", workload = "alexnet", jobs = 2, progress = false,
  grid = { ["pe_array.rows"] = { 8, 16, 32 } } }
H.eq(#temp, 3, "jobs without a store: a handle")
local temp_path = tostring(temp):match(" in (.*)$")
H.check(io.open(temp_path) ~= nil, "jobs without a store: a temporary store")
H.eq(temp[2].point["pe_array.rows"], 16, "jobs without a store: its rows")
temp = nil
collectgarbage()
collectgarbage()
H.check(io.open(temp_path) == nil, "the temporary store goes with its handle")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", jobs = 0 } end,
  "dse.sweep: jobs: expected a number of worker processes from 1 to 64, got 0", "jobs 0")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", jobs = "2" } end,
  "dse.sweep: jobs: expected a number of worker processes from 1 to 64, got string", "jobs string")
-- dse.range: lists of values (issue 13's space)
local function joined(t) return table.concat(t, ", ") end
H.eq(joined(dse.range("1 MiB", "64 MiB", { log = true, steps = 7 })),
     "1 MiB, 2 MiB, 4 MiB, 8 MiB, 16 MiB, 32 MiB, 64 MiB", "range: log quantities")
H.eq(joined(dse.range(32, 256, { log = true, steps = 4 })), "32, 64, 128, 256", "range: log integers")
H.eq(joined(dse.range(1, 4)), "1, 2, 3, 4", "range: integers, step 1")
H.eq(joined(dse.range(0.5, 2, { steps = 4 })), "0.5, 1.0, 1.5, 2.0", "range: linear numbers")
H.eq(joined(dse.range(1, 2, { steps = 3 })), "1.0, 1.5, 2.0", "range: integer ends, steps between integers")
H.eq(joined(dse.range(1, 2, { step = 0.5 })), "1.0, 1.5, 2.0", "range: integer ends, a fractional step")
H.eq(joined(dse.range("256 KiB", "2 MiB", { log = true, steps = 4 })), "256 KiB, 512 KiB, 1 MiB, 2 MiB",
     "range: sizes in the largest whole unit")
H.eq(joined(dse.range("1 GHz", "2 GHz", { step = "250 MHz" })),
     "1 GHz, 1.25 GHz, 1.5 GHz, 1.75 GHz, 2 GHz", "range: a quantity step")
H.eq(joined(dse.range("1 MiB", "64 MiB", { log = true, steps = 5 })),
     "1 MiB, 2965821 B, 8 MiB, 23726566 B, 64 MiB", "range: whole bytes")
H.fails(function() dse.range(64, 8) end, "dse.range: min 64 is more than max 8", "range: min > max")
H.fails(function() dse.range(1, 8, { step = 0 }) end, "dse.range: step: must be positive, got 0", "range: step 0")
H.fails(function() dse.range(1, 8, { step = -2 }) end, "dse.range: step: must be positive, got -2", "range: step < 0")
H.fails(function() dse.range(1.5, 8) end, "dse.range: expected {steps = N} or {step = S} for 1.5 .. 8", "range: no steps")
H.fails(function() dse.range("1 MiB", 8) end, "dse.range: min and max must be alike (1 MiB and 8)", "range: unlike ends")
H.fails(function() dse.range(0, 8, { log = true, steps = 3 }) end, "dse.range: log: min must be positive, got 0", "range: log of 0")
H.fails(function() dse.range(1, 8, { stpes = 3 }) end, "dse.range: unknown option 'stpes'; did you mean 'steps'?", "range: option")

-- space, objectives and constraints
local cdb = H.tmpname(".db")
os.remove(cdb)
local cs = dse.sweep { arch = "edge-npu", workload = "alexnet", store = cdb, progress = false,
  space = { ["pe_array.rows"] = dse.range(8, 64, { log = true, steps = 4 }),
            ["buffers.2.size"] = dse.range("256 KiB", "2 MiB", { log = true, steps = 4 }) },
  objectives = { "latency_s", "energy_j" }, constraints = { area_mm2 = "<= 14", power_w = "< 5 W" },
  prune = false }
H.eq(#cs, 16, "space: 4 x 4 points")
local over = cs:filter { status = "infeasible" }
H.eq(#over, 1, "constraints: one point over")
H.eq(over[1].point["pe_array.rows"], 64, "constraints: the largest array")
H.eq(over[1].point["buffers.2.size"], "2 MiB", "constraints: the largest buffer")
H.check(over[1].reason:find("^constraint area_mm2 <= 14 not met: 14%.9") ~= nil,
        "constraints: the reason: " .. tostring(over[1].reason))
H.eq(#dse.pareto(cs), #dse.pareto(cs, { "latency_s", "energy_j" }), "pareto: the sweep's objectives")
H.eq(#dse.pareto(cs, { "latency_s" }, { by = "all" }), #dse.pareto(cs, { "latency_s" }, { by = false }),
     'pareto: by = "all" as by = false')

-- prune (on by default here): the level-2 front is the unpruned one's;
-- pruned rows carry their level-1 floors; the constraint a floor cannot
-- meet prunes too; the same with workers
local pspace = { ["pe_array.rows"] = dse.range(8, 64, { log = true, steps = 4 }),
                 ["pe_array.cols"] = { 8, 32 },
                 ["buffers.2.size"] = dse.range("256 KiB", "2 MiB", { log = true, steps = 4 }) }
local pwl = { dse.workload("alexnet"), dse.workload("mobilenet_v2") }
local full = dse.sweep { arch = "edge-npu", workloads = pwl, store = cdb, name = "unpruned", progress = false,
  space = pspace, objectives = { "latency_s", "energy_j" }, prune = false }
-- a front as text: key(row) of each row, sorted, joined by "; "
local function sorted_front(front, key)
  local keys = {}
  for r in front:iter() do keys[#keys + 1] = key(r) end
  table.sort(keys)
  return table.concat(keys, "; ")
end
local function front_keys(h, wl)
  return sorted_front(dse.pareto(h:filter { workload = wl }), function(r)
    local p = r.point
    return string.format("%d %d %s %.17g %.17g", p["pe_array.rows"], p["pe_array.cols"],
      p["buffers.2.size"], r.total.latency_s, r.total.energy_j)
  end)
end
local pruned_csv
for _, n in ipairs { 1, 2 } do
  local pr = dse.sweep { arch = "edge-npu", workloads = pwl, store = cdb, name = "pruned-" .. n, progress = false,
    space = pspace, objectives = { "latency_s", "energy_j" }, jobs = n }
  H.eq(#pr, #full, "prune: every result stored (" .. n .. " jobs)")
  local np = #pr:filter { status = "pruned" }
  H.check(np >= 16, "prune: a quarter of the results or more pruned: " .. np)
  for _, wl in ipairs(pwl) do
    H.eq(front_keys(pr, wl), front_keys(full, wl), "prune: the front of " .. wl.name .. " (" .. n .. " jobs)")
  end
  for r in pr:filter { status = "pruned" }:iter() do
    H.check(not r.feasible and r.total == nil and r.floor ~= nil, "prune: a pruned row has floors, no total")
    H.check(r.reason:find("^level 1's floor is dominated by point %d+'s result %(latency_s >= ") ~= nil,
      "prune: the reason: " .. r.reason)
    -- the floor is below the result the full sweep has for it
    for f in full:filter { workload = r.workload }:iter() do
      if f.point["pe_array.rows"] == r.point["pe_array.rows"] and f.point["pe_array.cols"] == r.point["pe_array.cols"]
          and f.point["buffers.2.size"] == r.point["buffers.2.size"] then
        H.check(r.floor.latency_s <= f.total.latency_s and r.floor.energy_floor_j <= f.total.energy_j
          and r.floor.area_mm2 == f.total.area_mm2, "prune: floors below the level-2 result")
      end
    end
  end
  local csv = H.tmpname(".csv")
  dse.write_json(csv, pr)
  local fh = io.open(csv)
  local text = fh:read("a"):gsub('"name": "[^"]*"', "")
  fh:close()
  os.remove(csv)
  if pruned_csv then H.eq(text == pruned_csv, true, "prune: the same rows with 1 and 2 workers") end
  pruned_csv = text
end
local pc = dse.sweep { arch = "edge-npu", workload = "alexnet", store = cdb, name = "pruned-c", progress = false,
  space = pspace, objectives = { "latency_s" }, constraints = { area_mm2 = "<= 14" } }
local unmet = 0
for r in pc:filter { status = "pruned" }:iter() do
  if r.reason:find("^constraint area_mm2 <= 14 cannot be met: level 1 bounds it at 1[4-9]%.") then unmet = unmet + 1 end
end
H.check(unmet >= 1, "prune: a constraint the floor cannot meet: " .. unmet)
H.eq(#pc:filter { status = "infeasible" }, 0, "prune: no level-2 run of an area over the constraint")
H.eq(#dse.pareto(dse.open(cdb, { sweep = "unpruned" })), #dse.pareto(full),
  "dse.open: the sweep's objectives kept with its space")
-- dse.analysis: a handle's groups are its list's
local function summary(groups)
  local t = {}
  for _, g in ipairs(groups) do
    t[#t + 1] = string.format("%s %d %d %.17g %.12g %s", g.workload.name, g.results, #g.front,
      g.knee.total.latency_s, g.hypervolume, tostring(g.hypervolume_exact))
  end
  return table.concat(t, "; ")
end
local objs3 = { "latency_s", "energy_j", "area_mm2" }
local ah = summary(dse.analysis(full, objs3, { constraints = { area_mm2 = "<= 20" } }))
H.eq(ah, summary(dse.analysis(full:list(), objs3, { constraints = { area_mm2 = "<= 20" } })),
  "analysis: a handle's groups are its list's")
H.check(ah:find("^alexnet %d+ %d+ ") and ah:find("; mobilenet_v2 "), "analysis: a group a workload: " .. ah)
for _, g in ipairs(dse.analysis(full, objs3)) do
  H.eq(#g.front, #dse.pareto(full:filter { workload = g.workload.name }, objs3), "analysis: the front is dse.pareto's")
end
H.fails(function() full:filter { workload = "alexnt" } end,
  "results:filter: workload 'alexnt' is not one of the sweep's (alexnet, mobilenet_v2)", "filter: an unknown workload")
H.fails(function() dse.open(cdb, { sweep = "unpruned" }):filter { workload = "alexnt" } end,
  "results:filter: workload 'alexnt' is not one of the sweep's (alexnet, mobilenet_v2)",
  "filter: an unknown workload of a store's sweep")
H.eq(#dse.open(cdb, { sweep = "unpruned" }):filter { workload = "mobilenet_v2" }, #full:filter { workload = "mobilenet_v2" },
  "filter: a store's sweep by a workload it has")

-- build may give a point its own workloads: a batch size as a parameter
local bws = {}
for _, n in ipairs { 1, 2 } do
  local bw = dse.sweep { arch = "edge-npu", workload = "alexnet", store = cdb, name = "build-wl-" .. n,
    progress = false, jobs = n, fidelity = "analytic", space = { batch = { 1, 2, 4 } },
    build = function(p) return dse.arch("edge-npu"), dse.workload("alexnet", { batch = p.batch }) end }
  H.eq(#bw, 3, "build workloads: a result a batch")
  local got = {}
  for r in bw:iter() do
    H.eq(r.workload.batch, r.point.batch, "build workloads: the row's workload is the point's")
    got[#got + 1] = string.format("%d %.17g %d", r.workload.batch, r.total.latency_s, #r.layers)
  end
  bws[n] = table.concat(got, "; ")
  H.eq(#bw:filter { workload = dse.workload("alexnet", { batch = 4 }) }, 1, "build workloads: filter by one")
end
H.eq(bws[1], bws[2], "build workloads: the same with 1 and 2 workers")
H.fails(function() dse.open(cdb, { sweep = "build-wl-1" }):filter { workload = "alexnt" } end,
  "results:filter: workload 'alexnt' is not one of the sweep's (alexnet)", "filter: an unknown workload of a build's")
H.check(dse.open(cdb, { sweep = "build-wl-1" })[3].total.throughput_inf_per_s >
        dse.open(cdb, { sweep = "build-wl-1" })[1].total.throughput_inf_per_s, "build workloads: batch 4 beats batch 1")
local two = dse.sweep { arch = "edge-npu", workloads = { "alexnet", "mobilenet_v2" }, store = cdb, name = "build-wl-two",
  progress = false, fidelity = "analytic", space = { batch = { 2 } },
  build = function(p) return dse.arch("edge-npu"), { dse.workload("alexnet", { batch = p.batch }), "mobilenet_v2" } end }
H.eq(two[1].workload.batch .. " " .. two[2].workload.batch, "2 1", "build workloads: a list, one a workload")
local bad1 = dse.sweep { arch = "edge-npu", workloads = { "alexnet", "mobilenet_v2" }, store = cdb, name = "build-wl-bad",
  progress = false, fidelity = "analytic", space = { batch = { 2 } },
  build = function(p) return dse.arch("edge-npu"), "alexnet" end }
H.eq(bad1[1].status, "failed", "build workloads: one for a sweep of two fails the point")
H.check(bad1[1].reason:find("dse.sweep: build: returned one workload, but the sweep has 2; return a list of 2", 1, true),
  "build workloads: why: " .. tostring(bad1[1].reason))

-- pruning and fronts go by who a workload is: a build's seq values are
-- workloads of their own (one front each), pruned only among themselves
local function seq_front(prune)
  local h = dse.sweep { arch = "edge-npu", workload = "gpt2", store = cdb, name = "build-seq-" .. tostring(prune),
    progress = false, objectives = { "latency_s", "energy_j" }, prune = prune,
    space = { seq = { 64, 4096 }, rows = { 8, 16, 32, 64 }, cols = { 8, 32 } },
    build = function(p)
      return dse.arch("edge-npu"):with { ["pe_array.rows"] = p.rows, ["pe_array.cols"] = p.cols },
        dse.workload("gpt2", { phase = "decode", seq = p.seq })
    end }
  return sorted_front(dse.pareto(h), function(r)
    return string.format("%d %d %d %.17g", r.workload.seq, r.point.rows, r.point.cols, r.total.energy_j)
  end)
end
local sf = seq_front(true)
H.eq(sf, seq_front(false), "build workloads: the pruned fronts are the unpruned ones")
H.check(sf:find("^4096 ") and sf:find("; 64 "), "build workloads: a front for each seq: " .. sf)
-- a parameter named as a column of a row's own (seq) is param.seq, in a
-- list's CSV as in the store's, once
local function seq_csv(store)
  local r = dse.sweep { arch = "edge-npu", workload = "gpt2", progress = false, fidelity = "analytic",
    store = store, name = store and "seq-csv" or nil, space = { seq = { 64, 128 }, rows = { 8 }, macs = { 7 } },
    build = function(p)
      return dse.arch("edge-npu"):with { ["pe_array.rows"] = p.rows },
        dse.workload("gpt2", { phase = "decode", seq = 2 * p.seq })
    end }
  local f = H.tmpname(".csv")
  dse.write_csv(f, r)
  local text = H.read(f)
  os.remove(f)
  return text
end
local listed, stored = seq_csv(nil), seq_csv(cdb)
H.check(listed:find("^arch,workload,phase,seq,feasible,param.macs,param.seq,rows,macs,"),
  "param.seq in a list's CSV: " .. listed:sub(1, 80))
-- (the workload's seq 256 and its MACs, the parameters 128 and 7 in theirs)
H.check(listed:find("\nedge%-npu,gpt2,decode,256,true,7,128,8,128250624,"), "param.seq's value: " .. listed)
H.eq(listed, stored, "a list's CSV is the store's")

-- two workloads of one name are two workloads: a front and pruning each
local function mlp(n)
  return dse.workload { name = "mlp", precision = "int8",
    layers = { { name = "g", type = "gemm", m = n, n = n, k = n } } }
end
local function twin_fronts(prune)
  local h = dse.sweep { arch = "edge-npu", workloads = { mlp(64), mlp(1024) }, store = cdb,
    name = "twins-" .. tostring(prune), progress = false, objectives = { "latency_s", "energy_j" },
    prune = prune, space = { ["pe_array.rows"] = { 8, 16, 32, 64 }, ["pe_array.cols"] = { 8, 16, 32, 64 } } }
  return sorted_front(dse.pareto(h), function(r)
    return string.format("%.17g %d %d", r.total.macs, r.point["pe_array.rows"], r.point["pe_array.cols"])
  end)
end
local tf = twin_fronts(true)
H.eq(tf, twin_fronts(false), "twin workloads: the pruned fronts are the unpruned ones")
H.check(tf:find("^1073741824 ") and tf:find("; 262144 "), "twin workloads: a front each: " .. tf)

-- an error that stops a sweep with workers (a pinned mapping the new
-- point's array cannot hold) is raised, and the store keeps what it held
local src0 = os.getenv("DSE_DATA_DIR") or "../.."
local mdb = H.tmpname(".db")
os.remove(mdb)
local function pinned(rows)
  return dse.sweep { arch = "tpu-v1", workload = "alexnet", store = mdb, name = "pinned", jobs = 2,
    progress = false, mappings = src0 .. "/tests/data/mappings/bad_array.yaml",
    grid = { ["pe_array.rows"] = rows } }
end
H.eq(#pinned { 512, 1024 }, 2, "workers' error: the first run")
local okp, errp = pcall(pinned, { 256, 512, 1024 })
H.check(not okp and tostring(errp):find("do not fit the 256 x", 1, true),
  "workers' error: raised: " .. tostring(errp))
H.eq(#dse.open(mdb, { sweep = "pinned" }), 2, "workers' error: the store keeps its results")
os.remove(mdb)

-- layers = true: each result's layers in the store, read back by dse.open
local ldb = H.tmpname(".db")
os.remove(ldb)
for _, n in ipairs { 1, 2 } do
  local lh = dse.sweep { arch = "edge-npu", workloads = { "alexnet", "mobilenet_v2" }, store = ldb,
    name = "layers-" .. n, progress = false, layers = true, jobs = n,
    space = { ["pe_array.rows"] = { 8, 16 } } }
  local opened = dse.open(ldb, { sweep = "layers-" .. n })
  H.eq(#opened, 4, "layers: every result (" .. n .. " jobs)")
  for i = 1, #opened do
    local o, s = opened[i], lh[i]
    H.eq(#o.layers, #s.layers, "layers: stored as many as simulated")
    local ok = true
    for k, l in ipairs(s.layers) do
      local ol = o.layers[k]
      ok = ok and ol.name == l.name and ol.type == l.type and ol.cycles == l.cycles and
        ol.energy_j == l.energy_j and ol.dram_bytes == l.dram_bytes and ol.floor_cycles == l.floor_cycles
    end
    H.check(ok, "layers: the stored layers are the simulated ones (" .. o.workload.name .. ")")
  end
end
os.remove(ldb)
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", layers = true } end,
  "dse.sweep: layers: keeps each result's layers in the store; give store = PATH (without one, the results list has them)",
  "layers without a store")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", layers = 1 } end,
  "dse.sweep: layers: expected true or false, got number", "layers: not a boolean")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", space = pspace, prune = true } end,
  "dse.sweep: prune: needs objectives = {...} (a result is pruned when its level-1 floor is dominated on every one)",
  "prune without objectives")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", space = pspace, prune = true,
  objectives = { "latency_s", "power_w" } } end,
  "dse.sweep: prune: level 1 does not bound objective 'power_w'; prune = false, or objectives it bounds " ..
  "(latency_s, energy_j, edp_js, -throughput_inf_per_s, area_mm2, cost_usd, ...: docs/lua.md)",
  "prune with an unbounded objective")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", space = pspace, prune = true,
  objectives = { "latency_s" }, fidelity = "analytic" } end,
  'dse.sweep: prune: a level-1 sweep (fidelity = "analytic") has no level-2 evaluation to skip', "prune at level 1")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", space = pspace, prune = "yes" } end,
  "dse.sweep: prune: expected true or false, got string", "prune: not a boolean")

H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", grid = { ["pe_array.rows"] = { 8 } },
  space = { ["pe_array.rows"] = { 8 } } } end,
  "dse.sweep: give the design space as space = {...} or grid = {...}, not both", "space and grid")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", space = { ["pe_array.rows"] = {} } } end,
  "dse.sweep: space['pe_array.rows']: expected a non-empty list of values, got an empty table", "space: empty list")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", space = { ["pe_array.rowz"] = { 8 } } } end,
  "pe_array.rowz: unknown key 'rowz'; did you mean 'rows'?", "space: unknown path")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", objectives = { "latency" } } end,
  "dse.sweep: objectives[1]: 'latency' is not a total field; did you mean 'latency_s'? (the fields of dse sim --format json's total)",
  "objectives: unknown")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", constraints = { power_w = "about 5" } } end,
  'dse.sweep: constraints.power_w: expected a comparison such as "<= 400" (<=, <, >=, > or ==, then a number), got "about 5"',
  "constraints: unparsable")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", constraints = { latency_s = "<= 2 W" } } end,
  'dse.sweep: constraints.latency_s: "<= 2 W" is a power, but latency_s is a time',
  "constraints: another unit")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", seed = 3 } end,
  'dse.sweep: seed: needs a sampling method (method = "random", "sobol", "lhs" or "nsga2"); a grid draws nothing',
  "seed without a method")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", constraints = { power = "<= 5" } } end,
  "dse.sweep: constraints: 'power' is not a total field; did you mean 'power_w'? (the fields of dse sim --format json's total)",
  "constraints: unknown field")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", constraints = { power_w = 5 } } end,
  'dse.sweep: constraints.power_w: expected a comparison such as "<= 400" (<=, <, >=, > or ==), got number',
  "constraints: a number")

-- build: a point's arch from free parameters; a point whose build fails
-- is stored as failed with the message and line, the sweep goes on; the
-- same with workers
local built = {}
for _, n in ipairs { 1, 2 } do
  local bline = debug.getinfo(1, "l").currentline + 3 -- the build function's
  local h = dse.sweep { arch = "edge-npu", workload = "alexnet", store = cdb, name = "built-" .. n,
    progress = false, jobs = n, space = { pes = { 256, 1024, 4096 }, aspect = { 1, 4 } },
    build = function(p)
      local rows = math.floor(math.sqrt(p.pes / p.aspect))
      if p.pes == 4096 and p.aspect == 4 then error("no such array") end
      if p.pes == 256 and p.aspect == 4 then return nil end
      return dse.arch("edge-npu"):with { ["pe_array.rows"] = rows, ["pe_array.cols"] = p.pes // rows }
    end }
  H.eq(#h, 6, "build: every point")
  H.eq(h[3].arch.pe_rows, 64, "build: the arch it made")
  H.eq(h[3].arch.pe_cols, 64, "build: the arch it made, cols")
  local failed = h:filter { status = "failed" }
  H.eq(#failed, 2, "build: two points failed")
  H.eq(failed[1].arch.name, "edge-npu", "build: a failed row's arch is the base's name")
  H.eq(failed[1].layers, nil, "build: a failed row has no layers")
  H.check(failed[1].reason:find("dse.sweep: build: returned nil; expected one arch", 1, true) ~= nil,
          "build: nil: " .. tostring(failed[1].reason))
  -- (located at the build function, where the fix goes)
  H.check(failed[1].reason:find("test_sweep.lua:" .. bline .. ":1: error:", 1, true) ~= nil,
          "build: nil, at the function's line: " .. tostring(failed[1].reason))
  H.check(failed[2].reason:find("test_sweep.lua:%d+: no such array") ~= nil,
          "build: its error and line: " .. tostring(failed[2].reason))
  local csv = H.tmpname(".csv")
  dse.write_csv(csv, h)
  built[n] = H.read(csv)
  os.remove(csv)
end
H.eq(built[2], built[1], "build: the same results with workers")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", build = 3 } end,
  "dse.sweep: build: expected a function(point) returning an arch, got number", "build: not a function")
os.remove(cdb)

-- sampling methods: the same seed, the same points, whatever the workers;
-- Sobol covers each parameter's values; a Latin hypercube of as many
-- samples as values uses each value once
local sdb = H.tmpname(".db")
os.remove(sdb)
local function sampled(method, n, seed, jobs, name)
  return dse.sweep { arch = "edge-npu", workload = "alexnet", store = sdb, name = name,
    fidelity = "analytic", progress = false, method = method, samples = n, seed = seed, jobs = jobs,
    space = { ["pe_array.rows"] = dse.range(4, 128, { step = 4 }), ["pe_array.cols"] = dse.range(4, 128, { step = 4 }),
              ["buffers.2.size"] = dse.range("64 KiB", "8 MiB", { log = true, steps = 8 }) } }
end
local function points_of(h)
  local t = {}
  for r in h:iter() do
    t[#t + 1] = string.format("%d/%d/%s", r.point["pe_array.rows"], r.point["pe_array.cols"], r.point["buffers.2.size"])
  end
  return table.concat(t, " ")
end
local function distinct(h, key)
  local seen, n = {}, 0
  for r in h:iter() do
    if not seen[r.point[key]] then seen[r.point[key]] = true; n = n + 1 end
  end
  return n
end
local r1, r2 = sampled("random", 100, 7, 1, "r1"), sampled("random", 100, 7, 2, "r2")
H.check(#r1 <= 100 and #r1 >= 95, "random: 100 samples of 8192 points, a few alike: " .. #r1)
H.eq(points_of(r2), points_of(r1), "random: the same seed, the same points (2 workers)")
H.check(points_of(sampled("random", 100, 8, 1, "r3")) ~= points_of(r1), "random: another seed, other points")
local so = sampled("sobol", 64, 0, 2, "s1")
H.eq(distinct(so, "pe_array.rows"), 32, "sobol: every rows value in 64 samples")
H.eq(distinct(so, "buffers.2.size"), 8, "sobol: every buffer size")
local lh = sampled("lhs", 32, 3, 1, "l1")
H.eq(#lh, 32, "lhs: 32 points")
H.eq(distinct(lh, "pe_array.rows"), 32, "lhs: each rows value once")
H.eq(distinct(lh, "pe_array.cols"), 32, "lhs: each cols value once")
-- NSGA-II: the same points whatever the workers; it needs objectives
local by_n = {}
for _, n in ipairs { 1, 2 } do
  local h = dse.sweep { arch = "edge-npu", workload = "alexnet", store = sdb, name = "n" .. n,
    fidelity = "analytic", progress = false, method = "nsga2", samples = 300, seed = 5, jobs = n,
    objectives = { "latency_s", "energy_j" },
    space = { ["pe_array.rows"] = dse.range(4, 128, { step = 4 }), ["pe_array.cols"] = dse.range(4, 128, { step = 4 }),
              ["buffers.2.size"] = dse.range("64 KiB", "8 MiB", { log = true, steps = 8 }) } }
  H.eq(#h, 300, "nsga2: its budget of points")
  by_n[n] = points_of(h)
end
H.eq(by_n[2], by_n[1], "nsga2: the same points with 2 workers")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", method = "nsga2", samples = 10 } end,
  "dse.sweep: method 'nsga2' needs objectives = {...} (what it minimizes; \"-x\" maximizes)", "nsga2 without objectives")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", samples = 10 } end,
  'dse.sweep: samples: needs a sampling method (method = "random", "sobol" or "lhs"); a grid runs every point',
  "samples without a method")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", method = "sobol" } end,
  "dse.sweep: method 'sobol' needs samples = N (how many points to draw)", "a method without samples")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", method = "sobl", samples = 3 } end,
  "dse.sweep: unknown method 'sobl'; did you mean 'sobol'? expected one of: grid, random, sobol, lhs, nsga2",
  "unknown method")
os.remove(sdb)

-- dse.open: the sweep as its last run left it (its space, its options:
-- the latency runs' results went), in point order, as dse.write_csv
-- wrote it
local opened = dse.open(db, { sweep = "t" })
H.eq(#opened, 12, "dse.open: the last run's 12 results")
H.eq(#first, 8, "handle: a snapshot, whatever later runs stored")
H.eq(first[8].point["dram.capacity"], "16 GiB", "handle: a snapshot's rows")
for i, r in ipairs(opened) do
  H.check(r.stored, "dse.open: stored")
  H.eq(r.point["pe_array.rows"], more[i].point["pe_array.rows"], "dse.open: point order")
  H.eq(r.workload.name, more[i].workload.name, "dse.open: workload order")
  if r.feasible then H.eq(r.total.latency_s, more[i].total.latency_s, "dse.open: latency") end
end
local co, cm = H.tmpname(".csv"), H.tmpname(".csv")
dse.write_csv(co, opened)
dse.write_csv(cm, more)
H.eq(H.read(co), H.read(cm), "dse.open: the CSV of the sweep's results")
os.remove(co)
os.remove(cm)
H.fails(function() dse.open(db, { sweep = "u" }) end, "dse.open: " .. db .. ": no sweep named 'u' (the store holds 't')", "dse.open: no such sweep")
H.fails(function() dse.pareto(dse.open(db)) end,
  'dse.pareto: objectives: the store keeps none for the sweep; write dse.pareto(results, {"latency_s", "energy_j"})',
  "pareto of an opened store without objectives")
H.fails(function() dse.open(db .. ".none") end, "dse.open: " .. db .. ".none: no such file", "dse.open: no file")
local closed
do
  local h <close> = dse.open(db)
  closed = h
end
H.check(not pcall(dse.pareto, closed), "dse.pareto of a closed handle: an error, not a crash")
-- a bad last value is found before the first point runs: nothing stored
local bad_db = H.tmpname(".db")
os.remove(bad_db)
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", store = bad_db,
  grid = { ["pe_array.rows"] = { 16, 32, 0 } } } end,
  "pe_array.rows: must be between 1 and 65536 (got 0)", "bad last value")
H.check(not io.open(bad_db), "bad last value: no store written")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", store = 5 } end,
  'dse.sweep: store: expected a path ("out/sweep.db"), got number', "store type")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", store = db, name = "" } end,
  "dse.sweep: name: expected a non-empty string, got ''", "store name")
H.fails(function() dse.sweep { arch = "edge-npu", workload = "alexnet", store = ca } end,
  "dse.sweep: store: " .. ca .. ": not a dse store: not an SQLite database (file is not a database)",
  "not a store")
H.eq(H.read(ca), H.read(cb), "not a store: the file as it was")
os.remove(ca)
os.remove(cb)
os.remove(db)

-- identical inputs give identical files.  The same sweep again in this
-- run maps every MAC layer from the memo (docs/engine.md, "Memoization"):
-- the same numbers, but map_cache_hits counts them; after clear_memo it
-- runs as the first one did
local function again()
  return dse.sweep {
    arch = "edge-npu",
    workloads = { "alexnet", dse.workload("mobilenet_v2", { batch = 2 }) },
    grid = { ["pe_array.rows"] = { 16, 32 }, ["pe_array.cols"] = { 8, 16, 32 } },
  }
end
again() -- (the store tests above cleared the memo)
local warm = again()
for i, r in ipairs(warm) do
  local macs = 0
  for _, l in ipairs(r.layers) do if l.macs > 0 then macs = macs + 1 end end
  H.eq(r.total.map_cache_hits, macs, "sweep again: every MAC layer from the memo")
  H.eq(r.total.cycles, res[i].total.cycles, "sweep again: the same cycles")
  H.eq(r.total.energy_j, res[i].total.energy_j, "sweep again: the same energy")
end
local a, b = H.tmpname(".csv"), H.tmpname(".csv")
dse.write_csv(a, res)
dse.clear_memo()
dse.write_csv(b, again())
H.eq(H.read(a), H.read(b), "sweep CSV is deterministic")
local header = H.read(a):match("^[^\n]+")
-- (alexnet at batch 1 and MobileNet-v2 at 2: a batch column)
H.check(header:find("^arch,workload,batch,feasible,pe_array.cols,pe_array.rows,macs,ops,"), "csv header: " .. header)
H.check(H.read(a):find("\nedge%-npu,mobilenet_v2,2,true,8,16,"), "csv batch cell")
os.remove(a)
os.remove(b)

-- the main job writes its three files
local src = os.getenv("DSE_DATA_DIR") or "../.."
local outdir = os.tmpname()
os.remove(outdir)
local saved = arg
arg = { [0] = src .. "/scripts/sweep.lua", outdir, "small" } -- (a corner of its space)
local chunk = assert(loadfile(src .. "/scripts/sweep.lua"))
chunk(outdir, "small")
arg = saved
local report = H.read(outdir .. "/report.md")
H.check(report:find("## resnet50 (batch 8)", 1, true), "report resnet50 section")
H.check(report:find("## gpt2 (prefill, seq 1024, batch 1)", 1, true), "report gpt2 prefill section")
H.check(report:find("## gpt2 (decode, seq 1024, batch 8)", 1, true), "report gpt2 section")
H.check(report:find("| resnet50 (batch 8) | 8 x lpddr5x-8533 | 273 | ", 1, true), "report: a memory's row")
H.check(report:find("results were pruned", 1, true), "report: what pruning saved")
local stored = dse.open(outdir .. "/sweep.db")
H.eq(#stored, 2 * 2 * 2 * 6 * 3, "the main job's store")
H.check(report:find("### Pareto front", 1, true), "report pareto")
H.check(report:find("Roofline position of each layer", 1, true), "report roofline")
H.check(report:find("![roofline of resnet50 (batch 8)](roofline-resnet50-batch-8.svg)", 1, true), "report chart link")
local svg = H.read(outdir .. "/roofline-resnet50-batch-8.svg")
H.check(svg:find("^<svg") and svg:find("</svg>%s*$"), "roofline svg")
H.check(select(2, svg:gsub("<circle", "")) > 40, "one point per MAC layer")
local sweep_csv = H.read(outdir .. "/sweep.csv")
local rows = select(2, sweep_csv:gsub("\n", ""))
H.eq(rows, 1 + 2 * 2 * 2 * 6 * 3, "sweep.csv rows")
H.check(#H.read(outdir .. "/pareto.csv") > 100, "pareto.csv")
-- a memory system swept as whole tables keeps its count in the CSV: 2 and
-- 4 stacks of one preset are two configurations, each field a column
local h = sweep_csv:match("^[^\n]+")
H.check(h:find(",buffers.2.size,dram.devices,dram.preset,dram.stacks,pe_array.cols,", 1, true),
        "table-valued grid values as their own columns: " .. h)
-- (feasible and status: true,ok or false,pruned; a status column since some are pruned)
H.check(h:find(",feasible,status,buffers.2.size,", 1, true), "a status column for pruned rows: " .. h)
H.check(sweep_csv:find("\nnpu%-hbm2e,resnet50,8,,,%a+,%a+,4 MiB,,hbm2e%-3200,2,64,64,"), "2 HBM2E stacks")
H.check(sweep_csv:find("\nnpu%-hbm2e,resnet50,8,,,%a+,%a+,4 MiB,8,gddr6%-16000,,64,64,"), "8 GDDR6 devices")
H.check(sweep_csv:find("\nnpu%-hbm2e,gpt2,1,prefill,1024,%a+,%a+,4 MiB,,hbm2e%-3200,2,64,64,"), "GPT-2 prefill")
H.check(sweep_csv:find(",false,pruned,", 1, true), "a pruned row's status")
local stacks = dse.sweep {
  arch = "npu-hbm3", workload = "alexnet", fidelity = "analytic",
  grid = { dram = { { preset = "hbm3-6400", stacks = 2 }, { preset = "hbm3-6400", stacks = 4 } } },
}
local sc = H.tmpname(".csv")
dse.write_csv(sc, stacks, { "dram.preset", "dram.stacks", "dram", "dram_bandwidth" })
H.eq(H.read(sc), "dram.preset,dram.stacks,dram,dram_bandwidth\nhbm3-6400,2,2 x hbm3-6400,\nhbm3-6400,4,4 x hbm3-6400,\n",
     "dram.preset and dram.stacks as columns")
os.remove(sc)
for f in io.popen('ls "' .. outdir .. '"'):lines() do os.remove(outdir .. "/" .. f) end
os.remove(outdir)

H.finish()
