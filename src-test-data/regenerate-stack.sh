#!/usr/bin/env bash
# Golden inputs for `gsymutil symbolize --stack` (merged functions chosen by call sites), built
# apart from regenerate.sh (which calls this at its end), so that they can be rebuilt alone:
#
#   src-test-data/regenerate-stack.sh
#
# Sources: src/stack_main.c (executable stack-main), src/stack_callee.c (libstackcallee.so),
# src/stack_tramp.c (libstacktramp.so); clang-22 -O2 -g (DWARF 5, so DW_TAG_call_site is emitted)
# -ffunction-sections, identical code folded with --icf=all. lld writes a tombstone into the
# debug addresses of the functions it folds; -z dead-reloc-in-nonalloc=.debug_addr=ADDR replaces
# it by one address for every folded function of the link. libstackcallee.so has one folded group
# (ext_a, ext_b): it is linked by ld.lld-22 twice, the second time with ADDR = ext_a's address
# from the first. stack-main has three groups, so it is linked by GNU gold, which resolves the
# folded functions' debug addresses to the kept copy; libstacktramp.so folds nothing (gold too).
#
# Writes into stack/: bin/ (the three binaries), gsym/ (our gsymutil's conversions, each checked
# byte-identical with llvm-gsymutil-22's): X.gsym (--merged-functions --dwarf-callsites),
# stack-main.nocallsites.gsym (--merged-functions), stack-main.tramp.gsym (--merged-functions
# --callsites-yaml-file stack-main.tramp.yaml, the YAML derived from the DWARF call sites),
# stacks.txt (the test stacks, make-stacks.py), expected/stacks.llvm.txt (llvm-gsymutil-22's
# manual two-pass answers), expected/stacks.frames.txt (every frame's function and file:line as
# llvm-gsymutil-22 looks it up, the merged ones as the two-pass resolution chose).
# Deterministic: running it twice gives no diff. Needs clang-22, ld.lld-22, ld.gold, llvm-readelf-22, llvm-gsymutil-22,
# python3 and a JDK 25 for ../gsymutil.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
GSYM22=${GSYM22:-llvm-gsymutil-22}
CC_CLANG=${CC_CLANG:-clang-22}
OURS="$HERE/../gsymutil"
export GSYM22

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
OUT=stack
mkdir -p $OUT/bin $OUT/gsym $OUT/expected

CFLAGS="-O2 -g -gdwarf-5 -ffunction-sections -fno-omit-frame-pointer -fno-ident -ffile-prefix-map=$HERE/src=/gsym-test/src"
LDFLAGS="-fuse-ld=gold -Wl,--icf=all -Wl,--build-id=sha1"
(cd src && $CC_CLANG $CFLAGS -fPIC -c stack_callee.c -o "$TMP/stack_callee.o" \
  && $CC_CLANG $CFLAGS -fPIC -c stack_tramp.c -o "$TMP/stack_tramp.o" \
  && $CC_CLANG $CFLAGS -c stack_main.c -o "$TMP/stack_main.o")
LLD="-fuse-ld=lld -Wl,--icf=all -Wl,--build-id=sha1 -Wl,-soname,libstackcallee.so"
$CC_CLANG -shared $LLD "$TMP/stack_callee.o" -o "$TMP/libstackcallee.so"
KEPT=$(llvm-readelf-22 -sW "$TMP/libstackcallee.so" | awk '$8 == "ext_a" { print "0x" $2; exit }')
$CC_CLANG -shared $LLD -Wl,-z,dead-reloc-in-nonalloc=.debug_addr=$KEPT "$TMP/stack_callee.o" -o $OUT/bin/libstackcallee.so
$CC_CLANG -shared $LDFLAGS -Wl,-soname,libstacktramp.so "$TMP/stack_tramp.o" -o $OUT/bin/libstacktramp.so
$CC_CLANG $LDFLAGS "$TMP/stack_main.o" -L$OUT/bin -lstackcallee -lstacktramp -Wl,-rpath,'$ORIGIN' -o $OUT/bin/stack-main
echo "built $OUT/bin/{stack-main,libstackcallee.so,libstacktramp.so}"

# convert NAME OUT FLAGS...: ours into gsym/OUT, llvm's into $TMP; the bytes must be equal
convert() {
  local name=$1 out=$2; shift 2
  "$OURS" --dwarf "$OUT/bin/$name" -o "$OUT/gsym/$out" "$@" > /dev/null
  "$GSYM22" --convert "$OUT/bin/$name" --out-file "$TMP/$out" --num-threads=1 "$@" > /dev/null
  cmp "$OUT/gsym/$out" "$TMP/$out" || { echo "our $out differs from llvm-gsymutil-22's" >&2; exit 1; }
}
for b in stack-main libstackcallee.so libstacktramp.so; do
  convert $b $b.gsym --merged-functions --dwarf-callsites
done
convert stack-main stack-main.nocallsites.gsym --merged-functions
(cd $OUT && python3 make-stacks.py yaml > gsym/stack-main.tramp.yaml)
convert stack-main stack-main.tramp.gsym --merged-functions --callsites-yaml-file $OUT/gsym/stack-main.tramp.yaml

(cd $OUT && python3 make-stacks.py stacks > stacks.txt)
(cd $OUT && python3 make-stacks.py llvm < stacks.txt > expected/stacks.llvm.txt)
(cd $OUT && python3 make-stacks.py frames < stacks.txt > expected/stacks.frames.txt)
"$GSYM22" --version | sed -n '1,3p' > $OUT/expected/tool-versions.txt
$CC_CLANG --version | head -1 >> $OUT/expected/tool-versions.txt
ld.gold --version | head -1 >> $OUT/expected/tool-versions.txt
ld.lld-22 --version | head -1 >> $OUT/expected/tool-versions.txt
echo "wrote $OUT/gsym, $OUT/stacks.txt, $OUT/expected"
