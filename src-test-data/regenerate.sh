#!/usr/bin/env bash
# Rebuilds ALL generated golden data under src-test-data/ from src/ with fixed
# flags:  bin/ (test programs), gsym/ (llvm-gsymutil --convert outputs) and
# expected/ (llvm-gsymutil-22 dump/lookup outputs + manifest.tsv).
# Deterministic: running it twice gives no diff. See README.md.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
GSYM22=${GSYM22:-llvm-gsymutil-22}
GSYM14=${GSYM14:-llvm-gsymutil-14}
CC_CLANG=${CC_CLANG:-clang-22}
CXX_CLANG=${CXX_CLANG:-clang++-22}
CC_GCC=${CC_GCC:-gcc}
CXX_GCC=${CXX_GCC:-g++}
PREFIX=/gsym-test

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

rm -rf bin gsym expected
mkdir -p bin gsym expected/gsym expected/vectors expected/convert

# Paths in DWARF: compile from src/ with relative names, map src/ -> /gsym-test/src.
MAP="-ffile-prefix-map=$HERE/src=$PREFIX/src -ffile-prefix-map=$TMP=$PREFIX/obj -fdebug-prefix-map=$HERE/src=$PREFIX/src"
COMMON="-g -fno-omit-frame-pointer -fno-ident"
# The build-id is a hash of the output, so it is deterministic; keep it so the GSYM UUID is set.
LDFLAGS_COMMON="-Wl,--build-id=sha1"

# build NAME DRIVER OPT EXTRA_LDFLAGS SOURCES...
build() {
  local name=$1 drv=$2 opt=$3 ldx=$4; shift 4
  local objs=()
  for s in "$@"; do
    local o="$TMP/$name-${s%.*}.o"
    (cd "$HERE/src" && $drv $COMMON $opt $MAP -c "$s" -o "$o")
    objs+=("$o")
  done
  $drv $opt $LDFLAGS_COMMON $ldx -o "bin/$name" "${objs[@]}"
  echo "built bin/$name"
}

for cc in clang gcc; do
  if [ $cc = clang ]; then C=$CC_CLANG; CXX=$CXX_CLANG; else C=$CC_GCC; CXX=$CXX_GCC; fi
  for o in O0 O2; do
    build c-$cc-$o   "$C"   -$o "" c_main.c c_util.c
    build cpp-$cc-$o "$CXX" -$o "" cpp_main.cpp cpp_shapes.cpp
  done
done
# Identical code folding with gold, as in docs/gsym-vectors/vec3.
build icf-clang-O2-gold "$CC_CLANG" "-O2 -ffunction-sections" "-fuse-ld=gold -Wl,--icf=all" icf.c
# Compressed debug sections (SHF_COMPRESSED): zlib and zstd from clang (-gz also compresses at
# link time), zstd at link time from GNU ld for gcc objects (gcc has no -gz=zstd), and GNU
# .zdebug_* sections (objcopy zlib-gnu), which llvm 22 no longer reads as DWARF.
build c-clang-O2-gz-zlib "$CC_CLANG" "-O2 -gz=zlib" "" c_main.c c_util.c
build c-clang-O2-gz-zstd "$CC_CLANG" "-O2 -gz=zstd" "" c_main.c c_util.c
build c-gcc-O2-gz-zstd "$CC_GCC" "-O2 -gz=zlib" "-Wl,--compress-debug-sections=zstd" c_main.c c_util.c
objcopy --compress-debug-sections=zlib-gnu bin/c-gcc-O2 bin/c-gcc-O2-zdebug

MANIFEST=expected/manifest.tsv
printf '# kind\tdir\tfile\taddrs\toutput\texit\tcommand (run from src-test-data/)\n' > $MANIFEST

# convert TOOL BIN OUT [FLAGS...]   (single-threaded: deterministic order, docs §8.6)
convert() {
  local tool=$1 bin=$2 out=$3; shift 3
  local cmd="$tool --convert bin/$bin --out-file gsym/$out --num-threads=1 $*"
  local rc=0
  $cmd > "expected/convert/$out.log.txt" 2>&1 || rc=$?
  printf 'convert\t.\tbin/%s\t-\texpected/convert/%s.log.txt\t%s\t%s\n' "$bin" "$out" "$rc" "$cmd" >> $MANIFEST
  [ $rc = 0 ] || { echo "conversion failed: $cmd" >&2; exit 1; }
}

for b in c-clang-O0 c-clang-O2 c-gcc-O0 c-gcc-O2 cpp-clang-O0 cpp-clang-O2 cpp-gcc-O0 cpp-gcc-O2 icf-clang-O2-gold \
    c-clang-O2-gz-zlib c-clang-O2-gz-zstd c-gcc-O2-gz-zstd c-gcc-O2-zdebug; do
  convert "$GSYM22" $b $b.gsym
done
for b in c-clang-O0 c-clang-O2 c-gcc-O2 cpp-gcc-O2; do
  convert "$GSYM14" $b $b.llvm14.gsym
done
convert "$GSYM22" icf-clang-O2-gold icf-clang-O2-gold.merged.gsym --merged-functions
convert "$GSYM22" icf-clang-O2-gold icf-clang-O2-gold.merged-callsites.gsym --merged-functions --dwarf-callsites
# Segmented output (--segment-size): files gsym/c-clang-O2.seg.gsym-0x<start>
convert "$GSYM22" c-clang-O2 c-clang-O2.seg.gsym --segment-size=400

# run KIND DIR FILE ADDRS OUT FLAGS...   (runs inside DIR so the header names just FILE)
run() {
  local kind=$1 dir=$2 file=$3 addrs=$4 out=$5; shift 5
  local cmd="$GSYM22"
  [ $# -gt 0 ] && cmd="$cmd $*"
  [ "$addrs" != - ] && cmd="$cmd \$(sed 's/^/--address /' $addrs)"
  cmd="cd $dir && $cmd $file"
  local rc=0
  bash -c "$cmd" > "$out" 2> "$out.stderr" || rc=$?
  [ -s "$out.stderr" ] || rm -f "$out.stderr"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$dir" "$file" "$addrs" "$out" "$rc" "$cmd" >> $MANIFEST
}

for f in $(cd gsym && ls) ; do echo gsym/$f; done > "$TMP/list"
for f in $(cd vectors && ls | grep -v '\.py$'); do echo vectors/$f; done >> "$TMP/list"

while read -r rel; do
  dir=${rel%/*}; file=${rel##*/}; exp=expected/$dir/$file
  run dump "$dir" "$file" - "$exp.dump.txt"
  "$GSYM22" "$rel" | python3 derive-addresses.py > "$exp.addrs"
  "$GSYM22" "$rel" | python3 derive-addresses.py --verbose-subset > "$exp.verbose.addrs"
  run lookup "$dir" "$file" "../$exp.addrs" "$exp.lookup.txt"
  run verbose "$dir" "$file" "../$exp.verbose.addrs" "$exp.verbose.txt" --verbose
  if grep -q 'Merged FunctionInfos' "$exp.dump.txt"; then
    run merged "$dir" "$file" "../$exp.addrs" "$exp.merged.txt" --merged-functions
  fi
done < "$TMP/list"

{
  echo "# Tool versions used by regenerate.sh"
  for t in "$CC_CLANG" "$CC_GCC" "$GSYM22" "$GSYM14"; do echo "## $t"; $t --version 2>&1 | head -2; done
  echo "## ld"; ld --version | head -1
  echo "## gold"; ld.gold --version | head -1
} > expected/tool-versions.txt
echo done
