#!/usr/bin/env bash
# Batch symbolication, ours beside llvm-gsymutil-22, as whole processes: N (default 1,000,000)
# random .text addresses of libjvm.so (OpenJDK 17, Debian's openjdk-17-dbg; fixed seed) looked up
# in its GSYM through --addresses-from-stdin ("<addr> <gsym-path>" lines), stdin and stdout
# redirected to files. Times, best of 3 each, in one run:
#   llvm-gsymutil-22 --addresses-from-stdin < in > llvm.out
#   gsymutil --addresses-from-stdin < in > ours.out              (default --threads: all processors)
#   gsymutil --addresses-from-stdin --threads 1 < in > ours1.out
# and prints wall, CPU (user + sys), peak RSS, addresses/s and the throughput ratio ours/llvm
# (target >= 10), then
# checks that stdout and stderr of every run are byte-identical to llvm's.
# stdout (489 MB per run) goes to tmpfs (OUT_DIR, default /dev/shm/gsym-lookup-bench when /dev/shm
# exists): on a disk, the kernel's background writeback of one run's output competes for the CPU
# with the next run, which penalises whichever command runs right after another (on 2 cores, ours).
# Uses /tmp/jvmdbg/libjvm.gsym if present, else downloads the debug file (~240 MB once) and
# converts it with llvm-gsymutil-22 --convert.
# Usage: bench/lookup-vs-llvm.sh [WORKDIR]   (default /tmp/gsym-bench); N=... to change the count.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
work="${1:-/tmp/gsym-bench}"
N=${N:-1000000}
mkdir -p "$work" && cd "$work"

libjvm_files   # sets gsym and debug
"$here/gsymutil" --version > /dev/null   # build first, outside the timings (the launcher rebuilds only on change)
cat "$gsym" > /dev/null                  # page cache warm for both

# N random addresses in .text (fixed seed), as "<addr> <gsym-path>" lines.
read -r taddr tsize < <(readelf -SW "$debug" | awk '$2 == ".text" {print $4, $6}')
python3 - "$taddr" "$tsize" "$N" "$gsym" > lookup-in.txt <<'PY'
import random, sys
a, s, n, path = int(sys.argv[1], 16), int(sys.argv[2], 16), int(sys.argv[3]), sys.argv[4]
r = random.Random(20261123)
out = sys.stdout
for _ in range(n):
    out.write(f"{a + r.randrange(s):#x} {path}\n")
PY

out="${OUT_DIR:-}"
if [ -z "$out" ]; then
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then out=/dev/shm/gsym-lookup-bench; else out="$work/out"; fi
fi
mkdir -p "$out"
trap 'rm -f "$out"/*.out' EXIT

# run NAME CMD...: CMD < lookup-in.txt > OUT/NAME.out 2> OUT/NAME.err, 3 times; prints "wall_s maxrss_kb cpu_s"
# of the fastest run (wall from the ns clock, CPU = user + sys: the steadier figure on a shared machine).
run() {
  local name="$1" best="" t0 t1 s line; shift
  for _ in 1 2 3; do
    t0=$(date +%s%N)
    line=$( { /usr/bin/time -f "%M %U %S" sh -c 'name="$1"; shift; exec "$@" < lookup-in.txt > "$name.out" 2> "$name.err"' sh "$out/$name" "$@"; } 2>&1 | tail -n1 )
    t1=$(date +%s%N)
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b - a) / 1e9}')
    if [ -z "$best" ] || awk -v a="$s" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then
      best="$s $(echo "$line" | awk '{printf "%d %.2f", $1, $2 + $3}')"
    fi
  done
  echo "$best"
}
read -r llvm_s llvm_kb llvm_cpu < <(run llvm llvm-gsymutil-22 --addresses-from-stdin)
read -r our_s our_kb our_cpu < <(run ours "$here/gsymutil" --addresses-from-stdin)
read -r one_s one_kb one_cpu < <(run ours1 "$here/gsymutil" --addresses-from-stdin --threads 1)

same() { cmp -s "$out/llvm.out" "$out/$1.out" && cmp -s "$out/llvm.err" "$out/$1.err" && echo yes || echo NO; }
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $N addresses, $(stat -c %s lookup-in.txt) bytes; GSYM $gsym; output $(stat -c %s "$out/llvm.out") bytes, $(wc -l < "$out/llvm.out") lines (in $out)"
awk -v n="$N" -v ls="$llvm_s" -v lk="$llvm_kb" -v lc="$llvm_cpu" -v os="$our_s" -v ok="$our_kb" -v oc="$our_cpu" \
    -v s1="$one_s" -v k1="$one_kb" -v c1="$one_cpu" -v t="$(nproc)" -v same="$(same ours)" -v same1="$(same ours1)" 'BEGIN {
  printf "%-48s %8s %8s %8s %12s %10s %10s\n", "command (fastest of 3)", "wall s", "CPU s", "RSS MB", "addresses/s", "ours/llvm", "identical"
  printf "%-48s %8.2f %8.2f %8.0f %12.0f %10s %10s\n", "llvm-gsymutil-22 --addresses-from-stdin", ls, lc, lk / 1024, n / ls, "1.00", "-"
  printf "%-48s %8.2f %8.2f %8.0f %12.0f %10.2f %10s\n", "gsymutil --addresses-from-stdin (" t " threads)", os, oc, ok / 1024, n / os, ls / os, same
  printf "%-48s %8.2f %8.2f %8.0f %12.0f %10.2f %10s\n", "gsymutil --addresses-from-stdin --threads 1", s1, c1, k1 / 1024, n / s1, ls / s1, same1
  printf "throughput ours/llvm (llvm wall / ours wall): %.1fx with %d threads, %.1fx with 1 (target >= 10)\n", ls / os, t, ls / s1
  printf "CPU ours/llvm (llvm CPU / ours CPU): %.1fx with %d threads, %.1fx with 1\n", lc / oc, t, lc / c1
}'
[ "$(same ours)" = yes ] && [ "$(same ours1)" = yes ]
