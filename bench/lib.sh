# Shared helpers of the bench scripts (sourced, not run).

# Puts libjvm.so's debug file from Debian's openjdk-17-dbg at ./libjvm.debug (downloads ~240 MB once).
fetch_libjvm_debug() {
  [ -f libjvm.debug ] && return 0
  ls openjdk-17-dbg_*.deb >/dev/null 2>&1 || apt-get download openjdk-17-dbg
  rm -rf x && dpkg -x openjdk-17-dbg_*.deb x
  local f
  f=$(grep -rl JVM_GetAllThreads x/usr/lib/debug/.build-id/ | xargs ls -S | head -n1)
  cp "$f" libjvm.debug && rm -rf x
}

# Sets $gsym and $debug: /tmp/jvmdbg/libjvm.{gsym,debug} if both exist, else the debug file fetched
# into the current directory ($work) and its GSYM made once by llvm-gsymutil-22 --convert.
libjvm_files() {
  if [ -f /tmp/jvmdbg/libjvm.gsym ] && [ -f /tmp/jvmdbg/libjvm.debug ]; then
    gsym=/tmp/jvmdbg/libjvm.gsym
    debug=/tmp/jvmdbg/libjvm.debug
  else
    fetch_libjvm_debug
    [ -f libjvm.gsym ] || llvm-gsymutil-22 --quiet --convert libjvm.debug -o libjvm.gsym
    gsym="$PWD/libjvm.gsym"
    debug="$PWD/libjvm.debug"
  fi
}

# measure CMD...: prints "seconds maxrss_kb": best wall time of $MEASURE_RUNS runs (default 3; ns
# clock), peak RSS of that run; with MEASURE_CPU=1 also "cpu_seconds" (user + sys) of that run.
measure() {
  local best="" t0 t1 r s i
  for ((i = 0; i < ${MEASURE_RUNS:-3}; i++)); do
    t0=$(date +%s%N)
    r=$( { /usr/bin/time -f "%M %U %S" "$@" > /dev/null; } 2>&1 | tail -n1 )
    t1=$(date +%s%N)
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b - a) / 1e9}')
    if [ -n "${MEASURE_CPU:-}" ]; then
      r=$(awk '{printf "%s %.2f", $1, $2 + $3}' <<< "$r")
    else
      r=${r%% *}
    fi
    if [ -z "$best" ] || awk -v a="$s" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then best="$s $r"; fi
  done
  echo "$best"
}

# Prints "one two ratio": this machine's pure-CPU throughput with one busy core and with two
# (openssl's SHA-256 over 16 KiB blocks, in cache: no I/O, no memory traffic), and two/one, the
# ceiling of what any second thread can add here (2.0 on two real cores; less when the VM's two
# vCPUs share a physical core or the host is busy). SECONDS_EACH (default 5) per measurement.
cpu_scaling() {
  local s=${SECONDS_EACH:-5} one two
  one=$(openssl speed -seconds "$s" -bytes 16384 -multi 1 sha256 2>/dev/null | awk '/^sha256/ {v = $NF} END {sub(/k$/, "", v); print v}')
  two=$(openssl speed -seconds "$s" -bytes 16384 -multi 2 sha256 2>/dev/null | awk '/^sha256/ {v = $NF} END {sub(/k$/, "", v); print v}')
  awk -v a="$one" -v b="$two" 'BEGIN {printf "%.0f %.0f %.2f\n", a, b, b / a}'
}

# Sets $jvm to libjvm.so's debug file: $1 if given, else /tmp/jvmdbg/libjvm.debug, else the one
# fetch_libjvm_debug puts into the current directory.
libjvm_debug() {
  if [ -n "${1:-}" ]; then
    jvm="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  elif [ -f /tmp/jvmdbg/libjvm.debug ]; then
    jvm=/tmp/jvmdbg/libjvm.debug
  else
    fetch_libjvm_debug
    jvm="$PWD/libjvm.debug"
  fi
}

# The GNU build-id of ELF file $1 as hex (empty without one), and "start size" of its .text (hex).
# (No pipe here ends before its writer: under pipefail a SIGPIPE would end the calling script.)
elf_build_id() { readelf -nW "$1" 2>/dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p' | awk 'NR == 1'; }
elf_text() { readelf -SW "$1" | awk '!done {for (i = 1; i < NF; i++) if ($i == ".text") {print $(i + 2), $(i + 4); done = 1; break}}'; }
