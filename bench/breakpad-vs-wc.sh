#!/usr/bin/env bash
# Breakpad .sym -> GSYM conversion throughput and peak RSS, beside `wc -l` on the same file.
# Input: libjvm.so's symbols from Debian's openjdk-17-dbg: llvm-gsymutil-22 converts the DWARF to
# GSYM, our --to-breakpad turns that into a .sym (tens of MB), then both commands read the .sym.
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
"$here/gsymutil" --version > /dev/null   # build first, outside the timings

size=$(stat -c %s libjvm.sym)
cat libjvm.sym > /dev/null               # page cache warm for both
read -r wc_s wc_kb < <(measure wc -l libjvm.sym)
read -r our_s our_kb < <(measure "$here/gsymutil" --quiet --breakpad libjvm.sym -o libjvm.from-sym.gsym)
awk -v size="$size" -v ws="$wc_s" -v wk="$wc_kb" -v os="$our_s" -v ok="$our_kb" 'BEGIN {
  mb = size / 1e6
  printf "input: libjvm.sym, %.1f MB\n", mb
  printf "%-28s %8s %10s %12s\n", "command", "wall s", "MB/s", "peak RSS MB"
  printf "%-28s %8.3f %10.0f %12.1f\n", "wc -l", ws, mb / ws, wk / 1024
  printf "%-28s %8.3f %10.1f %12.1f\n", "gsymutil --breakpad", os, mb / os, ok / 1024
  printf "ratio ours/wc wall: %.1f (target <= 3)   peak RSS / .sym size: %.2f (target < 1)\n",
    os / ws, (ok * 1024) / size
}'
