#!/usr/bin/env bash
# Stack walking beside Breakpad's minidump_stackwalk (docs/performance.md, "Stack walking"):
#
#   bench/stackwalk.sh [WORKDIR]        (default /tmp/gsym-bench-stackwalk; RUNS=5, N=1000)
#
# (a) One dump against a large module. bench/stackwalk/jvmcrash.cc starts a Java VM through
#     libjvm.so's invocation API (Debian's openjdk-17-jdk-headless: 14 threads, most inside libjvm),
#     installs Breakpad's ExceptionHandler and crashes inside libjvm.so (a JNI call on a bad
#     handle); libjvm.so's .sym (STACK CFI included) is made by Breakpad's dump_syms from the
#     library and its debug file (openjdk-17-dbg; the library is given a fresh .gnu_debuglink first,
#     as Debian's CRC does not match and dump_syms refuses it). Whole processes, interleaved (A B A
#     B ...), ratio per pair: `minidump_stackwalk DUMP SYMS` against `gsymutil stackwalk DUMP SYMS`
#     with the GSYM cache warm (made by one run before). Both outputs must be equal, byte for byte,
#     in the text and -m formats (checked before timing).
# (b) N dumps in one process, warm: `gsymutil stackwalk D1 ... DN SYMS`, the dumps/s of the whole
#     process and its peak RSS, for N and N/10 (flat memory: the peak should not grow with N);
#     (b1) the corpus's dumps (src-test-data/minidump/dumps, 23 of them) cycled to N, with the
#     corpus's symbols, output checked against the concatenated minidump_stackwalk goldens;
#     (b2) the libjvm dump of (a) N times (hard links), output checked as N copies of (a)'s.
# Timing: /usr/bin/time (whole processes), RUNS interleaved pairs, medians and the median ratio.
# Needs g++, the JDK 17 packages above (apt-get install -y openjdk-17-jdk-headless openjdk-17-dbg),
# Breakpad's package (src-test-data/breakpad-package.sh: dump_syms, minidump_stackwalk and the
# sources of its client library, built here), objcopy, xz.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-/tmp/gsym-bench-stackwalk}"
RUNS=${RUNS:-5}
N=${N:-1000}
JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
mkdir -p "$work" && cd "$work"
. "$here/src-test-data/breakpad-package.sh"
breakpad_dump_syms "$work"
breakpad_src "$work"
TOOLS=$(dirname "$DUMP_SYMS")
STACKWALK=${MINIDUMP_STACKWALK:-$TOOLS/minidump_stackwalk}
BP="$BREAKPAD_SRC/src"
GSYMUTIL="$here/gsymutil"
"$GSYMUTIL" --version > /dev/null   # builds first, outside the timings

# --- libjvm.so's symbol file -------------------------------------------------------------------
jvm="$JDK17/lib/server/libjvm.so"
[ -f "$jvm" ] || { echo "no $jvm: apt-get install -y openjdk-17-jdk-headless openjdk-17-dbg" >&2; exit 1; }
build_id=$(readelf -nW "$jvm" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p' | head -n1)
debug="/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug"
[ -f "$debug" ] || { echo "no $debug: apt-get install -y openjdk-17-dbg" >&2; exit 1; }
if [ ! -d syms/libjvm.so ]; then
  echo "== dump_syms libjvm.so (with its debug file)"
  rm -rf dbg && mkdir -p dbg && ln -s "$debug" dbg/libjvm.debuginfo
  objcopy --remove-section=.gnu_debuglink "$jvm" libjvm.so
  objcopy --add-gnu-debuglink=dbg/libjvm.debuginfo libjvm.so
  "$DUMP_SYMS" libjvm.so "$work/dbg" > libjvm.so.sym.tmp 2> dump_syms.err
  id=$(head -n1 libjvm.so.sym.tmp | awk '{print $4}')
  mkdir -p "syms/libjvm.so/$id"
  mv libjvm.so.sym.tmp "syms/libjvm.so/$id/libjvm.so.sym"
fi
sym=$(ls syms/libjvm.so/*/libjvm.so.sym)

# --- the crash ---------------------------------------------------------------------------------
CLIENT_SOURCES="client/linux/crash_generation/crash_generation_client.cc client/linux/dump_writer_common/thread_info.cc
client/linux/dump_writer_common/ucontext_reader.cc client/linux/handler/exception_handler.cc
client/linux/handler/minidump_descriptor.cc client/linux/log/log.cc client/linux/microdump_writer/microdump_writer.cc
client/linux/minidump_writer/linux_dumper.cc client/linux/minidump_writer/linux_ptrace_dumper.cc
client/linux/minidump_writer/minidump_writer.cc client/linux/minidump_writer/pe_file.cc client/minidump_file_writer.cc
common/convert_UTF.cc common/md5.cc common/string_conversion.cc common/linux/elfutils.cc common/linux/file_id.cc
common/linux/guid_creator.cc common/linux/linux_libc_support.cc common/linux/memory_mapped_file.cc
common/linux/safe_readlink.cc common/path_helper.cc"
if [ ! -f client/libbreakpad_client.a ]; then
  echo "== Breakpad's client library"
  mkdir -p client
  objs=()
  for s in $CLIENT_SOURCES; do
    o="client/$(echo "$s" | tr / _).o"
    g++ -O2 -std=c++17 -fno-exceptions -w -I"$BP" -I"$BREAKPAD_SRC/.." -DHAVE_GETCONTEXT -DHAVE_SYS_RANDOM_H \
      -DHAVE_GETRANDOM -c "$BP/$s" -o "$o"
    objs+=("$o")
  done
  ar rcs client/libbreakpad_client.a "${objs[@]}"
fi
if [ ! -f jvm.dmp ]; then
  echo "== jvmcrash"
  g++ -O2 -g -std=c++17 -I"$BP" -I"$BREAKPAD_SRC/.." -I"$JDK17/include" -I"$JDK17/include/linux" -pthread \
    "$here/bench/stackwalk/jvmcrash.cc" -o jvmcrash client/libbreakpad_client.a -L"$JDK17/lib/server" -ljvm \
    -Wl,-rpath,"$JDK17/lib/server"
  rm -rf crash && mkdir crash
  (ulimit -c 0; exec ./jvmcrash crash 2> jvmcrash.err) 2> /dev/null || true   # dies of SIGSEGV, as meant
  mv crash/*.dmp jvm.dmp
fi

cache="$work/cache"
echo "== checks: gsymutil stackwalk prints minidump_stackwalk's bytes"
"$GSYMUTIL" stackwalk --symbol-cache "$cache" jvm.dmp syms > gsym.txt     # also warms the cache
"$STACKWALK" jvm.dmp syms > breakpad.txt 2> /dev/null
cmp gsym.txt breakpad.txt
"$GSYMUTIL" stackwalk -m --symbol-cache "$cache" jvm.dmp syms > gsym-m.txt
"$STACKWALK" -m jvm.dmp syms > breakpad-m.txt 2> /dev/null
cmp gsym-m.txt breakpad-m.txt
echo "same output ($(wc -l < breakpad.txt) lines, $(grep -c '^Thread' breakpad.txt) threads); .sym $(du -m "$sym" | cut -f1) MB," \
  "$(grep -c '^STACK CFI INIT' "$sym") STACK CFI INIT records; GSYM cache $(du -sm "$cache" | cut -f1) MB"

echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
echo "== (a) one dump against libjvm.so: gsymutil stackwalk (warm) vs minidump_stackwalk, $RUNS pairs"
A="$GSYMUTIL stackwalk --symbol-cache $cache $work/jvm.dmp $work/syms"
B="$STACKWALK $work/jvm.dmp $work/syms"
# shellcheck disable=SC2086
for ((i = 0; i < RUNS; i++)); do   # A B A B ...: wall and CPU (user + sys) of each whole process
  /usr/bin/time -o time.a -f "%e %U %S" $A > /dev/null
  /usr/bin/time -o time.b -f "%e %U %S" $B > /dev/null 2>&1
  paste -d' ' <(tail -n1 time.a) <(tail -n1 time.b)
done | awk '{wa[NR] = $1; ca[NR] = $2 + $3; wb[NR] = $4; cb[NR] = $5 + $6; rw[NR] = $4 / $1; rc[NR] = ($5 + $6) / ($2 + $3)}
  function med(x, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
  END { printf "gsymutil stackwalk: wall %.3f s, CPU %.3f s; minidump_stackwalk: wall %.3f s, CPU %.3f s (medians of %d pairs)\n", med(wa, NR), med(ca, NR), med(wb, NR), med(cb, NR), NR
        printf "ratio per pair (median): %.1fx faster wall, %.1fx less CPU\n", med(rw, NR), med(rc, NR) }'

echo "== the start-up floor: gsymutil --lookup on a 12 KB GSYM (start-up and one lookup), $RUNS runs"
for ((i = 0; i < RUNS; i++)); do
  /usr/bin/time -o time.a -f "%e %U %S" "$GSYMUTIL" --lookup 0x1179 "$here/src-test-data/gsym/c-clang-O2.gsym" > /dev/null
  tail -n1 time.a
done | awk '{w[NR] = $1; c[NR] = $2 + $3}
  function med(x, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
  END { printf "wall %.3f s, CPU %.3f s (medians)\n", med(w, NR), med(c, NR) }'

# many OUT SYMS DUMP...: one gsymutil stackwalk over the dumps; prints the dumps, wall and CPU
# seconds, dumps per wall and per CPU second, peak RSS
many() {
  local out=$1 syms=$2; shift 2
  local r
  r=$( { /usr/bin/time -f "%e %U %S %M" "$GSYMUTIL" stackwalk --symbol-cache "$cache" "$@" "$syms" > "$out"; } 2>&1 | tail -n1 )
  awk -v n="$#" -v r="$r" 'BEGIN {split(r, x, " "); c = x[2] + x[3];
    printf "%5d dumps  wall %6.2f s  cpu %6.2f s  %5.0f dumps/s (wall)  %5.0f dumps/cpu-s  peak RSS %4.0f MB\n",
      n, x[1], c, n / x[1], n / c, x[4] / 1024}'
}

echo "== (b1) the corpus's dumps cycled to $N and $((N / 10)), one process each, warm"
corpus="$here/src-test-data/minidump"
rm -rf corpus-syms && mkdir corpus-syms
(cd "$corpus/symbols" && find . -type f | while read -r f; do
  mkdir -p "$work/corpus-syms/$(dirname "$f")"
  case "$f" in *.xz) xz -dc "$f" > "$work/corpus-syms/${f%.xz}" ;; *) cp "$f" "$work/corpus-syms/$f" ;; esac
done)
mapfile -t cd < <(ls "$corpus"/dumps/*.dmp)
for n in $N $((N / 10)); do
  args=()
  expect=expected-$n.txt
  : > "$expect"
  for ((i = 0; i < n; i++)); do
    d=${cd[$((i % ${#cd[@]}))]}
    args+=("$d")
    [ "$n" = "$N" ] && cat "$corpus/expected/$(basename "${d%.dmp}").stackwalk-sym.txt" >> "$expect"
  done
  "$GSYMUTIL" stackwalk --symbol-cache "$cache" "${cd[@]}" corpus-syms > /dev/null   # warm: every module converted
  many corpus-$n.txt corpus-syms "${args[@]}"
  [ "$n" = "$N" ] && { cmp corpus-$n.txt "$expect" && echo "   output = the $N goldens of minidump_stackwalk, concatenated"; }
done

echo "== (b2) the libjvm dump $N and $((N / 10)) times (hard links), one process each, warm"
mkdir -p many
for ((i = 0; i < N; i++)); do [ -f many/$i.dmp ] || ln jvm.dmp many/$i.dmp; done
for n in $N $((N / 10)); do
  args=()
  for ((i = 0; i < n; i++)); do args+=("many/$i.dmp"); done
  many jvm-$n.txt syms "${args[@]}"
  if [ "$n" = "$N" ]; then
    for ((i = 0; i < n; i++)); do cat breakpad.txt; done > expected-jvm.txt
    cmp jvm-$n.txt expected-jvm.txt && echo "   output = $N copies of minidump_stackwalk's"
  fi
done
