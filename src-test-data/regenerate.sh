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
RUSTC=${RUSTC:-rustc}
PREFIX=/gsym-test

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

rm -rf bin gsym expected
mkdir -p bin gsym expected/gsym expected/vectors expected/convert expected/verify

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
# Cross targets (freestanding.c, no libc) with clang-22 + lld: aarch64 (ELF64 LE), i386 (ELF32),
# ppc64 big-endian (ELF64 BE); DWARF 5, and DWARF 4 for i386. --gc-sections drops unused_gc.
FS_LD="-fuse-ld=lld -nostdlib -static -Wl,--gc-sections -Wl,-e,_start"
build fs-aarch64-O2-d5 "$CC_CLANG" "--target=aarch64-linux-gnu -O2 -gdwarf-5 -ffunction-sections" "$FS_LD" freestanding.c
build fs-i386-O2-d5 "$CC_CLANG" "--target=i386-linux-gnu -O2 -gdwarf-5 -ffunction-sections" "$FS_LD" freestanding.c
build fs-i386-O2-d4 "$CC_CLANG" "--target=i386-linux-gnu -O2 -gdwarf-4 -ffunction-sections" "$FS_LD" freestanding.c
build fs-ppc64-O2-d5 "$CC_CLANG" "--target=powerpc64-linux-gnu -O2 -gdwarf-5 -ffunction-sections" "$FS_LD" freestanding.c
# Line tables only (no inline info, no linkage names from clang).
build c-clang-O2-gline-tables-only "$CC_CLANG" "-O2 -gline-tables-only" "" c_main.c c_util.c
build cpp-clang-O2-gline-tables-only "$CXX_CLANG" "-O2 -gline-tables-only" "" cpp_main.cpp cpp_shapes.cpp
# -ffunction-sections + --gc-sections: util_unused is collected; its DW_TAG_subprogram stays,
# at address 0 (GNU ld and lld).
build gc-clang-O2-ld "$CC_CLANG" "-O2 -ffunction-sections" "-fuse-ld=bfd -Wl,--gc-sections" c_main.c c_util.c
build gc-clang-O2-lld "$CC_CLANG" "-O2 -ffunction-sections" "-fuse-ld=lld -Wl,--gc-sections" c_main.c c_util.c
build gc-gcc-O2-ld "$CC_GCC" "-O2 -ffunction-sections" "-Wl,--gc-sections" c_main.c c_util.c

# Split DWARF (-gsplit-dwarf, DWARF 5): the executable holds skeleton units; the DIEs are in
# bin/NAME-<unit>.dwo. DW_AT_comp_dir is "." and DW_AT_dwo_name the bare .dwo name, so
# llvm-gsymutil-22, which looks only at comp_dir/dwo_name, finds them when run inside bin/ (as
# regenerate does, see convert_split); the tests find them beside the binary. gcc 12 derives the
# DWO id from heap addresses, so the compiler runs without address randomization (setarch -R).
# build_split NAME DRIVER OPT SOURCES...
build_split() {
  local name=$1 drv=$2 opt=$3; shift 3
  local objs=() w="$TMP/split-work"
  mkdir -p "$w"
  for s in "$@"; do
    local o="$name-${s%.*}.o"
    (cd "$w" && setarch -R $drv $COMMON $opt -gsplit-dwarf -gdwarf-5 $MAP -fdebug-prefix-map="$w"=. -c "$HERE/src/$s" -o "$o")
    objs+=("$w/$o")
    mv "$w/$name-${s%.*}.dwo" bin/
  done
  $drv $opt $LDFLAGS_COMMON -o "bin/$name" "${objs[@]}"
  echo "built bin/$name"
}
build_split split-clang-O2 "$CC_CLANG" "-O2 -fdebug-compilation-dir=." c_main.c c_util.c
build_split split-gcc-O2 "$CC_GCC" "-O2" c_main.c c_util.c

# Rust (no_std, no_main: only the program and the few core functions it uses, a few KB).
# --remap-path-prefix maps src/ as -ffile-prefix-map does for C; core's paths are /rustc/<hash>/.
(cd src && $RUSTC --edition 2021 -C debuginfo=2 -C opt-level=2 -C panic=abort --crate-type bin \
  --remap-path-prefix="$HERE/src=$PREFIX/src" -C link-arg=-nostartfiles -C link-arg=-static \
  -C link-arg=-Wl,--build-id=sha1 -o "$HERE/bin/rust-O2" rust_main.rs)
echo "built bin/rust-O2"

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
for b in fs-aarch64-O2-d5 fs-i386-O2-d5 fs-i386-O2-d4 fs-ppc64-O2-d5 c-clang-O2-gline-tables-only \
    cpp-clang-O2-gline-tables-only gc-clang-O2-ld gc-clang-O2-lld gc-gcc-O2-ld rust-O2; do
  convert "$GSYM22" $b $b.gsym
done
# Split DWARF: run inside bin/ so comp_dir "." + dwo_name names the .dwo; fail unless llvm loaded them.
convert_split() {
  local bin=$1
  local cmd="$GSYM22 --convert $bin --out-file ../gsym/$bin.gsym --num-threads=1"
  local rc=0
  (cd bin && $cmd) > "expected/convert/$bin.gsym.log.txt" 2>&1 || rc=$?
  printf 'convert\tbin\t%s\t-\texpected/convert/%s.gsym.log.txt\t%s\tcd bin && %s\n' "$bin" "$bin" "$rc" "$cmd" >> $MANIFEST
  [ $rc = 0 ] || { echo "conversion failed: $cmd" >&2; exit 1; }
  if grep -q 'Unable to retrieve DWO' "expected/convert/$bin.gsym.log.txt" \
      || grep -q '^Loaded 0 functions from DWARF' "expected/convert/$bin.gsym.log.txt"; then
    echo "llvm did not load the .dwo files of bin/$bin" >&2; exit 1
  fi
}
convert_split split-clang-O2
convert_split split-gcc-O2

# --verify (llvm's DWARF-vs-GSYM lookup check) of every binary: expected/verify/X.verify.txt is
# its report from the "Verifying GSYM file" line on; the temporary output path there reads X.gsym.
mkdir -p "$TMP/verify"
for f in $(cd bin && ls | grep -v '\.dwo$'); do
  dir=.; in=bin/$f
  case $f in split-*) dir=bin; in=$f;; esac
  cmd="$GSYM22 --convert $in --out-file $TMP/verify/$f.gsym --num-threads=1 --verify"
  rc=0
  (cd $dir && $cmd) > "$TMP/verify/$f.log" 2>&1 || rc=$?
  sed -n "/^Verifying GSYM file/,\$ { s|$TMP/verify/||; p; }" "$TMP/verify/$f.log" > "expected/verify/$f.verify.txt"
  [ -s "expected/verify/$f.verify.txt" ] || { echo "no --verify report for $f" >&2; exit 1; }
  printf 'verify\t%s\t%s\t-\texpected/verify/%s.verify.txt\t%s\tcd %s && %s\n' "$dir" "$in" "$f" "$rc" "$dir" \
    "${cmd/$TMP/\$TMP}" >> $MANIFEST
done

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

# Symbol-table rules, split-DWARF packages (.dwp), names and paths that are not UTF-8: a separate
# script, runnable on its own.
"$HERE/regenerate-extra.sh"

{
  echo "# Tool versions used by regenerate.sh"
  for t in "$CC_CLANG" "$CC_GCC" "$GSYM22" "$GSYM14"; do echo "## $t"; $t --version 2>&1 | head -2; done
  echo "## ld"; ld --version | head -1
  echo "## gold"; ld.gold --version | head -1
  echo "## lld"; ld.lld-22 --version | head -1
  echo "## $RUSTC"; $RUSTC --version
} > expected/tool-versions.txt
# --to-breakpad of ELF files: inputs, readelf facts, llvm lookups and .sym goldens in breakpad/elf/
"$HERE/regenerate-breakpad-elf.sh"
# Stacks with merged functions for symbolize --stack: binaries, GSYMs and goldens in stack/
"$HERE/regenerate-stack.sh"
# Inputs of the embedded-GSYM tests in embed/ (freestanding x86-64, i386, mips, ppc32 builds)
"$HERE/regenerate-embed.sh"
# Mach-O, universal files and dSYM bundles: separately runnable too.
"$HERE/regenerate-macho.sh"
"$HERE/regenerate-macho-options.sh"
"$HERE/regenerate-pecoff.sh"
# Hand-made Mach-O edge cases (yaml2obj-22: bad load commands, overlaps, stripped files) in macho-yaml/
"$HERE/regenerate-macho-yaml.sh"
# Native unwind information (compact unwind, x64 unwind codes) and llvm's views of it in unwind/
"$HERE/regenerate-unwind.sh"
# MiniDebugInfo (.gnu_debugdata) and --symtab-file inputs and llvm 22's logs in minidebuginfo/
"$HERE/regenerate-minidebuginfo.sh"
# Symbol-table names of the outermost frame (symbolize): a library, its stripped copy and debug file, llvm's answers in symnames/
"$HERE/regenerate-symnames.sh"
# Reproductions of the inputs of llvm main's llvm-gsymutil tests (statistics, .gnu_debugdata, --symtab-file)
"$HERE/regenerate-llvmtests.sh"
# The demangling corpus (reads gsym/ and src/rust_v0.rs, so it runs after them)
"$HERE/demangle/regenerate.sh"
# DWARF call frame information inputs and llvm-dwarfdump/readelf/dump_syms goldens (reads bin/,
# macho/bin, pecoff/bin, so it runs after them)
"$HERE/regenerate-cfi.sh"
echo done
