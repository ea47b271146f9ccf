#!/usr/bin/env bash
# Golden data for names and paths that are not UTF-8 (GSYM strings are bytes), runnable on its own:
# builds bin/latin1-{gcc,clang}-O2 from src/latin1.cpp (-g; Latin-1 file names from #line,
# non-UTF-8 linkage names from asm labels) and src/latin1_nodebug.c (no -g: names only in .symtab),
# with src/ mapped to /gsym-test/caf<0xE9> so that every DWARF path holds a Latin-1 byte, then writes
# llvm-gsymutil-22's conversion (gsym/), its log, its --verify report, its dump, lookups and
# --verbose lookups (expected/), replacing these files' rows of expected/manifest.tsv.
# Touches nothing else. regenerate.sh runs it last; deterministic (run twice, no diff).
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
GSYM22=${GSYM22:-llvm-gsymutil-22}
CXX_CLANG=${CXX_CLANG:-clang++-22}
CC_CLANG=${CC_CLANG:-clang-22}
CXX_GCC=${CXX_GCC:-g++}
CC_GCC=${CC_GCC:-gcc}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p bin gsym expected/gsym expected/convert expected/verify
MANIFEST=expected/manifest.tsv
[ -f $MANIFEST ] || printf '# kind\tdir\tfile\taddrs\toutput\texit\tcommand (run from src-test-data/)\n' > $MANIFEST
grep -v -P '\tlatin1-|/latin1-' $MANIFEST > "$TMP/manifest" || true
cp "$TMP/manifest" $MANIFEST

MAP="-ffile-prefix-map=$HERE/src=/gsym-test/caf"$'\xe9'
for cc in gcc clang; do
  if [ $cc = clang ]; then CXX=$CXX_CLANG; C=$CC_CLANG; else CXX=$CXX_GCC; C=$CC_GCC; fi
  name=latin1-$cc-O2
  (cd src && $CXX -g -O2 -fno-omit-frame-pointer -fno-ident "$MAP" -c latin1.cpp -o "$TMP/$name-a.o")
  (cd src && $C -O2 -fno-ident -c latin1_nodebug.c -o "$TMP/$name-b.o")
  $CXX -O2 -Wl,--build-id=sha1 -o bin/$name "$TMP/$name-a.o" "$TMP/$name-b.o"
  echo "built bin/$name"

  cmd="$GSYM22 --convert bin/$name --out-file gsym/$name.gsym --num-threads=1 "
  $cmd > expected/convert/$name.gsym.log.txt 2>&1
  printf 'convert\t.\tbin/%s\t-\texpected/convert/%s.gsym.log.txt\t0\t%s\n' $name $name "$cmd" >> $MANIFEST

  cmd="$GSYM22 --convert bin/$name --out-file $TMP/verify/$name.gsym --num-threads=1 --verify"
  mkdir -p "$TMP/verify"
  rc=0; $cmd > "$TMP/verify/$name.log" 2>&1 || rc=$?
  sed -n "/^Verifying GSYM file/,\$ { s|$TMP/verify/||; p; }" "$TMP/verify/$name.log" > expected/verify/$name.verify.txt
  [ -s expected/verify/$name.verify.txt ] || { echo "no --verify report for $name" >&2; exit 1; }
  printf 'verify\t.\tbin/%s\t-\texpected/verify/%s.verify.txt\t%s\tcd . && %s\n' $name $name $rc "${cmd/$TMP/\$TMP}" >> $MANIFEST

  f=$name.gsym; exp=expected/gsym/$f
  "$GSYM22" gsym/$f | python3 derive-addresses.py > $exp.addrs
  "$GSYM22" gsym/$f | python3 derive-addresses.py --verbose-subset > $exp.verbose.addrs
  for kind in dump lookup verbose; do
    case $kind in
      dump) out=$exp.dump.txt; addrs=-; cmd="cd gsym && $GSYM22 $f" ;;
      lookup) out=$exp.lookup.txt; addrs=../$exp.addrs; cmd="cd gsym && $GSYM22 \$(sed 's/^/--address /' $addrs) $f" ;;
      verbose) out=$exp.verbose.txt; addrs=../$exp.verbose.addrs; cmd="cd gsym && $GSYM22 --verbose \$(sed 's/^/--address /' $addrs) $f" ;;
    esac
    rc=0; bash -c "$cmd" > $out 2> $out.stderr || rc=$?
    [ -s $out.stderr ] || rm -f $out.stderr
    printf '%s\tgsym\t%s\t%s\t%s\t%s\t%s\n' $kind $f $addrs $out $rc "$cmd" >> $MANIFEST
  done
done
echo "latin1 goldens done"
