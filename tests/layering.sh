#!/bin/bash
# layering.sh: the library's layers stay one-way (DESIGN.md, "Data flow").
# From the bottom: core < mem < tech < config < engine < sweep.  A file in a layer
# includes headers of its own layer and those below (and the public dse/),
# and a function declared in a layer's header is defined in that layer.
# Run from anywhere; SRC is the source root (default: this file's parent).
set -u
SRC=${SRC:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRC/sim" || exit 2
FAIL=0
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*" >&2; }

layers=(core mem tech config engine sweep)
allowed="dse"
for L in "${layers[@]}"; do
  allowed="$allowed $L"
  for f in "$L"/*.c "$L"/*.h; do
    [ -e "$f" ] || continue
    while IFS=: read -r line inc; do
      dir=${inc#*\"}
      dir=${dir%%/*}
      case " $allowed " in
        *" $dir "*) ;;
        *) bad "sim/$f:$line: includes \"$dir/...\": $L may include only: $allowed" ;;
      esac
    done < <(grep -n '^#include "[a-z]*/' "$f" | sed 's/^\([0-9]*\):#include \(.*\)$/\1:\2/')
  done
done

# DSE_INTERNAL declarations in sim/L/*.h must have their definition in sim/L/*.c.
for L in "${layers[@]}"; do
  for h in "$L"/*.h; do
    [ -e "$h" ] || continue
    for fn in $(grep -h '^DSE_INTERNAL' "$h" | grep -v 'static inline' |
                sed -n 's/^[^(]*[^a-zA-Z0-9_(]\([a-zA-Z_][a-zA-Z0-9_]*\)(.*/\1/p' | sort -u); do
      # a line at column 0 naming it, not a prototype (one-line bodies end in })
      defs=$(grep -HE "^[a-zA-Z_][a-zA-Z0-9_ *]*[ *]$fn\(" ./*/*.c | grep -vE ';[[:space:]]*$' |
             cut -d: -f1 | sort -u)
      [ -n "$defs" ] || continue # a declaration without a definition is the linker's business
      for d in $defs; do
        d=${d#./}
        [ "${d%%/*}" = "$L" ] || bad "$fn: declared in sim/$h, defined in sim/$d"
      done
    done
  done
done

if [ "$FAIL" -eq 0 ]; then echo "layering: ok"; else echo "layering: $FAIL problem(s)"; fi
[ "$FAIL" -eq 0 ]
