#!/usr/bin/env bash
# One-shot lookup start-up: `gsymutil --lookup ADDR F` (the launcher, with the AOT cache the build
# made, and without it) beside `llvm-gsymutil-22 --address ADDR F`: best wall time of 10 runs after
# one warm-up, peak RSS of that run, ratio ours/llvm. Files: a golden file from src-test-data and
# /tmp/jvmdbg/libjvm.gsym (29.6 MB, OpenJDK 17's libjvm.so) when present. Also checks that both
# tools print the same thing.
# Usage: bench/startup.sh [LIBJVM_GSYM]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
MEASURE_RUNS=10
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

printf "%-18s %-10s %-36s %8s %12s %9s %9s\n" file address command "wall s" "peak RSS MB" "wall/llvm" "RSS/llvm"
for c in "${cases[@]}"; do
  read -r f a <<< "$c"
  ours=$("$here/gsymutil" --lookup "$a" "$f" 2>&1)
  theirs=$("$llvm" --address "$a" "$f" 2>&1)
  [ "$ours" = "$theirs" ] || { echo "output differs for $f $a:" >&2; diff <(echo "$theirs") <(echo "$ours") >&2; exit 1; }
  "$llvm" --address "$a" "$f" > /dev/null                                  # warm-up
  read -r ls lkb < <(measure "$llvm" --address "$a" "$f")
  "$here/gsymutil" --lookup "$a" "$f" > /dev/null
  read -r os okb < <(measure "$here/gsymutil" --lookup "$a" "$f")
  GSYMUTIL_NO_AOT=1 "$here/gsymutil" --lookup "$a" "$f" > /dev/null
  read -r ns nkb < <(GSYMUTIL_NO_AOT=1 measure "$here/gsymutil" --lookup "$a" "$f")
  awk -v f="$(basename "$f")" -v a="$a" -v ls="$ls" -v lk="$lkb" -v os="$os" -v ok="$okb" -v ns="$ns" -v nk="$nkb" 'BEGIN {
    fmt = "%-18s %-10s %-36s %8.3f %12.1f %9s %9s\n"
    printf fmt, f, a, "llvm-gsymutil-22 --address", ls, lk / 1024, "", ""
    printf fmt, "", "", "gsymutil --lookup", os, ok / 1024, sprintf("%.2f", os / ls), sprintf("%.2f", ok / lk)
    printf fmt, "", "", "gsymutil --lookup (GSYMUTIL_NO_AOT)", ns, nk / 1024, sprintf("%.2f", ns / ls), sprintf("%.2f", nk / lk)
  }'
done
