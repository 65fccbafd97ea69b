#!/bin/bash
# cli_store_crash.sh: the store's crash safety (docs/store.md, "Durability").
# A level-2 sweep of 360 results (120 under a sanitizer) with their layers
# (layers = true) and two workers, killed with SIGKILL (kill_at: every
# other kill takes the workers with it, the process group; the others the
# parent alone, whose workers must then end by themselves):
#  - early, 5 times: a fresh store killed as dse starts, creates it and sets
#    its sweep up (moments scaled by a run that reads every result back,
#    little more than that), each run resuming the last;
#  - late: a fresh store just before a whole run's end, and one halfway with
#    one worker (the sweep in one process); each resumed to its end;
#  - 20 times in succession, each run resuming the store the last one left,
#    at moments drawn from a fixed seed (RANDOM) from 2% to 110% of what
#    the run has to do (the store's missing results' share of a whole run,
#    plus a run that reads all back), so that the moments spread over the
#    store's life rather than mostly past its end (relative: a slow machine
#    only moves them).  A kill that comes after the run ended is counted,
#    not a failure; that run completed the store, which then equals the
#    reference, and the kills go on with a new store.  Then the last store
#    resumed to its end;
# and the disk full: under a file-size limit (ulimit -f: dse ignores
# SIGXFSZ, so the write fails and dse says so) and, when this user may
# mount one, on a small tmpfs; each resumed with room to its end.
#
# After each kill, what the next run finds (a copy of the files, opened
# read-write as SQLite opens them: a hot journal rolled back, a WAL
# replayed) passes integrity_check and foreign_key_check, and its results
# and layers are some of the reference's, bit for bit: each ok result with
# all its layers (a result committed without them would be read back
# without them forever), none lost since the last kill (a resume never
# drops a committed result).
#
# "Equal" to the uninterrupted reference run: the same schema (the
# sqlite_master rows), dse_meta, the sweep's row but for its id and its
# started/finished times (wall clock; finished set in both), every column
# of results but id (the rowid: commit order, which kills and workers
# change) compared with its SQLite type, every column of layers; the rows
# as sets (EXCEPT both ways, equal counts: keys are unique), REALs compared
# as doubles, i.e. bit for bit.  map_cache_hits, the one total that depends
# on what a process ran before, is stored as 0 (sweep.c).  Also dse export
# (CSV and JSON) writes the very same bytes, and a resume reads back every
# result the store held, simulating none of them again.
. "$(dirname "$0")/lib.sh"

if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "skipped: no sqlite3 command-line shell (the checks read the stores with it)"
  exit 77
fi
# one build throughout: a rebuild while this runs would change the resume keys
cp "$DSE" "$TMP/dse" || exit 1
DSE=$TMP/dse
MNT=""
trap '[ -n "$MNT" ] && umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT

cat >"$TMP/crash.lua" <<'LUA'
local db, jobs = ...
local dse = require "dse"
dse.sweep { arch = "edge-npu", store = db, jobs = tonumber(jobs) or 2, layers = true,
  workloads = { "alexnet", "resnet50", "mobilenet_v2" },
  grid = { ["pe_array.rows"] = { 8, 16, 32, 64, 128 }, ["pe_array.cols"] = { 8, 16, 32, 64 },
           ["buffers.2.size"] = SIZES } }
LUA
# under a sanitizer (5x slower) a third of the points: the same kills
if [ "${DSE_SANITIZED:-0}" = 1 ]; then
  sed -i 's/SIZES/{ "256 KiB", "2 MiB" }/' "$TMP/crash.lua"
  PLANNED=120
else
  sed -i 's/SIZES/{ "256 KiB", "512 KiB", "1 MiB", "2 MiB", "4 MiB", "8 MiB" }/' "$TMP/crash.lua"
  PLANNED=360
fi
REF="$TMP/ref.db"
now() { # NOW: milliseconds (bash 5's clock, not a process)
  local t=${EPOCHREALTIME:-}
  if [ -n "$t" ]; then t=${t/[.,]/}; NOW=$((10#$t / 1000)); else NOW=$(($(date +%s%N) / 1000000)); fi
}
secs() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }
q() { sqlite3 -batch "$@"; } # q DB SQL...

# sweep DB [JOBS]: a run to its end (stderr in $TMP/err); sets CODE, ERR, TOOK (ms)
sweep() {
  local t0
  now
  t0=$NOW
  run "$DSE" run "$TMP/crash.lua" "$1" "${2:-2}"
  now
  TOOK=$((NOW - t0))
}

# cols DB TABLE: its columns but id: "c", ...; those of results with their
# types (typeof: a parameter's column has none declared, its values keep
# their own; the other columns' declared types make theirs)
cols() {
  if [ "$2" = results ]; then
    q "$1" "SELECT group_concat(printf('\"%w\", typeof(\"%w\")', name, name), ', ')
            FROM pragma_table_info('$2') WHERE name != 'id';"
  else
    q "$1" "SELECT group_concat(printf('\"%w\"', name), ', ') FROM pragma_table_info('$2') WHERE name != 'id';"
  fi
}
# attached DB SQL...: SQL on DB with the reference attached (read-only) as ref
attached() {
  local db=$1
  shift
  q "$db" "ATTACH 'file:$REF?mode=ro' AS ref;" "$@"
}

# consistent DB WHAT [ORPHANS]: what the next run finds in DB (above); sets
# COUNT to its results (0: no store yet, or one without results).  ORPHANS=0:
# layers of results that are not there allowed (a failed write's: the next
# whole run drops them).
consistent() {
  local db=$1 what=$2 orphans=${3:-1} c="$TMP/chk/store.db" f out
  COUNT=0
  [ -e "$db" ] || { ok; return; } # killed before creating it
  rm -rf "$TMP/chk"
  mkdir "$TMP/chk"
  for f in "" -wal -journal; do [ -e "$db$f" ] && cp "$db$f" "$c$f"; done
  out=$(q "$c" 'PRAGMA integrity_check; PRAGMA foreign_key_check;' 2>&1)
  [ "$out" = ok ] && ok || { bad "$what: integrity_check: $out"; return; }
  [ "$(q "$c" "SELECT count(*) FROM sqlite_master WHERE name = 'results';")" = 1 ] || return 0
  COUNT=$(q "$c" 'SELECT count(*) FROM results;')
  [ "$COUNT" -le "$PLANNED" ] && ok || bad "$what: $COUNT results, more than the $PLANNED planned"
  if [ "$COUNT" -gt 0 ]; then # dse reads the store as it was left (the files themselves)
    "$DSE" export "$db" >"$TMP/left.csv" 2>"$TMP/left.err" && [ "$(wc -l <"$TMP/left.csv")" = $((COUNT + 1)) ] &&
      ok || bad "$what: dse export of the store as left: $(head -2 "$TMP/left.err")"
  fi
  local rc lc
  rc=$(cols "$c" results)
  out=$(attached "$c" "SELECT count(*) FROM (SELECT $rc FROM main.results EXCEPT SELECT $rc FROM ref.results);")
  [ "$out" = 0 ] && ok || bad "$what: $out stored results are not the reference's: $(attached "$c" \
    "SELECT point, workload, status FROM (SELECT * FROM main.results EXCEPT SELECT * FROM ref.results) LIMIT 3;")"
  if [ "$(q "$c" "SELECT count(*) FROM sqlite_master WHERE name = 'layers';")" = 1 ]; then
    lc=$(cols "$c" layers)
    out=$(attached "$c" "SELECT count(*) FROM (SELECT $lc FROM main.layers EXCEPT SELECT $lc FROM ref.layers);")
    [ "$out" = 0 ] && ok || bad "$what: $out stored layers are not the reference's"
    out=$(attached "$c" "SELECT count(*) FROM results r WHERE (SELECT count(*) FROM layers l WHERE
            l.sweep = r.sweep AND l.key = r.key) != (SELECT count(*) FROM ref.layers l WHERE l.sweep = r.sweep AND l.key = r.key);")
    [ "$out" = 0 ] && ok || bad "$what: $out stored results without all their layers"
    if [ "$orphans" = 1 ]; then
      out=$(q "$c" "SELECT count(*) FROM layers l WHERE NOT EXISTS (SELECT 1 FROM results r
                    WHERE r.sweep = l.sweep AND r.key = l.key);")
      [ "$out" = 0 ] && ok || bad "$what: $out layers of results not stored"
    fi
  elif [ "$COUNT" -gt 0 ]; then
    bad "$what: $COUNT results and no layers table"
  fi
}

# same DB WHAT: DB, a store whose sweep ran to its end, equals the reference (above)
same() {
  local db=$1 what=$2 t sel out n m c r
  for t in sqlite_master dse_meta sweeps results layers; do
    case $t in
      sqlite_master) sel="type, name, tbl_name, sql" ;;
      sweeps) sel="name, space, dse_version, planned, columns, finished IS NOT NULL" ;;
      dse_meta) sel="key, value" ;;
      *) sel=$(cols "$db" $t) ;;
    esac
    out=$(attached "$db" "SELECT (SELECT count(*) FROM (SELECT $sel FROM main.$t EXCEPT SELECT $sel FROM ref.$t)),
                                 (SELECT count(*) FROM (SELECT $sel FROM ref.$t EXCEPT SELECT $sel FROM main.$t)),
                                 (SELECT count(*) FROM main.$t), (SELECT count(*) FROM ref.$t);" 2>&1)
    IFS='|' read -r n m c r <<<"$out"
    [ "$n" = 0 ] && [ "$m" = 0 ] && [ "$c" = "$r" ] && ok ||
      bad "$what: table $t differs from the reference's (rows only here, only there, counts: $out)"
  done
  "$DSE" export "$db" >"$TMP/same.csv" 2>"$TMP/same.err" && cmp -s "$TMP/same.csv" "$TMP/ref.csv" &&
    [ ! -s "$TMP/same.err" ] && ok || bad "$what: dse export differs from the reference's: $(head -2 "$TMP/same.err")"
  "$DSE" export "$db" --format json >"$TMP/same.json" 2>/dev/null && cmp -s "$TMP/same.json" "$TMP/ref.json" &&
    ok || bad "$what: dse export --format json differs from the reference's"
}

# resume DB WHAT [JOBS]: a run to its end after kills; reads back the
# results the store held (COUNT), no more, no less; then equals the reference
resume() {
  local had=$COUNT
  sweep "$1" "${3:-2}"
  expect_code 0 "$2: resumed"
  expect_err "= $PLANNED results in" "$2: resumed"
  if [ "$had" -gt 0 ]; then
    expect_err ", $had from the store" "$2: a resume reads back the $had results the store held"
  else
    case "$ERR" in *"from the store"*) bad "$2: results read back from a store without any: $ERR" ;; *) ok ;; esac
  fi
  same "$1" "$2"
}

# kill_at MS DB [JOBS]: the sweep into DB, killed with SIGKILL MS ms after
# its start, in a process group of its own (setsid, when it keeps the pid):
# every other kill the whole group (the workers too), the others the parent
# alone, whose workers must then end by themselves (within 10 s).  Sets
# CODE: 137 (killed) or 0 (it ended first); AT: when the kill was sent (ms;
# later than MS on a busy machine).
KILLS=0
LANDED=0
GROUP=0
if command -v setsid >/dev/null && command -v pgrep >/dev/null; then
  setsid sh -c 'echo $$' >"$TMP/sid" 2>/dev/null &
  wait $! && [ "$(cat "$TMP/sid")" = "$!" ] && GROUP=1
fi
[ "$GROUP" = 1 ] || echo "note: no setsid or pgrep: every kill is the parent's alone, its workers unchecked"
mkfifo "$TMP/tick" && exec 9<>"$TMP/tick" # pause: read's timeout, no process to start
pause() { read -rt "$(secs "$1")" -u 9 || true; }
kill_at() {
  local ms=$1 db=$2 jobs=${3:-2} pid k i t0 left
  KILLS=$((KILLS + 1))
  exec 8>&2 2>/dev/null # (not bash's "Killed" notices)
  now
  t0=$NOW
  if [ "$GROUP" = 1 ]; then
    setsid "$DSE" run --quiet "$TMP/crash.lua" "$db" "$jobs" >/dev/null 2>"$TMP/kill.err" &
  else
    "$DSE" run --quiet "$TMP/crash.lua" "$db" "$jobs" >/dev/null 2>"$TMP/kill.err" &
  fi
  pid=$!
  pause "$ms"
  if [ "$GROUP" = 1 ] && [ $((KILLS % 2)) = 0 ]; then
    kill -KILL -- "-$pid" || kill -KILL "$pid" # (-pid: none before setsid has run)
  else
    kill -KILL "$pid"
  fi
  now
  AT=$((NOW - t0))
  wait "$pid"
  CODE=$?
  exec 2>&8 8>&-
  case $CODE in
    137) LANDED=$((LANDED + 1)); ok ;;
    0) ok ;;
    *) bad "kill $KILLS (at $ms ms): exit $CODE before the kill: $(head -3 "$TMP/kill.err")" ;;
  esac
  [ "$GROUP" = 1 ] || return 0
  for i in $(seq 200); do # its workers, still in its group (a zombie, Z, has ended)
    left=""
    for k in $(pgrep -g "$pid"); do
      [ "$(awk '{ print $3 }' "/proc/$k/stat" 2>/dev/null)" = Z ] || left="$left $k"
    done
    [ -z "$left" ] && break
    pause 50
  done
  [ -z "$left" ] && ok || bad "kill $KILLS: workers$left still run 10 s after their parent was killed"
}

# ---- the reference: an uninterrupted run; a second run reads it all back
sweep "$REF"
expect_code 0 "reference"
expect_err "= $PLANNED results in" "reference"
T=$TOOK
sweep "$REF"
expect_code 0 "reference again"
expect_err ", $PLANNED from the store" "reference again: every result read back"
T0=$TOOK
[ "$(q "$REF" "SELECT count(*) FROM results WHERE status = 'ok';")" = "$PLANNED" ] && ok || bad "reference: not $PLANNED ok results"
[ "$(q "$REF" "SELECT count(DISTINCT key) FROM layers;")" = "$PLANNED" ] && ok || bad "reference: not every result's layers"
"$DSE" export "$REF" >"$TMP/ref.csv" && "$DSE" export "$REF" --format json >"$TMP/ref.json" && ok || bad "reference: export"
SIZE=$(stat -c %s "$REF")
echo "reference: $PLANNED results in $T ms (all read back in $T0 ms), $SIZE bytes (${SECONDS} s)"

# ---- early kills: a fresh store killed as dse starts, creates it and sets
# its sweep up (moments scaled by a read-back run, which is little more
# than that), killed again at the next moment each time it is resumed;
# then resumed to its end
E="$TMP/early.db"
log=""
for ms in $((T0 / 8)) $((T0 / 5)) $((T0 / 3)) $((T0 / 2)) "$T0"; do
  kill_at "$ms" "$E"
  consistent "$E" "early kill at $ms ms"
  log="$log $AT:$([ "$CODE" = 137 ] && echo killed || echo ended):$([ -e "$E" ] && echo "$COUNT" || echo none)"
done
echo "early kills (ms:outcome:results):$log"
resume "$E" "early kills"
[ "$TOOK" -ge "$T" ] || [ "$COUNT" -gt 0 ] || T=$TOOK # (T: the quickest whole run seen)

# ---- late kills, of a fresh store just before a whole run's end, and of
# one with a single worker (the sweep in one process) halfway; each resumed
late() { # late N MS JOBS
  local db="$TMP/late$1.db"
  kill_at "$2" "$db" "$3"
  consistent "$db" "late kill $1 at $2 ms"
  echo "late kill $1 (jobs = $3): at $AT ms, $([ "$CODE" = 137 ] && echo killed || echo ended), $COUNT results"
  resume "$db" "late kill $1" "$3"
}
late 1 $((T * 97 / 100)) 2
late 2 $((T * 60 / 100)) 1
echo "(${SECONDS} s)"

# ---- one store killed 20 times in succession, each run resuming the last;
# a run that ends before its kill has completed the store: it equals the
# reference, and the kills go on with a new store
RANDOM=20261207
B="$TMP/chain.db"
COUNT=0
prev=0
landed0=$LANDED
log=""
stores=1
for i in $(seq 20); do
  est=$((T0 + (T - T0) * (PLANNED - COUNT) / PLANNED)) # what this run has to do (ms)
  ms=$((est * (2 + RANDOM % 108) / 100)) # (past the end now and then: the store completed)
  kill_at "$ms" "$B"
  consistent "$B" "chain kill $i (at $ms ms)"
  [ "$COUNT" -ge "$prev" ] && ok || bad "chain kill $i: $COUNT results, $prev before: committed results lost"
  log="$log $AT:$([ "$CODE" = 137 ] && echo killed || echo ended):$COUNT"
  prev=$COUNT
  if [ "$CODE" = 0 ] && [ "$i" -lt 20 ]; then
    same "$B" "chain store $stores, ended at kill $i"
    rm -f "$B" "$B-wal" "$B-shm"
    COUNT=0
    prev=0
    stores=$((stores + 1))
    log="$log |"
  fi
done
echo "chain (ms:outcome:results, | a new store):$log"
echo "chain: $((LANDED - landed0)) of 20 kills landed while the sweep ran, $stores stores (${SECONDS} s)"
[ $((LANDED - landed0)) -ge 5 ] && ok || bad "chain: only $((LANDED - landed0)) of 20 kills landed while the sweep ran"
resume "$B" "chain"

# ---- the disk full
# diskfull DB WHAT: a run that fails writing DB: a clear error naming the
# store (exit 2, as every store error, docs/store.md), no crash; then a
# consistent store
diskfull() {
  local db=$1 what=$2 n
  case $CODE in
    2) ok ;;
    0) bad "$what: the sweep did not fail (the limit is too high?)" ;;
    *) bad "$what: exit $CODE (a signal: $((CODE > 128 ? CODE - 128 : 0))), want 2: $ERR" ;;
  esac
  n=$(printf '%s\n' "$ERR" | grep -c ': error: ')
  case "$ERR" in
    "$db: error: cannot "*" the store ("*"disk"*")"*) ok ;;
    *) bad "$what: the message: $ERR" ;;
  esac
  case "$ERR" in *"no transaction is active"*) bad "$what: a second, confusing error: $ERR" ;; *) ok ;; esac
  echo "$what: exit $CODE, $n error line(s): $(printf '%s\n' "$ERR" | head -1)"
  consistent "$db" "$what" 0
  echo "$what: the store holds $COUNT results"
}

# under a file-size limit of 40% of the store (each of the store and its
# WAL: together they cannot hold it, SQLite leaving in the WAL what does
# not fit in the store): SIGXFSZ ignored, the write fails with EFBIG
F="$TMP/fsize.db"
limit=$((SIZE * 4 / 10 / 1024))
run bash -c 'ulimit -f "$1" && exec "$2" run "$3" "$4"' _ "$limit" "$DSE" "$TMP/crash.lua" "$F"
diskfull "$F" "file-size limit ($limit KiB)"
resume "$F" "after the file-size limit"

# a store that cannot even be created (8 KiB): the error, no file left
run bash -c 'ulimit -f 8 && exec "$1" run "$2" "$3"' _ "$DSE" "$TMP/crash.lua" "$TMP/small.db"
expect_code 2 "a store that cannot be created"
case "$ERR" in
  *"dse.sweep: store: $TMP/small.db: cannot "*" the store ("*"disk"*")"*) ok ;;
  *) bad "a store that cannot be created: the message: $ERR" ;;
esac
expect_no_file "$TMP/small.db" "a store that cannot be created"
echo "a store that cannot be created: exit $CODE: $(printf '%s\n' "$ERR" | head -1)"

# on a tmpfs of half the store's size, made larger (or the store moved) to
# resume
mkdir -p "$TMP/mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=$((SIZE / 2 / 1024))k tmpfs "$TMP/mnt" 2>/dev/null; then
  MNT="$TMP/mnt"
  D="$MNT/full.db"
  run "$DSE" run "$TMP/crash.lua" "$D"
  diskfull "$D" "a full tmpfs ($((SIZE / 2 / 1024)) KiB)"
  if mount -o remount,size=$((SIZE * 4 / 1024))k "$MNT" 2>/dev/null; then
    resume "$D" "after the full tmpfs"
  else
    for f in "" -wal; do [ -e "$D$f" ] && cp "$D$f" "$TMP/moved.db$f"; done
    resume "$TMP/moved.db" "after the full tmpfs (moved)"
  fi
  umount "$MNT" && MNT=""
else
  echo "skipped: the full tmpfs (cannot mount one here)"
fi

echo "$KILLS kills, $LANDED landed while the sweep ran (${SECONDS} s)"
finish
