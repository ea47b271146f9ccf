#!/usr/bin/env bash
# MiniDebugInfo (.gnu_debugdata) and --symtab-file inputs, built apart from regenerate.sh (which
# calls this at its end) so that they can be rebuilt alone:
#
#   src-test-data/regenerate-minidebuginfo.sh
#
# Everything goes to minidebuginfo/ (not bin/, whose binaries every golden test converts):
#
# mdi-gcc-O2.full:    src/c_main.c + src/c_util.c, gcc -O2 -g (the unstripped binary; also the
#                         --symtab-file companion of the stripped one).
# mdi-gcc-O2:              the same, made as Fedora's find-debuginfo makes MiniDebugInfo: the
#                         function symbols that are not in .dynsym kept from an --only-keep-debug
#                         copy with everything else stripped (objcopy -S --keep-symbols), that ELF
#                         xz-compressed into .gnu_debugdata of the strip --strip-all binary (no
#                         .symtab, no DWARF).
# mdi-gcc-O2-corrupt:      strip --strip-debug of the full binary (its .symtab kept) with a
#                         .gnu_debugdata that is an xz header followed by garbage (as llvm main's
#                         elf-gnu-debugdata-corrupt test).
#
# minidebuginfo/mdi-gcc-O2.keep-symbols.txt lists the kept symbols (the functions llvm main loads
# from .gnu_debugdata); minidebuginfo/NAME.llvm22.txt holds
# llvm-gsymutil-22 --convert's stdout, stderr and exit status for each binary (LLVM 22 ignores
# the section: what --llvm-compat=22 must print). Deterministic: running it twice gives no diff.
# Needs gcc 12, binutils (nm, objcopy, strip), xz, llvm-gsymutil-22.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
GSYM22=${GSYM22:-llvm-gsymutil-22}
CC_GCC=${CC_GCC:-gcc}
PREFIX=/gsym-test
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
D=minidebuginfo
mkdir -p $D

MAP="-ffile-prefix-map=$HERE/src=$PREFIX/src -ffile-prefix-map=$TMP=$PREFIX/obj -fdebug-prefix-map=$HERE/src=$PREFIX/src"
for s in c_main c_util; do
  (cd "$HERE/src" && $CC_GCC -O2 -g -fno-omit-frame-pointer -fno-ident $MAP -c "$s.c" -o "$TMP/$s.o")
done
$CC_GCC -O2 -Wl,--build-id=sha1 -o $D/mdi-gcc-O2.full "$TMP/c_main.o" "$TMP/c_util.o"

# find-debuginfo's add_minidebug: defined function symbols not in .dynsym
nm -D $D/mdi-gcc-O2.full --format=posix --defined-only | awk '{ print $1 }' | sort > "$TMP/dynsyms"
nm $D/mdi-gcc-O2.full --format=posix --defined-only | awk '{ if ($2 == "T" || $2 == "t") print $1 }' | sort > "$TMP/funcsyms"
comm -13 "$TMP/dynsyms" "$TMP/funcsyms" > $D/mdi-gcc-O2.keep-symbols.txt
objcopy --only-keep-debug $D/mdi-gcc-O2.full "$TMP/debug"
objcopy -S --remove-section .gdb_index --remove-section .comment \
  --keep-symbols=$D/mdi-gcc-O2.keep-symbols.txt "$TMP/debug" "$TMP/mini"
xz --format=xz --check=crc64 -9 --threads=1 --stdout "$TMP/mini" > "$TMP/mini.xz"
strip --strip-all -o "$TMP/stripped" $D/mdi-gcc-O2.full
objcopy --add-section .gnu_debugdata="$TMP/mini.xz" "$TMP/stripped" $D/mdi-gcc-O2

# xz stream header (magic, flags, CRC32) then bytes that are no xz block
printf '\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46\xde\xad\xbe\xef\xde\xad\xbe\xef\xde\xad\xbe\xef' > "$TMP/corrupt.xz"
strip --strip-debug -o "$TMP/nodebug" $D/mdi-gcc-O2.full
objcopy --add-section .gnu_debugdata="$TMP/corrupt.xz" "$TMP/nodebug" $D/mdi-gcc-O2-corrupt

for name in mdi-gcc-O2 mdi-gcc-O2-corrupt; do
  set +e
  (cd $D && $GSYM22 --convert "$name" --out-file "$TMP/$name.gsym" --num-threads=1 > "$TMP/out" 2> "$TMP/err")
  status=$?
  set -e
  {
    echo "## command: llvm-gsymutil-22 --convert $name --out-file OUT --num-threads=1 (in $D/)"
    echo "## exit: $status"
    echo "## stdout:"
    sed "s|$TMP/$name.gsym|OUT|g" "$TMP/out"
    echo "## stderr:"
    sed "s|$TMP/$name.gsym|OUT|g" "$TMP/err"
  } > "$D/$name.llvm22.txt"
done
echo done
