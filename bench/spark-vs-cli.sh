#!/usr/bin/env bash
# gsym-spark's SymbolizeJob in local[1] and local[2] beside the single-process CLI batch
# (gsymutil symbolize --store) on the same N (default 10,000,000) (build-id, address) rows over
# every test binary of src-test-data with its own build-id (33 modules) plus libjvm.so's debug file
# (Debian's openjdk-17-dbg; as bench/symbolize-vs-llvm.sh: each row picks libjvm with probability
# JVM_SHARE, default 0.5, else a small module uniformly, then an address in its .text; fixed seed).
# The store is made first by ConvertJob (local[2], timed but not compared). Then, RUNS rounds
# (default 1), whole processes, each timed to its end with peak RSS (/usr/bin/time):
#   gsymutil symbolize --store=S --output-style=JSON --threads 1 < rows.txt > /dev/shm/...
#   gsymutil symbolize --store=S --output-style=JSON --threads 2 < rows.txt > /dev/shm/...
#   bench/spark-local.sh SymbolizeJob --master local[1] --store S --input rows.csv --output OUT (Parquet)
#   bench/spark-local.sh SymbolizeJob --master local[2] ...
# and prints rows/s (whole process, and for Spark also the job alone, without the JVM and session
# start) and the ratios the issue sets: local[1] within 2x of the CLI per core (CLI --threads 1),
# local[2] >= 1.8x local[1]; beside them, what a second thread gains the CLI and a pure CPU kernel
# (openssl, bench/lib.sh cpu_scaling) on this machine. In local mode the driver is the executor: its RSS is the executor's
# memory (heap bound SPARK_LOCAL_JAVA_OPTS, default -Xmx2g).
# Usage: bench/spark-vs-cli.sh [WORKDIR [LIBJVM_DEBUG]]   (default /tmp/gsym-spark-bench; N=1000000 for a quick run)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
work="${1:-/tmp/gsym-spark-bench}"
N=${N:-10000000}
RUNS=${RUNS:-1}
JVM_SHARE=${JVM_SHARE:-0.5}
mkdir -p "$work" && cd "$work"
libjvm_debug "${2:-}"   # sets jvm
"$here/gsymutil" --version > /dev/null            # builds, outside the timings
"$here/bench/spark-local.sh" SymbolizeJob --help > /dev/null

# the modules: one file per build-id; "hex text_start text_size" per line
modules="$work/modules.txt"; listing="$work/listing.txt"
: > "$modules"; : > "$listing"
add_module() {
  local f="$1" id tx
  id=$(elf_build_id "$f")
  [ -n "$id" ] || return 0
  [ "$(awk -v id="$id" '$1 == id' "$modules" | wc -l)" -eq 0 ] || return 0
  [ "$(readelf -SW "$f" | awk '/ \.debug_info /' | wc -l)" -gt 0 ] || return 0   # symbol-table-only files are not stored
  tx=$(elf_text "$f")
  echo "$id $tx" >> "$modules"
  echo "$f" >> "$listing"
}
for f in "$here"/src-test-data/bin/*; do
  case "$f" in *.dwo|*.dwp) continue ;; esac
  add_module "$f"
done
add_module "$jvm"

store="$work/store"
t0=$(date +%s%N)
"$here/bench/spark-local.sh" ConvertJob --master 'local[2]' --input "$listing" --store "$store" \
  --manifest "$work/manifest" 2> convert.err || { cat convert.err >&2; exit 1; }
convert_s=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN{printf "%.1f", (b - a) / 1e9}')
grep '^ConvertJob:' convert.err

if [ ! -f rows.csv ] || [ "$(($(wc -l < rows.csv) - 1))" -ne "$N" ] || [ modules.txt -nt rows.csv ]; then
  python3 - "$modules" "$N" "$JVM_SHARE" <<'PY'
import random, sys
mods = [l.split() for l in open(sys.argv[1])]
jvm, small = mods[-1], mods[:-1]
n, share = int(sys.argv[2]), float(sys.argv[3])
r = random.Random(20261126)
with open("rows.csv", "w") as csv, open("rows.txt", "w") as txt:
    csv.write("build_id,address\n")
    for _ in range(n):
        m = jvm if r.random() < share else small[r.randrange(len(small))]
        a = int(m[1], 16) + r.randrange(int(m[2], 16))
        csv.write(f"{m[0]},{a:#x}\n")
        txt.write(f"BUILDID:{m[0]} {a:#x}\n")
PY
fi

shm=/dev/shm/gsym-spark-bench; mkdir -p "$shm"; trap 'rm -rf "$shm"' EXIT
nodebug="$work/no-debug"; mkdir -p "$nodebug"
# run NAME CMD...: prints "wall_s maxrss_kb cpu_s"; stdout to $shm/NAME.out, stderr to NAME.err
run() {
  local name="$1" t0 t1 line; shift
  t0=$(date +%s%N)
  line=$( { /usr/bin/time -f "%M %U %S" sh -c 'o="$1"; e="$2"; shift 2; exec "$@" > "$o" 2> "$e"' sh "$shm/$name.out" "$work/$name.err" "$@"; } 2>&1 | tail -n1 )
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" -v l="$line" 'BEGIN{split(l, f, " "); printf "%.2f %d %.1f\n", (b - a) / 1e9, f[1], f[2] + f[3]}'
}
cli=("$here/gsymutil" symbolize --store="$store" --output-style=JSON --no-debuginfod --debug-file-directory="$nodebug")
# this machine's own ceiling for a second thread, measured just before the runs (bench/lib.sh)
read -r cpu1 cpu2 cpux < <(cpu_scaling)
: > cli1.times; : > cli2.times; : > spark1.times; : > spark2.times
for ((i = 0; i < RUNS; i++)); do
  run cli1 sh -c 'exec "$@" < rows.txt' sh "${cli[@]}" --threads 1 >> cli1.times
  run cli2 sh -c 'exec "$@" < rows.txt' sh "${cli[@]}" --threads 2 >> cli2.times
  for c in 1 2; do
    rm -rf "$work/out$c" "$work/cache$c"
    run "spark$c" "$here/bench/spark-local.sh" SymbolizeJob --master "local[$c]" --store "$store" --input rows.csv \
      --output "$work/out$c" --cache-dir "$work/cache$c" --conf spark.ui.enabled=false >> "spark$c.times"
    rm -f "$shm/spark$c.out"
  done
done
best() { sort -n -k1,1 "$1" | head -n1; }
job() { sed -n 's/^SymbolizeJob: \([0-9]*\) rows .* in \([0-9.]*\) s.*/\1 \2/p' "$work/$1.err" | tail -n1; }
read -r c1_s c1_kb c1_cpu < <(best cli1.times)
read -r c2_s c2_kb c2_cpu < <(best cli2.times)
read -r s1_s s1_kb s1_cpu < <(best spark1.times)
read -r s2_s s2_kb s2_cpu < <(best spark2.times)
read -r s1_rows s1_job < <(job spark1)
read -r s2_rows s2_job < <(job spark2)
c1_rows=$(wc -l < "$shm/cli1.out"); c2_rows=$(wc -l < "$shm/cli2.out")
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $N rows over $(wc -l < "$modules") modules (libjvm share $JVM_SHARE); store made by ConvertJob local[2] in $convert_s s (whole process)"
echo "rows answered: cli1 $c1_rows, cli2 $c2_rows, local[1] $s1_rows, local[2] $s2_rows"
awk -v n="$N" -v c1="$c1_s" -v c1k="$c1_kb" -v c1c="$c1_cpu" -v c2="$c2_s" -v c2k="$c2_kb" -v c2c="$c2_cpu" \
    -v s1="$s1_s" -v s1k="$s1_kb" -v s1c="$s1_cpu" -v s2="$s2_s" -v s2k="$s2_kb" -v s2c="$s2_cpu" \
    -v j1="$s1_job" -v j2="$s2_job" -v cpux="$cpux" 'BEGIN {
  printf "%-40s %8s %8s %8s %12s %12s\n", "command", "wall s", "CPU s", "RSS MB", "rows/s", "job rows/s"
  printf "%-40s %8.2f %8.1f %8.0f %12.0f %12s\n", "gsymutil symbolize --threads 1", c1, c1c, c1k / 1024, n / c1, "-"
  printf "%-40s %8.2f %8.1f %8.0f %12.0f %12s\n", "gsymutil symbolize --threads 2", c2, c2c, c2k / 1024, n / c2, "-"
  printf "%-40s %8.2f %8.1f %8.0f %12.0f %12.0f\n", "SymbolizeJob local[1] (CSV in, Parquet out)", s1, s1c, s1k / 1024, n / s1, n / j1
  printf "%-40s %8.2f %8.1f %8.0f %12.0f %12.0f\n", "SymbolizeJob local[2]", s2, s2c, s2k / 1024, n / s2, n / j2
  printf "local[1] vs CLI --threads 1 (per core): %.2fx the time (target <= 2), job alone %.2fx\n", s1 / c1, j1 / c1
  printf "local[2] vs local[1]: %.2fx the rows/s (target >= 1.8), job alone %.2fx\n", s1 / s2, j1 / j2
  printf "CLI --threads 2 vs --threads 1: %.2fx; pure CPU, 2 busy cores vs 1 (openssl sha256): %.2fx\n", c1 / c2, cpux
}'
[ "$s1_rows" -eq "$N" ] && [ "$s2_rows" -eq "$N" ] && [ "$c1_rows" -eq "$N" ]
