#!/usr/bin/env bash
# Demangling throughput of gsym-demangle (docs/symbolize.md, "Demangling"): names per second over
# the function names of a GSYM file (default /tmp/jvmdbg/libjvm.gsym, OpenJDK 17's libjvm: 43,351
# names, once each, as a symbolizer demangles them) or a file of names (default, when the GSYM is
# absent: src-test-data/demangle/names.txt), for
#   llvm  Demangler.llvm(): the pure-Java port of llvm's demanglers (the default)
#   gnu   Demangler.gnu(): the port's bounds check, then libstdc++'s __cxa_demangle through FFM
#   cxa   bare __cxa_demangle through FFM on the Itanium names (the native cost alone, unbounded)
# cold: the first pass of a fresh JVM, median of RUNS (default 5) JVMs; warm: the best of passes
# 11-30 of one JVM. Also llvm-cxxfilt-22 over the same names (one process, stdin) for scale.
# Usage: bench/demangle.sh [GSYM_OR_NAMES_FILE]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
if [ -z "${JAVA_HOME:-}" ] && [ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
src="${1:-/tmp/jvmdbg/libjvm.gsym}"
[ -f "$src" ] || src="$here/src-test-data/demangle/names.txt"
RUNS=${RUNS:-5}

./mvnw -B -q ${MVN_OFFLINE--o} test-compile -pl gsym-demangle -am >&2
cp="gsym-demangle/target/test-classes:gsym-demangle/target/classes:gsym-core/target/classes:gsym-core/target/test-classes"
bench() { "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$cp" dev.gsym.demangle.DemangleBench "$@"; }

echo "names: $src"
printf "%-6s %14s %14s\n" engine "cold names/s" "warm names/s"
for engine in llvm gnu cxa; do
  cold=$(for ((i = 0; i < RUNS; i++)); do bench "$engine" "$src" 1 | awk '/^pass 1:/ {print $(NF-1)}'; done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  warm=$(bench "$engine" "$src" 30 | awk '/^pass/ {split($2, p, ":"); if (p[1] > 10 && $(NF-1) > best) best = $(NF-1)} END {print best}')
  printf "%-6s %14s %14s\n" "$engine" "$cold" "$warm"
done

if command -v llvm-cxxfilt-22 > /dev/null; then
  tmp=$(mktemp)
  trap 'rm -f "$tmp"' EXIT
  if [[ "$src" == *.gsym ]]; then
    llvm-gsymutil-22 "$src" | awk '/^String table:/ {on = 1; next} on && /^0x[0-9a-f]+: "/ {print} on && !/^0x/ {on = 0}' \
      | sed -E 's/^0x[0-9a-f]+: "(.*)"$/\1/' | grep -E '^[A-Za-z0-9_.$]+$' > "$tmp" || true
  else
    grep -aE '^[A-Za-z0-9_.$]+$' "$src" > "$tmp" || true
  fi
  n=$(wc -l < "$tmp")
  t0=$(date +%s%N)
  llvm-cxxfilt-22 < "$tmp" > /dev/null
  t1=$(date +%s%N)
  awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN {printf "llvm-cxxfilt-22: %d names (strings of the file that are one word) in %.3f s, %.0f names/s\n", n, (b - a) / 1e9, n / ((b - a) / 1e9)}'
fi
