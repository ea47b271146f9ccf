#!/usr/bin/env bash
# Inputs of the embedded-GSYM tests (EmbedCliTest, ElfSectionWriterTest), built apart from
# regenerate.sh (which calls this at its end) so that they can be rebuilt alone:
#
#   src-test-data/regenerate-embed.sh
#
# embed/embed-x86_64-static  src/embed_fs.c, clang-22 + lld, -static -nostdlib: runs on the host
#                            (prints four numbers, exits 7) without a libc.
# embed/embed-i386-static    the same for i386 (ELF32 little-endian; run only where the kernel
#                            runs i386 programs).
# embed/embed-mips-static    the same for mips (ELF32 big-endian executable; never run).
# embed/embed-ppc.o          the same for 32-bit PowerPC, compiled only (ELF32 big-endian
#                            relocatable object: an object file is an ELF file too).
# For each X: embed/X.gsym (llvm-gsymutil-22 --convert --num-threads=1), the standalone file whose
# bytes the .gsym section must hold. The other inputs of those tests are already in bin/ (PIE and
# non-PIE, gcc and clang, C and C++, aarch64, i386, ppc64) and breakpad/elf/ (a shared library).
# Deterministic: running it twice gives no diff. Needs clang-22, ld.lld-22, llvm-gsymutil-22.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
GSYM22=${GSYM22:-llvm-gsymutil-22}
CC_CLANG=${CC_CLANG:-clang-22}
PREFIX=/gsym-test
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p embed

MAP="-ffile-prefix-map=$HERE/src=$PREFIX/src -ffile-prefix-map=$TMP=$PREFIX/obj -fdebug-prefix-map=$HERE/src=$PREFIX/src"
FLAGS="-O2 -g -fno-omit-frame-pointer -fno-ident -ffreestanding -fno-stack-protector"
LINK="-fuse-ld=lld -nostdlib -static -Wl,-e,_start -Wl,--build-id=sha1"

# build NAME TARGET [-c]: compile src/embed_fs.c for TARGET (from src/, paths mapped), link unless -c
build() {
  local name=$1 target=$2 compile_only=${3:-}
  (cd src && $CC_CLANG --target=$target $FLAGS $MAP -c embed_fs.c -o "$TMP/$name.o")
  if [ "$compile_only" = -c ]; then
    cp "$TMP/$name.o" "embed/$name"
  else
    $CC_CLANG --target=$target $LINK -o "embed/$name" "$TMP/$name.o"
  fi
  $GSYM22 --convert "embed/$name" --out-file "embed/$name.gsym" --num-threads=1 > "$TMP/$name.log" 2>&1 \
    || { cat "$TMP/$name.log" >&2; exit 1; }
  echo "built embed/$name and embed/$name.gsym"
}

build embed-x86_64-static x86_64-linux-gnu
build embed-i386-static i386-linux-gnu
build embed-mips-static mips-linux-gnu
build embed-ppc.o powerpc-linux-gnu -c
{
  "$CC_CLANG" --version | head -1
  "$GSYM22" --version | grep -i version | head -1
} > embed/tool-versions.txt
