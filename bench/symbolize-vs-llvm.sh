#!/usr/bin/env bash
# gsymutil symbolize beside llvm-symbolizer-22, as whole processes, on N (default 1,000,000)
# (build-id, address) pairs: "BUILDID:<hex> 0x<addr>" lines on stdin, --output-style=JSON (STYLE=
# LLVM or GNU to change), over every test binary of src-test-data with its own build-id (33
# modules) plus libjvm.so's debug file (OpenJDK 17, Debian's openjdk-17-dbg), all found through
# one debug directory laid out as .build-id/xx/yyyy.debug. Each pair picks libjvm with probability
# JVM_SHARE (default 0.5), else one of the small modules uniformly, then an address uniformly in
# that module's .text (fixed seed). Three commands, interleaved, RUNS rounds (default 3):
#   llvm-symbolizer-22 --debug-file-directory=DIR --output-style=JSON < in > llvm.out
#   gsymutil symbolize --debug-file-directory=DIR --store=WARM ...  < in > warm.out   (GSYMs present)
#   gsymutil symbolize --debug-file-directory=DIR --store=COLD ...  < in > cold.out   (store emptied
#                                                                      before each run: every module converted)
# and prints, for the fastest round of each, wall time (to the last answer), CPU, peak RSS
# (/usr/bin/time), pairs/s, and the ratios against llvm (targets: warm throughput >= 50x llvm's;
# cold time to the last answer <= llvm's; peak RSS below llvm's). Checks that the warm and cold
# outputs are identical and that every command answered every pair.
# stdout goes to tmpfs (OUT_DIR, default /dev/shm/gsym-symbolize-bench when /dev/shm exists).
# Usage: bench/symbolize-vs-llvm.sh [WORKDIR [LIBJVM_DEBUG]]   (default /tmp/gsym-bench; without
# LIBJVM_DEBUG uses /tmp/jvmdbg/libjvm.debug, else downloads the .deb (~240 MB once));
# N=100000 RUNS=1 for a quick run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
work="${1:-/tmp/gsym-bench}"
N=${N:-1000000}
RUNS=${RUNS:-3}
STYLE=${STYLE:-JSON}
JVM_SHARE=${JVM_SHARE:-0.5}
mkdir -p "$work" && cd "$work"

libjvm_debug "${2:-}"   # sets jvm
"$here/gsymutil" --version > /dev/null   # build first, outside the timings (the launcher rebuilds only on change)

# The debug directory: one file per build-id (the first binary of each; compressed-section variants
# share their build-id), split DWARF beside it where its file is looked for.
dbg="$work/symbolize-debug"
rm -rf "$dbg" && mkdir -p "$dbg"
modules="$work/symbolize-modules.txt"
: > "$modules"
add_module() { # FILE: links it under its build-id; appends "hex text_start text_size" to $modules
  local f="$1" id tx
  id=$(elf_build_id "$f")
  [ -n "$id" ] || return 0
  [ -e "$dbg/.build-id/${id:0:2}/${id:2}.debug" ] && return 0
  mkdir -p "$dbg/.build-id/${id:0:2}"
  ln -s "$f" "$dbg/.build-id/${id:0:2}/${id:2}.debug"
  [ -f "$f.dwp" ] && ln -s "$f.dwp" "$dbg/.build-id/${id:0:2}/${id:2}.debug.dwp"
  for dwo in "${f}"-*.dwo; do [ -f "$dwo" ] && ln -sf "$dwo" "$dbg/.build-id/${id:0:2}/$(basename "$dwo")"; done
  tx=$(elf_text "$f")
  echo "$id $tx" >> "$modules"
}
for f in "$here"/src-test-data/bin/*; do
  case "$f" in *.dwo|*.dwp) continue ;; esac
  add_module "$f"
done
small=$(wc -l < "$modules")
add_module "$jvm"
[ "$(wc -l < "$modules")" -gt "$small" ] || { echo "no build-id in $jvm" >&2; exit 1; }
cat "$jvm" > /dev/null   # page cache warm for both

python3 - "$modules" "$N" "$JVM_SHARE" > symbolize-in.txt <<'PY'
import random, sys
mods = [l.split() for l in open(sys.argv[1])]
jvm, small = mods[-1], mods[:-1]
n, share = int(sys.argv[2]), float(sys.argv[3])
r = random.Random(20261125)
out = sys.stdout
for _ in range(n):
    m = jvm if r.random() < share else small[r.randrange(len(small))]
    start, size = int(m[1], 16), int(m[2], 16)
    out.write(f"BUILDID:{m[0]} {start + r.randrange(size):#x}\n")
PY

out="${OUT_DIR:-}"
if [ -z "$out" ]; then
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then out=/dev/shm/gsym-symbolize-bench; else out="$work/out"; fi
fi
mkdir -p "$out"
trap 'rm -f "$out"/*.out' EXIT

warm="$work/symbolize-store-warm"
cold="$work/symbolize-store-cold"
common=(--debug-file-directory="$dbg" --output-style="$STYLE" --no-debuginfod)
# the warm store: every module converted once, not timed
rm -rf "$warm"
cut -d' ' -f1 "$modules" | sed 's/^/BUILDID:/; s/$/ 0x0/' | "$here/gsymutil" symbolize "${common[@]}" --store="$warm" > /dev/null

# run NAME CMD...: CMD < symbolize-in.txt > OUT/NAME.out 2> OUT/NAME.err; prints "wall_s maxrss_kb cpu_s"
run() {
  local name="$1" t0 t1 line; shift
  t0=$(date +%s%N)
  line=$( { /usr/bin/time -f "%M %U %S" sh -c 'name="$1"; shift; exec "$@" < symbolize-in.txt > "$name.out" 2> "$name.err"' sh "$out/$name" "$@"; } 2>&1 | tail -n1 )
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" -v l="$line" 'BEGIN{split(l, f, " "); printf "%.4f %d %.2f\n", (b - a) / 1e9, f[1], f[2] + f[3]}'
}
best() { # keeps the fastest of "wall rss cpu" lines read from stdin
  sort -n -k1,1 | head -n1
}
: > llvm.times; : > warm.times; : > cold.times
for ((i = 0; i < RUNS; i++)); do
  run llvm llvm-symbolizer-22 "${common[@]}" >> llvm.times
  run warm "$here/gsymutil" symbolize "${common[@]}" --store="$warm" >> warm.times
  rm -rf "$cold"
  run cold "$here/gsymutil" symbolize "${common[@]}" --store="$cold" >> cold.times
done
read -r llvm_s llvm_kb llvm_cpu < <(best < llvm.times)
read -r warm_s warm_kb warm_cpu < <(best < warm.times)
read -r cold_s cold_kb cold_cpu < <(best < cold.times)

answers() { if [ "$STYLE" = JSON ]; then wc -l < "$1"; else grep -c '^$' "$1" || true; fi; }
same=no; cmp -s "$out/warm.out" "$out/cold.out" && cmp -s "$out/warm.err" "$out/cold.err" && same=yes
complete=yes
for x in llvm warm cold; do [ "$(answers "$out/$x.out")" -eq "$N" ] || complete=NO; done
[ "$STYLE" = GNU ] && complete="n/a (GNU style has no separator)"

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $N pairs over $(wc -l < "$modules") modules (libjvm share $JVM_SHARE), $(stat -c %s symbolize-in.txt) bytes; style $STYLE; output $(stat -c %s "$out/llvm.out") bytes (llvm), $(stat -c %s "$out/warm.out") bytes (ours)"
echo "stderr lines: llvm $(wc -l < "$out/llvm.err"), warm $(wc -l < "$out/warm.err"), cold $(wc -l < "$out/cold.err")"
awk -v n="$N" -v ls="$llvm_s" -v lk="$llvm_kb" -v lc="$llvm_cpu" -v ws="$warm_s" -v wk="$warm_kb" -v wc="$warm_cpu" \
    -v cs="$cold_s" -v ck="$cold_kb" -v cc="$cold_cpu" -v runs="$RUNS" -v same="$same" -v complete="$complete" 'BEGIN {
  printf "%-44s %8s %8s %8s %12s %10s\n", "command (fastest of " runs ")", "wall s", "CPU s", "RSS MB", "pairs/s", "vs llvm"
  printf "%-44s %8.2f %8.2f %8.0f %12.0f %10s\n", "llvm-symbolizer-22", ls, lc, lk / 1024, n / ls, "1.00"
  printf "%-44s %8.2f %8.2f %8.0f %12.0f %9.1fx\n", "gsymutil symbolize, warm store", ws, wc, wk / 1024, n / ws, ls / ws
  printf "%-44s %8.2f %8.2f %8.0f %12.0f %9.2fx\n", "gsymutil symbolize, cold (empty store)", cs, cc, ck / 1024, n / cs, ls / cs
  printf "warm throughput ours/llvm: %.1fx (target >= 50)\n", ls / ws
  printf "cold time to the last answer: %.2f s vs llvm %.2f s (target: no more than llvm)\n", cs, ls
  printf "peak RSS: warm %.0f MB, cold %.0f MB, llvm %.0f MB (target: below llvm)\n", wk / 1024, ck / 1024, lk / 1024
  printf "warm and cold outputs identical: %s; every pair answered by all three: %s\n", same, complete
}'
[ "$same" = yes ]
