#!/bin/bash
# cli_timeloop.sh: `dse import timeloop` (docs/timeloop.md): golden outputs
# of a conv1d and a conv2d case of our own (tests/data/timeloop/), the
# problem read as a workload directly, the reader errors of tests/bad/
# (timeloop_*.yaml against the conv2d case), and every run of
# ../shared/validation/timeloop/ imported, its dims checked against
# reference/summary.csv and its mapping's factors against the dims.
. "$(dirname "$0")/lib.sh"
D=tests/data/timeloop
cd "$SRC" || exit 1

# Golden: the three files as written (the first line names dse's version).
golden() { # golden CASE ARCH ERT: import CASE.prob.yaml and CASE.map.yaml
  run "$DSE" import timeloop "$D/$2.arch.yaml" "$D/$1.prob.yaml" "$D/$1.map.yaml" --ert "$D/$3" \
    -o "$TMP/$1"
  expect_code 0 "import $1"
  for f in arch workload mappings; do
    if diff <(tail -n +2 "$D/golden/$1/$f.yaml") <(tail -n +2 "$TMP/$1/$f.yaml") >"$TMP/diff"; then
      ok
    else
      bad "$1/$f.yaml differs from $D/golden/$1/$f.yaml:"; cat "$TMP/diff" >&2
    fi
  done
}
golden conv1d conv1d conv1d.ERT.yaml
golden conv2d small small.ERT.yaml
# the notes: on stderr and in the files
expect_err "$D/conv2d.prob.yaml:25:80: note: problem.instance.H ignored: neither a dimension nor a coefficient of the shape (Timeloop's model has no padding)" "problem note"
expect_err "$D/conv2d.map.yaml:17:9: note: section 'mapper' ignored by the mapping reader" "mapping note"
expect_err "$D/small.arch.yaml:23:28: note: constraints.spatial of 'col' ignored (a mapspace constraint)" "arch note"

# conv2d.prob.yaml by hand: MACs n q p k c s r = 2 x 6 x 4 x 8 x 4 x 3 x 2
# = 9216; the input (4 - 1) x 1 + (2 - 1) + 1 = 5 rows of (6 - 1) x 2 +
# (3 - 1) x 2 + 1 = 15, 2 x 4 x 5 x 15 = 600 elements; weights 8 x 4 x 2 x 3.
for w in "$D/conv2d.prob.yaml" "$TMP/conv2d/workload.yaml"; do
  run "$DSE" show workload "$w" --format json; expect_code 0 "show $w"
  expect_out '"macs": 9216' "conv2d MACs"
  expect_out '"input_bytes": 600' "conv2d input"
  expect_out '"weight_bytes": 192' "conv2d weights"
done
# conv1d: 4 x 2 x 8 x 3 = 192 MACs; the input 2 x ((8 - 1) x 2 + 2 + 1)
run "$DSE" show workload "$D/conv1d.prob.yaml" --format json
expect_out '"macs": 192' "conv1d MACs"
expect_out '"input_bytes": 34' "conv1d input"
run "$DSE" check "$D/conv1d.prob.yaml"
expect_out "$D/conv1d.prob.yaml: ok: workload 'conv1d.prob', 1 layers" "check a problem"
run "$DSE" sim tpu-v1 "$D/conv2d.prob.yaml" --format json; expect_code 0 "simulate a problem"
expect_out '"macs": 9216' "simulated MACs"

# Without a mapping: arch and workload only; without an ERT the energies
# are dse's models', one note per level (docs/timeloop.md: 64 B of SRAM at
# 45 nm by the CACTI fit, the DRAM as LPDDR4 at 8 pJ/bit x 64 bits).
run "$DSE" import timeloop "$D/conv1d.arch.yaml" "$D/conv1d.prob.yaml" -o "$TMP/nomap"
expect_code 0 "no mapping"
expect_err "$D/conv1d.arch.yaml: note: no --ert: the energies are dse's technology models' (a note per level)" "no ERT note"
expect_err "$D/conv1d.arch.yaml:8:5: note: 'MainMemory': read, fill and update 512 pJ: LPDDR4 DRAM at 8 pJ/bit x 64 bits (no type: LPDDR4)" "no ERT: DRAM note"
expect_no_file "$TMP/nomap/mappings.yaml" "no mapping, no mappings.yaml"
grep -q "^# note: $D/conv1d.arch.yaml:14:5: 'MACC': mac_energy 0.3 pJ: dse's int8 MAC (0.3 pJ at 45 nm) x 1 at 45 nm$" \
  "$TMP/nomap/arch.yaml" && ok || bad "no ERT: the MAC's note in the header"
grep -q "{name: MainMemory, word_bits: 8, block: 8, read_energy: 512 pJ, fill_energy: 512 pJ, update_energy: 512 pJ, leakage: 0 pJ," \
  "$TMP/nomap/arch.yaml" && ok || bad "no ERT: MainMemory's energies"
grep -q "{name: MACC, compute: {mac_energy: 0.3 pJ}}" "$TMP/nomap/arch.yaml" && ok || bad "no ERT: the MAC's energy"
# tests/data/timeloop/tech.arch.yaml: the figures of timeloop_arch_tech_energies
run "$DSE" import timeloop "$D/tech.arch.yaml" "$D/conv1d.prob.yaml" -o "$TMP/tech"
expect_code 0 "no ERT: tech.arch"
expect_err "$D/tech.arch.yaml:9:5: note: 'DRAM': read, fill and update 249.6 pJ: HBM2 DRAM at 3.9 pJ/bit x 64 bits" "tech: DRAM"
expect_err "$D/tech.arch.yaml:11:5: note: 'RegisterFile': read, fill and update 0.1419 pJ: dse's register model of 32 B at 45 nm (the int8 MAC's 0.3 pJ x (32 B / 512 B)^0.52 a word) x block 2; leakage 7.629e-07 pJ/cycle (lstp cells)" "tech: regfile"
expect_err "$D/tech.arch.yaml:15:5: note: 'MACC': mac_energy 0.2441 pJ: dse's int8 MAC (0.3 pJ at 45 nm) x 0.8138 at 40 nm" "tech: MAC"
grep -q "{name: GlobalBuffer, size: 32 KiB, word_bits: 8, block: 8, read_energy: 13.8431089116412 pJ, fill_energy: 13.8431089116412 pJ, update_energy: 13.8431089116412 pJ, leakage: 0.00078125 pJ," \
  "$TMP/tech/arch.yaml" && ok || bad "no ERT: GlobalBuffer's energies"

# dse sim of the Timeloop files as they are: the importer's documents, so
# the same JSON as the imported DIR's (the conv1d golden case above).
run "$DSE" sim "$D/conv1d.arch.yaml" "$D/conv1d.prob.yaml" --mappings "$D/conv1d.map.yaml" \
  --ert "$D/conv1d.ERT.yaml" --format json -o "$TMP/direct.json"
expect_code 0 "sim the Timeloop files"
expect_err "$D/conv1d.arch.yaml:13:29: note: constraints.temporal of 'Buffer' ignored (a mapspace constraint)" "sim: the notes"
run "$DSE" sim "$TMP/conv1d/arch.yaml" "$TMP/conv1d/workload.yaml" --mappings "$TMP/conv1d/mappings.yaml" \
  --format json -o "$TMP/imported.json"
expect_code 0 "sim the imported files"
cmp -s "$TMP/direct.json" "$TMP/imported.json" && ok || bad "direct and imported runs differ"
# Timeloop's reuse rule (reuse: timeloop, which the importer writes), by
# hand: the Buffer's input tile is C2 x ((4 - 1) x 2 + 3) = 18 words; under
# MainMemory[K4 Q2] it moves +8 columns (16 new words), then K advances and
# it moves back -8: a new translation, fetched whole.  4 x (18 + 16) = 136
# fills; keeping every overlap (reuse: overlap) the move back shares one
# column: 18 + 16 + 3 x (16 + 16) = 130.
sed -n '/"accesses"/,/"output"/p' "$TMP/direct.json" | tr -d ' \n' >"$TMP/acc"
grep -q '"input":{"reads":192,"fills":136,' "$TMP/acc" && ok || bad "reuse timeloop: Buffer input fills: $(cat "$TMP/acc")"
sed 's/^reuse: timeloop$/reuse: overlap/' "$TMP/conv1d/arch.yaml" >"$TMP/overlap.yaml"
run "$DSE" sim "$TMP/overlap.yaml" "$TMP/conv1d/workload.yaml" --mappings "$TMP/conv1d/mappings.yaml" --format json
echo "$OUT" | sed -n '/"accesses"/,/"output"/p' | tr -d ' \n' >"$TMP/acc"
grep -q '"input":{"reads":192,"fills":130,' "$TMP/acc" && ok || bad "reuse overlap: Buffer input fills: $(cat "$TMP/acc")"
# dse check reads a Timeloop arch as dse sim does without --ert
run "$DSE" check "$D/conv1d.arch.yaml"
expect_code 0 "check a Timeloop arch"
want="$D/conv1d.arch.yaml: ok: Timeloop arch 'conv1d.arch', 1 MACs (energies from dse's models: --ert for a table's)
  MainMemory       x1      unbounded, block 8, keeps input, weight, output
  Buffer           x1      64 B, keeps input, weight, output
  MACC             x1      compute"
[ "$OUT" = "$want" ] && ok || bad "check a Timeloop arch: got '$OUT'"
# a dse arch takes no ERT, and a Timeloop mapping needs its Timeloop arch
run "$DSE" sim tpu-v1 "$D/conv1d.prob.yaml" --ert "$D/conv1d.ERT.yaml"; expect_code 2 "--ert on a dse arch"
expect_err "dse: error: --ert $D/conv1d.ERT.yaml: the energy table of a Timeloop ARCH, and tpu-v1 is none (no top-level 'architecture')" "--ert on a dse arch"
run "$DSE" sim "$TMP/conv1d/arch.yaml" "$D/conv1d.prob.yaml" --mappings "$D/conv1d.map.yaml"
expect_code 2 "a Timeloop mapping on a dse arch"
expect_err "dse: error: --mappings $D/conv1d.map.yaml: a Timeloop mapping names the levels of a Timeloop ARCH, and $TMP/conv1d/arch.yaml is none (no top-level 'architecture')" "a Timeloop mapping on a dse arch"
run "$DSE" sim "$D/conv1d.arch.yaml" resnet50 --mappings "$D/conv1d.map.yaml"
expect_code 2 "a Timeloop mapping on a dse workload"
expect_err "dse: error: --mappings $D/conv1d.map.yaml: a Timeloop mapping is read against a Timeloop PROBLEM, and resnet50 is none (no top-level 'problem')" "a Timeloop mapping on a dse workload"
# the readers' errors, located in the Timeloop file, nothing written
run "$DSE" sim "$D/small.arch.yaml" "$D/conv2d.prob.yaml" --mappings tests/bad/timeloop_map_product.yaml -o "$TMP/x.json"
expect_code 2 "sim a bad Timeloop mapping"
want=$(head -1 tests/bad/timeloop_map_product.yaml | sed -n 's/^# expect: //p')
expect_err "tests/bad/timeloop_map_product.yaml:$want" "sim a bad Timeloop mapping"
expect_no_file "$TMP/x.json" "sim a bad Timeloop mapping"

# Usage
run "$DSE" import timeloop "$D/conv1d.arch.yaml" "$D/conv1d.prob.yaml"; expect_code 2 "no -o"
expect_err "dse: error: -o DIR is required: the three files go in it" "no -o message"
run "$DSE" import timeloop "$D/conv1d.arch.yaml" -o "$TMP/x"; expect_code 2 "no problem"
expect_err "dse: error: expected ARCH and PROBLEM (and a MAPPING)" "no problem message"
run "$DSE" import timeloop "$D/conv1d.arch.yaml" "$D/conv1d.prob.yaml" -o "$TMP/none/x"
expect_code 2 "-o in a missing directory"
expect_err "dse: error: -o $TMP/none/x: no directory '$TMP/none' to make it in" "missing parent"
run "$DSE" import scalesim tests/data/scalesim/convs.csv --ert x; expect_code 2 "--ert on scalesim"

# Bad input: located errors, exit 2, nothing written.  A bad file of
# tests/bad/timeloop_map_* is the mapping of the conv2d case, one of
# timeloop_arch_* its arch.
for f in tests/bad/timeloop_*.yaml; do
  want=$(head -1 "$f" | sed -n 's/^# expect: //p')
  [ -n "$want" ] || { bad "$f: no '# expect:' line"; continue; }
  case "$f" in
    *timeloop_map_*) run "$DSE" import timeloop "$D/small.arch.yaml" "$D/conv2d.prob.yaml" "$f" -o "$TMP/bad" ;;
    *) run "$DSE" import timeloop "$f" "$D/conv2d.prob.yaml" -o "$TMP/bad" ;;
  esac
  expect_code 2 "$f"
  first=$(printf '%s\n' "$ERR" | grep -v ': note: ' | head -1)
  [ "$first" = "$f:$want" ] && ok || bad "$f: got '$first', want '$f:$want'"
  expect_no_file "$TMP/bad" "$f"
done
# the problem's errors, as the workload loader reports them (tests/bad/wl_tlproblem_*)
for f in tests/bad/wl_tlproblem_*.yaml; do
  want=$(head -1 "$f" | sed -n 's/^# expect: //p')
  run "$DSE" import timeloop "$D/small.arch.yaml" "$f" -o "$TMP/bad"
  expect_code 2 "import $f"
  [ "$(printf '%s\n' "$ERR" | head -1)" = "$f:$want" ] && ok || bad "import $f: got '$ERR'"
  expect_no_file "$TMP/bad" "$f"
done

# The peer tool's reference runs, when shared/ is beside the checkout.
V=${DSE_TIMELOOP_VALIDATION:-$SRC/../shared/validation/timeloop}
if [ ! -d "$V" ]; then
  echo "skipped: $V absent"
else
  # summary.csv: one record a line, quoted fields hold commas
  csv() {
    awk '{ out = ""; f = ""; q = 0
           for (i = 1; i <= length($0); i++) { c = substr($0, i, 1)
             if (q) { if (c == "\"") q = 0; else f = f c }
             else if (c == "\"") q = 1; else if (c == ",") { out = out f "|"; f = "" }
             else f = f c }
           print out f }' "$V/reference/summary.csv"
  }
  dim() { # dim KEY: the layer's KEY in workload.yaml (1 when absent)
    local v
    v=$(grep '^- {name:' "$O/workload.yaml" | sed -n "s/.*[{ ]$1: \([0-9]*\).*/\1/p")
    echo "${v:-1}"
  }
  nruns=0 nref=0
  while read -r c v a p m e macs; do
    O="$TMP/v/$c.$v"
    mkdir -p "$TMP/v"
    run "$DSE" import timeloop "$V/$c/$a" "$V/$c/$p" "$V/$c/$m" --ert "$V/$c/$e" -o "$O"
    expect_code 0 "import $c $v"
    [ "$CODE" -eq 0 ] || continue
    nruns=$((nruns + 1))
    line=$(grep '^- {name:' "$O/workload.yaml")
    case "$line" in
      *"stride: ["*) sh_=$(echo "$line" | sed 's/.*stride: \[\([0-9]*\), \([0-9]*\)\].*/\1/')
                     sw_=$(echo "$line" | sed 's/.*stride: \[\([0-9]*\), \([0-9]*\)\].*/\2/') ;;
      *) sh_=$(dim stride); sw_=$sh_ ;;
    esac
    case "$line" in *"type: conv1d"*) sh_=1 ;; esac
    # Timeloop's R S P Q C M N Wstride Hstride are dse's s r q p c k n, stride [h, w]
    got="$(dim s)|$(dim r)|$(dim q)|$(dim p)|$(dim c)|$(dim k)|$(dim n)|$sw_|$sh_"
    ref=$(csv | awk -F'|' -v c="$c" -v v="$v" '$1 == c && $2 == v { print $7 "|" $8 "|" $9 "|" $10 "|" $11 "|" $12 "|" $13 "|" $14 "|" $15 "|" $22 }')
    if [ -n "$ref" ]; then
      nref=$((nref + 1))
      [ "$got" = "${ref%|*}" ] && ok || bad "$c $v: dims R S P Q C M N Wstride Hstride $got, Timeloop's ${ref%|*}"
      macs=${ref##*|}
    fi
    run "$DSE" show workload "$O/workload.yaml" --format json
    expect_out "\"total_macs\": $macs" "$c $v MACs"
    # every dimension's factors, over the levels and the fan-outs, multiply to it
    for d in K C N P Q R S; do
      want=$(dim "$(echo $d | tr 'A-Z' 'a-z')")
      prod=$(sed -n '/levels:/,$p' "$O/mappings.yaml" | grep -o "[{ ]$d: [0-9]*" |
             awk '{ p *= $2 } BEGIN { p = 1 } END { print p }')
      [ "$prod" = "$want" ] && ok || bad "$c $v: the factors of $d multiply to $prod, not $want"
    done
  done <<'RUNS'
ispass00_conv1d_1level default arch/1level.arch.yaml prob/conv1d.prob.yaml map/conv1d-1level.map.yaml ert/default.ERT.yaml -
ispass01_conv1d_2level ws arch/2level.arch.yaml prob/conv1d.prob.yaml map/conv1d-2level-ws.map.yaml ert/ws.ERT.yaml -
ispass01_conv1d_2level os arch/2level.arch.yaml prob/conv1d.prob.yaml map/conv1d-2level-os.map.yaml ert/os.ERT.yaml -
ispass02_conv1d_oc_2level no-tiling arch/2level.arch.yaml prob/conv1d+oc.prob.yaml map/conv1d+oc-2level-os.map.yaml ert/no-tiling.ERT.yaml -
ispass02_conv1d_oc_2level tiling arch/2level.arch.yaml prob/conv1d+oc.prob.yaml map/conv1d+oc-2level-os-tiled.map.yaml ert/tiling.ERT.yaml -
ispass03_conv1d_oc_3level_dram no-bypass arch/3level.arch.yaml prob/conv1d+oc.prob.yaml map/conv1d+oc-3level.map.yaml ert/no-bypass.ERT.yaml -
ispass03_conv1d_oc_3level_dram bypass arch/3level.arch.yaml prob/conv1d+oc.prob.yaml map/conv1d+oc-3level-bypass.map.yaml ert/bypass.ERT.yaml -
ispass04_conv1d_oc_ic_16pe cp arch/3levelspatial.arch.yaml prob/conv1d+oc+ic.prob.yaml map/conv1d+oc+ic-3levelspatial-cp-ws.map.yaml ert/cp.ERT.yaml -
ispass04_conv1d_oc_ic_16pe kp arch/3levelspatial.arch.yaml prob/conv1d+oc+ic.prob.yaml map/conv1d+oc+ic-3levelspatial-kp-ws.map.yaml ert/kp.ERT.yaml -
ed_simple_weight_stationary default_problem arch.yaml _shared/_include/default_problem.yaml mapping.yaml ert/default_problem.ERT.yaml -
ed_simple_output_stationary default_problem arch.yaml _shared/_include/default_problem.yaml mapping.yaml ert/default_problem.ERT.yaml -
ispass06_eyeriss_vgg02_layer5 default arch/eyeriss_like.yaml prob/VGG02_layer5.yaml mapping.yaml ert/default.ERT.yaml 924844032
ed_eyeriss_like default_problem arch.yaml _shared/_include/default_problem.yaml mapping.yaml ert/default_problem.ERT.yaml 10838016
ed_simba_like default_problem arch.yaml _shared/_include/default_problem.yaml mapping.yaml ert/default_problem.ERT.yaml 10838016
RUNS
  [ "$nruns" -eq 14 ] && ok || bad "imported $nruns of the 14 reference runs"
  [ "$nref" -eq 11 ] && ok || bad "$nref of the 11 runs with references found in summary.csv"
fi
finish
