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
      local peak_s, ridge_s = body:match("\nDesign `[^`]+`: [^\n]-, peak ([^,]+), DRAM [^,]+, ridge point (%S+) ops/B%.\n")
      H.check(peak_s ~= nil, where .. ": design line")
      local ridge = tonumber(ridge_s)
      local tbl = body:match("\n| layer | type | MACs | intensity [^\n]*\n[^\n]*\n(.-\n)\n") or ""
      local legend = body:match("\n%*intensity%*: [^\n]*\n\n(.-)\n\n") or
                     body:match("\n%*intensity%*: [^\n]*\n\n(.*)$") or ""
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
os.remove(dir)
H.check(rows > 5000, "rows checked: " .. rows)
for _, k in ipairs { "compute", "array-load", "fill-drain", "dram", "sram" } do
  H.check(kinds_seen[k], "some row is limited by " .. k)
end
print(rows .. " roofline rows checked")
H.finish()
