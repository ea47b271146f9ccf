#!/usr/bin/env bash
# Golden inputs for the ELF symbol-table rules, split-DWARF packages (.dwp) and names and paths that
# are not UTF-8, built apart from regenerate.sh (which calls this at its end) so that they can be
# rebuilt alone:
#
#   src-test-data/regenerate-extra.sh [symtab] [dwp] [latin1]      (no argument: all)
#
# symtab: bin/symtab-gcc-O0-nopie (src/symtab_main.cpp, non-PIE: undefined STT_FUNC symbols with
#         PLT addresses, an STT_GNU_IFUNC, an absolute STT_FUNC).
# dwp:    bin/dwp-* + bin/dwp-*.dwp: -gsplit-dwarf builds packed by llvm-dwp-22 -e; the .dwo
#         files are deleted, so llvm-gsymutil-22 (run from src-test-data/) finds the units only in
#         bin/NAME.dwp (the input path + ".dwp").
# latin1: bin/latin1-{gcc,clang}-O2: names and paths that are not UTF-8. src/latin1.cpp (-g, g++ /
#         clang++-22) with src/ mapped to /gsym-test/caf<0xE9> (every DWARF path holds byte 0xE9),
#         Latin-1 file names from #line, asm labels putting a Latin-1 byte, a truncated sequence, an
#         overlong form, an encoded surrogate, stray bytes and valid 4-byte UTF-8 into linkage and
#         symbol names; src/latin1_nodebug.c (no -g): names known only from .symtab.
#
# For each binary X it writes gsym/X.gsym (llvm-gsymutil-22 --convert --num-threads=1), the
# conversion log, the --verify report, the dump, lookup and verbose outputs with their address
# lists, and replaces X's rows in expected/manifest.tsv. Deterministic: running it twice gives no
# diff. Needs gcc/g++ 12, clang-22/clang++-22, llvm-dwp-22, llvm-gsymutil-22, setarch, python3.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
GSYM22=${GSYM22:-llvm-gsymutil-22}
DWP=${DWP:-llvm-dwp-22}
CC_CLANG=${CC_CLANG:-clang-22}
CXX_CLANG=${CXX_CLANG:-clang++-22}
CC_GCC=${CC_GCC:-gcc}
CXX_GCC=${CXX_GCC:-g++}
PREFIX=/gsym-test
MANIFEST=expected/manifest.tsv

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p bin gsym expected/gsym expected/convert expected/verify
[ -f $MANIFEST ] || printf '# kind\tdir\tfile\taddrs\toutput\texit\tcommand (run from src-test-data/)\n' > $MANIFEST

MAP="-ffile-prefix-map=$HERE/src=$PREFIX/src -ffile-prefix-map=$TMP=$PREFIX/obj -fdebug-prefix-map=$HERE/src=$PREFIX/src"
COMMON="-g -fno-omit-frame-pointer -fno-ident"
LDFLAGS_COMMON="-Wl,--build-id=sha1"

# Removes NAME's files and manifest rows (so that a rerun replaces them).
forget() {
  local name=$1
  rm -f "bin/$name" "bin/$name.dwp" "gsym/$name.gsym" "expected/convert/$name.gsym.log.txt" "expected/verify/$name.verify.txt"
  rm -f "expected/gsym/$name.gsym."*
  awk -F'\t' -v b="bin/$name" -v g="$name.gsym" '$3 != b && $3 != g' $MANIFEST > "$TMP/manifest" && cat "$TMP/manifest" > $MANIFEST
}

# golden NAME: llvm's conversion (fails unless it loaded DWARF functions without a DWO warning),
# --verify report, dump, lookups; manifest rows as regenerate.sh writes them.
golden() {
  local name=$1 rc cmd
  cmd="$GSYM22 --convert bin/$name --out-file gsym/$name.gsym --num-threads=1"
  rc=0
  $cmd > "expected/convert/$name.gsym.log.txt" 2>&1 || rc=$?
  printf 'convert\t.\tbin/%s\t-\texpected/convert/%s.gsym.log.txt\t%s\t%s\n' "$name" "$name" "$rc" "$cmd" >> $MANIFEST
  [ $rc = 0 ] || { echo "conversion failed: $cmd" >&2; exit 1; }
  if grep -q 'Unable to retrieve DWO' "expected/convert/$name.gsym.log.txt" \
      || grep -q '^Loaded 0 functions from DWARF' "expected/convert/$name.gsym.log.txt"; then
    echo "llvm loaded no DWARF functions from bin/$name" >&2; exit 1
  fi
  mkdir -p "$TMP/verify"
  cmd="$GSYM22 --convert bin/$name --out-file $TMP/verify/$name.gsym --num-threads=1 --verify"
  rc=0
  $cmd > "$TMP/verify/$name.log" 2>&1 || rc=$?
  sed -n "/^Verifying GSYM file/,\$ { s|$TMP/verify/||; p; }" "$TMP/verify/$name.log" > "expected/verify/$name.verify.txt"
  [ -s "expected/verify/$name.verify.txt" ] || { echo "no --verify report for $name" >&2; exit 1; }
  printf 'verify\t.\tbin/%s\t-\texpected/verify/%s.verify.txt\t%s\tcd . && %s\n' "$name" "$name" "$rc" "${cmd/$TMP/\$TMP}" >> $MANIFEST
  local exp=expected/gsym/$name.gsym
  "$GSYM22" "gsym/$name.gsym" | python3 derive-addresses.py > "$exp.addrs"
  "$GSYM22" "gsym/$name.gsym" | python3 derive-addresses.py --verbose-subset > "$exp.verbose.addrs"
  llvm_run dump "$name.gsym" - "$exp.dump.txt"
  llvm_run lookup "$name.gsym" "../$exp.addrs" "$exp.lookup.txt"
  llvm_run verbose "$name.gsym" "../$exp.verbose.addrs" "$exp.verbose.txt" --verbose
}

# llvm_run KIND FILE ADDRS OUT FLAGS...   (inside gsym/, as regenerate.sh's run)
llvm_run() {
  local kind=$1 file=$2 addrs=$3 out=$4; shift 4
  local cmd="$GSYM22" rc=0
  [ $# -gt 0 ] && cmd="$cmd $*"
  [ "$addrs" != - ] && cmd="$cmd \$(sed 's/^/--address /' $addrs)"
  cmd="cd gsym && $cmd $file"
  bash -c "$cmd" > "$out" 2> "$out.stderr" || rc=$?
  [ -s "$out.stderr" ] || rm -f "$out.stderr"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" gsym "$file" "$addrs" "$out" "$rc" "$cmd" >> $MANIFEST
}

symtab() {
  local name=symtab-gcc-O0-nopie
  forget $name
  (cd src && $CXX_GCC $COMMON -O0 -fno-pie $MAP -c symtab_main.cpp -o "$TMP/symtab_main.o")
  $CXX_GCC -no-pie $LDFLAGS_COMMON -o "bin/$name" "$TMP/symtab_main.o"
  echo "built bin/$name"
  golden $name
}

# dwp_build NAME DRIVER FLAGS SOURCES...: -gsplit-dwarf objects in a scratch directory (comp_dir
# "."; gcc without address randomization, its DWO ids depend on heap addresses), the link, then
# llvm-dwp-22 -e (it reads the .dwo files through the skeletons' comp_dir + dwo_name, so it runs
# in that directory). The .dwo files stay behind. llvm-dwp-22 hangs on some gcc 12 DWARF 5 .dwo
# files (llvm issue 203625: DW_FORM_implicit_const in the abbreviations), hence the timeout and the
# choice of sources for gcc's DWARF 5 package.
dwp_build() {
  local name=$1 drv=$2 flags=$3; shift 3
  local w="$TMP/$name" objs=()
  forget $name
  mkdir -p "$w"
  for s in "$@"; do
    (cd "$w" && setarch -R $drv $COMMON -O2 -gsplit-dwarf $flags $MAP -fdebug-prefix-map="$w"=. -c "$HERE/src/$s" -o "${s%.*}.o")
    objs+=("$w/${s%.*}.o")
  done
  $drv -O2 $LDFLAGS_COMMON -o "bin/$name" "${objs[@]}"
  (cd "$w" && timeout 120 "$DWP" -e "$HERE/bin/$name" -o "$HERE/bin/$name.dwp")
  echo "built bin/$name + bin/$name.dwp"
  golden $name
}

latin1() {
  local cc name drv c map="-ffile-prefix-map=$HERE/src=$PREFIX/caf"$'\xe9'
  for cc in gcc clang; do
    if [ $cc = clang ]; then drv=$CXX_CLANG; c=$CC_CLANG; else drv=$CXX_GCC; c=$CC_GCC; fi
    name=latin1-$cc-O2
    forget $name
    (cd src && $drv -g -O2 -fno-omit-frame-pointer -fno-ident "$map" -c latin1.cpp -o "$TMP/$name-a.o")
    (cd src && $c -O2 -fno-ident -c latin1_nodebug.c -o "$TMP/$name-b.o")
    $drv -O2 $LDFLAGS_COMMON -o "bin/$name" "$TMP/$name-a.o" "$TMP/$name-b.o"
    echo "built bin/$name"
    golden $name
  done
}

dwp() {
  dwp_build dwp-gcc-O2-d4 "$CC_GCC" "-gdwarf-4" c_main.c c_util.c
  dwp_build dwp-clang-O2-d4 "$CC_CLANG" "-gdwarf-4 -fdebug-compilation-dir=." c_main.c c_util.c
  dwp_build dwp-clang-O2-d5 "$CC_CLANG" "-gdwarf-5 -fdebug-compilation-dir=." c_main.c c_util.c
  dwp_build dwp-gxx-O2-d5 "$CXX_GCC" "-gdwarf-5" cpp_main.cpp cpp_shapes.cpp
  # type units: GNU DWARF 4 .debug_types.dwo (.debug_tu_index version 2) and DWARF 5 split type
  # units in .debug_info.dwo (.debug_tu_index version 5)
  dwp_build dwp-gxx-O2-d4-types "$CXX_GCC" "-gdwarf-4 -fdebug-types-section" cpp_main.cpp cpp_shapes.cpp
  dwp_build dwp-clangxx-O2-d5-types "$CXX_CLANG" "-gdwarf-5 -fdebug-types-section -fdebug-compilation-dir=." cpp_main.cpp cpp_shapes.cpp
}

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(symtab dwp latin1)
for p in "${parts[@]}"; do
  case $p in
    symtab) symtab ;;
    dwp) dwp ;;
    latin1) latin1 ;;
    *) echo "usage: $0 [symtab] [dwp] [latin1]" >&2; exit 2 ;;
  esac
done
{
  echo "# Tool versions used by regenerate-extra.sh"
  for t in "$CC_CLANG" "$CC_GCC" "$GSYM22" "$DWP"; do echo "## $t"; $t --version 2>&1 | head -2; done
  echo "## ld"; ld --version | head -1
} > expected/tool-versions-extra.txt
echo done
