#!/usr/bin/env bash
# Lookups in a GSYM over 1 GB with a 64 MB heap: the reader maps the file, so the heap it needs does
# not grow with the file.
#
#   bench/bigfile.sh [WORKDIR]      (default /tmp/gsym-bigfile; SIZE=bytes LOOKUPS=n override)
#
# 1. SyntheticGsym (gsym-core's test helper, in gsym-bench/target/benchmarks.jar) streams a ~1.1 GB
#    GSYM to WORKDIR/big.gsym under -Xmx64m (kept for later runs; delete it to regenerate).
# 2. `java -Xmx64m ... SyntheticGsym check`: LOOKUPS random lookups in one process, each answer
#    compared with the generator's oracle; best of 3 wall time, peak RSS (file pages touched count),
#    peak heap used (sum of the heap pools' peaks).
# 3. The same addresses through llvm-gsymutil-22 --addresses-from-stdin and through our CLI jar
#    under -Xmx64m: wall, peak RSS, and the two outputs must be byte-identical.
# 4. A few addresses across the file: llvm-gsymutil-22 --address, ./gsymutil --lookup and the oracle
#    must print the same text.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
WORK=${1:-/tmp/gsym-bigfile}
SIZE=${SIZE:-1100000000}
LOOKUPS=${LOOKUPS:-1000000}
if [ -z "${JAVA_HOME:-}" ] && [ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
LLVM=${LLVM_GSYMUTIL:-llvm-gsymutil-22}
ROOT=$(pwd)
JAR=$ROOT/gsym-bench/target/benchmarks.jar
CLI=$ROOT/gsym-cli/target/gsymutil.jar
if [ ! -f "$JAR" ] || [ ! -f "$CLI" ] \
   || [ -n "$(find pom.xml gsym-*/pom.xml gsym-*/src -newer "$JAR" -type f -print -quit)" ]; then
  echo "building ..." >&2
  ./mvnw -B -q ${MVN_OFFLINE--o} package -pl gsym-bench,gsym-cli -am -DskipTests >&2
fi
RUN=("$JAVA" -Xmx64m -XX:+UseSerialGC --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED)
GEN=("${RUN[@]}" -cp "$JAR" dev.gsym.testing.SyntheticGsym)

mkdir -p "$WORK"
cd "$WORK"
if [ ! -f big.gsym ]; then
  echo "== generating (-Xmx64m)"
  /usr/bin/time -f "generator: %e s wall, %M KB peak RSS" "${GEN[@]}" generate big.gsym --size "$SIZE"
fi
bytes=$(stat -c %s big.gsym)
nfuncs=$(od -An -tu4 -j16 -N4 big.gsym | tr -d ' ')
echo "big.gsym: $bytes bytes, $nfuncs functions"
cat big.gsym > /dev/null   # warm the page cache

echo "== $LOOKUPS random lookups checked against the oracle, java -Xmx64m (3 runs)"
for run in 1 2 3; do
  /usr/bin/time -f "  process: %e s wall, %M KB peak RSS" "${GEN[@]}" check big.gsym "$LOOKUPS" 1 2>&1 | sed 's/^/  /'
done

echo "== the same addresses, --addresses-from-stdin (best of 3)"
"${GEN[@]}" addresses "$WORK/big.gsym" "$LOOKUPS" 1 > addrs.txt
read -r s kb <<< "$(measure sh -c "$LLVM --addresses-from-stdin < addrs.txt")"
printf "  %-26s %s s, %s KB peak RSS\n" "$LLVM:" "$s" "$kb"
read -r s kb <<< "$(measure sh -c "${RUN[*]} -jar $CLI --addresses-from-stdin < addrs.txt")"
printf "  %-26s %s s, %s KB peak RSS\n" "gsymutil jar (-Xmx64m):" "$s" "$kb"
"$LLVM" --addresses-from-stdin < addrs.txt > llvm.out 2>&1
"${RUN[@]}" -jar "$CLI" --addresses-from-stdin < addrs.txt > ours.out 2>&1
if cmp -s llvm.out ours.out; then
  echo "  outputs identical ($(wc -l < ours.out) lines)"
else
  echo "  OUTPUTS DIFFER: diff $WORK/llvm.out $WORK/ours.out" >&2
  exit 1
fi

echo "== a few addresses: llvm-gsymutil-22, gsymutil and the oracle"
addrs=()
for k in 0 1 2 3 4 5 6 7; do
  i=$(( (nfuncs - 1) * k / 7 ))
  for off in 0x0 0x48 0x58 0xc4 0x1fc; do addrs+=("$(printf '0x%x' $(( 0x400000 + i * 512 + off )))"); done
done
"$LLVM" $(printf -- '--address=%s ' "${addrs[@]}") "$WORK/big.gsym" > few.llvm
"$ROOT/gsymutil" $(printf -- '--lookup %s ' "${addrs[@]}") "$WORK/big.gsym" > few.ours
"${GEN[@]}" expect "$WORK/big.gsym" "${addrs[@]}" > few.oracle
if cmp -s few.llvm few.ours && cmp -s few.llvm few.oracle; then
  echo "  ${#addrs[@]} addresses: identical ($(grep -c 'is not in GSYM' few.llvm) not in GSYM)"
  sed -n '2,6p' few.llvm
else
  echo "  DIFFERENT: see $WORK/few.llvm few.ours few.oracle" >&2
  exit 1
fi
