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
# the page's lines strictly between the markers (awk: the markers hold '/')
between() { awk -v b="$2" -v e="$3" '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' "$1"; }
# page_tables PAGE BEGIN END TABLES: the page's lines between the markers
# BEGIN and END must be the file TABLES (a replay's); UPDATE=1 rewrites them
page_tables() {
  local page=$1 begin=$2 end=$3 tables=$4
  if [ "${UPDATE:-0}" = 1 ]; then
    awk -v b="$begin" -v e="$end" -v t="$tables" '
      $0 == e { on = 0 }
      !on { print }
      $0 == b { on = 1; print ""; while ((getline l < t) > 0) print l }' "$page" >"$TMP/page"
    cp "$TMP/page" "$page"
  fi
  between "$page" "$begin" "$end" | sed '1{/^$/d}' >"$TMP/shown"
  if diff -u "$TMP/shown" "$tables" >"$TMP/diff"; then ok; else
    bad "$page's tables differ from the replay's (UPDATE=1 rewrites them):"; head -40 "$TMP/diff" >&2
  fi
}
finish() {
  echo "$PASS passed, $FAIL failed"
  [ "$FAIL" -eq 0 ]
}
