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
#   ours     X.sym                        `gsymutil --to-breakpad` of every file above and of
#                                         bin/{c-clang-O2,cpp-gcc-O2,fs-aarch64-O2-d5,fs-i386-O2-d5,fs-ppc64-O2-d5}
#                                         (what the CLI writes today, checked by the oracles below;
#                                         other tests read these files as Breakpad input)
#   oracles  X.symbolizer.txt             llvm-symbolizer-22 --inlines -a on the ELF (its DWARF) at
#                                         llvm's lookup addresses (X.gsym.addrs, or for bin/ inputs
#                                         expected/gsym/X.gsym.addrs): what the .sym must answer
#            X.sym.resolver.txt           what X.sym answers at the same addresses (less the first
#                                         PT_LOAD's address) read by Breakpad's own resolver
#                                         (breakpad/oracle/resolve.cc, built by
#                                         regenerate-breakpad-oracle.sh --build)
#            X.dump_syms.txt              Breakpad's `dump_syms -d -c` (INLINE records, no STACK
#                                         CFI): its MODULE and INFO CODE_ID lines, FILE and
#                                         INLINE_ORIGIN numbering and names; or the line
#                                         `dump_syms: exit status N` where it fails
#            X.dump_syms.stack.txt        the STACK CFI records of Breakpad's `dump_syms` (with
#                                         CFI, the default): what X.sym's STACK records must be
#            random/X.symbolizer.txt      llvm-symbolizer-22 at 100 random addresses inside the
#                                         functions (sample-addresses.py over llvm-gsymutil-22's
#                                         GSYM) of every ELF input of gsym/ (bin/X) and of the four
#                                         inputs above: the agreement measure
# Needs Breakpad's dump_syms and, to build the resolver, g++ and Breakpad's sources, both from the
# npm package minidump@0.26.0 (breakpad-package.sh: $DUMP_SYMS, $BREAKPAD_PACKAGE (an unpacked
# package), $BREAKPAD_SRC, dump_syms on the PATH, /work/peers/package, else fetched), besides the
# llvm-22 tools and compilers.
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
SYMBOLIZER=${SYMBOLIZER:-llvm-symbolizer-22}
PREFIX=/gsym-test
OUT=breakpad/elf

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=breakpad-package.sh
. "$HERE/breakpad-package.sh"
breakpad_src "$TMP"
breakpad_dump_syms "$TMP"
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

# symbolize ELF < addresses: llvm-symbolizer-22's frames (LLVM style, each answer after its address),
# run beside the ELF, where it finds split DWARF (.dwo by DW_AT_dwo_name with comp_dir ".", .dwp)
symbolize() {
  (cd "$(dirname "$1")" && env -u DEBUGINFOD_URLS -u LLVM_SYMBOLIZER_OPTS \
    $SYMBOLIZER --obj="$(basename "$1")" --inlines --demangle --print-address --output-style=LLVM)
}

"$HERE/regenerate-breakpad-oracle.sh" --build "$TMP/oracle"

for p in bin/c-clang-O2 bin/cpp-gcc-O2 bin/fs-aarch64-O2-d5 bin/fs-i386-O2-d5 bin/fs-ppc64-O2-d5 \
    $(for f in $new; do echo "$OUT/$f"; done); do
  f=${p##*/}
  # (a debug file has no dynamic table: llvm-readelf warns on stderr)
  $READELF --file-header --program-headers --section-headers --notes --dynamic-table -W "$p" 2> /dev/null \
    | sed "s|$HERE/||" > "$OUT/$f.readelf.txt"
  "$GSYMUTIL" --to-breakpad "$p" -o "$OUT/$f.sym" --quiet > /dev/null
  if [ -f "$OUT/$f.gsym.addrs" ]; then addrs="$OUT/$f.gsym.addrs"; else addrs="expected/gsym/$f.gsym.addrs"; fi
  symbolize "$p" < "$addrs" > "$OUT/$f.symbolizer.txt"
  load=$(awk '$1 == "LOAD" { print $3; exit }' "$OUT/$f.readelf.txt")
  "$TMP/oracle/resolve" "$OUT/$f.sym" $(while read -r a; do printf '%x\n' $((a - ${load:-0})); done < "$addrs") \
    > "$OUT/$f.sym.resolver.txt" 2> /dev/null
  status=0
  (exec "$DUMP_SYMS" -d -c "$p" > "$TMP/dump_syms.txt" 2> /dev/null) 2> /dev/null || status=$?
  # (this dump_syms build crashes on the big-endian ppc64 file)
  if [ "$status" = 0 ]; then mv "$TMP/dump_syms.txt" "$OUT/$f.dump_syms.txt"; else echo "dump_syms: exit status $status" > "$OUT/$f.dump_syms.txt"; fi
  status=0
  (exec "$DUMP_SYMS" "$p" > "$TMP/dump_syms.txt" 2> /dev/null) 2> /dev/null || status=$?
  if [ "$status" = 0 ]; then grep '^STACK ' "$TMP/dump_syms.txt" > "$OUT/$f.dump_syms.stack.txt" || true
  else echo "dump_syms: exit status $status" > "$OUT/$f.dump_syms.stack.txt"; fi
done

# The agreement measure: random addresses inside the functions of every ELF input with an llvm GSYM
mkdir -p "$OUT/random"
for g in gsym/*.gsym $(for f in $new; do echo "$OUT/$f.gsym"; done); do
  f=${g##*/}; f=${f%.gsym}
  case "$f" in *.llvm14|*.merged|*.merged-callsites) continue ;; esac
  if [ -f "bin/$f" ]; then p="bin/$f"; else p="$OUT/$f"; fi
  $GSYM22 "$g" | python3 sample-addresses.py "$f" 100 | symbolize "$p" > "$OUT/random/$f.symbolizer.txt"
done
{
  echo "# Tool versions used by regenerate-breakpad-elf.sh"
  for t in "$CC_CLANG" "$CC_GCC" "$GSYM22" "$READELF" "$OBJCOPY" "$SYMBOLIZER"; do
    echo "## $t"; $t --version 2>&1 | head -2
  done
  echo "## ld"; ld --version | head -1
  echo "## dump_syms (Breakpad, npm minidump@0.26.0 bin/linux-x64; no --version): sha256"
  sha256sum < "$DUMP_SYMS" | cut -d' ' -f1
} > "$OUT/tool-versions.txt"
echo "built $OUT"
