#!/bin/bash
# make_dicts.sh: write tests/fuzz/dict/*.dict, libFuzzer's dictionaries,
# from the sources: every key name the loaders know (the quoted
# identifiers of sim/config/*.c), the units, YAML's syntax, ONNX's op
# types (sim/config/onnxops.c) and SCALE-Sim's keys.  Run it after adding
# keys; the dictionaries are committed.  (scripts/fuzz.sh gives a harness
# dict/NAME.dict, else dict/yaml.dict.)
set -eu
cd "$(dirname "$0")/../.."
D=tests/fuzz/dict
keys() { grep -ho '"[a-z][a-z0-9_]*"' "$@" | sort -u; }
units() {
  cat <<'END'
"B"
"KiB"
"MiB"
"GiB"
"bit"
"kbit"
"Mbit"
"Hz"
"MHz"
"GHz"
"B/s"
"GB/s"
"TB/s"
"B/cycle"
"J"
"pJ"
"nJ"
"fJ"
"J/bit"
"pJ/bit"
"pJ/B"
"nm"
"um"
"mm"
"ns"
"us"
"W"
"mW"
"mm^2"
"mm2"
"e-12"
"e+300"
"1e12"
"18446744073709551616"
"nan"
"inf"
"-0"
"0x"
"1_000"
END
}
yaml() {
  cat <<'END'
": "
"- "
"{"
"}"
"["
"]"
"&a "
"*a"
"<<: *a"
"!!str "
"!!int "
"---"
"..."
"|"
"\x22"
"\x27"
"#"
"~"
"null"
"true"
"false"
".nan"
".inf"
"-.inf"
END
}
{
  echo "# YAML keys of every loader (tests/fuzz/make_dicts.sh)"
  keys sim/config/arch.c sim/config/archtree.c sim/config/workload.c sim/config/schema.c \
    sim/config/memspec.c sim/config/timeloop.c sim/config/tlproblem.c sim/config/tlmapping.c \
    sim/config/ert.c sim/engine/pinned.c
  units
  yaml
} > $D/yaml.dict
{ echo "# units (tests/fuzz/make_dicts.sh)"; units; printf '"%s"\n' " " "." "e" "/" "^2"; } > $D/units.dict
{
  echo "# Lua table syntax and the loaders' keys (tests/fuzz/make_dicts.sh)"
  printf '"%s"\n' "{" "}" " = " ", " "true" "false" "nil" "0/0" "1/0" "-1/0" "1e308"
  printf '"%s"\n' '[\x22' '\x22]'
  keys sim/config/arch.c sim/config/archtree.c sim/config/workload.c sim/config/schema.c sim/lua/ldse.c
  units
} > $D/lua.dict
{
  echo "# SCALE-Sim keys (tests/fuzz/make_dicts.sh)"
  grep -ho '"[A-Za-z_][A-Za-z_]*"' sim/config/scalesim.c | sort -u
  printf '"%s"\n' "," "\\x0a" "[" "]" " = " "ws" "os" "is"
} > $D/scalesim.dict
{
  echo "# ONNX op types (sim/config/onnxops.c) (tests/fuzz/make_dicts.sh)"
  grep -ho '{"[A-Z][A-Za-z0-9]*"' sim/config/onnxops.c | tr -d '{' | sort -u
} > $D/onnx.dict
{
  echo "# the store's table and column names (tests/fuzz/make_dicts.sh)"
  grep -ho '"[a-z_][a-z_]*"' sim/sweep/store.c | sort -u
  echo '"SQLite format 3\x00"'
} > $D/store.dict
wc -l $D/*.dict
