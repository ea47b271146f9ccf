#!/usr/bin/env bash
# DWARF -> GSYM conversion, ours beside llvm-gsymutil-22, on libjvm.so's debug file from Debian's
# openjdk-17-dbg (zlib SHF_COMPRESSED sections; 364 MB of DWARF once inflated). Reports wall time
# (best of 3), peak RSS of that run, output size and the ratios ours/llvm, checks the outputs are
# byte-identical, and that 100,000 random .text addresses (fixed seed) look up identically in both
# files with both tools (--addresses-from-stdin).
# llvm runs with --num-threads=1 (the mode whose output we reproduce byte for byte); its default
# (all cores) is timed too, for reference.
# Usage: bench/convert-vs-llvm.sh [WORKDIR]   (default /tmp/gsym-bench; downloads ~240 MB once)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
work="${1:-/tmp/gsym-bench}"
N=${N:-100000}
mkdir -p "$work" && cd "$work"

fetch_libjvm_debug
"$here/gsymutil" --version > /dev/null   # build first, outside the timings (the launcher rebuilds only on change)
cat libjvm.debug > /dev/null             # page cache warm for both
mkdir -p llvm ours llvm-mt

read -r llvm_s llvm_kb < <(measure llvm-gsymutil-22 --quiet --convert libjvm.debug --num-threads=1 -o llvm/libjvm.gsym)
read -r our_s our_kb < <(measure "$here/gsymutil" --quiet --dwarf libjvm.debug -o ours/libjvm.gsym)
mkdir -p ours1
read -r our1_s our1_kb < <(measure "$here/gsymutil" --quiet --dwarf libjvm.debug --num-threads 1 -o ours1/libjvm.gsym)
read -r mt_s mt_kb < <(measure llvm-gsymutil-22 --quiet --convert libjvm.debug -o llvm-mt/libjvm.gsym)
llvm_b=$(stat -c %s llvm/libjvm.gsym)
our_b=$(stat -c %s ours/libjvm.gsym)
identical=no; cmp -s llvm/libjvm.gsym ours/libjvm.gsym && cmp -s llvm/libjvm.gsym ours1/libjvm.gsym && identical=yes

# N random addresses in .text (fixed seed), as "<addr> libjvm.gsym" lines.
read -r taddr tsize < <(readelf -SW libjvm.debug | awk '$2 == ".text" {print $4, $6}')
python3 - "$taddr" "$tsize" "$N" > addrs.txt <<'PY'
import random, sys
a, s, n = int(sys.argv[1], 16), int(sys.argv[2], 16), int(sys.argv[3])
r = random.Random(20261122)
for _ in range(n):
    print(f"{a + r.randrange(s):#x} libjvm.gsym")
PY
(cd llvm && llvm-gsymutil-22 --addresses-from-stdin < ../addrs.txt > ../lookups.llvm.txt 2> ../lookups.llvm.err) || true
(cd ours && "$here/gsymutil" --addresses-from-stdin < ../addrs.txt > ../lookups.ours.txt 2> ../lookups.ours.err) || true
(cd ours && llvm-gsymutil-22 --addresses-from-stdin < ../addrs.txt > ../lookups.llvm-on-ours.txt 2> ../lookups.llvm-on-ours.err) || true
lookups=no
cmp -s lookups.llvm.txt lookups.ours.txt && cmp -s lookups.llvm.txt lookups.llvm-on-ours.txt \
  && cmp -s lookups.llvm.err lookups.ours.err && lookups=yes
found=$(grep -c -v -e 'error' -e '^$' lookups.llvm.txt || true)

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)"
echo "input: libjvm.debug, $(stat -c %s libjvm.debug) bytes"
awk -v ls="$llvm_s" -v lk="$llvm_kb" -v os="$our_s" -v ok="$our_kb" -v ms="$mt_s" -v mk="$mt_kb" \
    -v lb="$llvm_b" -v ob="$our_b" -v o1s="$our1_s" -v o1k="$our1_kb" 'BEGIN {
  printf "%-44s %8s %12s %12s\n", "command", "wall s", "peak RSS MB", "output B"
  printf "%-44s %8.2f %12.0f %12d\n", "llvm-gsymutil-22 --convert --num-threads=1", ls, lk / 1024, lb
  printf "%-44s %8.2f %12.0f %12s\n", "llvm-gsymutil-22 --convert (all threads)", ms, mk / 1024, "-"
  printf "%-44s %8.2f %12.0f %12d\n", "gsymutil --dwarf (all cores)", os, ok / 1024, ob
  printf "%-44s %8.2f %12.0f %12s\n", "gsymutil --dwarf --num-threads 1", o1s, o1k / 1024, "-"
  printf "ratios ours(all cores)/llvm(1 thread): wall %.2f  peak RSS %.2f  size %.3f   (targets <= 1.0)\n", os / ls, ok / lk, ob / lb
  printf "ratio ours(all cores)/llvm(all threads) wall: %.2f   ours(1)/llvm(1) wall: %.2f  RSS %.2f\n", os / ms, o1s / ls, o1k / lk
}'
echo "outputs byte-identical (ours with 2 and 1 threads vs llvm --num-threads=1): $identical"
echo "lookups of $N random .text addresses identical (both tools, both files): $lookups ($found output lines from llvm)"
