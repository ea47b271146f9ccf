#!/usr/bin/env bash
# One-shot lookup start-up: `gsymutil --lookup ADDR F` (the launcher, with the AOT cache the build
# made, and without it) beside `llvm-gsymutil-22 --address ADDR F`: best wall time of 10 runs after
# one warm-up, peak RSS and CPU time (user + sys) of that run, ratios ours/llvm. Files: a golden file from src-test-data and
# /tmp/jvmdbg/libjvm.gsym (29.6 MB, OpenJDK 17's libjvm.so) when present. Also checks that both
# tools print the same thing.
# Usage: bench/startup.sh [LIBJVM_GSYM]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
MEASURE_RUNS=10
MEASURE_CPU=1
llvm=llvm-gsymutil-22
big="${1:-/tmp/jvmdbg/libjvm.gsym}"

"$here/gsymutil" --version > /dev/null   # build first (and make the AOT cache), outside the timings
[ -f "$here/gsym-cli/target/gsymutil.aot" ] || echo "note: no AOT cache (built with -Dgsym.aot.skip?)" >&2

cases=("$here/src-test-data/gsym/c-clang-O2.gsym 0x1179")
if [ -f "$big" ]; then
  addr=0x7b86b4
  [ -f "$(dirname "$big")/addrs.txt" ] && read -r addr _ < "$(dirname "$big")/addrs.txt"
  cases+=("$big $addr")
fi

printf "%-16s %-9s %-38s %7s %6s %8s %9s %8s\n" file address command "wall s" "cpu s" "RSS MB" "wall/llvm" "RSS/llvm"
for c in "${cases[@]}"; do
  read -r f a <<< "$c"
  ours=$("$here/gsymutil" --lookup "$a" "$f" 2>&1)
  theirs=$("$llvm" --address "$a" "$f" 2>&1)
  [ "$ours" = "$theirs" ] || { echo "output differs for $f $a:" >&2; diff <(echo "$theirs") <(echo "$ours") >&2; exit 1; }
  "$llvm" --address "$a" "$f" > /dev/null                                  # warm-up
  read -r ls lkb lc < <(measure "$llvm" --address "$a" "$f")
  "$here/gsymutil" --lookup "$a" "$f" > /dev/null
  read -r os okb oc < <(measure "$here/gsymutil" --lookup "$a" "$f")
  GSYMUTIL_NO_AOT=1 "$here/gsymutil" --lookup "$a" "$f" > /dev/null
  read -r ns nkb nc < <(GSYMUTIL_NO_AOT=1 measure "$here/gsymutil" --lookup "$a" "$f")
  awk -v f="$(basename "$f")" -v a="$a" -v ls="$ls" -v lk="$lkb" -v lc="$lc" -v os="$os" -v ok="$okb" -v oc="$oc" \
      -v ns="$ns" -v nk="$nkb" -v nc="$nc" 'BEGIN {
    fmt = "%-16s %-9s %-38s %7.3f %6.2f %8.1f %9s %8s\n"
    printf fmt, f, a, "llvm-gsymutil-22 --address", ls, lc, lk / 1024, "", ""
    printf fmt, "", "", "gsymutil --lookup", os, oc, ok / 1024, sprintf("%.2f", os / ls), sprintf("%.2f", ok / lk)
    printf fmt, "", "", "gsymutil --lookup (GSYMUTIL_NO_AOT=1)", ns, nc, nk / 1024, sprintf("%.2f", ns / ls), sprintf("%.2f", nk / lk)
  }'
done
