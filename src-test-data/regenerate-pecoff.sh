#!/usr/bin/env bash
# Inputs and goldens of the PE/COFF tests (MachOGoldenTest and MachOCliTest read pecoff/ as they
# read macho/), built apart from regenerate.sh (which calls this at its end):
#
#   src-test-data/regenerate-pecoff.sh
#
# From src/macho_main.c + macho_util.c (C), src/macho_shapes.cpp (C++) and src/pe_stub.c,
# freestanding, clang-22 for the mingw targets (-target ARCH-w64-windows-gnu), linked with ld.lld-22:
# pecoff/bin/
#   c-ARCH-O2.exe, cpp-ARCH-O0-d4.exe   PE32+ (x86_64, aarch64) and PE32 (i686) images with DWARF
#   c-ARCH-O2.o, cpp-ARCH-O0-d4.o       COFF objects (DWARF relocations: SECREL, ADDR64/DIR32)
#   util-ARCH-O2-fs.o                   -ffunction-sections: one .text section per function, all at 0
# pecoff/gsym, pecoff/expected, pecoff/manifest.tsv: as regenerate-macho.sh's macho/ (--verify
# included; llvm reports mismatches for objects, see docs/dwarf-differences.md).
# Deterministic: running it twice gives no diff. Needs clang-22, ld.lld-22, llvm-gsymutil-22.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
GSYM22=${GSYM22:-llvm-gsymutil-22}
CC_CLANG=${CC_CLANG:-clang-22}
CXX_CLANG=${CXX_CLANG:-clang++-22}
LLD=${LLD:-ld.lld-22}
PREFIX=/gsym-test
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rm -rf pecoff
mkdir -p pecoff/bin pecoff/gsym pecoff/expected

MAP="-ffile-prefix-map=$HERE/src=$PREFIX/src -ffile-prefix-map=$TMP=$PREFIX/obj"
FLAGS="-fno-omit-frame-pointer -fno-ident -ffreestanding -fno-stack-protector -fno-builtin"
CXXFLAGS="-fno-exceptions -fno-rtti -fno-threadsafe-statics"

# compile OUT.o ARCH "CFLAGS" SOURCE
compile() {
  local out=$1 arch=$2 cflags=$3 src=$4 drv=$CC_CLANG extra=""
  case $src in *.cpp) drv=$CXX_CLANG; extra=$CXXFLAGS ;; esac
  (cd src && $drv -target "$arch-w64-windows-gnu" $FLAGS $extra $cflags $MAP -c "$src" -o "$TMP/$out")
}
emulation() {
  case $1 in x86_64) echo i386pep ;; i686) echo i386pe ;; aarch64) echo arm64pe ;; esac
}

for a in x86_64 i686 aarch64; do
  compile c-$a-O2-main.o $a "-g -O2" macho_main.c
  compile c-$a-O2-util.o $a "-g -O2" macho_util.c
  compile util-$a-O2-fs.o $a "-g -O2 -ffunction-sections" macho_util.c
  compile cpp-$a-O0-d4.o $a "-gdwarf-4 -O0" macho_shapes.cpp
  compile stub-$a.o $a "-O2" pe_stub.c
  $LLD -m "$(emulation $a)" --entry=main -o pecoff/bin/c-$a-O2.exe "$TMP/c-$a-O2-main.o" "$TMP/c-$a-O2-util.o" "$TMP/stub-$a.o"
  $LLD -m "$(emulation $a)" --entry=main -o pecoff/bin/cpp-$a-O0-d4.exe "$TMP/cpp-$a-O0-d4.o" "$TMP/stub-$a.o"
  cp "$TMP/c-$a-O2-main.o" pecoff/bin/c-$a-O2.o
  cp "$TMP/cpp-$a-O0-d4.o" pecoff/bin/cpp-$a-O0-d4.o
  cp "$TMP/util-$a-O2-fs.o" pecoff/bin/util-$a-O2-fs.o
done

MANIFEST=pecoff/manifest.tsv
printf '# name\tinput (in pecoff/bin)\tflags\texit\n' > $MANIFEST
convert() {
  local name=$1 in=$2; shift 2
  local rc=0
  (cd pecoff && $GSYM22 --convert "bin/$in" --out-file "gsym/$name.gsym" --num-threads=1 --verify "$@") \
    > "pecoff/expected/$name.convert.txt" 2>&1 || rc=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$in" "$*" "$rc" >> $MANIFEST
  [ $rc = 0 ] || { echo "conversion failed: $name" >&2; cat "pecoff/expected/$name.convert.txt" >&2; exit 1; }
}
for a in x86_64 i686 aarch64; do
  for b in c-$a-O2.exe cpp-$a-O0-d4.exe c-$a-O2.o cpp-$a-O0-d4.o util-$a-O2-fs.o; do convert $b $b; done
done
for f in $(cd pecoff/gsym && ls); do
  "$GSYM22" "pecoff/gsym/$f" > "pecoff/expected/$f.dump.txt"
  "$GSYM22" "pecoff/gsym/$f" | python3 derive-addresses.py > "pecoff/expected/$f.addrs"
  (cd pecoff/gsym && "$GSYM22" $(sed 's/^/--address /' "../expected/$f.addrs") "$f") > "pecoff/expected/$f.lookup.txt"
done
{
  "$CC_CLANG" --version | head -1
  "$GSYM22" --version | grep -i version | head -1
} > pecoff/tool-versions.txt
echo "built pecoff/ ($(ls pecoff/bin | wc -l) inputs, $(ls pecoff/gsym | wc -l) GSYM files)"
