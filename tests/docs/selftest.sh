#!/bin/bash
# selftest.sh: the doc-test runner (doctest.lua) on fixtures: what it
# reports for stale outputs and badly written docs, and what --update writes.
. "$SRC/tests/cli/lib.sh"
F="$SRC/tests/docs/fixtures"
R="$TMP/root"
mkdir "$R"
cp "$F/stale.md" "$F/errors.md" "$R/"
echo new > "$R/data.txt"
export TMPDIR="$TMP/scratch"
mkdir "$TMPDIR"
doctest() { "$DSE" run "$SRC/tests/docs/doctest.lua" --dse "$DSE" --root "$R" "$@"; }

# Stale outputs: each reported at the doc line that differs; exit 1.
run doctest stale.md; expect_code 1 "stale"
want=$(cat <<'OUT'
stale.md:7: `printf 'one\ntwo\nthree\n'`: output line 2: expected '2', got 'two'
stale.md:16: `seq 1 20 | sed 's/^/n/'`: lines from 'n10 stale' (2 lines) not found in order in the output
stale.md:26: `printf 'head\nx\ny\ntotal 1\nsilicon 2\nmemory 3\n'`: output line 5: expected 'total 0', got 'silicon 2'
stale.md:32: `echo "total: 10 MACs, latency 2 ms, energy 3 mJ"; echo "kept   "`: output line 1: expected 'total: 10 MACs, latency 9 ...', got 'total: 10 MACs, latency 2 ms, energy 3 mJ'
stale.md:40: `echo "done in 1.25 s"; echo "rows 5"`: output line 2: expected 'rows 4', got 'rows 5'
stale.md:53: `build/dse --version | cut -d' ' -f1; ls out/written.txt`: output line 2: unexpected 'out/written.txt' (1 lines shown, 2 printed)
stale.md:59: block differs from data.txt at its line 1: 'old', the file has 'new'
stale.md:66: Lua block: output line 1: expected 'function	3', got 'function	2'
doctest: 8 commands, 1 file blocks, 1 Lua blocks in 1 Markdown files: 8 failed
OUT
)
[ "$OUT" = "$want" ] && ok || bad "stale report:"$'\n'"$OUT"

# --update rewrites exactly the stale lines (the vary'd timing, the
# truncation, "..." and the matching line are kept), then the check passes.
run doctest --update stale.md; expect_code 0 "update"
expect_out "stale.md:12: updated the output of \`seq 1 20 | sed 's/^/n/'\`" "update report"
diff "$F/updated.md" "$R/stale.md" > "$TMP/diff" && ok || bad "updated file: $(cat "$TMP/diff")"
run doctest stale.md; expect_code 0 "after update"
expect_out "8 commands, 1 file blocks, 1 Lua blocks in 1 Markdown files: all match" "after update"
run doctest --update stale.md; expect_code 0 "second update"
cmp -s "$F/updated.md" "$R/stale.md" && ok || bad "a second --update changed the file"

# Badly written docs: located errors, nothing run that is not a session.
run doctest errors.md; expect_code 1 "errors"
want=$(cat <<'OUT'
errors.md:1: doctest directive not followed by a code block
errors.md:1: the commands wrote 'stray.txt' at the top of the checkout, where git shows it untracked: write under out/
errors.md:4: unknown doctest directive 'frobnicate' (exit N, vary PATTERN, file PATH, lua, skip)
errors.md:7: malformed doctest directive: write <!-- doctest: WORD [ARG] -->
errors.md:9: a command in a code block that is not run: write it as a session line '$ build/dse ...' or mark the block <!-- doctest: skip -->
errors.md:14: `exit 1` exited 1, expected 0
errors.md:19: `printf 'a\nb\n'`: output line 2: expected 'c', got 'b'
doctest: 3 commands, 0 file blocks, 0 Lua blocks in 1 Markdown files: 7 failed
OUT
)
[ "$OUT" = "$want" ] && ok || bad "errors report:"$'\n'"$OUT"

# Usage errors exit 2; the scratch directories are removed.
run doctest --frob; expect_code 2 "unknown option"
expect_err "doctest: error: unknown option '--frob'" "unknown option"
run doctest missing.md; expect_code 2 "missing page"
expect_err "doctest: error: cannot read 'missing.md'" "missing page"
left=$(ls -A "$TMPDIR")
[ -z "$left" ] && ok || bad "scratch directories left: $left"
finish
