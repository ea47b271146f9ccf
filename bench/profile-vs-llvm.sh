#!/usr/bin/env bash
# gsymutil symbolize --pprof beside llvm-symbolizer-22 on the same (module, address) pairs, and the
# flame graphs of large profiles in headless Chromium (docs/performance.md, "Profiles").
#
# The profile: SAMPLES (default 1,000,000) samples written by Go's pprof package
# (src-test-data/profile/gen) over libjvm.so's debug file (OpenJDK 17, Debian's openjdk-17-dbg,
# lib.sh) and libc.so.6's (Debian's libc6-dbg), each mapped as a process maps its executable
# segment; ADDRS (default 300,000) distinct addresses spread over the two modules' functions in
# proportion to their code (profile-spec.py), STACKS (default 50,000) distinct stacks of 3 to 24
# frames drawn from them (paths of a random call tree), the samples Zipf-distributed over the
# stacks. llvm-symbolizer-22 answers the profile's (BUILDID:hex, address) pairs, one per location,
# with --inlines and --demangle (its defaults), JSON output; gsymutil symbolizes the profile with
# the GSYMs in its store (converted once, before the timings; the cold time, store emptied, is
# reported once). Both as whole processes, RUNS (default 3) rounds interleaved; wall time and peak
# RSS by /usr/bin/time; minimum, median and maximum of the rounds. Then the frames are compared:
# our profile as `go tool pprof -raw` prints it, against llvm's answers (profile-compare.py).
# Flame graphs: `gsymutil flamegraph` of this profile and of one of FLAME_SAMPLES (default
# 10,000,000) samples over the same stacks, and headless Chromium loading each page (--dump-dom:
# the process's wall time, and the page's own time from parsing its data to the drawn frames).
#
# Usage: bench/profile-vs-llvm.sh [WORKDIR [LIBJVM_DEBUG]]   (default /tmp/gsym-profile-bench)
# Needs llvm-symbolizer-22, go + golang-github-google-pprof-dev, libc6-dbg, chromium, python3.
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
if [ ! -f profile.pb.gz ] || [ ! -f profile.params ] || [ "$(cat profile.params)" != "$SAMPLES $ADDRS $STACKS" ]; then
  python3 "$here/bench/profile-spec.py" profile.spec pairs.txt "$ADDRS" "$SAMPLES" "$STACKS" \
    "$jvm" 0x7f3a12000000 "$libc" 0x7f3a20000000
  gen "$work/profile.spec" "$work/profile.pb.gz"
  sed "s/^random $SAMPLES /random $FLAME_SAMPLES /" profile.spec > big.spec
  gen "$work/big.spec" "$work/big.pb.gz"
  echo "$SAMPLES $ADDRS $STACKS" > profile.params
fi
cat "$jvm" "$libc" > /dev/null   # page cache warm for both
locations=$(wc -l < pairs.txt)
echo "profile: $SAMPLES samples, $locations locations ($(grep -c '^location .* 1 ' profile.spec) in libjvm), $STACKS stacks;" \
  "$(stat -c %s profile.pb.gz) bytes gzipped"

store="$work/store"
rm -rf "$store"
timed() { # NAME CMD...: appends "seconds rss_kb" to NAME.times
  local t0 t1 r
  t0=$(date +%s%N)
  r=$( { /usr/bin/time -f "%M" "$@" > /dev/null 2> "$1.err.tmp"; } 2>&1 | tail -n1 ) || true
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" -v r="$r" 'BEGIN{printf "%.3f %s\n", (b - a) / 1e9, r}' >> "$1.times"
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
stats() { # NAME: "min median max" seconds and the median's RSS
  sort -n "$1.times" | awk '{t[NR]=$1; m[NR]=$2} END {k=int((NR+1)/2); printf "%.2f %.2f %.2f s, peak RSS %d MB", t[1], t[k], t[NR], m[k]/1024}'
}
echo "llvm-symbolizer-22: $(stats llvm)   (min median max over $RUNS rounds)"
echo "gsymutil --pprof:   $(stats ours)"
awk 'NR==FNR {a[NR]=$1; n=NR; next} {b[FNR]=$1} END {asort(a); asort(b); k=int((n+1)/2); printf "ratio (median): %.1fx faster\n", a[k]/b[k]}' llvm.times ours.times
go tool pprof -symbolize=none -raw out.pb.gz > out.raw.txt 2> /dev/null
python3 "$here/bench/profile-compare.py" out.raw.txt llvm.json

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
