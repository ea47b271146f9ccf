#!/usr/bin/env bash
# gsymutil serve under load, with Debian's wrk on loopback: 100-frame POST /symbolicate requests
# over libjvm.so's debug file (OpenJDK 17, Debian's openjdk-17-dbg; 100 random .text addresses,
# fixed seed), asked by build-id through a debug directory.
#  1. cold: a fresh store; the time of the first answer (the server converts libjvm, in a child
#     JVM) beside the time of 'gsymutil --dwarf libjvm.debug' (the conversion alone), COLD_RUNS
#     pairs (default 3), and the median difference. Target: answer <= conversion + 100 ms.
#  2. warm: a new server on the now warm store, warmed up by 10 s of load, then wrk at 1, 16 and
#     256 connections (DURATION seconds each, default 30), printing frames/s, p50/p99 latency,
#     errors (socket errors + non-2xx answers). Targets: >= 300,000 frames/s at 16 connections
#     with p99 < 25 ms and 0 errors; 0 errors at 256.
#  3. the heap after the 256-connection run against before it (live bytes after a full GC,
#     jcmd GC.class_histogram without the collector's filler objects; the warm-up has run 256 connections once already, so that pools
#     and caches that fill once are full before). Target: no growth.
# Usage: bench/serve-load.sh [WORKDIR]   (default /tmp/gsym-bench); DURATION=... to change the runs,
#        COLD_RUNS=N, WARM=0 for the cold module alone.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
work="${1:-/tmp/gsym-bench}"
DURATION=${DURATION:-30}
mkdir -p "$work" && cd "$work"
command -v wrk > /dev/null || { echo "serve-load.sh needs wrk (apt-get install wrk)" >&2; exit 1; }
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export JAVA_HOME

if [ -f /tmp/jvmdbg/libjvm.debug ]; then
  debug=/tmp/jvmdbg/libjvm.debug
else
  fetch_libjvm_debug
  debug="$work/libjvm.debug"
fi
"$here/gsymutil" --version > /dev/null   # build first, outside the timings
cat "$debug" > /dev/null                 # page cache warm

id=$(readelf -n "$debug" | awk '/Build ID:/ {id = $3} END {print id}')
dbgdir="$work/serve-debug"
mkdir -p "$dbgdir/.build-id/${id:0:2}"
ln -sf "$debug" "$dbgdir/.build-id/${id:0:2}/${id:2}.debug"

# 100 random .text addresses (fixed seed), one stack
read -r taddr tsize < <(readelf -SW "$debug" | awk '$2 == ".text" {print $4, $6}')
python3 - "$taddr" "$tsize" "$id" > serve-body.json <<'PY'
import json, random, sys
a, s, bid = int(sys.argv[1], 16), int(sys.argv[2], 16), sys.argv[3]
r = random.Random(20261125)
frames = [{"module": 0, "address": hex(a + r.randrange(s))} for _ in range(100)]
json.dump({"modules": [{"build_id": bid}], "stacks": [{"frames": frames}]}, sys.stdout)
PY
export GSYM_BODY="$work/serve-body.json"

pid=""
port=""
stop_server() {
  if [ -n "$pid" ]; then kill "$pid" 2> /dev/null || true; wait "$pid" 2> /dev/null || true; pid=""; fi
}
trap stop_server EXIT
# start_server STORE LOG: a server on a free loopback port; sets pid and port
start_server() {
  "$here/gsymutil" serve --store "$1" --debug-file-directory "$dbgdir" --no-debuginfod --listen 127.0.0.1:0 2> "$2" &
  pid=$!
  for _ in $(seq 600); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$2" | head -n1)
    [ -n "$port" ] && return 0
    kill -0 "$pid" 2> /dev/null || { cat "$2" >&2; exit 1; }
    sleep 0.1
  done
  echo "server did not start" >&2; exit 1
}
# heap_used: bytes of live objects after a full GC: jcmd GC.class_histogram (which collects first)
# without jdk.internal.vm.FillerElement arrays. Those are dead space the Serial collector leaves in
# place rather than compacting it (MarkSweepDeadRatio, up to 5% of the old generation): 0 to 12 MB
# from one full GC to the next on the same live objects, which GC.heap_info's "used" counts.
heap_used() {
  "$JAVA_HOME/bin/jcmd" "$pid" GC.class_histogram | awk '/FillerElement/ { f += $3 } /^Total/ { t = $3 } END { printf "%d", t - f }'
}
# load CONNECTIONS SECONDS: one wrk run; prints the summary line of serve-load.lua
load() {
  wrk -t"$(( $1 < 2 ? 1 : 2 ))" -c"$1" -d"$2"s --timeout 10s -s "$here/bench/serve-load.lua" "http://127.0.0.1:$port/symbolicate" \
    | sed -n 's/^GSYM //p'
}
row() { # row LABEL SUMMARY
  awk -v label="$1" '{
    for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    errs = v["errors_connect"] + v["errors_read"] + v["errors_write"] + v["errors_status"] + v["errors_timeout"]
    kinds = ""
    split("connect read write status timeout", k, " ")
    for (j = 1; j <= 5; j++) if (v["errors_" k[j]] > 0) kinds = kinds " " k[j] "=" v["errors_" k[j]]
    printf "| %s | %d | %.0f | %.2f | %.2f | %d%s |\n", label, v["requests"], v["requests"] * 100 / (v["duration_us"] / 1e6),
      v["p50_us"] / 1000, v["p99_us"] / 1000, errs, kinds == "" ? "" : " (" substr(kinds, 2) ")" }' <<< "$2"
}

echo "== $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(basename "$debug") build-id $id"

# 1. cold module, COLD_RUNS times (default 3), the answer and the conversion alone alternating
cold_diffs=()
for run in $(seq "${COLD_RUNS:-3}"); do
  rm -rf "$work/serve-store"
  s=$(MEASURE_RUNS=1 measure "$here/gsymutil" --dwarf "$debug" -o "$work/serve-conv.gsym")
  conv=${s%% *}
  start_server "$work/serve-store" "$work/serve-cold.log"
  first=$(curl -s -o "$work/serve-first.json" -w '%{time_total}' -H 'Content-Type: application/json' \
    --data-binary "@$GSYM_BODY" "http://127.0.0.1:$port/symbolicate")
  grep -q '"status":"found"' "$work/serve-first.json" || { echo "cold answer: $(head -c 300 "$work/serve-first.json")" >&2; exit 1; }
  stop_server
  d=$(awk -v a="$first" -v c="$conv" 'BEGIN { printf "%+.2f", a - c }')
  cold_diffs+=("$d")
  echo "cold module, run $run: first answer ${first} s; gsymutil --dwarf alone ${conv} s (${d} s; target: <= +0.1 s)"
done
echo "cold module: answer - conversion, median $(printf '%s\n' "${cold_diffs[@]}" | sort -g | awk '{ v[NR] = $1 } END { printf "%+.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }') s over ${#cold_diffs[@]} runs"
[ "${WARM:-1}" = 0 ] && exit 0

# 2. warm modules
start_server "$work/serve-store" "$work/serve-warm.log"
load 16 10 > /dev/null   # JIT warm-up, and Jetty's buffer pool and the caches filled for many connections
load 256 5 > /dev/null
echo
echo "| connections | requests | frames/s | p50 ms | p99 ms | errors |"
echo "|---:|---:|---:|---:|---:|---:|"
row 1 "$(load 1 "$DURATION")"
row 16 "$(load 16 "$DURATION")"
before=$(heap_used)
row 256 "$(load 256 "$DURATION")"
after=$(heap_used)
echo
echo "live heap after a full GC: before the 256-connection run $((before / 1024)) KiB, after it $((after / 1024)) KiB ($(awk -v a="$after" -v b="$before" 'BEGIN { printf "%+.0f KiB, %+.2f %%", (a - b) / 1024, (a - b) * 100 / b }'))"
stop_server
