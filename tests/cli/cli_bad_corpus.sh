#!/bin/bash
# cli_bad_corpus.sh: the bad-input corpus (issue 16), every input kind: arch
# and workload YAML, units, memory presets, pinned mappings, SCALE-Sim,
# Timeloop, ONNX, the Lua API and the command line.  The cases are the table
# tests/bad/corpus.txt (its header gives the format) and every
# tests/bad/arch_*.yaml and wl_*.yaml by its "# expect:" line.  Each case
# must exit 2 with the expected first line on stderr (FILE:LINE:COL, or the
# node, input or argument it names), write nothing, and not hang; then the
# count of cases, by kind, must reach 100.  The edge inputs are made here,
# never kept: a FIFO, a directory, an empty file and 4096 seeded random
# bytes under each extension, nesting 100 levels deep, lines of 100 MB, a
# precompiled Lua chunk.
. "$(dirname "$0")/lib.sh"
B=$SRC/tests/bad
D=$SRC/tests/data
E=$SRC/examples
G=$TMP/gen          # the generated inputs
W=$TMP/scratch      # each case's working directory, which must stay empty
O=$W/out            # the output a case is told to write
SLOW=${DSE_CORPUS_TIMEOUT:-300} # a hang guard only: no case needs seconds
mkdir -p "$G"

# --- the generated inputs ----------------------------------------------------
for x in yaml csv cfg onnx lua db; do
  mkfifo "$G/fifo.$x"
  mkdir "$G/dir.$x"
  : >"$G/empty.$x"
done
# 4096 random bytes from a fixed seed (bash's generator: no other tool)
RANDOM=16
bytes=
for ((i = 0; i < 4096; i++)); do printf -v o '\\0%03o' $((RANDOM % 256)); bytes+=$o; done
printf '%b' "$bytes" >"$G/random.bin"
for x in yaml csv cfg onnx lua db; do cp "$G/random.bin" "$G/random.$x"; done
# nesting 100 levels deep: block mappings (an arch), block sequences (a
# workload), flow sequences
{ printf 'name: t\nclock: 1 GHz\nextra:\n'
  for ((i = 0; i < 100; i++)); do printf '%*sk%d:' $((2 * i + 2)) '' $i; [ $i -lt 99 ] && echo; done
  echo ' 1'; } >"$G/deep100.yaml"
{ printf 'name: w\nlayers:\n'
  for ((i = 0; i < 100; i++)); do printf '%*s- ' $((2 * i + 2)) ''; [ $i -lt 99 ] && echo; done
  echo 1; } >"$G/deep100_wl.yaml"
{ printf 'name: w\nlayers: '; printf '%.0s[' {1..100}; printf '%.0s]' {1..100}; echo; } >"$G/deep100_flow.yaml"
# lines of 100 MB: an arch's rows of 10^8 nines, a layer's name, a CSV field,
# a Lua identifier
line() { head -c 100000000 /dev/zero | tr '\0' "$1"; }
{ printf '# a line of 100 MB\nname: t\nclock: 1 GHz\npe_array: {rows: '; line 9
  printf ', cols: 8, dataflow: weight_stationary, precision: int8}\n'
  printf 'dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n'; } >"$G/line100mb.yaml"
{ printf 'name: w\nlayers:\n  - {name: '; line a; printf ', type: gemm, m: 0, n: 8, k: 8}\n'; } >"$G/line100mb_wl.yaml"
{ line a; echo; } >"$G/line100mb.csv"
{ line a; echo; } >"$G/line100mb.lua"
printf 'name: not a model\nlayers: []\n' >"$G/text.onnx"
# a precompiled Lua chunk (a damaged one crashed the loader)
echo 'local f = io.open(arg[1], "wb") f:write(string.dump(function() return 1 end)) f:close()' >"$G/dump.lua"
"$DSE" run "$G/dump.lua" "$G/precompiled.lua" || bad "could not write a precompiled chunk"

# --- the runner ----------------------------------------------------------------
# (no process but dse's per case: the suite runs some 300)
declare -A SEEN=() KIND=()
NCASES=0
ere() { # ere TEXT: $ERE, TEXT as an extended regular expression of itself
  local c
  ERE=${1//\\/\\\\}
  for c in '[' ']' '.' '*' '^' '$' '(' ')' '{' '}' '+' '?' '|'; do ERE=${ERE//"$c"/\\$c}; done
}
shopt -s nullglob dotglob
# case_run ID EXIT ERE ARG...: dse ARG... in an empty $W
case_run() {
  local id=$1 want=$2 re=$3 limit=$SLOW first= left
  shift 3
  if [ -n "${SEEN[$id]:-}" ]; then bad "$id: a second case of that ID"; return; fi
  SEEN[$id]=1
  NCASES=$((NCASES + 1))
  KIND[${id%%_*}]=$((${KIND[${id%%_*}]:-0} + 1))
  case $id in *fifo*) limit=10 ;; esac # a FIFO opened would wait for ever
  (cd "$W" && exec timeout "$limit" "$DSE" "$@") >"$TMP/out" 2>"$TMP/err" </dev/null
  CODE=$?
  IFS= read -r first <"$TMP/err"
  if [ "$CODE" -eq 124 ]; then
    bad "$id: no answer in $limit s (dse $*)"
  elif [ "$CODE" -ne "$want" ]; then
    bad "$id: exit $CODE, want $want (dse $*): ${first:0:300}"
  else ok; fi
  if [[ $first =~ $re ]]; then ok; else
    bad "$id: stderr's first line '${first:0:300}' does not match '$re'"
  fi
  left=("$W"/*)
  if [ ${#left[@]} -eq 0 ]; then ok; else
    bad "$id: wrote ${left[*]}"
    rm -rf "$W"
    mkdir "$W"
  fi
}
mkdir "$W"

# the table; {B} {D} {E} {G} {O} replaced, as EREs in STDERR
declare -A PLAIN=([B]=$B [D]=$D [E]=$E [G]=$G [O]=$O) QUOTED=()
for k in "${!PLAIN[@]}"; do ere "${PLAIN[$k]}"; QUOTED[$k]=$ERE; done
n=0
while IFS= read -r row; do
  case $row in '' | '#'*) continue ;; esac
  n=$((n + 1))
  id=${row%% | *} rest=${row#* | }
  want=${rest%% | *} rest=${rest#* | }
  cmd=${rest%% | *} re=${rest#* | }
  if [ -z "$id" ] || [ "$cmd" = "$rest" ] || ! [[ $want =~ ^[0-9]+$ ]]; then
    bad "corpus.txt: malformed row '$row'"
    continue
  fi
  for k in "${!PLAIN[@]}"; do
    cmd=${cmd//\{$k\}/"${PLAIN[$k]}"}
    re=${re//\{$k\}/"${QUOTED[$k]}"}
  done
  read -ra args <<<"$cmd"
  case_run "$id" "$want" "$re" "${args[@]}"
done <"$B/corpus.txt"
[ "$n" -gt 0 ] || bad "corpus.txt: no cases"

# every arch_*.yaml and wl_*.yaml by its "# expect: LINE:COL: error: ..." line
for f in "$B"/arch_*.yaml "$B"/wl_*.yaml; do
  IFS= read -r want <"$f"
  name=${f##*/}
  name=${name%.yaml}
  [ "${want#\# expect: }" != "$want" ] || { bad "$f: no '# expect:' line"; continue; }
  ere "$f:${want#\# expect: }"
  case $name in
    arch_*) case_run "$name" 2 "^$ERE\$" check "$f" ;;
    *) case_run "$name" 2 "^$ERE\$" sim tpu-v1 "$f" -o "$O" ;;
  esac
done

kinds=
for k in arch wl units mem map ss tl onnx lua cli; do kinds+=" $k ${KIND[$k]:-0},"; done
echo "$NCASES bad-input cases:${kinds%,}"
[ "$NCASES" -ge 100 ] && ok || bad "only $NCASES bad-input cases ran, want at least 100"
for k in "${!KIND[@]}"; do
  case " arch wl units mem map ss tl onnx lua cli " in *" $k "*) ;; *) bad "case kind '$k' is none of the known ones" ;; esac
done
finish
