#!/usr/bin/env bash
# Breakpad .sym <-> GSYM conversion: wall time, throughput and peak RSS, beside `wc -l` on the .sym.
# Input: libjvm.so's symbols from Debian's openjdk-17-dbg: llvm-gsymutil-22 converts the DWARF to
# GSYM, our --to-breakpad turns that into a .sym (57 MB), then:
#   wc -l libjvm.sym                      (the floor: one pass over the bytes)
#   gsymutil --breakpad libjvm.sym        (.sym -> GSYM)
#   gsymutil --to-breakpad libjvm.gsym    (GSYM -> .sym)
#   gsymutil --breakpad big.sym           (bench/bigsym.py: libjvm.sym 8 times, ~480 MB)
# Each is timed best of 3 with a warm page cache (bench/lib.sh measure); the --breakpad rows also
# give the CPU time (user + sys) of that run and MB/s per CPU second, which vary less than wall time
# on a shared machine. JVM flags can be tried without editing the launcher:
# JAVA_TOOL_OPTIONS="-Xmn8m" bench/breakpad-vs-wc.sh
# Usage: bench/breakpad-vs-wc.sh [WORKDIR]   (default /tmp/gsym-bench; downloads ~240 MB once)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
work="${1:-/tmp/gsym-bench}"
mkdir -p "$work" && cd "$work"

if [ ! -f libjvm.gsym ]; then
  fetch_libjvm_debug
  llvm-gsymutil-22 --quiet --convert libjvm.debug -o libjvm.gsym > /dev/null
fi
[ -f libjvm.sym ] || "$here/gsymutil" --quiet --to-breakpad libjvm.gsym -o libjvm.sym > /dev/null
[ -f big.sym ] || python3 "$here/bench/bigsym.py" libjvm.sym 8 > big.sym
"$here/gsymutil" --version > /dev/null   # build first, outside the timings

size=$(stat -L -c %s libjvm.sym)
gsize=$(stat -L -c %s libjvm.gsym)
cat libjvm.sym libjvm.gsym > /dev/null   # page cache warm for all
read -r wc_s wc_kb < <(measure wc -l libjvm.sym)
read -r jvm_s jvm_kb < <(measure "$here/gsymutil" --version)
read -r from_s from_kb from_cpu < <(MEASURE_CPU=1 measure "$here/gsymutil" --quiet --breakpad libjvm.sym -o libjvm.from-sym.gsym)
read -r to_s to_kb < <(measure "$here/gsymutil" --quiet --to-breakpad libjvm.gsym -o libjvm.to-sym.sym)
bsize=$(stat -L -c %s big.sym)
cat big.sym > /dev/null
read -r big_s big_kb big_cpu < <(MEASURE_CPU=1 measure "$here/gsymutil" --quiet --breakpad big.sym -o big.gsym)
cmp -s libjvm.sym libjvm.to-sym.sym || echo "note: --to-breakpad output differs from libjvm.sym (written by another version?)"
awk -v size="$size" -v gsize="$gsize" -v ws="$wc_s" -v wk="$wc_kb" -v js="$jvm_s" -v jk="$jvm_kb" \
    -v fs="$from_s" -v fk="$from_kb" -v fc="$from_cpu" -v ts="$to_s" -v tk="$to_kb" \
    -v bsize="$bsize" -v bs="$big_s" -v bk="$big_kb" -v bc="$big_cpu" 'BEGIN {
  mb = size / 1e6
  printf "input: libjvm.sym %.1f MB, libjvm.gsym %.1f MB\n", mb, gsize / 1e6
  printf "%-36s %8s %10s %12s %10s\n", "command", "wall s", "MB/s", "peak RSS MB", "wall / wc"
  printf "%-36s %8.3f %10.0f %12.1f %10.1f\n", "wc -l libjvm.sym", ws, mb / ws, wk / 1024, 1
  printf "%-36s %8.3f %10s %12.1f %10.1f\n", "gsymutil --version (JVM + CLI start)", js, "-", jk / 1024, js / ws
  printf "%-36s %8.3f %10.1f %12.1f %10.1f\n", "gsymutil --breakpad libjvm.sym", fs, mb / fs, fk / 1024, fs / ws
  printf "%-36s %8.3f %10.1f %12.1f %10.1f\n", "gsymutil --to-breakpad libjvm.gsym", ts, mb / ts, tk / 1024, ts / ws
  printf "targets: --breakpad wall <= 3x wc -l (now %.0fx), peak RSS < .sym size (now %.2fx)\n",
    fs / ws, (fk * 1024) / size
  bmb = bsize / 1e6
  printf "%-36s %8s %10s %8s %10s %12s %10s\n", "--breakpad (best of 3)", "wall s", "MB/s", "CPU s", "MB/CPU-s", "peak RSS MB", "RSS/input"
  printf "%-36s %8.3f %10.1f %8.2f %10.1f %12.1f %10.2f\n", "libjvm.sym (" sprintf("%.1f", mb) " MB)", fs, mb / fs, fc, mb / fc, fk / 1024, (fk * 1024) / size
  printf "%-36s %8.3f %10.1f %8.2f %10.1f %12.1f %10.2f\n", "big.sym (" sprintf("%.1f", bmb) " MB)", bs, bmb / bs, bc, bmb / bc, bk / 1024, (bk * 1024) / bsize
  printf "targets (issue 38): big.sym >= 150 MB/s (now %.0f), peak RSS <= 0.5x the input (now %.2fx)\n",
    bmb / bs, (bk * 1024) / bsize
}'
