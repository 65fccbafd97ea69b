-- doctest.lua: run the commands that README.md and docs/*.md show, and check
-- that they print what the docs say they print.
--
--   build/dse run tests/docs/doctest.lua [--update] [--dse PATH] [--root DIR] [FILE.md ...]
--
-- Without FILE arguments it checks README.md and every docs/*.md under the
-- root (default: two directories above this script).  The binary under test
-- is --dse (default ROOT/build/dse).  Exit status: 0 when every check passes,
-- 1 when one fails, 2 on a usage error.  --update rewrites the shown outputs
-- (and the blocks that show a file) in place from what the commands print
-- now, keeping every line that still matches; review the diff with git.
-- `make test` runs it once per page (ctest doc.README.md, doc.docs.lua.md,
-- ...) and tests the runner itself on tests/docs/fixtures/ (doc.selftest).
--
-- Writing docs that this runner checks
-- ------------------------------------
-- * A session is a code block (indented by four spaces, or fenced) whose
--   first line starts with "$ ".  Every "$ " line in it is a command (a
--   line ending in "\" continues it on the next line); the lines up to the
--   next command are what it prints, stdout and stderr together.  Blank
--   lines that end a command's output only separate it from the next one.
-- * Each command runs under bash (with pipefail) in a scratch copy of the
--   repository root: a temporary directory holding symbolic links to the
--   root's entries, except build*, out and .git, and build/dse, a link to
--   the binary under test.  So "build/dse", "arch/*.yaml" and
--   "examples/x.lua" mean what they mean at the root, and files a command
--   writes (out/, -o FILE) land in the scratch directory, which lives for
--   one Markdown file: later commands of the same file see them.
--   (A file written into a linked directory, examples/x say, would land in
--   the repository; one written at the top level would be untracked in a
--   clone, and is an error: write under out/.)  Each command
--   is its own bash process (shell variables and cd do not carry over),
--   with DSE_DATA_DIR set to the root, LC_ALL=C, stdin /dev/null and a
--   limit of 300 s.
-- * A command must exit 0, or the status a directive gives (below).
-- * Its output must equal the shown lines, line by line, except:
--     - trailing blanks on a line, and blank lines at the end of the
--       output, are ignored (Markdown cannot show them);
--     - a line "..." stands for any number of lines (zero or more).  Lines
--       before the first "..." must be the first lines of the output, lines
--       after the last "..." its last lines, and each group between two
--       "..." must appear, in order, as consecutive lines in between;
--     - a line ending in " ..." matches any line that starts with the text
--       before it, followed by a space or by nothing;
--     - text that a "vary" directive names (below) matches whatever the
--       command prints there.
--   A command shown with no output lines must print nothing.
-- * Directives are HTML comments, invisible when rendered, each alone on a
--   line right before the code block they apply to (blank lines may
--   separate them; anything else is an error):
--     <!-- doctest: exit N -->        every command of the block must exit N
--     <!-- doctest: vary PATTERN -->  text matching the Lua pattern PATTERN
--                                     may differ (timings: "in %d+%.%d+ s")
--     <!-- doctest: file PATH -->     the fenced block is the whole file
--                                     PATH (relative to the root)
--     <!-- doctest: lua -->           the fenced block is a Lua script: it
--                                     is run with `build/dse run --quiet`
--                                     (no progress or sweep summary lines),
--                                     the module as the global `dse`, and
--                                     must exit 0 and print the text of its
--                                     "--> " comment lines, in order
--     <!-- doctest: skip -->          the block is not checked (a synopsis,
--                                     a template)
-- * A code block that is none of these but has a line starting with
--   "dse " or "build/dse " is an error: a command the docs show must be
--   checked (write it as "$ build/dse ...") or marked skip.
--
-- --update: a command's output block is rewritten from what it printed.
-- Lines before the first "..." are replaced one for one by the first lines
-- of the output.  A group between two "..." is found again by its first
-- line (the output line with the same first word that shares the longest
-- prefix with it) and replaced by as many lines from there.  The lines
-- after the last "..." are replaced by the output from the line found
-- again for the first of them (among the last lines) to the end, so lines
-- printed after them join them.  A " ..." line keeps as many words as
-- before; a line that still matches is kept as it is.  Without "...", the
-- whole output replaces the shown one.
local USAGE = "usage: build/dse run tests/docs/doctest.lua [--update] [--dse PATH] [--root DIR] [FILE.md ...]"

-- Command line -------------------------------------------------------------

local function shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

local function capture(cmd)
  local p = assert(io.popen(cmd, "r"))
  local out = p:read("a")
  p:close()
  return out
end

local function absolute(path)
  if path:sub(1, 1) == "/" then return path end
  return (capture("pwd"):gsub("\n$", "")) .. "/" .. path
end

local opts = { update = false, files = {} }
do
  local i = 1
  while i <= #arg do
    local a = arg[i]
    if a == "--update" then
      opts.update = true
    elseif a == "--dse" or a == "--root" then
      if not arg[i + 1] then
        io.stderr:write("doctest: error: " .. a .. " needs a value\n" .. USAGE .. "\n")
        os.exit(2)
      end
      opts[a:sub(3)] = arg[i + 1]
      i = i + 1
    elseif a == "--help" or a == "-h" then
      print(USAGE)
      os.exit(0)
    elseif a:sub(1, 1) == "-" then
      io.stderr:write("doctest: error: unknown option '" .. a .. "'\n" .. USAGE .. "\n")
      os.exit(2)
    else
      opts.files[#opts.files + 1] = a
    end
    i = i + 1
  end
  if not opts.root then
    local dir = arg[0]:match("^(.*)/[^/]*$") or "."
    opts.root = absolute(dir) .. "/../.."
  end
  opts.root = (capture("cd " .. shell_quote(opts.root) .. " && pwd"):gsub("\n$", ""))
  opts.dse = absolute(opts.dse or (opts.root .. "/build/dse"))
  if #opts.files == 0 then
    opts.files[1] = "README.md"
    local list = capture("cd " .. shell_quote(opts.root) .. " && ls docs/*.md")
    for f in list:gmatch("[^\n]+") do opts.files[#opts.files + 1] = f end
  end
end

-- Files --------------------------------------------------------------------

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local function write_file(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

local function split_lines(s)
  local t = {}
  for line in (s .. "\n"):gmatch("(.-)\n") do t[#t + 1] = line end
  if s:sub(-1) == "\n" then t[#t] = nil end
  return t
end

local function rstrip(s)
  return (s:gsub("%s+$", ""))
end

-- Markdown: code blocks and the directives before them ---------------------

local function is_blank(s) return s:match("^%s*$") ~= nil end

local function indent_of(s)
  local n = 0
  for c in s:gmatch(".") do
    if c == " " then n = n + 1 elseif c == "\t" then n = n + 4 - n % 4 else break end
  end
  return n
end

-- Strip four columns of indentation.
local function dedent4(s)
  if s:sub(1, 1) == "\t" then return s:sub(2) end
  local n = 0
  while n < 4 and s:sub(n + 1, n + 1) == " " do n = n + 1 end
  if n < 4 and s:sub(n + 1, n + 1) == "\t" then return s:sub(n + 2) end
  return s:sub(n + 1)
end

-- Returns a list of blocks:
--   { kind = "indented" | "fenced", info = "lua" (fenced), fence_indent,
--     first, last = the content's line numbers (last < first when empty),
--     lines = the content, de-indented, directives = { {word, arg, line} } }
-- and a list of errors { line, message }.
local function parse(text)
  local src = split_lines(text)
  local blocks, errors, pending = {}, {}, {}
  local i, prev_blank = 1, true
  local function take_directives(b)
    b.directives = pending
    pending = {}
    blocks[#blocks + 1] = b
  end
  while i <= #src do
    local line = src[i]
    local fence_ws, fence, info = line:match("^( ? ? ?)(```+)%s*(.-)%s*$")
    if not fence then fence_ws, fence, info = line:match("^( ? ? ?)(~~~+)%s*(.-)%s*$") end
    local directive = line:match("^ ? ? ?<!%-%-%s*doctest:%s*(.-)%s*%-%->%s*$")
    if not directive and line:match("^ ? ? ?<!%-%-%s*doctest") then
      errors[#errors + 1] = { i, "malformed doctest directive: write <!-- doctest: WORD [ARG] -->" }
    end
    if directive then
      local word, rest = directive:match("^(%S+)%s*(.-)$")
      pending[#pending + 1] = { word = word or "", arg = rest or "", line = i }
      prev_blank = true
      i = i + 1
    elseif fence then
      local b = { kind = "fenced", info = info:match("^(%S*)"), pad = fence_ws, first = i + 1, lines = {} }
      local j = i + 1
      while j <= #src do
        local l = src[j]
        local close = l:match("^ ? ? ?(" .. fence:sub(1, 1):gsub("%p", "%%%0") .. "+)%s*$")
        if close and #close >= #fence then break end
        local k = 0
        while k < #fence_ws and l:sub(k + 1, k + 1) == " " do k = k + 1 end
        b.lines[#b.lines + 1] = l:sub(k + 1)
        j = j + 1
      end
      b.last = j - 1
      take_directives(b)
      i = j + 1
      prev_blank = false
    elseif prev_blank and not is_blank(line) and indent_of(line) >= 4 then
      local b = { kind = "indented", first = i, lines = {} }
      local j, last = i, i
      while j <= #src do
        local l = src[j]
        if is_blank(l) then
          j = j + 1
        elseif indent_of(l) >= 4 then
          last = j
          j = j + 1
        else
          break
        end
      end
      for k = i, last do b.lines[#b.lines + 1] = is_blank(src[k]) and "" or dedent4(src[k]) end
      b.last = last
      take_directives(b)
      i = last + 1
      prev_blank = false
    else
      if not is_blank(line) and #pending > 0 then
        errors[#errors + 1] = { pending[1].line, "doctest directive not followed by a code block" }
        pending = {}
      end
      prev_blank = is_blank(line)
      i = i + 1
    end
  end
  if #pending > 0 then
    errors[#errors + 1] = { pending[1].line, "doctest directive not followed by a code block" }
  end
  return src, blocks, errors
end

-- Running commands ---------------------------------------------------------

local function make_sandbox()
  local dir = (capture("mktemp -d \"${TMPDIR:-/tmp}/dse-doctest.XXXXXX\""):gsub("\n$", ""))
  assert(dir ~= "", "mktemp -d failed")
  local entries = capture("ls -A " .. shell_quote(opts.root))
  for name in entries:gmatch("[^\n]+") do
    if name ~= ".git" and name ~= "out" and not name:match("^build") then
      assert(os.execute("ln -s " .. shell_quote(opts.root .. "/" .. name) .. " "
        .. shell_quote(dir .. "/" .. name)))
    end
  end
  assert(os.execute("mkdir " .. shell_quote(dir .. "/build") .. " " .. shell_quote(dir .. "/.doctest")
    .. " && ln -s " .. shell_quote(opts.dse) .. " " .. shell_quote(dir .. "/build/dse")))
  -- Lua blocks run with the module as the global `dse`, as a script gets it
  -- from `local dse = require "dse"`.
  write_file(dir .. "/.doctest/with_dse.lua", "dse = require \"dse\"\ndofile(arg[1])\n")
  return dir
end

local COMMAND_TIMEOUT = 300 -- seconds; `timeout` then exits 124

-- Runs a bash command in the sandbox; returns its output lines (trailing
-- blanks and blank lines at the end removed) and its exit status.
local function run(sandbox, command)
  local script = sandbox .. "/.doctest/cmd.sh"
  local out = sandbox .. "/.doctest/out.txt"
  write_file(script, "set -o pipefail\nexport LC_ALL=C DSE_DATA_DIR=" .. shell_quote(opts.root)
    .. "\n" .. command .. "\n")
  local ok, how, code = os.execute("cd " .. shell_quote(sandbox) .. " && timeout " .. COMMAND_TIMEOUT .. " bash .doctest/cmd.sh < /dev/null > "
    .. shell_quote(out) .. " 2>&1")
  if how == "signal" then code = 128 + code end
  if ok then code = 0 end
  local lines = split_lines(read_file(out) or "")
  for k, l in ipairs(lines) do lines[k] = rstrip(l) end
  while #lines > 0 and lines[#lines] == "" do lines[#lines] = nil end
  return lines, code
end

-- Comparing ----------------------------------------------------------------

local function masked(s, vary)
  for _, p in ipairs(vary) do s = s:gsub(p, "\1") end
  return s
end

local function prefix_of(shown)
  local p = shown:match("^(.-) %.%.%.$")
  if p and p ~= "" then return p end
  return nil
end

local function line_matches(shown, actual, vary)
  local s, a = masked(shown, vary), masked(actual, vary)
  if s == a then return true end
  local p = prefix_of(s)
  return p ~= nil and (a == p or a:sub(1, #p + 1) == p .. " ")
end

local function is_ellipsis(s) return rstrip(s) == "..." end

-- Splits shown lines at "..." lines: groups of { lines, at = index of the
-- first line in shown }.
local function groups_of(shown)
  local groups, cur = {}, { lines = {}, at = 1 }
  for k, l in ipairs(shown) do
    if is_ellipsis(l) then
      groups[#groups + 1] = cur
      cur = { lines = {}, at = k + 1 }
    else
      cur.lines[#cur.lines + 1] = rstrip(l)
    end
  end
  groups[#groups + 1] = cur
  return groups
end

local function group_at(g, actual, pos, vary)
  for k, l in ipairs(g.lines) do
    if not actual[pos + k - 1] or not line_matches(l, actual[pos + k - 1], vary) then return false, k end
  end
  return true
end

-- Returns nil when the output matches, else a message (with the index in
-- shown of the first line that does not).
local function compare(shown, actual, vary)
  local groups = groups_of(shown)
  local function mismatch(g, k, apos)
    local want = g.lines[k]
    local got = actual[apos] and ("'" .. actual[apos] .. "'") or "no line"
    return string.format("output line %d: expected '%s', got %s", apos, want, got), g.at + k - 1
  end
  if #groups == 1 then
    local g = groups[1]
    for k = 1, math.max(#g.lines, #actual) do
      if not g.lines[k] then
        return string.format("output line %d: unexpected '%s' (%d lines shown, %d printed)",
          k, actual[k], #g.lines, #actual), #shown
      end
      if not actual[k] or not line_matches(g.lines[k], actual[k], vary) then return mismatch(g, k, k) end
    end
    return nil
  end
  local head, tail = groups[1], groups[#groups]
  if #head.lines + #tail.lines > #actual then
    return string.format("%d lines printed; the doc shows at least %d", #actual, #head.lines + #tail.lines), 1
  end
  local ok, k = group_at(head, actual, 1, vary)
  if not ok then return mismatch(head, k, k) end
  local tail_pos = #actual - #tail.lines + 1
  ok, k = group_at(tail, actual, tail_pos, vary)
  if not ok then return mismatch(tail, k, tail_pos + k - 1) end
  local pos = #head.lines + 1
  for gi = 2, #groups - 1 do
    local g, found = groups[gi], nil
    for p = pos, tail_pos - #g.lines do
      if group_at(g, actual, p, vary) then found = p break end
    end
    if not found then
      return string.format("lines from '%s' (%d lines) not found in order in the output",
        g.lines[1] or "", #g.lines), g.at
    end
    pos = found + #g.lines
  end
  return nil
end

-- --update: what the shown lines become, given the actual output.
local function first_word(s) return s:match("^%s*(%S+)") end

local function common_prefix(a, b)
  local n = 0
  while n < #a and n < #b and a:byte(n + 1) == b:byte(n + 1) do n = n + 1 end
  return n
end

local function render(shown, actual, vary)
  if shown == nil then return actual end
  if actual == nil then return nil end
  if line_matches(shown, actual, vary) then return shown end
  local p = prefix_of(shown)
  if p then
    local words, n = 0, nil
    for _ in p:gmatch("%S+") do words = words + 1 end
    local count = 0
    for e in actual:gmatch("%S+()") do
      count = count + 1
      if count == words then n = e break end
    end
    if n and n <= #actual then return actual:sub(1, n - 1) .. " ..." end
  end
  return actual
end

-- The index in actual[from..to] of the line that stands for `line`: the same
-- first word and the longest shared prefix (the first such line on a tie).
local function find_line(line, actual, from, to)
  local key, found, best = line and first_word(line), nil, -1
  for p = math.max(from, 1), math.min(to, #actual) do
    if key and first_word(actual[p]) == key then
      local n = common_prefix(line, actual[p])
      if n > best then found, best = p, n end
    end
  end
  return found
end

local function updated(shown, actual, vary)
  local groups = groups_of(shown)
  local out, notes = {}, {}
  -- "..." covers the blank lines that would end the group before it
  local function ellipsis()
    while #out > 0 and out[#out] == "" do out[#out] = nil end
    out[#out + 1] = "..."
  end
  local function emit(g, from, count)
    for k = 1, count do
      local l = render(g.lines[k], actual[from + k - 1], vary)
      if l then out[#out + 1] = l end
    end
  end
  if #groups == 1 then
    local g = groups[1]
    for k = 1, #actual do out[#out + 1] = render(g.lines[k], actual[k], vary) end
    return out, notes
  end
  local head, tail = groups[1], groups[#groups]
  emit(head, 1, math.min(#head.lines, #actual))
  -- The tail starts where its first line is found among the last lines (so
  -- lines the command now prints after it join the tail), else positionally.
  local tail_pos = math.max(#actual - #tail.lines + 1, #head.lines + 1)
  if #tail.lines > 0 then
    tail_pos = find_line(tail.lines[1], actual, math.max(#head.lines + 1, tail_pos - 8), #actual) or tail_pos
  end
  local pos = #head.lines + 1
  for gi = 2, #groups - 1 do
    ellipsis()
    local g = groups[gi]
    local found = find_line(g.lines[1], actual, pos, tail_pos - 1)
    if found then
      emit(g, found, math.min(#g.lines, tail_pos - found))
      pos = found + #g.lines
    else
      for _, l in ipairs(g.lines) do out[#out + 1] = l end
      notes[#notes + 1] = "cannot update the lines from '" .. (g.lines[1] or "") .. "': edit them by hand"
    end
  end
  ellipsis()
  emit(tail, tail_pos, #actual - tail_pos + 1)
  return out, notes
end

-- Checking one Markdown file -----------------------------------------------

local stats = { commands = 0, files = 0, scripts = 0, failures = 0 }

local function check_markdown(md)
  local path = md:sub(1, 1) == "/" and md or (opts.root .. "/" .. md)
  local text = read_file(path)
  if not text then
    io.stderr:write("doctest: error: cannot read '" .. md .. "'\n")
    os.exit(2)
  end
  local src, blocks, errors = parse(text)
  local sandbox = make_sandbox()
  local replacements = {} -- { first, last, lines } in file line numbers
  local reports = {} -- failures and notes, printed in line order at the end
  local function note(line, msg)
    reports[#reports + 1] = { line = line, seq = #reports, text = string.format("%s:%d: %s\n", md, line, msg) }
  end
  local function fail(line, msg)
    stats.failures = stats.failures + 1
    note(line, msg)
  end
  for _, e in ipairs(errors) do fail(e[1], e[2]) end
  local function indent_for(b)
    return b.kind == "indented" and "    " or b.pad
  end
  local function block_text(b, lines)
    local t = {}
    for k, l in ipairs(lines) do
      t[k] = (l == "" and "" or indent_for(b) .. l)
    end
    return t
  end

  for bi, b in ipairs(blocks) do
    local d = { exit = 0, vary = {} }
    local bad = false
    for _, dir in ipairs(b.directives) do
      if dir.word == "exit" and dir.arg:match("^%d+$") then
        d.exit = tonumber(dir.arg)
      elseif dir.word == "vary" and dir.arg ~= "" then
        if not pcall(string.find, "", dir.arg) then
          fail(dir.line, "vary: invalid Lua pattern '" .. dir.arg .. "'")
          bad = true
        end
        d.vary[#d.vary + 1] = dir.arg
      elseif dir.word == "file" and dir.arg ~= "" then
        d.file = dir.arg
      elseif (dir.word == "lua" or dir.word == "skip") and dir.arg == "" then
        d[dir.word] = true
      else
        fail(dir.line, "unknown doctest directive '" .. dir.word .. (dir.arg ~= "" and " " .. dir.arg or "")
          .. "' (exit N, vary PATTERN, file PATH, lua, skip)")
        bad = true
      end
    end
    local session = b.lines[1] and b.lines[1]:match("^%$ ") ~= nil
    if bad or d.skip then
      -- nothing to run
    elseif (d.file or d.lua) and b.kind ~= "fenced" then
      fail(b.first, "'file' and 'lua' directives apply to fenced code blocks")
    elseif d.file then
      stats.files = stats.files + 1
      local want = read_file(opts.root .. "/" .. d.file)
      if not want then
        fail(b.first - 1, "cannot read '" .. d.file .. "'")
      else
        local got = table.concat(b.lines, "\n") .. (#b.lines > 0 and "\n" or "")
        if got ~= want then
          local wl = split_lines(want)
          local k = 1
          while b.lines[k] == wl[k] and k <= math.max(#wl, #b.lines) do k = k + 1 end
          if opts.update then
            replacements[#replacements + 1] = { b.first, b.last, wl }
            note(b.first, string.format("updated from %s", d.file))
          else
            fail(b.first + k - 1, string.format("block differs from %s at its line %d: %s, the file has %s",
              d.file, k, b.lines[k] and ("'" .. b.lines[k] .. "'") or "no line",
              wl[k] and ("'" .. wl[k] .. "'") or "no line"))
          end
        end
      end
    elseif d.lua then
      stats.scripts = stats.scripts + 1
      local script = string.format(".doctest/block%d.lua", bi)
      write_file(sandbox .. "/" .. script, table.concat(b.lines, "\n") .. "\n")
      local want, at = {}, {}
      for k, l in ipairs(b.lines) do
        local t = l:match("^%s*%-%-> ?(.*)$")
        if t then want[#want + 1] = rstrip(t) at[#want] = k end
      end
      local actual, status = run(sandbox, "build/dse run --quiet .doctest/with_dse.lua " .. script)
      if status ~= 0 then
        fail(b.first, string.format("Lua block exited %d, expected 0:\n  %s", status,
          table.concat(actual, "\n  ")))
      else
        local msg = compare(want, actual, d.vary)
        if msg and opts.update and #want == #actual then
          local new = {}
          for k, l in ipairs(b.lines) do new[k] = l end
          for k, pos in ipairs(at) do
            new[pos] = new[pos]:gsub("%-%->.*$", function() return "--> " .. actual[k] end)
          end
          replacements[#replacements + 1] = { b.first, b.last, new }
          note(b.first, "updated the --> lines")
        elseif msg then
          fail(b.first, "Lua block: " .. msg .. (opts.update and " (cannot update: the number of lines changed)" or ""))
        end
      end
    elseif session then
      -- Commands and their shown outputs.
      local cmds, k = {}, 1
      while k <= #b.lines do
        local l = b.lines[k]
        local c = l:match("^%$ (.*)$")
        if c then
          local cmd = { line = b.first + k - 1, text = c, shown = {} }
          while cmd.text:match("\\$") and b.lines[k + 1] do
            k = k + 1
            cmd.text = cmd.text .. "\n" .. b.lines[k]
          end
          cmd.out_first = k + 1
          cmds[#cmds + 1] = cmd
        else
          local cur = cmds[#cmds]
          cur.shown[#cur.shown + 1] = l
        end
        k = k + 1
      end
      local new_lines, changed = {}, false
      for _, cmd in ipairs(cmds) do
        stats.commands = stats.commands + 1
        -- blank lines at the end of a shown output separate commands
        local sep = 0
        while #cmd.shown > 0 and rstrip(cmd.shown[#cmd.shown]) == "" do
          cmd.shown[#cmd.shown] = nil
          sep = sep + 1
        end
        local actual, status = run(sandbox, cmd.text)
        local msg, at = compare(cmd.shown, actual, d.vary)
        local label = cmd.text:gsub("\n.*", " ...")
        if status == 124 and d.exit ~= 124 then
          fail(cmd.line, string.format("`%s` timed out after %d s", label, COMMAND_TIMEOUT))
        elseif status ~= d.exit then
          local shown_out = {}
          for i = 1, math.min(#actual, 10) do shown_out[i] = "  | " .. actual[i] end
          if #actual > 10 then shown_out[#shown_out + 1] = "  | ..." end
          fail(cmd.line, string.format("`%s` exited %d, expected %d%s", label, status, d.exit,
            #shown_out > 0 and (":\n" .. table.concat(shown_out, "\n")) or ""))
        end
        for _, l in ipairs(split_lines("$ " .. cmd.text)) do new_lines[#new_lines + 1] = l end
        if msg and opts.update then
          local out, notes = updated(cmd.shown, actual, d.vary)
          for _, l in ipairs(out) do new_lines[#new_lines + 1] = l end
          changed = true
          note(cmd.line, string.format("updated the output of `%s`", label))
          for _, n in ipairs(notes) do fail(cmd.line, n) end
        else
          for _, l in ipairs(cmd.shown) do new_lines[#new_lines + 1] = l end
          if msg then
            local line = at and (cmd.out_first + at - 1 + b.first - 1) or cmd.line
            fail(line, string.format("`%s`: %s", label, msg))
          end
        end
        for _ = 1, sep do new_lines[#new_lines + 1] = "" end
      end
      if changed then
        replacements[#replacements + 1] = { b.first, b.last, new_lines }
      end
    else
      for k, l in ipairs(b.lines) do
        if l:match("^%s*build/dse ") or l:match("^%s*dse ") then
          fail(b.first + k - 1, "a command in a code block that is not run: write it as a session "
            .. "line '$ build/dse ...' or mark the block <!-- doctest: skip -->")
          break
        end
      end
    end
  end
  -- what the commands left at the top level, where a reader following the
  -- page in a clone would find it untracked: only out/ is ignored by git
  local stray = capture("cd " .. shell_quote(sandbox) .. " && find . -mindepth 1 -maxdepth 1 "
    .. "! -type l ! -name build ! -name .doctest ! -name out | sed 's|^\\./||' | sort")
  for name in stray:gmatch("[^\n]+") do
    fail(1, string.format("the commands wrote '%s' at the top of the checkout, where git shows "
      .. "it untracked: write under out/", name))
  end
  os.execute("rm -rf " .. shell_quote(sandbox))
  table.sort(reports, function(x, y) return x.line < y.line or (x.line == y.line and x.seq < y.seq) end)
  for _, r in ipairs(reports) do io.write(r.text) end

  if #replacements > 0 then
    table.sort(replacements, function(x, y) return x[1] > y[1] end)
    for _, r in ipairs(replacements) do
      local first, last, lines = r[1], r[2], r[3]
      local b
      for _, blk in ipairs(blocks) do if blk.first == first then b = blk end end
      local text_lines = block_text(b, lines)
      for _ = first, last do table.remove(src, first) end
      for k, l in ipairs(text_lines) do table.insert(src, first + k - 1, l) end
    end
    local out = table.concat(src, "\n") .. (text:sub(-1) == "\n" and "\n" or "")
    if out ~= text then write_file(path, out) end
  end
end

for _, md in ipairs(opts.files) do check_markdown(md) end

io.write(string.format("doctest: %d commands, %d file blocks, %d Lua blocks in %d Markdown files: %s\n",
  stats.commands, stats.files, stats.scripts, #opts.files,
  stats.failures == 0 and "all match" or (stats.failures .. " failed")))
os.exit(stats.failures == 0 and 0 or 1)
