#!/usr/bin/env bash
# Golden inputs for the names gsymutil symbolize gives the outermost frame from a binary's symbol
# table (as llvm-symbolizer does when it reads DWARF), built apart from regenerate.sh (which calls
# this at its end), so that they can be rebuilt alone:
#
#   src-test-data/regenerate-symnames.sh
#
# Source: src/symnames.c with src/symnames.map (glibc's hidden aliases, a versioned symbol, a weak
# alias, a label inside a function, a static function), gcc -O2 -g -shared.
#
# Writes into symnames/: bin/libsymnames.so (with .symtab), bin/libsymnames-stripped.so (strip
# --strip-all: .dynsym only, as distributions ship libc.so.6), debug/.build-id/xx/yyyy.debug (its
# objcopy --only-keep-debug file), gsym/libsymnames.so.gsym (llvm-gsymutil-22's conversion, read
# through --gsym-file-directory), addresses.txt (start, second byte, middle and last byte of every
# function and label, from llvm-nm-22), and llvm-symbolizer-22's JSON answers in expected/ (run in
# symnames/, so modules are named bin/...): path.json (--obj=bin/libsymnames.so),
# path-no-inlines.json (the same with --no-inlines), stripped.json
# (--obj=bin/libsymnames-stripped.so --debug-file-directory=debug: the names of .dynsym),
# buildid.json (BUILDID:ID lines, --debug-file-directory=debug: the debug file's .symtab) and
# path-gsym.json (--gsym-file-directory=gsym: llvm reads the GSYM file and keeps its names).
# Deterministic: running it twice gives no diff. Needs gcc 12, strip, objcopy, llvm-nm-22,
# llvm-readelf-22, llvm-gsymutil-22, llvm-symbolizer-22 and python3.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
CC_GCC=${CC_GCC:-gcc}
GSYM22=${GSYM22:-llvm-gsymutil-22}
SYMBOLIZER=${SYMBOLIZER:-llvm-symbolizer-22}

OUT=symnames
rm -rf $OUT/bin $OUT/debug $OUT/gsym $OUT/expected
mkdir -p $OUT/bin $OUT/gsym $OUT/expected

CFLAGS="-O2 -g -fPIC -fno-ident -ffile-prefix-map=$HERE/src=/gsym-test/src"
(cd src && $CC_GCC $CFLAGS -shared -Wl,--version-script=symnames.map -Wl,--build-id=sha1 \
  -Wl,-soname,libsymnames.so symnames.c -o "$HERE/$OUT/bin/libsymnames.so")
strip --strip-all -o $OUT/bin/libsymnames-stripped.so $OUT/bin/libsymnames.so
ID=$(llvm-readelf-22 -n $OUT/bin/libsymnames.so | awk '/Build ID:/ { print $3 }')
mkdir -p "$OUT/debug/.build-id/${ID:0:2}"
objcopy --only-keep-debug $OUT/bin/libsymnames.so "$OUT/debug/.build-id/${ID:0:2}/${ID:2}.debug"
"$GSYM22" --convert $OUT/bin/libsymnames.so --out-file $OUT/gsym/libsymnames.so.gsym --num-threads=1 > /dev/null
echo "built $OUT/bin/{libsymnames.so,libsymnames-stripped.so}, build-id $ID"

# start, second byte, middle and last byte of every defined text symbol (functions and labels)
llvm-nm-22 --defined-only -S $OUT/bin/libsymnames.so | python3 -c '
import sys
out = set()
for line in sys.stdin:
    f = line.split()
    if len(f) == 4 and f[2] in "tTW":
        a, n = int(f[0], 16), int(f[1], 16)
    elif len(f) == 3 and f[1] in "tTW":
        a, n = int(f[0], 16), 0
    else:
        continue
    out.update({a, a + 1} | ({a + n // 2, a + n - 1} if n > 1 else set()))
print("\n".join("0x%x" % a for a in sorted(out)))' > $OUT/addresses.txt

cd $OUT
"$SYMBOLIZER" --output-style=JSON --obj=bin/libsymnames.so < addresses.txt > expected/path.json
"$SYMBOLIZER" --output-style=JSON --no-inlines --obj=bin/libsymnames.so < addresses.txt > expected/path-no-inlines.json
"$SYMBOLIZER" --output-style=JSON --debug-file-directory=debug --obj=bin/libsymnames-stripped.so \
  < addresses.txt > expected/stripped.json
sed "s/^/BUILDID:$ID /" addresses.txt | "$SYMBOLIZER" --output-style=JSON --debug-file-directory=debug \
  > expected/buildid.json
"$SYMBOLIZER" --output-style=JSON --gsym-file-directory=gsym --obj=bin/libsymnames.so < addresses.txt \
  > expected/path-gsym.json
{ $CC_GCC --version | head -1; strip --version | head -1; "$GSYM22" --version | sed -n '1,3p'
  "$SYMBOLIZER" --version | sed -n '1,3p'; } > expected/tool-versions.txt
echo "wrote $OUT/addresses.txt and $OUT/expected ($(wc -l < addresses.txt) addresses)"
