-- test_report.lua: no row of the report's roofline table contradicts
-- itself, on every zoo workload x arch preset at both fidelities.  A row
-- is read as a reader would: its printed intensity against the printed
-- ridge gives its side, which must be the one it names; the compute side
-- has the peak as its roofline; no layer is above its roof; every limiter
-- is explained in the legend under the table; the front's bound counts
-- are those of the MAC layers.
package.path = "./?.lua;" .. package.path
local H = require "harness"
local dse = require "dse"

local function names(sub)
  local p = assert(io.popen('ls "' .. os.getenv("DSE_DATA_DIR") .. "/" .. sub .. '"'))
  local t = {}
  for f in p:lines() do t[#t + 1] = f:match("^(.-)%.yaml$") end
  p:close()
  return t
end

-- "197 TOPS" -> 1.97e14
local scale = { P = 1e15, T = 1e12, G = 1e9, M = 1e6, k = 1e3, [""] = 1, m = 1e-3, u = 1e-6 }
local function si_value(s, unit)
  local v, p = s:match("^(%S+) (%a?)" .. unit .. "$")
  return v and tonumber(v) * scale[p]
end

-- "| a | b |" -> {"a", "b"}
local function cells(line)
  local t = {}
  for c in line:gsub("^|%s*", ""):gmatch("(.-)%s*|%s*") do t[#t + 1] = c end
  return t
end

local archs, zoo = names("arch"), names("workloads")
local dir = os.tmpname()
os.remove(dir)
dse.mkdir(dir)
local rows, kinds_seen = 0, {}
for _, fid in ipairs { "analytic", "cycle" } do
  for _, an in ipairs(archs) do
    local arch = dse.arch(an)
    local results, by_name = {}, {}
    for _, wn in ipairs(zoo) do
      local ok, r = pcall(dse.simulate, arch, dse.workload(wn), { fidelity = fid })
      if ok then
        results[#results + 1] = r
        by_name[r.workload.name] = r
      else
        H.check(tostring(r):find("dram.capacity", 1, true), an .. "/" .. wn .. ": " .. tostring(r))
      end
    end
    local path = dir .. "/report.md"
    dse.report { path = path, results = results }
    local text = H.read(path)
    -- one section per workload, from its "## NAME" heading to the next
    local starts = {}
    for pos, wn in text:gmatch("\n()## (%S+)") do starts[#starts + 1] = { pos, wn } end
    for s, st in ipairs(starts) do
      local stop = starts[s + 1] and starts[s + 1][1] - 1 or #text
      by_name[st[2]].body = text:sub(st[1], stop)
    end
    for wn, r in pairs(by_name) do
      local where = string.format("%s/%s/%s", fid, an, wn)
      local body = r.body or ""
      local peak_s, ridge_s = body:match("\nDesign `[^`]+`: %d+x%d+ [^\n]-, peak ([^,]+), DRAM [^,]+, ridge point (%S+) ops/B%.\n")
      H.check(peak_s ~= nil, where .. ": design line")
      local ridge = tonumber(ridge_s)
      local tbl = body:match("\n| layer | type | MACs | intensity [^\n]*\n[^\n]*\n(.-\n)\n") or ""
      local legend = body:match("\n%*layer%*, [^\n]*\n\n(.-)\n\n") or
                     body:match("\n%*layer%*, [^\n]*\n\n(.*)$") or ""
      local explained = {}
      for k in legend:gmatch("%- `([%w-]+)`: ") do explained[k] = true end
      local macs = {}
      for _, l in ipairs(r.layers) do if l.macs > 0 then macs[#macs + 1] = l end end
      local i = 0
      for line in tbl:gmatch("([^\n]+)\n") do
        local c = cells(line)
        H.eq(#c, 10, where .. ": cells in " .. line)
        do
          i = i + 1
          rows = rows + 1
          local l = macs[i]
          local w = where .. "/" .. c[1]
          H.eq(c[1], l and l.name, w .. ": row order")
          local side = c[5]
          H.check(side == "memory (left)" or side == "compute (right)", w .. ": side " .. side)
          H.eq(side:match("^%a+"), l and l.bound, w .. ": side is the result's bound")
          -- the printed intensity against the printed ridge
          if c[4] == "-" then
            H.eq(side, "compute (right)", w .. ": no DRAM traffic")
          else
            local x = tonumber(c[4])
            if x ~= ridge then
              H.eq(side, x < ridge and "memory (left)" or "compute (right)",
                w .. ": intensity " .. c[4] .. " vs ridge " .. ridge_s)
            end
          end
          local roof, peak = si_value(c[7], "OPS"), si_value(peak_s, "OPS")
          if side == "compute (right)" then
            H.eq(c[7], peak_s, w .. ": the compute side's roof is the peak")
          else
            H.check(roof and roof <= peak, w .. ": roof " .. c[7] .. " under the peak " .. peak_s)
          end
          local pct = tonumber(c[8]:match("^(%d+)%%$"))
          H.check(pct and pct <= 100, w .. ": " .. c[8] .. " of roof")
          H.eq(c[9], l and l.limiter, w .. ": limiter")
          H.check(explained[c[9]], w .. ": limiter " .. c[9] .. " explained under the table")
          kinds_seen[c[9]] = true
        end
      end
      H.eq(i, #macs, where .. ": one row per MAC layer")
      -- the front's bound counts are of MAC layers (vector layers have their
      -- own ridge): compute/memory, as the rows above and r.total say
      local head, first = body:match("\n(| arch |[^\n]*)\n[^\n]*\n(|[^\n]*)\n")
      local col
      for k, c in ipairs(cells(head or "")) do
        if c == "compute/memory-bound MAC layers" then col = k end
      end
      H.check(col ~= nil, where .. ": front has a compute/memory-bound MAC layers column")
      local nc, nm = 0, 0
      for _, l in ipairs(macs) do
        if l.bound == "memory" then nm = nm + 1 else nc = nc + 1 end
      end
      H.eq(col and cells(first or "")[col], nc .. "/" .. nm, where .. ": bound counts of MAC layers")
      H.eq(r.total.mac_compute_bound_layers + r.total.vector_compute_bound_layers,
        r.total.compute_bound_layers, where .. ": compute-bound split")
    end
  end
end
os.remove(dir .. "/report.md")
for f in io.popen('ls "' .. dir .. '"'):lines() do os.remove(dir .. "/" .. f) end
H.check(rows > 5000, "rows checked: " .. rows)
for _, k in ipairs { "compute", "array-load", "fill-drain", "dram", "sram" } do
  H.check(kinds_seen[k], "some row is limited by " .. k)
end
print(rows .. " roofline rows checked")

-- The tables of a report: { header = {cells}, rows = {{cells}...},
-- legend = {[term] = true} } for each, in order.  A legend is the bullet
-- list ("- *a, b*: ...") or the paragraph ("*a*: ... *b*, *c*: ...") right
-- under the table; a term "a, b" names the columns a and b.
local function tables_of(text)
  local lines, out = {}, {}
  for l in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
  local i = 1
  while i <= #lines do
    if lines[i]:match("^| ") and (lines[i + 1] or ""):match("^|[ -:|]+$") then
      local t = { header = cells(lines[i]), rows = {}, legend = {} }
      i = i + 2
      while (lines[i] or ""):match("^| ") do t.rows[#t.rows + 1] = cells(lines[i]); i = i + 1 end
      i = i + 1 -- the blank line
      while lines[i] and lines[i] ~= "" do
        local l = lines[i]:gsub("^%- ", "")
        for term in l:gmatch("%*([^*]+)%*") do
          for name in (term .. ", "):gmatch("(.-), ") do t.legend[name] = true end
        end
        i = i + 1
      end
      out[#out + 1] = t
    else
      i = i + 1
    end
  end
  return out
end

-- Every column of every table has its meaning in the legend under it (a
-- header "x (unit)" as "x").
local function check_legends(text, where)
  local n = 0
  for _, t in ipairs(tables_of(text)) do
    n = n + 1
    for _, h in ipairs(t.header) do
      H.check(t.legend[h] or t.legend[h:gsub(" %(.*%)$", "")],
        string.format("%s: table %d (%s ...): column '%s' in the legend", where, n, t.header[1], h))
    end
  end
  return n
end

-- A sweep like `make run`'s: the base arch names HBM2E, the grid swaps
-- the memory; two GPT-2 phases; one memory too small for Llama-2.
do
  local hbm2e = { preset = "hbm2e-3200", stacks = 2 }
  local gddr6 = { preset = "gddr6-16000", devices = 8 }
  local small = { preset = "gddr6-16000", devices = 1 }
  local label = { [hbm2e] = "2 x hbm2e-3200", [gddr6] = "8 x gddr6-16000", [small] = "1 x gddr6-16000" }
  local wls = {
    dse.workload("alexnet"),
    dse.workload("gpt2", { phase = "decode", seq = 256, batch = 2 }),
    dse.workload("gpt2", { phase = "prefill", seq = 64 }),
    dse.workload("llama2_7b", { phase = "decode", seq = 64 }),
  }
  local res = dse.sweep { arch = "npu-hbm2e", workloads = wls,
    grid = { dram = { hbm2e, gddr6, small }, ["pe_array.rows"] = { 32, 128 } } }
  H.eq(res[2].workload.phase, "decode", "result workload phase")
  H.eq(res[2].workload.seq, 256, "result workload seq")
  H.eq(res[1].workload.phase, nil, "a layer list has no phase")
  H.eq(wls[3].phase .. " " .. wls[3].seq, "prefill 64", "Workload phase and seq")
  local infeasible = 0
  for _, r in ipairs(res) do
    if not r.feasible then
      infeasible = infeasible + 1
      H.eq(r.workload.phase .. " " .. r.workload.seq, "decode 64", "infeasible result's workload")
    end
  end
  H.eq(infeasible, 2, "llama2_7b does not fit one GDDR6 device")
  local path = dir .. "/sweep.md"
  dse.report { path = path, results = res, objectives = { "latency_s", "energy_j", "cost_usd" } }
  local text = H.read(path)
  dse.report { path = path, results = res, objectives = { "latency_s", "energy_j", "cost_usd" } }
  H.eq(H.read(path), text, "the report is deterministic")

  -- every workload has its own section, titled with its parameters
  local titles = {}
  for t in text:gmatch("\n## ([^\n]+)") do titles[#titles + 1] = t end
  H.eq(table.concat(titles, "; "), "alexnet (batch 1); gpt2 (decode, seq 256, batch 2); " ..
    "gpt2 (prefill, seq 64, batch 1); llama2_7b (decode, seq 64, batch 1)", "section titles")

  -- no row names a memory but its own: the base arch is named once, above
  H.check(text:find("\nEvery design point is `npu-hbm2e` with the swept keys", 1, true), "base arch named once")
  local tbls = tables_of(text)
  local checked = 0
  for _, t in ipairs(tbls) do
    local col
    for j, h in ipairs(t.header) do if h == "`dram`" then col = j end end
    if t.header[1] ~= "layer" then
      H.check(col ~= nil, "a `dram` column in the table of " .. t.header[#t.header])
      for _, c in ipairs(t.rows) do
        local dram = c[col] or ""
        local known = false
        for _, v in pairs(label) do known = known or v == dram end
        H.check(known, "dram cell " .. dram)
        local rest = table.concat(c, " | "):gsub(dram:gsub("%p", "%%%0"), "", 1):lower()
        H.check(not rest:find("hbm") and not rest:find("gddr"), "row names only its own memory: " .. table.concat(c, " | "))
        checked = checked + 1
      end
    end
  end
  H.check(checked >= 8, "rows checked for their memory: " .. checked)
  -- the roofline's design line and the infeasible points name their memory
  local lines = 0
  for dram, kind in text:gmatch("\nDesign `npu%-hbm2e` with [^\n]-`dram` = (%d+ x [%w-]+)[^\n]-, DRAM [^,]+ %((%w+)%)") do
    H.eq(dram:match("x (%a+%d*%a*)"), kind, "design line's memory")
    lines = lines + 1
  end
  H.eq(lines, 4, "a design line per section")
  local n = 0
  for line in text:gmatch("\n%- `npu%-hbm2e` with [^\n]*") do
    n = n + 1
    H.check(line:find("`dram` = 1 x gddr6-16000", 1, true) and line:find(": dram.capacity:", 1, true),
      "infeasible point: " .. line)
  end
  H.eq(n, 2, "infeasible points listed")
  H.check(check_legends(text, "sweep report") == 4 * 3, "three tables per section")

  -- each objective is someone's best, and the best is marked
  for body in text:gmatch("### Pareto front.-\n\n(|.-)\n\n") do
    for _, o in ipairs { "latency_s", "energy_j", "cost_usd" } do
      H.check(body:find("| [^|]*" .. o .. "[^|]* |"), "a point is best in " .. o)
    end
  end
  for f in io.popen('ls "' .. dir .. '"'):lines() do os.remove(dir .. "/" .. f) end
end

H.fails(function() dse.report { path = dir .. "/x.md", results = {}, intro = 5 } end,
  "dse.report: intro: expected a string, got number", "intro")
H.fails(function() dse.workload_title(5) end,
  "dse.workload_title: expected a Workload or a result's workload, got number", "workload_title")
H.eq(dse.workload_title(dse.workload("llama2_7b")), "llama2_7b (decode, seq 2048, batch 1)", "workload_title")

-- `make run`'s report (scripts/sweep.lua): every table has its legend, no
-- row names a memory but its own, every title carries the parameters
-- Run scripts/NAME.lua with dir as its output directory (arg[1]).
local function run_script(name, ...)
  local path = os.getenv("DSE_DATA_DIR") .. "/scripts/" .. name .. ".lua"
  local saved = arg
  arg = { [0] = path, dir, ... }
  assert(loadfile(path))(dir, ...)
  arg = saved
end

do
  run_script("sweep", "small") -- (a corner of its space: the same tables)
  local text = H.read(dir .. "/report.md")
  H.eq(check_legends(text, "out/report.md"), 1 + 3 * 3, "tables in out/report.md")
  local titles = {}
  for t in text:gmatch("\n## ([^\n]+)") do titles[#titles + 1] = t end
  H.eq(table.concat(titles, "; "),
       "resnet50 (batch 8); gpt2 (prefill, seq 1024, batch 1); gpt2 (decode, seq 1024, batch 8)",
       "out/report.md sections")
  local n = 0
  for _, t in ipairs(tables_of(text)) do
    local col
    for j, h in ipairs(t.header) do if h == "`dram`" then col = j end end
    for _, c in ipairs(col and t.rows or {}) do
      local rest = table.concat(c, " | "):gsub(c[col]:gsub("%p", "%%%0"), "", 1):lower()
      H.check(not rest:find("hbm") and not rest:find("gddr"), "out/report.md row: " .. table.concat(c, " | "))
      n = n + 1
    end
  end
  local fronts = 0
  for k in text:gmatch("\n### Pareto front %((%d+) of ") do fronts = fronts + tonumber(k) end
  H.check(fronts > 10 and n == 2 * fronts, "out/report.md: rows of both tables with a `dram` column: " .. n)
  for f in io.popen('ls "' .. dir .. '"'):lines() do os.remove(dir .. "/" .. f) end
end

-- scripts/hbm_vs_gddr.lua: rates as %, titles with the parameters, a
-- legend for every column
do
  run_script("hbm_vs_gddr")
  local text = H.read(dir .. "/hbm_vs_gddr.md")
  local t = tables_of(text)[1]
  check_legends(text, "hbm_vs_gddr.md")
  local hits
  for j, h in ipairs(t.header) do if h == "row hits" then hits = j end end
  H.eq(#t.rows, 21, "hbm_vs_gddr rows")
  for _, c in ipairs(t.rows) do
    H.check(c[hits]:match("^%d+%.%d%%$"), "row hits as %: " .. c[hits])
    H.check(c[1]:match("^[%w_]+ %(.*batch %d+%)$"), "workload with its parameters: " .. c[1])
    if c[1]:find("gpt2") then H.check(c[1]:find("(decode, seq 1024, batch", 1, true), c[1]) end
  end
  for f in io.popen('ls "' .. dir .. '"'):lines() do os.remove(dir .. "/" .. f) end
end

-- A SCALE-Sim arch (no technology node: energy without leakage and clock,
-- no die area) next to npu-gddr6 (with both), on latency and DRAM traffic:
-- every energy-derived cell of the first is marked and the legends say what
-- the mark means and that the two kinds do not compare; an energy objective
-- is refused, as by dse.pareto; the trade-off chart is titled by the die
-- area it plots and names the front point it leaves off.
do
  local a = dse.simulate(os.getenv("DSE_DATA_DIR") .. "/examples/scalesim/ws_32x32.cfg", "alexnet")
  local b = dse.simulate("npu-gddr6", "alexnet")
  H.eq(a.total.static_modelled, false, "ws_32x32 has no node")
  H.fails(function() dse.report { path = dir .. "/mixed.md", results = { a, b } } end,
    "dse.report: objective 'energy_j' does not compare: results[1] (arch 'ws_32x32') leaves leakage " ..
    "and clock out (the arch names no technology.node: static_modelled false) and results[2] " ..
    "(arch 'npu-gddr6') counts them; give every arch a technology.node or none", "mixed energy objective")
  H.eq(io.open(dir .. "/mixed.md"), nil, "mixed energy objective: no report")
  dse.report { path = dir .. "/mixed.md", results = { a, b }, objectives = { "latency_s", "dram_bytes" } }
  local text = H.read(dir .. "/mixed.md")
  local tbls = tables_of(text)
  local front, brk = tbls[1], tbls[2]
  local col = {}
  for j, h in ipairs(front.header) do col[h] = j end
  H.eq(front.rows[1][1], "npu-gddr6", "front row 1")
  H.eq(front.rows[2][1], "ws_32x32", "front row 2")
  H.eq(front.rows[1][col["energy per batch"]], "11.6 mJ", "full energy unmarked")
  H.eq(front.rows[1][col["TOPS/W"]], "0.125", "full TOPS/W unmarked")
  H.eq(front.rows[2][col["energy per batch"]], "14.7 mJ (dynamic only)", "dynamic energy marked")
  H.eq(front.rows[2][col["pJ/MAC"]], "20.3 (dynamic only)", "dynamic pJ/MAC marked")
  H.eq(front.rows[2][col["TOPS/W"]], "0.0984 (dynamic only)", "dynamic TOPS/W marked")
  H.eq(front.rows[2][col["die area mm^2"]], "not modelled", "no die area")
  H.eq(front.rows[2][col["unit cost"]], "not modelled", "no unit cost")
  H.eq(table.concat(brk.rows[2], " | "), "ws_32x32 | 14.7 mJ (dynamic only) | 1% (dynamic only) | " ..
    "0% (dynamic only) | 2% (dynamic only) | 2% (dynamic only) | 95% (dynamic only) | 0% (dynamic only) | " ..
    "not modelled | not modelled | 68 / 4 / 27% (dynamic only) | not modelled | not modelled", "breakdown row")
  H.check(not table.concat(brk.rows[1], " | "):find("dynamic", 1, true), "full breakdown row unmarked")
  for i, t in ipairs { front, brk } do
    H.check(t.legend["(dynamic only)"], "table " .. i .. ": the mark in the legend")
  end
  local mark = "for an arch that names no technology node: leakage and clock are not modelled and left out, " ..
    "so the figure reads lower than a full one and does not compare with it; as this workload's points mix " ..
    "both kinds, no energy objective (`energy_j`, `pj_per_mac`, `tops_per_w`, `power_w`, `edp_js`) can rank " ..
    "them: dse.report refuses one, as dse.pareto does, and the front is not taken on energy."
  H.check(text:find("\n- *(dynamic only)*: energy, pJ/MAC and TOPS/W, " .. mark .. "\n", 1, true), "front legend: the mark")
  H.check(text:find("\n- *(dynamic only)*: energy per inference and its shares, " .. mark .. "\n", 1, true),
    "breakdown legend: the mark")
  -- "not modelled", as printed, in the legend (not `-`)
  H.check(text:find("(docs/cost.md); `not modelled`: the arch names no technology node.\n", 1, true), "area legend")
  H.check(not text:find("`-`: no technology node", 1, true), "no `-` for no node")
  -- the chart's axis is die area: its title, alt text and axis say so
  local svg = H.read(dir .. "/tradeoff-alexnet-batch-1.svg")
  H.check(svg:find(">alexnet (batch 1): energy per inference vs die area</text>", 1, true), "chart title")
  H.check(svg:find(">die area (mm^2)</text>", 1, true), "chart axis")
  H.check(not svg:find("cost", 1, true), "no cost on the chart")
  H.check(text:find("\n![energy per inference vs die area of alexnet (batch 1)](tradeoff-alexnet-batch-1.svg)\n\n" ..
    "Not plotted, having no die area (the arch names no technology node): 1 Pareto point (`ws_32x32`).\n", 1, true),
    "alt text and the point left off")
  for f in io.popen('ls "' .. dir .. '"'):lines() do os.remove(dir .. "/" .. f) end
end

-- Fused activations are said under the roofline table (tpu-v1 fuses 49 of
-- ResNet-50's activations with their convolutions)
do
  local r = dse.simulate("tpu-v1", "resnet50")
  local fused = 0
  for _, l in ipairs(r.layers) do if l.fused then fused = fused + 1 end end
  H.eq(fused, 49, "fused layers")
  dse.report { path = dir .. "/fused.md", results = { r } }
  H.check(H.read(dir .. "/fused.md"):find("; 49 of them are activations fused with the layer before, run on its " ..
    "output stream, whose latency is only the time they add to it (0 s when none; docs/model.md, section 4).\n", 1, true),
    "fused layers counted")
  for f in io.popen('ls "' .. dir .. '"'):lines() do os.remove(dir .. "/" .. f) end
end

-- dse.report{out = DIR}: the HTML report directory `dse report` writes
-- (reports/page.h), of a small level-1 sweep stored with its layers: the
-- counts it returns are the handle's and summary.md's; the store as source
-- (or dse.open's handle) gives the same data.csv; the options reach the
-- page; every bad option raises at the call's line and writes nothing.
do
  local function remove_dir(d) -- a report directory: its files, then itself
    for f in io.popen('ls -A "' .. d .. '" 2>/dev/null'):lines() do os.remove(d .. "/" .. f) end
    os.remove(d)
  end
  local function csv_rows(path) -- data.csv as a list of {column = cell} (no quoted cells here)
    local rows, head = {}, nil
    for line in io.lines(path) do
      local c = {}
      for v in (line .. ","):gmatch("([^,]*),") do c[#c + 1] = v end
      if not head then head = c
      else
        local r = {}
        for k, name in ipairs(head) do r[name] = c[k] end
        rows[#rows + 1] = r
      end
    end
    return rows
  end
  local db = dir .. "/tiny.db"
  local h = dse.sweep { arch = "npu-hbm2e", fidelity = "analytic", store = db, name = "tiny",
    layers = true, progress = false,
    workloads = { "alexnet", dse.workload("gpt2", { phase = "decode", seq = 64 }) },
    space = { ["pe_array.rows"] = { 32, 128 },
              dram = { { preset = "hbm2e-3200", stacks = 2 }, { preset = "gddr6-16000", devices = 8 } } } }
  H.eq(#h, 8, "html: the sweep's results")
  local out = dir .. "/html"
  local r = dse.report { results = h, out = out }
  H.eq(r.dir, out, "html: dir")
  H.eq(r.index, out .. "/index.html", "html: index")
  for _, f in ipairs { "index.html", "summary.md", "data.csv" } do
    local fh = io.open(out .. "/" .. f)
    H.check(fh and fh:seek("end") > 0, "html: " .. f .. " written")
    if fh then fh:close() end
  end
  H.eq(r.bytes, #H.read(out .. "/index.html"), "html: bytes, index.html's")
  -- the counts: the handle's, and summary.md's
  local md = H.read(out .. "/summary.md")
  local n, simulated = md:match(" sweep `tiny`: (%d+) results, (%d+) simulated, ")
  H.eq(r.results, #h, "html: results, #h")
  H.eq(r.results, tonumber(n), "html: results, summary.md's")
  H.eq(r.simulated, tonumber(simulated), "html: simulated, summary.md's")
  local front, sections = 0, 0 -- (a section per workload, then "Designs side by side")
  for k in md:gmatch("\n%d+ results, %d+ simulated, %d+ within the budgets; (%d+) on the front ") do
    front = front + tonumber(k)
    sections = sections + 1
  end
  H.eq(r.front, front, "html: front, summary.md's")
  H.eq(r.workloads, sections, "html: workloads, summary.md's")
  H.eq(r.workloads, 2, "html: two workloads")
  H.check(r.layers >= r.workloads, "html: every knee's layers kept: " .. r.layers)
  local rows = csv_rows(out .. "/data.csv")
  H.eq(#rows, #h, "html: data.csv, a line per result")
  -- the same results read from the store, or through dse.open: the same data.csv
  local csv = H.read(out .. "/data.csv")
  for i, src in ipairs { { source = db }, { source = db, sweep = "tiny" }, { results = dse.open(db) } } do
    local o = dir .. "/html-" .. i
    src.out = o
    local r2 = dse.report(src)
    H.eq(H.read(o .. "/data.csv"), csv, "html: source " .. i .. ": the same data.csv")
    H.eq(r2.results .. " " .. r2.front .. " " .. r2.workloads, r.results .. " " .. r.front .. " " .. r.workloads,
      "html: source " .. i .. ": the same counts")
    remove_dir(o)
  end
  -- again into the same directory: the earlier report replaced, the same bytes
  dse.report { results = h, out = out }
  H.eq(H.read(out .. "/data.csv"), csv, "html: again, the same data.csv")
  -- the options reach the report: title, objectives (one maximized), a budget
  local ro = dse.report { results = h, out = out, title = "Tiny sweep", color = "pe_array.rows", layers = 1,
    objectives = { "energy_j", "-throughput_inf_per_s" }, constraints = { area_mm2 = "<= 70 mm2" } }
  H.eq(H.read(out .. "/summary.md"):match("^# ([^\n]*)"), "Tiny sweep", "html: title")
  H.check(H.read(out .. "/summary.md"):find("\nObjectives: `energy_j` (minimized), `throughput_inf_per_s` (maximized); " ..
    "budgets: `area_mm2 <= ", 1, true), "html: objectives and budget in summary.md")
  local over, on_over, on = 0, 0, 0
  for _, row in ipairs(csv_rows(out .. "/data.csv")) do
    if tonumber(row.area_mm2) > 70 then
      over = over + 1
      if row.on_front == "true" then on_over = on_over + 1 end
    end
    if row.on_front == "true" then on = on + 1 end
  end
  H.check(over > 0 and on > 0, "html: a budget some results are over: " .. over)
  H.eq(on_over, 0, "html: a result over the budget is on no front")
  H.eq(ro.front, on, "html: front, data.csv's on_front")
  H.eq(#r.warnings, 0, "html: no warning")
  H.eq(r.finished, true, "html: finished")
  -- a budget nothing meets: a warning a workload, no front
  local rn = dse.report { results = h, out = out, constraints = { cost_usd = "<= 1" } }
  H.eq(#rn.warnings, 2, "html: a warning a workload without a front")
  H.eq(rn.warnings[1], "alexnet (batch 1): none of its 4 simulated results is within the budgets: no front",
    "html: the first warning")
  H.eq(rn.front, 0, "html: no front")
  -- bad options: an error at the call's line, nothing written
  local bad = dir .. "/html-bad"
  H.fails(function() dse.report { path = dir .. "/x.md", out = bad, results = h } end,
    "dse.report: path and out: one of the two (path = FILE writes the Markdown report, out = DIR the HTML report directory)",
    "html: path and out")
  H.fails(function() dse.report { out = bad, title = "x" } end,
    "dse.report: missing 'source' or 'results': the sweep to report (source = a store, or the CSV or JSON dse writes; " ..
    "results = the handle of dse.sweep{store = ...} or dse.open)", "html: no source")
  H.fails(function() dse.report { out = bad, source = db, results = h } end,
    "dse.report: source and results: one of the two (source = PATH reads a store or a file of results; " ..
    "results = H reads the store of H, a sweep's handle)", "html: source and results")
  H.fails(function() dse.report { out = bad, results = h:filter { workload = "alexnet" } } end,
    "dse.report: results: a part of a sweep's results (h:filter, dse.pareto); the report reads the whole sweep: " ..
    "pass the sweep's handle, or source = its store", "html: a filtered handle")
  H.fails(function() dse.report { out = bad, results = h:list() } end,
    "dse.report: results: expected the handle of dse.sweep{store = ...} or dse.open, got a list of 8 values; " ..
    "the HTML report reads a whole stored sweep: pass its handle, or source = a store or a CSV dse.write_csv wrote",
    "html: a list of results")
  H.fails(function() dse.report { out = bad, results = h, intro = "x" } end,
    "dse.report: unknown key 'intro'; expected one of: out, source, sweep, results, objectives, constraints, " ..
    "color, title, layers, static", "html: a Markdown key")
  H.fails(function() dse.report { out = bad, results = h, objectivs = { "latency_s" } } end,
    "dse.report: unknown key 'objectivs'; did you mean 'objectives'?", "html: unknown key")
  H.fails(function() dse.report { out = bad, results = h, objectives = { "latncy_s" } } end,
    "dse.report: " .. db .. ": objective 'latncy_s' is not a total field; did you mean 'latency_s'? " ..
    "(the fields of dse sim --format json's total)", "html: not a total field")
  H.fails(function() dse.report { out = bad, results = h, color = "mem" } end,
    "dse.report: " .. db .. ": colour parameter 'mem': the sweep has no such parameter (it has memory, pe_array.rows)",
    "html: a colour parameter the sweep lacks")
  H.fails(function() dse.report { out = bad, source = db, sweep = "nope" } end,
    "dse.report: " .. db .. ": no sweep named 'nope' (the store holds 'tiny')", "html: no such sweep")
  H.fails(function() dse.report { out = bad, results = h, layers = -1 } end,
    "dse.report: layers: expected an integer from 0 to 10000, got -1", "html: layers")
  H.fails(function() dse.report { out = 5, results = h } end,
    "dse.report: out: expected a directory path such as \"out/report\", got number", "html: out")
  H.eq(io.open(bad), nil, "html: bad options: nothing written")
  -- a directory of other files is refused, and left as it was
  local mine = dir .. "/html-mine"
  dse.mkdir(mine)
  dse.write_text(mine .. "/notes.txt", "my notes\n")
  H.fails(function() dse.report { out = mine, results = h } end,
    "dse.report: " .. mine .. ": holds 'notes.txt', which a report does not write: a report replaces only an " ..
    "earlier report; name another directory", "html: a directory of other files")
  H.eq(H.read(mine .. "/notes.txt"), "my notes\n", "html: the foreign file untouched")
  local left = {}
  for f in io.popen('ls -A "' .. mine .. '"'):lines() do left[#left + 1] = f end
  H.eq(table.concat(left, " "), "notes.txt", "html: nothing added to the directory")
  for f in io.popen('ls -A "' .. dir .. '"'):lines() do
    H.check(not f:match("^%.html"), "html: a temporary directory left: " .. f)
  end
  remove_dir(mine)
  remove_dir(out)
  h = nil
  collectgarbage()
  for f in io.popen('ls -A "' .. dir .. '"'):lines() do os.remove(dir .. "/" .. f) end
end

os.remove(dir)
H.finish()
