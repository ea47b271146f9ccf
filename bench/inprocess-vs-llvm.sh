#!/usr/bin/env bash
# In-process lookups, ours beside libLLVM-22's GsymReader::lookup, one thread each and on all cores:
# N (default 200,000) random .text addresses of libjvm.so (OpenJDK 17, Debian's openjdk-17-dbg; the
# same fixed seed as bench/lookup-vs-llvm.sh) looked up in one GSYM file with full inline stacks by
#   bench/inprocess/llvm_gsym_lookup.cpp    (built here with clang++-22 against llvm-22-dev)
#   dev.gsym.bench.InProcessLookups         (gsym-bench/target/benchmarks.jar, a fresh JVM)
# each in its own process: pass 1 cold (the file just opened; for us also a JVM that has run
# nothing else), passes 2..PASSES warm, then one pass on THREADS threads. ROUNDS rounds (default 3),
# the two programs interleaved, their order swapped each round. Prints per round and the medians:
# lookups/s cold, warm (best warm pass), all cores, and ours/llvm (targets: cold >= 10, warm >= 50);
# checks that both found the same frames and lines.
# Usage: bench/inprocess-vs-llvm.sh [WORKDIR]   (default /tmp/gsym-bench); N=, PASSES=, THREADS=, ROUNDS=
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
work="${1:-/tmp/gsym-bench}"
N=${N:-200000}
PASSES=${PASSES:-5}
THREADS=${THREADS:-$(nproc)}
ROUNDS=${ROUNDS:-3}
mkdir -p "$work" && cd "$work"
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
command -v llvm-config-22 > /dev/null || { echo "needs llvm-22-dev (llvm-config-22)" >&2; exit 1; }

libjvm_files   # sets gsym and debug

driver="$work/llvm_gsym_lookup"
src="$here/bench/inprocess/llvm_gsym_lookup.cpp"
if [ ! -x "$driver" ] || [ "$src" -nt "$driver" ]; then
  # shellcheck disable=SC2046
  clang++-22 -O2 -std=c++17 $(llvm-config-22 --cxxflags) "$src" -o "$driver" $(llvm-config-22 --ldflags) -lLLVM-22
fi
jar="$here/gsym-bench/target/benchmarks.jar"
if [ ! -f "$jar" ] || [ -n "$(find "$here"/pom.xml "$here"/gsym-core/src "$here"/gsym-bench/src -newer "$jar" -type f -print -quit)" ]; then
  (cd "$here" && ./mvnw -B -q ${MVN_OFFLINE--o} package -pl gsym-bench -am -DskipTests) >&2
fi
cat "$gsym" > /dev/null   # page cache warm for both

read -r taddr tsize < <(readelf -SW "$debug" | awk '$2 == ".text" {print $4, $6}')
python3 - "$taddr" "$tsize" "$N" > inprocess-addrs.txt <<'PY'
import random, sys
a, s, n = int(sys.argv[1], 16), int(sys.argv[2], 16), int(sys.argv[3])
r = random.Random(20261123)
sys.stdout.write("".join(f"{a + r.randrange(s):#x}\n" for _ in range(n)))
PY

llvm() { "$driver" "$gsym" inprocess-addrs.txt "$PASSES" "$THREADS"; }
ours() { "$JAVA_HOME/bin/java" -XX:+UseSerialGC -cp "$jar" dev.gsym.bench.InProcessLookups "$gsym" inprocess-addrs.txt "$PASSES" "$THREADS"; }
# summary OUTPUT: "cold warm allcores frames lines misses" (lookups/s; the sums of pass 1)
summary() {
  awk -v passes="$PASSES" '
    { for (i = 1; i < NF; i += 2) v[$i] = $(i + 1) }
    v["pass"] == 1 { cold = v["per_second"]; sums = v["frames"] " " v["lines"] " " v["misses"] }
    v["pass"] > 1 && v["pass"] <= passes && v["per_second"] > warm { warm = v["per_second"] }
    v["threads"] > 1 { all = v["per_second"] }
    END { printf "%d %d %d %s\n", cold, warm, all, sums }' <<< "$1"
}
echo "== $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $N addresses, $PASSES passes, $THREADS threads"
echo "| round | llvm cold/s | ours cold/s | cold x | llvm warm/s | ours warm/s | warm x | llvm ${THREADS}T/s | ours ${THREADS}T/s | ${THREADS}T x |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
rc=(); rw=(); ra=()
for r in $(seq "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then l=$(llvm); o=$(ours); else o=$(ours); l=$(llvm); fi
  read -r lc lw la ls1 ls2 ls3 <<< "$(summary "$l")"
  read -r oc ow oa os1 os2 os3 <<< "$(summary "$o")"
  if [ "$ls1 $ls2 $ls3" != "$os1 $os2 $os3" ]; then
    echo "answers differ: llvm frames/lines/misses $ls1 $ls2 $ls3, ours $os1 $os2 $os3" >&2; exit 1
  fi
  x() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f", a / b}'; }
  rc+=("$(x "$oc" "$lc")"); rw+=("$(x "$ow" "$lw")"); ra+=("$(x "$oa" "$la")")
  echo "| $r | $lc | $oc | ${rc[-1]} | $lw | $ow | ${rw[-1]} | $la | $oa | ${ra[-1]} |"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
echo
echo "median ours/llvm: cold $(median "${rc[@]}")x (target >= 10), warm $(median "${rw[@]}")x (target >= 50), ${THREADS} threads $(median "${ra[@]}")x; same frames, lines and misses: $ls1 $ls2 $ls3"
