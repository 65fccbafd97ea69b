-- report.lua: dse.report{...}, the Markdown report writer.  Embedded in the
-- dse binary; receives the dse module table, adds dse.workload_title to it
-- (how the report titles a workload, for scripts to print) and returns the
-- report function.  With out = DIR instead of path, dse.report writes the
-- HTML report directory `dse report` writes (priv.html, in C: index.html,
-- summary.md, data.csv; docs/lua.md).
--
-- dse.report{
--   path = "out/report.md",           -- written atomically
--   title = "...",                    -- optional
--   intro = "...",                    -- optional Markdown under the title
--   results = {...},                  -- from dse.sweep (all points)
--   objectives = {"latency_s", ...},  -- Pareto objectives ("-x" maximizes)
--   columns = {"pe_array.rows", ...}, -- optional grid columns to show
-- }
local dse, priv = ...

-- The options, checked before anything is written.  priv (sim/lua/ldse.c)
-- raises errors at the calling script's line, as the module's own do.
local function check_names(v, key)
  if type(v) ~= "table" then
    priv.fail(string.format("dse.report: %s: expected a list of names, got %s", key, type(v)))
  end
  for i = 1, #v do
    if type(v[i]) ~= "string" then
      priv.fail(string.format("dse.report: %s[%d]: expected a name, got %s", key, i, type(v[i])))
    end
  end
end

local function check_results(rs)
  if type(rs) ~= "table" then
    priv.fail("dse.report: results: expected a list of results (from dse.sweep or dse.simulate), got " .. type(rs))
  end
  if rs.total ~= nil or rs.reason ~= nil then
    priv.fail("dse.report: results: expected a list of results, got one result; write results = { r }")
  end
  for k in pairs(rs) do
    if math.type(k) ~= "integer" or k < 1 or k > #rs then
      priv.fail(string.format("dse.report: results: expected a list of results, got a table with the key %q", tostring(k)))
    end
  end
  for i, r in ipairs(rs) do
    local what = string.format("dse.report: results[%d]", i)
    if type(r) ~= "table" then
      priv.fail(what .. ": expected a result of dse.simulate or dse.sweep, got " .. type(r))
    end
    -- (priv.has_layers: without reading them, which simulates a sweep's row)
    local layered = priv.has_layers(r)
    if r.stored and r.feasible ~= false and type(r.total) == "table" and not layered then
      priv.fail(what .. ": a result read back by dse.open has no layers, which the report draws; "
        .. "report the dse.sweep that stored it (its results simulate their layers when read)")
    end
    if type(r.arch) ~= "table" or type(r.workload) ~= "table"
      or (r.feasible ~= false and (type(r.total) ~= "table" or not layered)) then
      priv.fail(what .. ": not a result of dse.simulate or dse.sweep (no arch, workload, total or layers)")
    end
  end
end

local function check_options(opts)
  if type(opts) ~= "table" then priv.fail("dse.report: expected a table of options, got " .. type(opts)) end
  priv.check_keys(opts, "dse.report", { "path", "title", "intro", "results", "objectives", "columns" })
  if opts.path == nil then priv.fail("dse.report: missing 'path'") end
  if type(opts.path) ~= "string" then priv.fail("dse.report: path: expected a file name, got " .. type(opts.path)) end
  -- the directory of the report and its charts: none is created
  local dir = opts.path:match("^(.*)/[^/]*$")
  if dir then priv.check_dir(dir == "" and "/" or dir) end
  for _, k in ipairs { "title", "intro" } do
    if opts[k] ~= nil and type(opts[k]) ~= "string" then
      priv.fail(string.format("dse.report: %s: expected a string, got %s", k, type(opts[k])))
    end
  end
  if opts.results == nil then priv.fail("dse.report: missing 'results'") end
  local rs = priv.rows(opts.results) -- a results handle's rows, as tables
  check_results(rs)
  priv.check_objectives(rs, opts.objectives or { "latency_s", "energy_j" }, "dse.report")
  if opts.columns ~= nil then check_names(opts.columns, "columns") end
  return rs
end

-- Three significant digits, trailing zeros kept (1.00, 25.0, 0.0591);
-- from 1000 up, whole numbers.
local function sig3(v)
  if math.abs(v) >= 999.5 then return string.format("%.0f", v) end
  return (string.format("%#.3g", v):gsub("%.$", ""))
end

-- v with an SI prefix and three significant digits ("25.0 TOPS"); tick =
-- true: as few digits as needed, for chart axes ("1 TOPS").
local function si(v, unit, tick)
  if v == nil then return "-" end
  if v == 0 then return "0 " .. unit end
  local prefixes = {
    {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""},
    {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"},
  }
  local a = math.abs(v)
  for _, p in ipairs(prefixes) do
    if a >= p[1] then
      return (tick and string.format("%g", v / p[1]) or sig3(v / p[1])) .. " " .. p[2] .. unit
    end
  end
  return sig3(v) .. " " .. unit
end

local function bytes(v)
  local units = {"B", "KiB", "MiB", "GiB", "TiB"}
  local u = 1
  while v >= 1024 and u < #units do v = v / 1024; u = u + 1 end
  if u == 1 then return string.format("%d B", math.floor(v)) end
  return sig3(v) .. " " .. units[u]
end

local function cell(v)
  if type(v) == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    return string.format("%.4g", v)
  elseif type(v) == "table" then
    if v.preset then
      local n = v.stacks or v.devices or v.dimms
      return n and string.format("%d x %s", n, v.preset) or v.preset
    end
    return v.name or v.type or "{...}"
  end
  return tostring(v)
end

local function sorted_point_keys(results)
  local set, keys = {}, {}
  for _, r in ipairs(results) do
    for k in pairs(r.point or {}) do
      if not set[k] then set[k] = true; keys[#keys + 1] = k end
    end
  end
  table.sort(keys)
  return keys
end

-- A workload with its parameters: "gpt2 (decode, seq 1024, batch 8)",
-- "resnet50 (batch 1)".  Results of one title share a report section.
local function workload_title(w)
  local p = {}
  if w.phase then p[#p + 1] = w.phase; p[#p + 1] = "seq " .. w.seq end
  p[#p + 1] = "batch " .. w.batch
  return string.format("%s (%s)", w.name, table.concat(p, ", "))
end

-- dse.workload_title(w): w is a Workload or a result's `workload`.
dse.workload_title = function(w)
  local t = type(w)
  if (t ~= "table" and t ~= "userdata") or type(w.name) ~= "string" or math.type(w.batch) ~= "integer" then
    priv.fail("dse.workload_title: expected a Workload or a result's workload, got " .. type(w))
  end
  return workload_title(w)
end

local function by_workload(results)
  local order, groups = {}, {}
  for _, r in ipairs(results) do
    local w = workload_title(r.workload)
    if not groups[w] then groups[w] = {}; order[#order + 1] = w end
    table.insert(groups[w], r)
  end
  return order, groups
end

-- What the usual objectives measure, for the report's text.
local objective_meaning = {
  latency_s = "latency per batch", energy_j = "energy per batch",
  area_mm2 = "die area", cost_usd = "unit cost", edp_js = "energy x latency",
  throughput_inf_per_s = "throughput", tops_per_w = "TOPS/W", pj_per_mac = "pJ/MAC",
  dram_bytes = "DRAM traffic per batch", power_w = "average power",
  usd_per_inf_per_s = "unit cost per inference/s",
}

local function objective_text(o)
  local n = o:gsub("^[-+]", "")
  local m = objective_meaning[n]
  return (m and (m .. " (`" .. n .. "`)") or ("`" .. n .. "`")) .. (o:sub(1, 1) == "-" and ", maximized" or "")
end

-- An objective's value as dse.pareto looks it up: result.total, result,
-- result.point.
local function objective_value(r, o)
  local n = o:gsub("^[-+]", "")
  for _, t in ipairs { r.total or {}, r, r.point or {} } do
    if type(t[n]) == "number" then return t[n] end
  end
end

-- For each front point, the objectives it is best in among the feasible
-- points rs (ties included): { [r] = "latency_s, area_mm2" }.
local function best_in(rs, front, objectives)
  local best = {}
  for _, o in ipairs(objectives) do
    local sign = o:sub(1, 1) == "-" and -1 or 1
    local b
    for _, r in ipairs(rs) do
      local v = r.feasible ~= false and objective_value(r, o)
      if v and (not b or sign * v < b) then b = sign * v end
    end
    for _, r in ipairs(front) do
      if b and sign * objective_value(r, o) == b then
        best[r] = (best[r] and best[r] .. ", " or "") .. o:gsub("^[-+]", "")
      end
    end
  end
  return best
end

-- How rows name their design point.  Results of one base arch with grid
-- points are told apart by their swept values alone (the base arch is
-- named once, above), so that no row names, say, `npu-hbm2e` when its
-- `dram` column says GDDR6; several base archs get a "base arch" column,
-- results without a point an "arch" column.
local function naming(results)
  local names, n, swept = {}, 0, false
  for _, r in ipairs(results) do
    if not names[r.arch.name] then names[r.arch.name] = true; n = n + 1 end
    if r.point and next(r.point) then swept = true end
  end
  if not swept then return { column = "arch" } end
  if n == 1 then return { base = results[1].arch.name } end
  return { column = "base arch" }
end

-- A design point in prose: "`npu-hbm2e` with `dram` = 8 x gddr6-16000, ..."
-- (code = false: without the backticks, for SVG text).
local function design_label(r, pkeys, code)
  local q = code == false and "" or "`"
  local parts = {}
  for _, k in ipairs(pkeys) do
    if r.point and r.point[k] ~= nil then
      parts[#parts + 1] = q .. k .. q .. " = " .. cell(r.point[k])
    end
  end
  local s = q .. r.arch.name .. q
  if #parts > 0 then s = s .. " with " .. table.concat(parts, ", ") end
  return s
end

-- The design columns of a table row, and of its header.
local function design_cells(r, keys, nm)
  local cells = {}
  if nm.column then cells[1] = r.arch.name end
  for _, k in ipairs(keys) do cells[#cells + 1] = cell(r.point and r.point[k]) end
  return cells
end

local function design_headers(keys, nm)
  local h = {}
  if nm.column then h[1] = nm.column end
  for _, k in ipairs(keys) do h[#h + 1] = "`" .. k .. "`" end
  return h
end

-- A table's header and separator lines; h is a list of header cells.
local function header_lines(out, h)
  out[#out + 1] = "| " .. table.concat(h, " | ") .. " |"
  out[#out + 1] = "|" .. string.rep(" --- |", #h)
end

-- The legend under a table: "- *header*: meaning" for each column.
local function legend(out, items)
  out[#out + 1] = ""
  for _, it in ipairs(items) do out[#out + 1] = "- *" .. it[1] .. "*: " .. it[2] end
end

-- An energy-derived cell of a result whose energy leaves leakage and clock
-- out (no technology.node): marked, as it reads lower than a full figure
-- and does not compare with one.
local DYNAMIC = " (dynamic only)"
local function energy_cell(t, s)
  return t.static_modelled == false and s .. DYNAMIC or s
end

-- The legend item for the marker, when a row of the table (shown) is
-- marked; when the feasible points rs mix both kinds, it says that no
-- energy objective ranks them (dse.pareto and dse.report refuse one).
local function dynamic_legend(items, shown, rs, what)
  local without, with = false, false
  for _, r in ipairs(shown) do without = without or r.total.static_modelled == false end
  if not without then return end
  for _, r in ipairs(rs) do with = with or (r.feasible ~= false and r.total.static_modelled == true) end
  items[#items + 1] = { DYNAMIC:sub(2), what .. ", for an arch that names no technology node: leakage and clock are not " ..
    "modelled and left out, so the figure reads lower than a full one and does not compare with it" ..
    (with and "; as this workload's points mix both kinds, no energy objective (`energy_j`, `pj_per_mac`, " ..
      "`tops_per_w`, `power_w`, `edp_js`) can rank them: dse.report refuses one, as dse.pareto does, and " ..
      "the front is not taken on energy." or ".") }
end

-- The Pareto-front table: its columns after the design ones, each with
-- its meaning for the legend.
local front_columns = {
  { "best in", "the objectives in which the point is the best of all the workload's feasible points; `-`: none, it is on the front as a trade-off." },
  { "latency per batch", "the time to run one batch, layer after layer." },
  { "throughput", "inferences per second, batch / latency (an inference is one sample of the batch; in a decode phase, one new token of one sequence)." },
  { "achieved", "operations per second, ops (2 per MAC) / latency." },
  { "PE util", "PE-array utilization, MACs / (cycles x PEs)." },
  { "energy per batch", "all of it: MACs, PE registers, on-chip network, SRAM, DRAM, vector unit, leakage, clock." },
  { "pJ/MAC", "energy per batch / MACs, everything included." },
  { "DRAM traffic", "bytes read and written per batch." },
  { "compute/memory-bound MAC layers", "how many MAC layers (conv, gemm, matmul) lie right / left of the ridge, as in the roofline table's *bound*; vector layers, against their own ridge, are not counted." },
  { "TOPS/W", "ops / energy, in 10^12 per joule." },
  { "die area mm^2", "the die: PE array, buffers, vector unit, DRAM PHYs and controllers, the rest of the logic (docs/cost.md); `not modelled`: the arch names no technology node." },
  { "unit cost", "good die + memory + package + NRE share, per unit (docs/cost.md); `not modelled`: the arch names no technology node, or its memory has no price (a plain DRAM channel)." },
}

local function design_row(out, r, keys, nm, best)
  local t = r.total
  local cells = design_cells(r, keys, nm)
  cells[#cells + 1] = best or "-"
  for _, c in ipairs({
    si(t.latency_s, "s"), si(t.throughput_inf_per_s, "inf/s"),
    si(t.achieved_ops_per_s, "OPS"), string.format("%.1f%%", 100 * t.utilization),
    energy_cell(t, si(t.energy_j, "J")), energy_cell(t, sig3(t.pj_per_mac)), bytes(t.dram_bytes),
    string.format("%d/%d", t.mac_compute_bound_layers, t.mac_memory_bound_layers),
    energy_cell(t, sig3(t.tops_per_w or 0)),
    t.area_mm2 and string.format("%.1f", t.area_mm2) or "not modelled",
    t.cost_usd and string.format("$%.0f", t.cost_usd) or "not modelled",
  }) do cells[#cells + 1] = c end
  out[#out + 1] = "| " .. table.concat(cells, " | ") .. " |"
end

local function design_header(out, keys, nm)
  local h = design_headers(keys, nm)
  for _, c in ipairs(front_columns) do h[#h + 1] = c[1] end
  header_lines(out, h)
end

-- What the design columns mean, first in every legend.
local function design_legend(keys, nm)
  local items = {}
  if nm.column == "arch" then
    items[1] = { "arch", "the arch simulated." }
  elseif nm.column then
    items[1] = { "base arch", "the arch the swept keys were applied to; the point's own values are in the columns in `code`." }
  end
  if #keys > 0 then
    local ks, mem = {}, false
    for _, k in ipairs(keys) do
      ks[#ks + 1] = "`" .. k .. "`"
      mem = mem or k:match("^dram") ~= nil
    end
    items[#items + 1] = { table.concat(ks, ", "), "the swept arch keys (docs/arch.md) and the point's values" ..
      (mem and "; `N x PRESET` is N units of a memory preset." or ".") }
  end
  return items
end

local function esc(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }))
end

-- The frame of a log-log chart: the SVG header and title, a grid line
-- and label per decade of [x0, x1] x [y0, y1], the plot box and the x-axis
-- label.  f = {W, H, L, T, R, B, x0, x1, y0, y1, title, xlabel, xfmt, yfmt}
-- (xfmt, yfmt format a tick value).  Returns the output lines and the
-- value-to-pixel maps X and Y.
local function loglog_frame(f)
  local pw, ph = f.W - f.L - f.R, f.H - f.T - f.B
  local function X(v) return f.L + pw * math.log(v / f.x0, 10) / math.log(f.x1 / f.x0, 10) end
  local function Y(v) return f.T + ph * (1 - math.log(v / f.y0, 10) / math.log(f.y1 / f.y0, 10)) end
  local o = {}
  o[#o + 1] = string.format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">', f.W, f.H)
  o[#o + 1] = string.format('<rect width="%d" height="%d" fill="white"/>', f.W, f.H)
  o[#o + 1] = string.format('<text x="%d" y="18" font-size="14">%s</text>', f.L, esc(f.title))
  local d = f.x0
  while d <= f.x1 * 1.0001 do
    o[#o + 1] = string.format('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/><text x="%.1f" y="%d" text-anchor="middle">%s</text>',
      X(d), f.T, X(d), f.T + ph, X(d), f.T + ph + 16, f.xfmt(d))
    d = d * 10
  end
  d = f.y0
  while d <= f.y1 * 1.0001 do
    o[#o + 1] = string.format('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%s</text>',
      f.L, Y(d), f.L + pw, Y(d), f.L - 6, Y(d) + 4, f.yfmt(d))
    d = d * 10
  end
  o[#o + 1] = string.format('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>', f.L, f.T, pw, ph)
  o[#o + 1] = string.format('<text x="%d" y="%d" text-anchor="middle">%s</text>', f.L + pw / 2, f.H - 10, f.xlabel)
  return o, X, Y
end

-- What can set a layer's time (the result's `limiter`, docs/engine.md
-- section 4c), in a fixed order: name, chart colour, chart label, meaning.
local limiters = {
  { "compute", "#1f5fbf", "PE array streaming", "the PE array streaming operands through its PEs" },
  { "array-load", "#c2185b", "loading tiles into the PEs", "loading stationary tiles into the PEs (a weight-stationary array takes one row of weights per cycle)" },
  { "fill-drain", "#00838f", "array fill and drain", "the array's skewed fill and drain" },
  { "dram", "#e08a00", "DRAM bandwidth", "DRAM transfers at the bandwidth the memory achieves for this traffic (below its peak with row misses and refresh, so a `compute`-side layer can wait for DRAM too)" },
  { "sram", "#8a3fbf", "on-chip buffer bandwidth", "on-chip buffer bandwidth" },
  { "vector", "#2a9d4b", "vector unit", "the vector unit" },
  { "latency", "#795548", "DRAM latency", "DRAM latency the double buffer does not hide (tiles shorter than the latency)" },
}

-- The limiter kinds among layers (in the fixed order) for a legend.
local function limiters_of(layers)
  local seen, kinds = {}, {}
  for _, l in ipairs(layers) do seen[l.limiter] = true end
  for _, k in ipairs(limiters) do
    if seen[k[1]] then kinds[#kinds + 1] = k end
  end
  return kinds
end

-- A log-log roofline chart (SVG) of every MAC layer of result r.
local function roofline_svg(r, title)
  local a = r.arch
  local W, H, L, T = 720, 440, 70, 30
  local pts, imin, imax = {}, math.huge, 0
  for _, l in ipairs(r.layers) do
    if l.macs > 0 and l.intensity_ops_per_byte > 0 and l.latency_s > 0 then
      pts[#pts + 1] = l
      imin = math.min(imin, l.intensity_ops_per_byte)
      imax = math.max(imax, l.intensity_ops_per_byte)
    end
  end
  if #pts == 0 then return nil end
  local ridge = a.ridge_ops_per_byte
  local x0 = 10 ^ math.floor(math.log(math.min(imin, ridge) / 2, 10))
  local x1 = 10 ^ math.ceil(math.log(math.max(imax, ridge) * 2, 10))
  local peak = a.peak_ops_per_s
  local y1 = 10 ^ math.ceil(math.log(peak * 1.5, 10))
  local y0 = 10 ^ math.floor(math.log(math.min(peak / 1e4, a.dram_bandwidth_bytes_per_s * x0), 10))
  local o, X, Y = loglog_frame { W = W, H = H, L = L, T = T, R = 40, B = 50,
    x0 = x0, x1 = x1, y0 = y0, y1 = y1, title = title,
    xlabel = "operational intensity (ops per DRAM byte)",
    xfmt = function(d) return string.format("%g", d) end,
    yfmt = function(d) return si(d, "OPS", true) end }
  -- the roof: bandwidth slope up to the ridge, then the compute peak
  local xs = math.max(x0, y0 / a.dram_bandwidth_bytes_per_s)
  o[#o + 1] = string.format('<polyline fill="none" stroke="#c00" stroke-width="2" points="%.1f,%.1f %.1f,%.1f %.1f,%.1f"/>',
    X(xs), Y(a.dram_bandwidth_bytes_per_s * xs), X(ridge), Y(peak), X(x1), Y(peak))
  o[#o + 1] = string.format('<text x="%.1f" y="%.1f" fill="#c00" text-anchor="end">peak %s, ridge %.0f ops/B, DRAM %s</text>',
    X(x1) - 4, Y(peak) - 6, si(peak, "OPS"), ridge, si(a.dram_bandwidth_bytes_per_s, "B/s"))
  local colors = {}
  for _, k in ipairs(limiters) do colors[k[1]] = k[2] end
  for _, l in ipairs(pts) do
    local color = colors[l.limiter] or "#555"
    o[#o + 1] = string.format('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s" fill-opacity="0.75"><title>%s: %.1f ops/B, %s (%s)</title></circle>',
      X(l.intensity_ops_per_byte), Y(math.max(l.achieved_ops_per_s, y0)), color, esc(l.name),
      l.intensity_ops_per_byte, si(l.achieved_ops_per_s, "OPS"), l.limiter)
  end
  for i, k in ipairs(limiters_of(pts)) do
    o[#o + 1] = string.format('<circle cx="%d" cy="%d" r="4" fill="%s"/><text x="%d" y="%d">%s: %s</text>',
      L + 12, T + 16 * i - 2, k[2], L + 20, T + 16 * i + 2, k[1], k[3])
  end
  o[#o + 1] = "</svg>\n"
  return table.concat(o, "\n")
end

-- Energy per inference against unit cost (die area when a point has none):
-- every feasible point grey, the Pareto front in blue.  log-log.  label(r)
-- names a point in its tooltip.  Returns the SVG (nil: no point to plot),
-- the quantity on the x axis ("unit cost" or "die area") and the points
-- left off: { front = {results}, others = count }.
local function tradeoff_svg(rs, front, w, label)
  local xk = "cost_usd"
  local function ok(v) return type(v) == "number" and v > 0 and v < math.huge end
  local function yv(r) return r.total.energy_j / r.workload.batch end
  -- unit cost when every feasible point has one, else die area; points
  -- without the quantity (no node) are left out
  local has_cost = true
  for _, r in ipairs(rs) do
    if r.feasible ~= false and not ok(r.total.cost_usd) then has_cost = false end
  end
  if not has_cost then xk = "area_mm2" end
  local function xv(r) return r.total[xk] end
  local cost = xk == "cost_usd"
  local quantity = cost and "unit cost" or "die area"
  local on = {}
  for _, r in ipairs(front) do on[r] = true end
  local pts, left = {}, { front = {}, others = 0 }
  for _, r in ipairs(rs) do
    if r.feasible ~= false and ok(xv(r)) and ok(yv(r)) then
      pts[#pts + 1] = r
    elseif r.feasible ~= false and on[r] then
      left.front[#left.front + 1] = r
    elseif r.feasible ~= false then
      left.others = left.others + 1
    end
  end
  if #pts == 0 then return nil, quantity, left end
  local xmin, xmax, ymin, ymax = math.huge, 0, math.huge, 0
  for _, r in ipairs(pts) do
    xmin, xmax = math.min(xmin, xv(r)), math.max(xmax, xv(r))
    ymin, ymax = math.min(ymin, yv(r)), math.max(ymax, yv(r))
  end
  local x0, x1 = 10 ^ math.floor(math.log(xmin, 10)), 10 ^ math.ceil(math.log(xmax * 1.0001, 10))
  local y0, y1 = 10 ^ math.floor(math.log(ymin, 10)), 10 ^ math.ceil(math.log(ymax * 1.0001, 10))
  local L, T = 80, 30
  local o, X, Y = loglog_frame { W = 720, H = 400, L = L, T = T, R = 30, B = 50,
    x0 = x0, x1 = x1, y0 = y0, y1 = y1, title = w .. ": energy per inference vs " .. quantity,
    xlabel = cost and "unit cost (good die + memory + package + NRE share)" or "die area (mm^2)",
    xfmt = function(d) return string.format(cost and "$%g" or "%g", d) end,
    yfmt = function(d) return si(d, "J", true) end }
  for _, r in ipairs(pts) do
    if not on[r] then
      o[#o + 1] = string.format('<circle cx="%.1f" cy="%.1f" r="3" fill="#999" fill-opacity="0.5"><title>%s</title></circle>',
        X(xv(r)), Y(yv(r)), esc(label(r)))
    end
  end
  local shown = {}
  for _, r in ipairs(pts) do shown[r] = true end
  for _, r in ipairs(front) do
    if shown[r] then o[#o + 1] = string.format('<circle cx="%.1f" cy="%.1f" r="4.5" fill="#1f5fbf"><title>%s: %s per inference, %s, %s</title></circle>',
      X(xv(r)), Y(yv(r)), esc(label(r)), si(yv(r), "J"), si(r.total.latency_s, "s"),
      cost and string.format("$%.0f", xv(r)) or string.format("%.1f mm^2", xv(r))) end
  end
  o[#o + 1] = string.format('<text x="%d" y="%d" fill="#1f5fbf">Pareto front</text><text x="%d" y="%d" fill="#999">other feasible points</text>',
    L + 10, T + 16, L + 110, T + 16)
  o[#o + 1] = "</svg>\n"
  return table.concat(o, "\n"), quantity, left
end

-- The breakdown table's columns after the design ones, with their
-- meanings; the energy components (`parts`) are one column each.
local e_parts = { "mac", "register", "noc", "sram", "dram", "vector", "static", "clock" }
local breakdown_columns = {
  { "energy per inference", "energy per batch / batch." },
  { table.concat(e_parts, ", "), parts = e_parts, "each component's share of the energy, adding up to 100% (give or take rounding): " ..
    "MACs, PE registers, the on-chip network from the buffers to the PEs, SRAM buffer accesses, " ..
    "DRAM (accesses, I/O, refresh and background), the vector unit, leakage of SRAM and logic, the clock tree (docs/energy.md)." },
  { "weight / input / output", "the energy of moving each operand (its register, network, buffer and DRAM accesses), " ..
    "as % of the energy; the three add up to register + noc + sram + dram less DRAM refresh and background, " ..
    "and the rest of the energy is MACs, vector unit, leakage, clock, refresh and background, which no operand causes." },
  { "die area mm^2: PE / SRAM / vector / PHY+ctrl / other", "the parts of the die area: PE array, SRAM buffers, vector unit, " ..
    "DRAM PHYs and memory controllers, the rest of the logic; they add up to the front table's die area." },
  { "unit cost: die / memory / package / NRE", "the parts of the unit cost: a good die, the DRAM devices or stacks, " ..
    "the package (with a silicon interposer for HBM), the mask set shared by the volume; they add up to the unit cost." },
}

-- Where the energy, the area and the money go, per Pareto point.
local function breakdown_section(out, front, rs, keys, nm)
  local h = design_headers(keys, nm)
  for _, c in ipairs(breakdown_columns) do
    for _, k in ipairs(c.parts or { c[1] }) do h[#h + 1] = k end
  end
  header_lines(out, h)
  for _, r in ipairs(front) do
    local t = r.total
    local eb, eo = t.energy_breakdown_j, t.energy_by_operand_j
    local cells = design_cells(r, keys, nm)
    cells[#cells + 1] = energy_cell(t, si(t.energy_j / r.workload.batch, "J"))
    for _, k in ipairs(e_parts) do -- static and clock: nil without a node
      cells[#cells + 1] = eb[k] and energy_cell(t, string.format("%.0f%%", 100 * eb[k] / t.energy_j)) or "not modelled"
    end
    cells[#cells + 1] = energy_cell(t, string.format("%.0f / %.0f / %.0f%%", 100 * eo.weight / t.energy_j,
      100 * eo.input / t.energy_j, 100 * eo.output / t.energy_j))
    -- parts a result does not model are nil: say so, never 0
    local ab, cb = t.area_breakdown_mm2, t.cost_breakdown_usd
    cells[#cells + 1] = ab.pe and string.format("%.1f / %.1f / %.1f / %s / %.1f", ab.pe, ab.sram,
      ab.vector, ab.phy and string.format("%.1f", ab.phy + ab.controller) or "not modelled",
      ab.other) or "not modelled"
    cells[#cells + 1] = cb.die and string.format("$%.0f / %s / $%.0f / $%.0f", cb.die,
      cb.memory and string.format("$%.0f", cb.memory) or "not modelled", cb.package, cb.nre)
      or "not modelled"
    out[#out + 1] = "| " .. table.concat(cells, " | ") .. " |"
  end
  local items = design_legend(keys, nm)
  for _, c in ipairs(breakdown_columns) do items[#items + 1] = c end
  dynamic_legend(items, front, rs, "energy per inference and its shares")
  legend(out, items)
end

-- x with enough decimals to tell it from y as printed (one at least).
local function decimals_apart(x, y)
  for d = 1, 6 do
    local f = "%." .. d .. "f"
    if string.format(f, x) ~= string.format(f, y) then return string.format(f, x) end
  end
  return string.format("%.1f", x)
end

-- The roofline table of result r: every MAC layer, its side of the ridge
-- and what set its time, with a legend of the columns.
local function roofline_section(out, r, pkeys)
  local a = r.arch
  local ridge = a.ridge_ops_per_byte
  out[#out + 1] = string.format(
    "Design %s: %dx%d %s %s at %s, peak %s, DRAM %s%s, ridge point %.1f ops/B.",
    design_label(r, pkeys), a.pe_rows, a.pe_cols, a.dataflow, a.precision, si(a.clock_hz, "Hz"),
    si(a.peak_ops_per_s, "OPS"), si(a.dram_bandwidth_bytes_per_s, "B/s"),
    a.dram_type ~= "" and " (" .. a.dram_type .. ")" or "", ridge)
  out[#out + 1] = ""
  out[#out + 1] = "| layer | type | MACs | intensity (ops/B) | bound (side of ridge) | achieved | roofline | % of roof | limiter | latency |"
  out[#out + 1] = "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | --- | ---: |"
  local macs = {}
  for _, l in ipairs(r.layers) do
    if l.macs > 0 then
      macs[#macs + 1] = l
      out[#out + 1] = string.format("| %s | %s | %d | %s | %s | %s | %s | %.0f%% | %s | %s |",
        l.name, l.type, l.macs,
        l.dram_bytes > 0 and decimals_apart(l.intensity_ops_per_byte, ridge) or "-",
        l.bound == "memory" and "memory (left)" or "compute (right)",
        si(l.achieved_ops_per_s, "OPS"), si(l.roofline_ops_per_s, "OPS"),
        100 * l.achieved_ops_per_s / l.roofline_ops_per_s, l.limiter, si(l.latency_s, "s"))
    end
  end
  out[#out + 1] = ""
  out[#out + 1] = string.format(
    "*layer*, *type*: as in `dse show workload`; *MACs*: its multiply-accumulates, batch included; " ..
    "*latency*: its time. " ..
    "*intensity*: ops per byte of DRAM traffic the layer moves (`-`: none). " ..
    "*bound*: its side of the ridge (%.1f ops/B), `memory` (left) when those bytes take longer at the peak " ..
    "DRAM bandwidth than its ops at the peak compute rate, `compute` (right) otherwise. " ..
    "*roofline*: the best that side allows, min(peak, peak DRAM bandwidth x intensity); " ..
    "*achieved*: ops / latency, as a share of the roofline in *%% of roof*. " ..
    "*limiter*: what set the latency, the largest cycle term of the layer (docs/engine.md, section 4c), " ..
    "whichever side it is on:", ridge)
  out[#out + 1] = ""
  for _, k in ipairs(limiters_of(macs)) do
    out[#out + 1] = "- `" .. k[1] .. "`: " .. k[4]
  end
  local vec, vec_t, fused = 0, 0, 0
  for _, l in ipairs(r.layers) do
    if l.macs == 0 then vec = vec + 1; vec_t = vec_t + l.latency_s end
    if l.fused then fused = fused + 1 end
  end
  if vec > 0 then
    out[#out + 1] = ""
    out[#out + 1] = string.format("Plus %d vector-unit layers (pool, eltwise, activation, softmax, layernorm) taking %s in all (%.1f%% of the latency)%s.",
      vec, si(vec_t, "s"), 100 * vec_t / r.total.latency_s, fused == 0 and "" or string.format(
      "; %d of them are activations fused with the layer before, run on its output stream, " ..
      "whose latency is only the time they add to it (0 s when none; docs/model.md, section 4)", fused))
  end
end

return function(opts)
  if type(opts) == "table" and opts.out ~= nil then return priv.html(opts) end
  local results = check_options(opts)
  local path = opts.path
  local objectives = opts.objectives or {"latency_s", "energy_j"}
  local out = {}
  out[#out + 1] = "# " .. (opts.title or "dse design-space report")
  out[#out + 1] = ""
  if opts.intro then
    out[#out + 1] = opts.intro
    out[#out + 1] = ""
  end
  local feasible = 0
  for _, r in ipairs(results) do if r.feasible ~= false then feasible = feasible + 1 end end
  local fid = results[1] and results[1].fidelity or "cycle"
  local model = fid == "analytic" and "level 1, the analytic roofline model, docs/model.md"
    or "level 2, mapped loop nests with exact accesses and systolic timing, docs/engine.md"
  local keys = opts.columns or sorted_point_keys(results)
  -- a point in prose: the shown columns first, then any other swept key
  local pkeys, shown = {}, {}
  for _, k in ipairs(keys) do pkeys[#pkeys + 1] = k; shown[k] = true end
  for _, k in ipairs(sorted_point_keys(results)) do
    if not shown[k] then pkeys[#pkeys + 1] = k end
  end
  local nm = naming(results)
  local order, groups = by_workload(results)
  local objs = {}
  for _, o in ipairs(objectives) do objs[#objs + 1] = objective_text(o) end
  out[#out + 1] = string.format(
    "Generated by dse %s (%s): %d results (design point x workload), %d feasible.",
    dse.version, model, #results, feasible)
  out[#out + 1] = ""
  out[#out + 1] = string.format(
    "Pareto objectives (minimized unless marked): %s.  A point is on its workload's front when no other " ..
    "point of that workload is at least as good in every objective and better in one; fronts are sorted by latency.",
    table.concat(objs, "; "))
  if nm.base then
    out[#out + 1] = ""
    out[#out + 1] = string.format(
      "Every design point is `%s` with the swept keys set to the values in the columns in `code` " ..
      "(its memory is its own, not the one `%s` names); tables name each point by those values.",
      nm.base, nm.base)
  end
  local function label(r) return design_label(r, pkeys, false) end
  for _, w in ipairs(order) do
    local rs = groups[w]
    out[#out + 1] = ""
    out[#out + 1] = "## " .. w
    local front = dse.pareto(rs, objectives)
    local index = {}
    for i, r in ipairs(front) do index[r] = i end
    table.sort(front, function(x, y)
      local a, b = x.total, y.total
      if a.latency_s ~= b.latency_s then return a.latency_s < b.latency_s end
      -- energies compare only on one basis: with leakage and clock first
      if a.static_modelled ~= b.static_modelled then return a.static_modelled == true end
      if a.energy_j ~= b.energy_j then return a.energy_j < b.energy_j end
      return index[x] < index[y]
    end)
    local nfeas = 0
    for _, r in ipairs(rs) do if r.feasible ~= false then nfeas = nfeas + 1 end end
    out[#out + 1] = ""
    out[#out + 1] = string.format("### Pareto front (%d of %d design points, %d feasible)", #front, #rs, nfeas)
    out[#out + 1] = ""
    design_header(out, keys, nm)
    local best = best_in(rs, front, objectives)
    for _, r in ipairs(front) do design_row(out, r, keys, nm, best[r]) end
    local items = design_legend(keys, nm)
    for _, c in ipairs(front_columns) do items[#items + 1] = c end
    dynamic_legend(items, front, rs, "energy, pJ/MAC and TOPS/W")
    legend(out, items)
    local infeasible = {}
    for _, r in ipairs(rs) do
      if r.feasible == false then infeasible[#infeasible + 1] = r end
    end
    if #infeasible > 0 then
      out[#out + 1] = ""
      out[#out + 1] = "Infeasible points:"
      out[#out + 1] = ""
      for _, r in ipairs(infeasible) do
        out[#out + 1] = "- " .. design_label(r, pkeys) .. ": " .. r.reason
      end
    end
    local dir = path:match("^(.-)[^/]*$")
    local slug = w:gsub("[^%w]+", "-"):gsub("%-$", "")
    if #front > 0 then
      out[#out + 1] = ""
      out[#out + 1] = "### Energy, area and cost (Pareto points; docs/energy.md, docs/cost.md)"
      out[#out + 1] = ""
      local tsvg, quantity, left = tradeoff_svg(rs, front, w, label)
      if tsvg then
        local name = "tradeoff-" .. slug .. ".svg"
        priv.write(dir .. name, tsvg)
        out[#out + 1] = "![energy per inference vs " .. quantity .. " of " .. w .. "](" .. name .. ")"
        out[#out + 1] = ""
      end
      -- what the chart leaves out, and why
      if #left.front > 0 or left.others > 0 then
        local names = {}
        for _, r in ipairs(left.front) do names[#names + 1] = design_label(r, pkeys) end
        local parts = {}
        if #names > 0 then
          parts[1] = string.format("%d Pareto point%s (%s)", #names, #names == 1 and "" or "s", table.concat(names, "; "))
        end
        if left.others > 0 then
          parts[#parts + 1] = string.format("%d other feasible point%s", left.others, left.others == 1 and "" or "s")
        end
        local why = string.format("no %s (the arch names no technology node%s)", quantity,
          quantity == "unit cost" and ", or its memory has no price" or "")
        out[#out + 1] = tsvg and string.format("Not plotted, having %s: %s.", why, table.concat(parts, " and "))
          or string.format("No energy-%s chart: no point has a %s.", quantity, why:sub(4))
        out[#out + 1] = ""
      end
      breakdown_section(out, front, rs, keys, nm)
      out[#out + 1] = ""
      out[#out + 1] = "### Roofline position of each layer (fastest Pareto point)"
      out[#out + 1] = ""
      local a = front[1].arch
      local svg = roofline_svg(front[1], string.format("%s on %dx%d PEs%s", w, a.pe_rows, a.pe_cols,
        a.dram_type ~= "" and ", " .. a.dram_type or ""))
      if svg then
        local name = "roofline-" .. slug .. ".svg"
        priv.write(dir .. name, svg)
        out[#out + 1] = "![roofline of " .. w .. "](" .. name .. ")"
        out[#out + 1] = ""
      end
      roofline_section(out, front[1], pkeys)
    end
  end
  out[#out + 1] = ""
  priv.write(path, table.concat(out, "\n"))
  return path
end
