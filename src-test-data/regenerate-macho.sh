#!/usr/bin/env bash
# Inputs and goldens of the Mach-O tests (MachOGoldenTest, MachOCliTest), built apart from
# regenerate.sh (which calls this at its end) so that they can be rebuilt alone:
#
#   src-test-data/regenerate-macho.sh
#
# From src/macho_main.c + macho_util.c (C) and src/macho_shapes.cpp (C++), freestanding (no SDK):
# macho/bin/
#   c-ARCH-O2, c-ARCH-O0-d4, cpp-ARCH-O2-d5   executables (ARCH arm64, x86_64; no DWARF of their own:
#                                              the debug map names the objects) and their .dSYM bundles
#   icf-ARCH                                   ld64.lld --icf=all (util_twice and util_thrice folded) + .dSYM
#   libutil-ARCH.dylib, shapes-ARCH.bundle     a dylib (+ .dSYM) and a bundle
#   c-ARCH-O2.o, cpp-ARCH-O0-d4.o              relocatable objects (DWARF in __DWARF, never relocated by llvm)
#   c-i386-O2.o, c-armv7-O2.o                  32-bit objects
#   c-arm64_32-O2 (+ .dSYM)                    arm64_32 (watchOS) executable
#   fat-c-O2 (+ .dSYM)                         universal: c-arm64-O2 + c-x86_64-O2 (its dSYM universal too)
#   fat64-objects.o                            fat64 universal object: i386, x86_64, armv7, arm64, arm64_32
# macho/gsym/NAME.gsym[.ARCH]   llvm-gsymutil-22 --convert --num-threads=1 --verify (flags per manifest)
# macho/expected/NAME.convert.txt   its stdout (log and --verify report); NAME.dump.txt and
#   NAME.lookup.txt: llvm-gsymutil-22's dump of each GSYM and lookups of the addresses in NAME.addrs.
# macho/manifest.tsv   NAME, input, extra flags, exit status.
# Objects are built in a fixed directory ($OBJ, named by the executables' debug maps, read by
# dsymutil) and dated 1970 (ZERO_AR_DATE: lld writes 0 as their time). Deterministic: running it
# twice gives no diff. Needs clang-22, ld64.lld-22, dsymutil-22, llvm-lipo-22, llvm-gsymutil-22.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0 ZERO_AR_DATE=1

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
GSYM22=${GSYM22:-llvm-gsymutil-22}
CC_CLANG=${CC_CLANG:-clang-22}
CXX_CLANG=${CXX_CLANG:-clang++-22}
LD64=${LD64:-ld64.lld-22}
DSYMUTIL=${DSYMUTIL:-dsymutil-22}
LIPO=${LIPO:-llvm-lipo-22}
PREFIX=/gsym-test
OBJ=/tmp/gsym-test-macho-obj
rm -rf "$OBJ"
mkdir -p "$OBJ"
trap 'rm -rf "$OBJ"' EXIT
rm -rf macho
mkdir -p macho/bin macho/gsym macho/expected

MAP="-ffile-prefix-map=$HERE/src=$PREFIX/src -ffile-prefix-map=$OBJ=$PREFIX/obj"
FLAGS="-fno-omit-frame-pointer -fno-ident -ffreestanding -fno-stack-protector -fno-builtin"
CXXFLAGS="-fno-exceptions -fno-rtti -fno-threadsafe-statics"

target() { # the clang target of an architecture
  case $1 in
    arm64_32) echo arm64_32-apple-watchos7 ;;
    armv7) echo armv7-apple-ios9 ;;
    i386) echo i386-apple-macos10.13 ;;
    *) echo "$1-apple-macos11" ;;
  esac
}
platform() { # ld64.lld's -platform_version of an architecture
  case $1 in arm64_32) echo "watchos 7.0 7.0" ;; *) echo "macos 11.0 11.0" ;; esac
}

# compile OUT.o ARCH "CFLAGS" SOURCE
compile() {
  local out=$1 arch=$2 cflags=$3 src=$4 drv=$CC_CLANG extra=""
  case $src in *.cpp) drv=$CXX_CLANG; extra=$CXXFLAGS ;; esac
  (cd src && $drv -target "$(target "$arch")" $FLAGS $extra $cflags $MAP -c "$src" -o "$OBJ/$out")
  touch -d @0 "$OBJ/$out"
}

# link NAME ARCH "LDFLAGS" OBJECTS... : macho/bin/NAME
link() {
  local name=$1 arch=$2 ldflags=$3; shift 3
  local objs=()
  for o in "$@"; do objs+=("$OBJ/$o"); done
  $LD64 -arch "$arch" -platform_version $(platform "$arch") $ldflags -o "macho/bin/$name" "${objs[@]}"
}

dsym() { $DSYMUTIL "macho/bin/$1" -o "macho/bin/$1.dSYM"; }

for a in arm64 x86_64; do
  compile c-$a-O2-main.o $a "-g -O2" macho_main.c
  compile c-$a-O2-util.o $a "-g -O2" macho_util.c
  compile c-$a-O0-d4-main.o $a "-gdwarf-4 -O0" macho_main.c
  compile c-$a-O0-d4-util.o $a "-gdwarf-4 -O0" macho_util.c
  compile cpp-$a-O2-d5.o $a "-gdwarf-5 -O2" macho_shapes.cpp
  compile cpp-$a-O0-d4.o $a "-gdwarf-4 -O0" macho_shapes.cpp
  link c-$a-O2 $a "-e _main" c-$a-O2-main.o c-$a-O2-util.o && dsym c-$a-O2
  link c-$a-O0-d4 $a "-e _main" c-$a-O0-d4-main.o c-$a-O0-d4-util.o && dsym c-$a-O0-d4
  link cpp-$a-O2-d5 $a "-e _main" cpp-$a-O2-d5.o && dsym cpp-$a-O2-d5
  link icf-$a $a "-e _main --icf=all" c-$a-O2-main.o c-$a-O2-util.o && dsym icf-$a
  link libutil-$a.dylib $a "-dylib -install_name @rpath/libutil.dylib" c-$a-O2-util.o && dsym libutil-$a.dylib
  link shapes-$a.bundle $a "-bundle" cpp-$a-O2-d5.o
  cp "$OBJ/c-$a-O2-main.o" macho/bin/c-$a-O2.o
  cp "$OBJ/cpp-$a-O0-d4.o" macho/bin/cpp-$a-O0-d4.o
done
for a in i386 armv7 arm64_32; do
  compile c-$a-O2-main.o $a "-g -O2" macho_main.c
  compile c-$a-O2-util.o $a "-g -O2" macho_util.c
done
cp "$OBJ/c-i386-O2-main.o" macho/bin/c-i386-O2.o
cp "$OBJ/c-armv7-O2-main.o" macho/bin/c-armv7-O2.o
link c-arm64_32-O2 arm64_32 "-e _main" c-arm64_32-O2-main.o c-arm64_32-O2-util.o && dsym c-arm64_32-O2
$LIPO -create macho/bin/c-arm64-O2 macho/bin/c-x86_64-O2 -output macho/bin/fat-c-O2
# dsymutil makes a universal dSYM with Apple's lipo, which is not here: the same with llvm-lipo
mkdir -p macho/bin/fat-c-O2.dSYM/Contents/Resources/DWARF
sed 's/c-arm64-O2/fat-c-O2/g' macho/bin/c-arm64-O2.dSYM/Contents/Info.plist > macho/bin/fat-c-O2.dSYM/Contents/Info.plist
$LIPO -create macho/bin/c-arm64-O2.dSYM/Contents/Resources/DWARF/c-arm64-O2 \
  macho/bin/c-x86_64-O2.dSYM/Contents/Resources/DWARF/c-x86_64-O2 -output macho/bin/fat-c-O2.dSYM/Contents/Resources/DWARF/fat-c-O2
$LIPO -create -fat64 "$OBJ/c-i386-O2-main.o" "$OBJ/c-x86_64-O2-main.o" "$OBJ/c-armv7-O2-main.o" \
  "$OBJ/c-arm64-O2-main.o" "$OBJ/c-arm64_32-O2-main.o" -output macho/bin/fat64-objects.o
# dsymutil's Relocations/*.yml name the build directory: not needed by the conversion
find macho/bin -path '*.dSYM/Contents/Resources/Relocations' -prune -exec rm -rf {} +

MANIFEST=macho/manifest.tsv
printf '# name\tinput (in macho/bin)\tflags\texit\n' > $MANIFEST
# convert NAME INPUT [FLAGS...]: run in macho/ so the log names bin/INPUT and gsym/NAME.gsym
convert() {
  local name=$1 in=$2; shift 2
  local rc=0
  (cd macho && $GSYM22 --convert "bin/$in" --out-file "gsym/$name.gsym" --num-threads=1 --verify "$@") \
    > "macho/expected/$name.convert.txt" 2>&1 || rc=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$in" "$*" "$rc" >> $MANIFEST
  [ $rc = 0 ] || { echo "conversion failed: $name" >&2; cat "macho/expected/$name.convert.txt" >&2; exit 1; }
}
for a in arm64 x86_64; do
  for b in c-$a-O2 c-$a-O0-d4 cpp-$a-O2-d5 icf-$a libutil-$a.dylib; do
    convert $b $b
    convert $b.dSYM $b.dSYM
  done
  convert icf-$a.dSYM.merged icf-$a.dSYM --merged-functions
  convert shapes-$a.bundle shapes-$a.bundle
  convert c-$a-O2.o c-$a-O2.o
  convert cpp-$a-O0-d4.o cpp-$a-O0-d4.o
done
convert c-i386-O2.o c-i386-O2.o
convert c-armv7-O2.o c-armv7-O2.o
convert c-arm64_32-O2 c-arm64_32-O2
convert c-arm64_32-O2.dSYM c-arm64_32-O2.dSYM
convert fat-c-O2 fat-c-O2
convert fat-c-O2.arch-arm64 fat-c-O2 --arch arm64
convert fat-c-O2.dSYM fat-c-O2.dSYM
convert fat-c-O2.dSYM.arch-x86_64 fat-c-O2.dSYM --arch=x86_64
convert fat64-objects.o fat64-objects.o
convert fat64-objects.o.arch-armv7-i386 fat64-objects.o --arch armv7 --arch 7

# dumps and lookups of every GSYM file (run in macho/gsym so the headers name just the file)
for f in $(cd macho/gsym && ls); do
  "$GSYM22" "macho/gsym/$f" > "macho/expected/$f.dump.txt"
  "$GSYM22" "macho/gsym/$f" | python3 derive-addresses.py > "macho/expected/$f.addrs"
  (cd macho/gsym && "$GSYM22" $(sed 's/^/--address /' "../expected/$f.addrs") "$f") > "macho/expected/$f.lookup.txt"
done
{
  "$CC_CLANG" --version | head -1
  "$GSYM22" --version | grep -i version | head -1
} > macho/tool-versions.txt
echo "built macho/ ($(ls macho/bin | wc -l) inputs, $(ls macho/gsym | wc -l) GSYM files)"
