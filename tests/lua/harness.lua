-- harness.lua: minimal test helpers for the Lua API tests.
local H = { passed = 0, failed = 0 }

function H.check(cond, what)
  if cond then H.passed = H.passed + 1
  else H.failed = H.failed + 1; io.stderr:write("FAIL: ", what, "\n") end
end

function H.eq(a, b, what)
  H.check(a == b, string.format("%s: got %s, want %s", what, tostring(a), tostring(b)))
end

function H.near(a, b, rel, what)
  H.check(math.abs(a - b) <= rel * math.abs(b),
    string.format("%s: got %.17g, want %.17g (rel %g)", what, a, b, rel))
end

-- expect_error(fn, substring, what): fn must raise an error containing it
function H.raises(fn, sub, what)
  local ok, err = pcall(fn)
  if ok then H.check(false, what .. ": no error raised"); return end
  err = tostring(err)
  H.check(err:find(sub, 1, true) ~= nil,
    string.format("%s: error '%s' lacks '%s'", what, err, sub))
end

-- H.fails(fn, msg, what): fn must raise exactly msg located at the line fn
-- is defined on, as the dse module reports errors: "SCRIPT:LINE:1: error:
-- msg" (so write the call on the line of `function()`)
function H.fails(fn, msg, what)
  local ok, err = pcall(fn)
  if ok then H.check(false, what .. ": no error raised"); return end
  H.eq(tostring(err), string.format("%s:%d:1: error: %s", arg[0],
    debug.getinfo(fn, "S").linedefined, msg), what)
end

function H.tmpname(suffix)
  return os.tmpname() .. (suffix or "")
end

function H.read(path)
  local f = assert(io.open(path, "r"))
  local s = f:read("a")
  f:close()
  return s
end

function H.finish()
  print(string.format("%d passed, %d failed", H.passed, H.failed))
  if H.failed > 0 then os.exit(1) end
end

return H
