# lib.sh: tiny assertion helpers for the CLI tests (bash).
# Needs DSE (the binary) in the environment.  Prints "N passed, N failed".
set -u
PASS=0
FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { PASS=$((PASS + 1)); }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*" >&2; }

# run CMD...: sets OUT, ERR, CODE
run() {
  "$@" >"$TMP/out" 2>"$TMP/err"
  CODE=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

expect_code() { # expect_code N description
  if [ "$CODE" -eq "$1" ]; then ok; else bad "$2: exit $CODE, want $1; stderr: $ERR"; fi
}
expect_out() { # expect_out SUBSTRING description
  case "$OUT" in *"$1"*) ok ;; *) bad "$2: stdout lacks '$1'"; echo "$OUT" | head -5 >&2 ;; esac
}
expect_err() {
  case "$ERR" in *"$1"*) ok ;; *) bad "$2: stderr lacks '$1'; got: $ERR" ;; esac
}
expect_no_file() {
  if [ -e "$1" ]; then bad "$2: $1 exists"; else ok; fi
}
finish() {
  echo "$PASS passed, $FAIL failed"
  [ "$FAIL" -eq 0 ]
}
