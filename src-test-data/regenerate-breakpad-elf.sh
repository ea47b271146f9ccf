#!/usr/bin/env bash
# Rebuilds src-test-data/breakpad/elf/: the inputs and goldens of `gsymutil --to-breakpad ELF`
# (see README.md, "breakpad/elf/"). Runs on its own (it only reads bin/ and src/) and is called at
# the end of regenerate.sh. Deterministic: running it twice gives no diff.
#
#   inputs   libgsymtest-clang-O2.so      shared library with a SONAME and an 8-byte build-id
#            c-gcc-O2-nobuildid           no build-id: the module id is the .text hash
#            c-clang-O2.debug             separate debug file (objcopy --only-keep-debug)
#            c-clang-O2-notesegment       build-id section renamed: found only in the PT_NOTE segment
#   facts    X.readelf.txt                llvm-readelf-22 headers, notes and dynamic table: the
#                                         independent source the MODULE line is checked against
#   llvm     X.gsym, X.gsym.addrs,        llvm-gsymutil-22 --convert of each new input, lookup
#            X.gsym.lookup.txt            addresses (derive-addresses.py) and llvm's lookups
#   goldens  X.sym                        `gsymutil --to-breakpad` of every file above and of
#                                         bin/{c-clang-O2,cpp-gcc-O2,fs-aarch64-O2-d5,fs-i386-O2-d5,fs-ppc64-O2-d5}
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
GSYM22=${GSYM22:-llvm-gsymutil-22}
READELF=${READELF:-llvm-readelf-22}
OBJCOPY=${OBJCOPY:-llvm-objcopy-22}
CC_CLANG=${CC_CLANG:-clang-22}
CC_GCC=${CC_GCC:-gcc}
GSYMUTIL=${GSYMUTIL:-$HERE/../gsymutil}
PREFIX=/gsym-test
OUT=breakpad/elf

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT"

# As regenerate.sh: compile from src/ with relative names, paths mapped to /gsym-test/.
MAP="-ffile-prefix-map=$HERE/src=$PREFIX/src -ffile-prefix-map=$TMP=$PREFIX/obj -fdebug-prefix-map=$HERE/src=$PREFIX/src"
COMMON="-g -fno-omit-frame-pointer -fno-ident"

# compile DRIVER OPT NAME SOURCE...: objects in $TMP/NAME-*.o, printed
compile() {
  local drv=$1 opt=$2 name=$3; shift 3
  for s in "$@"; do
    (cd src && $drv $COMMON $opt $MAP -c "$s" -o "$TMP/$name-${s%.*}.o")
    echo "$TMP/$name-${s%.*}.o"
  done
}

lib=libgsymtest-clang-O2.so
$CC_CLANG -O2 -shared -Wl,-soname,libgsymtest.so.1 -Wl,--build-id=0x0123456789abcdef -o "$OUT/$lib" \
  $(compile "$CC_CLANG" "-O2 -fPIC" lib c_util.c)
$CC_GCC -O2 -Wl,--build-id=none -o "$OUT/c-gcc-O2-nobuildid" $(compile "$CC_GCC" -O2 nobuildid c_main.c c_util.c)
$OBJCOPY --only-keep-debug bin/c-clang-O2 "$OUT/c-clang-O2.debug"
$OBJCOPY --rename-section .note.gnu.build-id=.note.renamed bin/c-clang-O2 "$OUT/c-clang-O2-notesegment"
new="$lib c-gcc-O2-nobuildid c-clang-O2.debug c-clang-O2-notesegment"

for f in $new; do
  (cd "$OUT" && $GSYM22 --convert "$f" --out-file "$f.gsym" --num-threads=1 > /dev/null)
  $GSYM22 "$OUT/$f.gsym" | python3 derive-addresses.py > "$OUT/$f.gsym.addrs"
  (cd "$OUT" && $GSYM22 $(sed 's/^/--address /' "$f.gsym.addrs") "$f.gsym" > "$f.gsym.lookup.txt")
done

for p in bin/c-clang-O2 bin/cpp-gcc-O2 bin/fs-aarch64-O2-d5 bin/fs-i386-O2-d5 bin/fs-ppc64-O2-d5 \
    $(for f in $new; do echo "$OUT/$f"; done); do
  f=${p##*/}
  # (a debug file has no dynamic table: llvm-readelf warns on stderr)
  $READELF --file-header --program-headers --section-headers --notes --dynamic-table -W "$p" 2> /dev/null \
    | sed "s|$HERE/||" > "$OUT/$f.readelf.txt"
  "$GSYMUTIL" --to-breakpad "$p" -o "$OUT/$f.sym" --quiet > /dev/null
done
{
  echo "# Tool versions used by regenerate-breakpad-elf.sh"
  for t in "$CC_CLANG" "$CC_GCC" "$GSYM22" "$READELF" "$OBJCOPY"; do echo "## $t"; $t --version 2>&1 | head -2; done
  echo "## ld"; ld --version | head -1
} > "$OUT/tool-versions.txt"
echo "built $OUT"
