-- test_tables.lua: Lua tables that are cyclic, too deep, too large or of
-- the wrong shape raise errors at the calling line that name the key path
-- and the limit (issue 9); no output file is written.  Every call that
-- raises is on the same line as its , which gives that line.
package.path = "./?.lua;" .. package.path
local H = require "harness"
local dse = require "dse"

local function chain(n, key) -- n nested tables, the innermost empty
  local t = {}
  local c = t
  for _ = 2, n do c[key] = {}; c = c[key] end
  return t
end
local function path(key, n, sep) return string.rep(key, n, sep) end
local function cyclic() local t = { x = 1 }; t.self = t; return t end
local out = H.tmpname(".json")
local function nofile(what) H.eq(io.open(out, "r"), nil, what .. ": no file written") end

-- dse.write_json: cycles, 64 levels of tables at most, and a bounded text
H.fails(function() dse.write_json(out, cyclic()) end, "dse.write_json: cyclic table at self", "json self")
nofile("json self")
local t = { a = { b = {} } }; t.a.b.c = t.a
H.fails(function() dse.write_json(out, t) end, "dse.write_json: cyclic table at a.b.c", "json a.b.c")
local l = { 1, 2 }; l[3] = { l }
H.fails(function() dse.write_json(out, l) end, "dse.write_json: cyclic table at [3][1]", "json list cycle")
H.fails(function() dse.write_json(out, chain(70, "a")) end,
  "dse.write_json: " .. path("a", 64, ".") .. ": tables nested too deeply (limit 64)", "json 70 deep")
H.fails(function() dse.write_json(out, chain(65, "a")) end,
  "dse.write_json: " .. path("a", 64, ".") .. ": tables nested too deeply (limit 64)", "json 65 deep")
nofile("json 65 deep")
-- 64 levels, with siblings at every level, are written as JSON that reads back
local deep = {}
local c = deep
for i = 2, 64 do c.a = {}; c.b = { i, true }; c.s = "x"; c = c.a end
c.last = 1
dse.write_json(out, deep)
local text = H.read(out)
H.check(text:find('"last": 1', 1, true) ~= nil, "json 64 deep written")
H.eq(select(2, text:gsub("{", "")), 64, "json 64 deep: 64 objects")
H.eq(select(2, text:gsub("\n" .. string.rep("  ", 64) .. '"last": 1\n', "")), 1, "json 64 deep: indentation")
os.remove(out)
-- a table shared by two parents at each of 40 levels stands for 2^40
-- values: the writer stops at 256 MiB of text instead of running for hours
local dag = {}
for _ = 1, 40 do dag = { a = dag, b = dag } end
local ok, err = pcall(dse.write_json, out, dag)
H.eq(ok, false, "json dag raises")
H.check(tostring(err):find("^" .. arg[0]:gsub("%p", "%%%0") .. ":%d+:1: error: dse.write_json: a[.ab]*: the text would be larger than 256 MiB %(a table used in several places is written once per use%)$") ~= nil,
  "json dag message: " .. tostring(err))
nofile("json dag")
H.fails(function() dse.write_json(out, { a = { [true] = 1 } }) end, "dse.write_json: a: keys must be strings (got the boolean key true)", "json key")
H.fails(function() dse.write_json(out, { 1, 2, x = 3 }) end,
  "dse.write_json: keys must be strings (got the number key 1); a table is either a list (keys 1..n, no holes) or has only string keys", "json mixed")
H.fails(function() dse.write_json(out, { a = { 1, { f = print } } }) end, "dse.write_json: a[2].f: cannot encode a function", "json function path")
nofile("json misc")

-- configuration tables: cycles, 32 levels, 1,000,000 values
local base = { name = "x", clock = "1 GHz" }
local function with_key(k, v) local a = {}; for kk, vv in pairs(base) do a[kk] = vv end; a[k] = v; return a end
H.fails(function() dse.arch(cyclic()) end, "cyclic table at self", "arch self")
H.fails(function() dse.arch(with_key("dram", cyclic())) end, "cyclic table at dram.self", "arch dram.self")
H.fails(function() dse.arch(with_key("foo", chain(40, "a"))) end,
  "foo." .. path("a", 31, ".") .. ": tables nested too deeply (limit 32)", "arch 40 deep")
local tpu = dse.arch("tpu-v1")
H.fails(function() tpu:with { dram = cyclic() } end, "cyclic table at dram.self", "with dram cyclic")
-- (the limit counts the tables of the value given, here below `dram`)
H.fails(function() tpu:with { dram = chain(40, "a") } end,
  "dram." .. path("a", 32, ".") .. ": tables nested too deeply (limit 32)", "with dram 40 deep")
local lc = {}; lc[1] = lc
H.fails(function() dse.workload { name = "w", layers = lc } end, "cyclic table at layers[1]", "workload layers cyclic")
H.fails(function() dse.workload { name = "w", layers = chain(40, 1) } end,
  "layers" .. path("[1]", 31) .. ": tables nested too deeply (limit 32)", "workload layers 40 deep")
H.fails(function() dse.sweep { arch = tpu, workload = "alexnet", grid = { dram = { cyclic() } } } end,
  "cyclic table at dram.self", "sweep grid value cyclic")
-- 2^21 values: the walk stops at the millionth (root, clock, then foo's
-- subtree in sorted order: the path is where that value sits)
local wide = {}
for _ = 1, 20 do wide = { a = wide, b = wide } end
H.fails(function() dse.arch(with_key("foo", wide)) end,
  "foo.a.b.b.b.b.a.b.a.a.a.a.b.a.a.a.b.b.a.b: more than 1000000 values (a table used in several places counts once per use)",
  "arch dag")
H.fails(function() dse.arch(with_key("s", "a\0b")) end, "s: string contains a NUL character", "arch NUL")
H.fails(function() dse.arch { name = "x", [1] = 2 } end,
  "keys must be strings (got the number key 1); a table is either a list (keys 1..n, no holes) or has only string keys", "arch mixed keys")
H.fails(function() dse.workload("gpt2", { phase = {} }) end, "dse.workload: params.phase: expected a number or string, got table", "param type")
-- NaN and infinities are named as what they are (they read as 'null')
H.fails(function() tpu:with { ["pe_array.rows"] = 0 / 0 } end, "pe_array.rows: expected a finite number, got nan", "with rows nan")
H.fails(function() tpu:with { clock = math.huge } end, "clock: expected a finite number, got inf", "with clock inf")
H.fails(function() tpu:with { dram = { stacks = -math.huge } } end, "dram.stacks: expected a finite number, got -inf", "with dram.stacks -inf")
H.fails(function() dse.arch(with_key("clock", 0 / 0)) end, "clock: expected a finite number, got nan", "arch clock nan")
H.fails(function() dse.workload("gpt2", { seq = 0 / 0 }) end, "dse.workload: params.seq: expected a finite number, got nan", "param nan")
H.fails(function() dse.sweep { arch = tpu, workload = "alexnet", grid = { clock = { math.huge } } } end,
  "clock: expected a finite number, got inf", "sweep grid inf")
-- a string parameter is passed whole (it was cut at 63 characters)
H.raises(function() dse.workload("gpt2", { phase = string.rep("d", 70) }) end, "unknown value '" .. string.rep("d", 70) .. "'", "long param")
-- a shared (not cyclic) table is fine
local shared = { preset = "hbm2e-3200", stacks = 2 }
H.eq(tpu:with { dram = shared }.dram_type, tpu:with { dram = shared }.dram_type, "shared table")

-- dse.sweep names the key
H.fails(function() dse.sweep { arch = { "tpu-v1", "npu-hbm2e" }, workload = "alexnet" } end,
  "dse.sweep: arch: expected one arch (a preset name, path, table or dse.Arch), got a list of 2 values; sweep each arch in turn, or vary its keys in 'grid'", "sweep arch list")
H.fails(function() dse.sweep { arch = 42, workload = "alexnet" } end,
  "dse.sweep: arch: expected one arch (a preset name, path, table or dse.Arch), got number", "sweep arch number")
H.fails(function() dse.sweep { arch = "tpu-v1", workload = { "alexnet", "vgg16" } } end,
  "dse.sweep: workload: expected one workload (a zoo name, path, table or dse.Workload), got a list of 2 values; give several as 'workloads'", "sweep workload list")
H.fails(function() dse.sweep { arch = "tpu-v1", workloads = "alexnet" } end,
  "dse.sweep: workloads: expected a non-empty list of workloads, got string; for one workload write workload = ...", "sweep workloads string")
H.fails(function() dse.sweep { arch = "tpu-v1", workloads = { "alexnet", 7 } } end,
  "dse.sweep: workloads[2]: expected one workload (a zoo name, path, table or dse.Workload), got number", "sweep workloads[2]")
H.fails(function() dse.sweep { arch = "tpu-v1", workload = "alexnet", grid = { 64, 128 } } end,
  'dse.sweep: grid: expected a table of arch paths to lists of values, such as { ["pe_array.rows"] = { 64, 128 } }, got a list of 2 values', "sweep grid list")
H.fails(function() dse.sweep { arch = "tpu-v1", workload = "alexnet", grid = { ["pe_array.rows"] = 64 } } end,
  "dse.sweep: grid['pe_array.rows']: expected a non-empty list of values, got number", "sweep grid value")
H.fails(function() dse.sweep { "tpu-v1" } end,
  "dse.sweep: keys are named (got the number key 1); expected one of: arch, workload, workloads, grid, fidelity, objective, map_budget, mappings, dram_model, progress, store, name, jobs, space, build, objectives, constraints, method, samples, seed, prune, layers", "sweep positional")
H.fails(function() dse.sweep { arch = "tpu-v1", workload = "alexnet", fidelity = "analytc" } end,
  "dse.sweep: unknown fidelity 'analytc'; did you mean 'analytic'? expected one of: analytic, cycle",
  "sweep fidelity typo")
H.fails(function() dse.simulate("tpu-v1", "alexnet", { mappings = 5 }) end,
  "dse.simulate: mappings must be a path to a mapping file, got number", "mappings number")
H.fails(function() dse.simulate("tpu-v1", "alexnet", { objective = "latncy" }) end,
  "dse.simulate: unknown objective 'latncy'; did you mean 'latency'? expected one of: latency, " ..
  "energy, edp, dram", "objective typo")

-- dse.pareto and dse.report: located, with the closest field name
local r = dse.simulate(tpu, "alexnet", { fidelity = "analytic" })
H.fails(function() dse.pareto({ r }, { "latency" }) end,
  "dse.pareto: objective 'latency' not found in results[1]; did you mean 'latency_s'?", "pareto did you mean")
H.fails(function() dse.pareto({ r }, { 5 }) end, "dse.pareto: objectives[1]: expected a field name, got number", "pareto number objective")
local dir = H.tmpname("") .. ".d"
dse.mkdir(dir)
local md = dir .. "/report.md"
local function noreport(what)
  for _, f in ipairs { "report.md", "tradeoff-alexnet-batch-1.svg", "roofline-alexnet-batch-1.svg" } do
    H.eq(io.open(dir .. "/" .. f, "r"), nil, what .. ": no " .. f)
  end
end
H.fails(function() dse.report { path = md, results = 5 } end,
  "dse.report: results: expected a list of results (from dse.sweep or dse.simulate), got number", "report results=5")
H.fails(function() dse.report { path = md, results = { r }, objectives = { "latency" } } end,
  "dse.report: objective 'latency' not found in results[1]; did you mean 'latency_s'?", "report latency")
H.fails(function() dse.report { path = md, results = { r }, objectives = { "energy_j", "-throughput" } } end,
  "dse.report: objective 'throughput' not found in results[1]; did you mean 'throughput_inf_per_s'?", "report throughput")
H.fails(function() dse.report { path = md, results = r } end,
  "dse.report: results: expected a list of results, got one result; write results = { r }", "report one result")
H.fails(function() dse.report { path = md, results = { r, 5 } } end,
  "dse.report: results[2]: expected a result of dse.simulate or dse.sweep, got number", "report results[2]")
H.fails(function() dse.report { path = md, results = { r, { x = 1 } } } end,
  "dse.report: results[2]: not a result of dse.simulate or dse.sweep (no arch, workload, total or layers)", "report results[2] table")
H.fails(function() dse.report { path = md, results = { a = r } } end,
  'dse.report: results: expected a list of results, got a table with the key "a"', "report results map")
H.fails(function() dse.report { path = md, results = { r }, objectives = "latency_s" } end,
  'dse.report: objectives: expected a list of 1 to 16 objective names, got string; write objectives = { "..." }', "report objectives string")
H.fails(function() dse.report { path = md, results = { r }, objectivs = { "latency_s" } } end,
  "dse.report: unknown key 'objectivs'; did you mean 'objectives'?", "report key typo")
H.fails(function() dse.report { results = { r } } end, "dse.report: missing 'path'", "report no path")
H.fails(function() dse.report { path = 5, results = { r } } end, "dse.report: path: expected a file name, got number", "report path number")
H.fails(function() dse.report { path = md, results = { r }, columns = { "pe_array.rows", 3 } } end,
  "dse.report: columns[2]: expected a name, got number", "report columns")
H.fails(function() dse.report { path = md, results = { r }, title = {} } end, "dse.report: title: expected a string, got table", "report title")
H.fails(function() dse.report("x") end, "dse.report: expected a table of options, got string", "report not a table")
noreport("bad report")
-- a directory that does not exist, or a file, is named before anything is written
H.fails(function() dse.report { path = dir .. "/no/report.md", results = { r } } end,
  "dse.report: directory '" .. dir .. "/no' does not exist (create it with dse.mkdir first)", "report unwritable")
dse.write_text(dir .. "/file", "x")
H.fails(function() dse.report { path = dir .. "/file/report.md", results = { r } } end,
  "dse.report: '" .. dir .. "/file' is not a directory", "report into a file")
os.remove(dir .. "/file")
noreport("report unwritable")
dse.report { path = md, results = { r }, objectives = { "latency_s", "-throughput_inf_per_s" } }
H.check(H.read(md):find("Pareto objectives (minimized unless marked): latency per batch (`latency_s`); " ..
  "throughput (`throughput_inf_per_s`), maximized.", 1, true) ~= nil, "good report")
for _, f in ipairs { "report.md", "tradeoff-alexnet-batch-1.svg", "roofline-alexnet-batch-1.svg" } do os.remove(dir .. "/" .. f) end
os.remove(dir)

-- writers
H.fails(function() dse.write_csv(out, { r }, { "latency_s", 5 }) end, "dse.write_csv: columns[2]: expected a column name, got number", "csv column")
H.fails(function() dse.write_csv(out, { r, 5 }) end, "dse.write_csv: rows[2]: expected a table, got number", "csv row")
-- a table cell without a name is written in flow form (it was an empty
-- cell); what has no text form raises at its path, and nothing is written
local csv = H.tmpname(".csv")
dse.write_csv(csv, { { a = 1 }, { a = {} }, { a = { yield_model = "poisson", defect_density = 100 } },
  { a = { 1, "x, y", { b = true } } }, { a = { name = "n", x = 1 } }, { a = { s = 'say "hi"' } } })
H.eq(H.read(csv), 'a\n1\n{}\n"{defect_density: 100, yield_model: poisson}"\n"[1, ""x, y"", {b: true}]"\nn\n' ..
  '"{s: ""say \\""hi\\""""}"\n', "csv table cells")
os.remove(csv)
H.fails(function() dse.write_csv(out, { { a = 1 }, { a = { f = print } } }) end,
  "dse.write_csv: rows[2].a.f: a function has no CSV form", "csv function cell")
H.fails(function() dse.write_csv(out, { { a = print } }) end, "dse.write_csv: rows[1].a: a function has no CSV form", "csv function")
H.fails(function() dse.write_csv(out, { { a = cyclic() } }) end, "dse.write_csv: cyclic table at rows[1].a.self", "csv cyclic cell")
H.fails(function() dse.write_csv(out, { { a = chain(40, "b") } }) end,
  "dse.write_csv: rows[1].a." .. path("b", 32, ".") .. ": tables nested too deeply (limit 32)", "csv deep cell")
H.fails(function() dse.write_text("/nonexistent-dir/x.txt", "x") end,
  "dse.write_text: cannot write '/nonexistent-dir/x.txt': No such file or directory", "text unwritable")
nofile("writers")

H.finish()
