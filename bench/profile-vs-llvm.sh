#!/usr/bin/env bash
# gsymutil symbolize --pprof beside llvm-symbolizer-22 on the same (module, address) pairs, and the
# flame graphs of large profiles in headless Chromium (docs/performance.md, "Profiles").
#
# The profile: SAMPLES (default 1,000,000) samples written by Go's pprof package
# (src-test-data/profile/gen) over libjvm.so (OpenJDK 17, JVM_LIB; its debug file from Debian's
# openjdk-17-dbg, lib.sh) and libc.so.6 (debug file from libc6-dbg), each mapped as a process maps
# its executable segment (the libraries' own paths, file offsets and build-ids: gsymutil reads
# their program headers there, the symbols come from the debug files by build-id); ADDRS (default
# 300,000) distinct addresses spread over the two modules' functions in proportion to their code
# (profile-spec.py), STACKS (default 50,000) distinct stacks of 3 to 24 frames drawn from them
# (paths of a random call tree), the samples Zipf-distributed over the stacks. llvm-symbolizer-22
# answers the profile's (module, address) pairs, one per location, as pprof runs it (on the module
# itself, its DWARF from the debug file by build-id), with --inlines and --demangle (its defaults),
# JSON output; gsymutil symbolizes the profile with the GSYMs in its
# store (converted once, before the timings; the cold time, store emptied, is reported once). Both
# as whole processes, RUNS (default 3) rounds interleaved; wall time, CPU time (user + sys) and
# peak RSS by /usr/bin/time; minimum, median and maximum of the rounds. Then the frames are
# compared: our profile as `go tool pprof -raw` prints it, against llvm's answers
# (profile-compare.py), for every location a sample names.
# Flame graphs: `gsymutil flamegraph` of this profile and of one of FLAME_SAMPLES (default
# 10,000,000) samples over the same stacks, and headless Chromium loading each page (--dump-dom:
# the process's wall time, and the page's own time from parsing its data to the drawn frames).
#
# Usage: bench/profile-vs-llvm.sh [WORKDIR [LIBJVM_DEBUG]]   (default /tmp/gsym-profile-bench)
# Needs llvm-symbolizer-22, go + golang-github-google-pprof-dev, openjdk-17-jre-headless, libc6-dbg,
# chromium, python3.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bench/lib.sh"
work="${1:-/tmp/gsym-profile-bench}"
SAMPLES=${SAMPLES:-1000000}
ADDRS=${ADDRS:-300000}
STACKS=${STACKS:-50000}
FLAME_SAMPLES=${FLAME_SAMPLES:-10000000}
RUNS=${RUNS:-3}
mkdir -p "$work" && cd "$work"
libjvm_debug "${2:-}"   # sets jvm
# the library itself: the profile maps it (its path and file offsets, as a process maps it)
JVM_LIB=${JVM_LIB:-/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so}
[ "$(elf_build_id "$JVM_LIB")" = "$(elf_build_id "$jvm")" ] \
  || { echo "JVM_LIB=$JVM_LIB is not the library of $jvm (openjdk-17-jre-headless)" >&2; exit 1; }
libc_id=$(elf_build_id /lib/x86_64-linux-gnu/libc.so.6)
libc="/usr/lib/debug/.build-id/${libc_id:0:2}/${libc_id:2}.debug"
[ -f "$libc" ] || { echo "no debug file for libc.so.6 ($libc): apt-get install libc6-dbg" >&2; exit 1; }
"$here/gsymutil" --version > /dev/null   # build first, outside the timings

dbg="$work/debug"
rm -rf "$dbg"
for f in "$jvm" "$libc"; do
  id=$(elf_build_id "$f")
  mkdir -p "$dbg/.build-id/${id:0:2}"
  ln -s "$f" "$dbg/.build-id/${id:0:2}/${id:2}.debug"
done
gen() { # SPEC OUT
  (cd "$here/src-test-data/profile/gen" && GO111MODULE=off GOPATH=/usr/share/gocode go run main.go "$1" "$2")
}
if [ ! -f profile.pb.gz ] || [ ! -f profile.params ] || [ "$(cat profile.params)" != "$SAMPLES $ADDRS $STACKS 3" ]; then
  python3 "$here/bench/profile-spec.py" profile.spec pairs.txt "$ADDRS" "$SAMPLES" "$STACKS" \
    "$JVM_LIB" "$jvm" 0x7f3a12000000 /lib/x86_64-linux-gnu/libc.so.6 "$libc" 0x7f3a20000000
  gen "$work/profile.spec" "$work/profile.pb.gz"
  sed "s/^random $SAMPLES /random $FLAME_SAMPLES /" profile.spec > big.spec
  gen "$work/big.spec" "$work/big.pb.gz"
  echo "$SAMPLES $ADDRS $STACKS 3" > profile.params
fi
cat "$jvm" "$libc" > /dev/null   # page cache warm for both
locations=$(wc -l < pairs.txt)
echo "profile: $SAMPLES samples, $locations locations ($(grep -c '^location .* 1 ' profile.spec) in libjvm), $STACKS stacks;" \
  "$(stat -c %s profile.pb.gz) bytes gzipped"

store="$work/store"
rm -rf "$store"
timed() { # NAME CMD...: runs CMD, appends "seconds rss_kb cpu_seconds" to NAME.times; fails if CMD fails
  local name=$1 t0 t1
  shift
  t0=$(date +%s%N)
  /usr/bin/time -o "$name.rss.tmp" -f "%M %U %S" "$@" > /dev/null 2> "$name.err.tmp" \
    || { echo "$name failed: $(tail -n3 "$name.err.tmp")" >&2; exit 1; }
  t1=$(date +%s%N)
  tail -n1 "$name.rss.tmp" | awk -v a="$t0" -v b="$t1" '{printf "%.3f %s %.2f\n", (b - a) / 1e9, $1, $2 + $3}' >> "$name.times"
}
ours() { "$here/gsymutil" symbolize --pprof profile.pb.gz --debug-file-directory="$dbg" --store="$store" -o out.pb.gz; }
llvm() { llvm-symbolizer-22 --debug-file-directory="$dbg" --output-style=JSON < pairs.txt > llvm.json; }
rm -f ./*.times
t0=$(date +%s%N); ours 2> cold.err; t1=$(date +%s%N)
echo "cold (store empty: libjvm and libc converted): $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", (b - a) / 1e9}') s; $(tail -n1 cold.err)"
for ((i = 0; i < RUNS; i++)); do
  timed llvm bash -c "$(declare -f llvm); dbg=$dbg; llvm"
  timed ours bash -c "$(declare -f ours); here=$here dbg=$dbg store=$store; ours"
done
stats() { # NAME: wall "min median max" seconds, the median's peak RSS, CPU (user + sys) min median max
  sort -n "$1.times" | awk '{t[NR]=$1; m[NR]=$2} END {k=int((NR+1)/2); printf "wall %.2f %.2f %.2f s, peak RSS %d MB", t[1], t[k], t[NR], m[k]/1024}'
  sort -n -k3 "$1.times" | awk '{c[NR]=$3} END {k=int((NR+1)/2); printf ", CPU %.2f %.2f %.2f s", c[1], c[k], c[NR]}'
}
median() { # NAME COLUMN
  sort -n -k"$2" "$1.times" | awk -v c="$2" '{v[NR]=$c} END {print v[int((NR+1)/2)]}'
}
echo "llvm-symbolizer-22: $(stats llvm)   (min median max over $RUNS rounds)"
echo "gsymutil --pprof:   $(stats ours)"
echo "ratio of the medians: wall $(awk -v a="$(median llvm 1)" -v b="$(median ours 1)" 'BEGIN{printf "%.1f", a / b}')x," \
  "CPU $(awk -v a="$(median llvm 3)" -v b="$(median ours 3)" 'BEGIN{printf "%.1f", a / b}')x (llvm / ours)"
go tool pprof -symbolize=none -raw out.pb.gz > out.raw.txt 2> /dev/null
python3 "$here/bench/profile-compare.py" out.raw.txt llvm.json profile.spec || echo "(fewer than 99.9% of the locations agree)"

# flame graphs
for p in profile big; do
  t0=$(date +%s%N)
  "$here/gsymutil" flamegraph "$p.pb.gz" --debug-file-directory="$dbg" --store="$store" -o "$p.html" 2> /dev/null
  t1=$(date +%s%N)
  echo "flamegraph $p.pb.gz ($(zcat "$p.pb.gz" | wc -c) bytes of protobuf): written in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", (b - a) / 1e9}') s, $(stat -c %s "$p.html") bytes"
  for ((i = 0; i < RUNS; i++)); do
    t0=$(date +%s%N)
    chromium --headless --no-sandbox --disable-gpu --window-size=1280,800 --dump-dom "file://$work/$p.html" > "$p.dom" 2> /dev/null
    t1=$(date +%s%N)
    page=$(sed -n 's/.*<body data-load-ms="\([0-9.]*\)".*/\1/p' "$p.dom" | head -n1)
    frames=$(sed -n 's/.*data-frames="\([0-9]*\)".*/\1/p' "$p.dom" | head -n1)
    echo "  chromium: $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", (b - a) / 1e9}') s for the process; the page parsed and drew $frames frames in $page ms"
  done
done
