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
