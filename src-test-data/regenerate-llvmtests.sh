#!/usr/bin/env bash
# Inputs that reproduce those of llvm main's llvm-gsymutil tests (llvm/test/tools/llvm-gsymutil/,
# to be LLVM 23), so that our output can be checked against the figures those tests expect
# (LlvmMainTestsCliTest). Built apart from regenerate.sh (which calls this at its end):
#
#   src-test-data/regenerate-llvmtests.sh
#
# Everything is in llvmtests/, written here from the tests' descriptions of their inputs (the YAML
# files say which test and commit):
#   statistics             X86/statistics-detailed.yaml: DWARF for main, an inlined call, a call
#                          site and dupfunc over the same range, a 16-byte build-id
#   statistics.llvm22.gsym llvm-gsymutil-22 --convert --merged-functions --dwarf-callsites of it
#                          (version 1: what our version 1 conversion must equal)
#   statistics.expected.*  the test's CHECK lines for --statistics, --statistics=json and
#                          =pretty-json, written out by hand ({{PATH}} for the file's path): LLVM
#                          22 has no --statistics, so nothing here regenerates them
#   gnu-debugdata          X86/elf-gnu-debugdata.yaml without .dynsym: .gnu_debugdata is
#                          gnu-debugdata-mini.yaml's object, `xz --check=crc32 -9` (as that test's
#                          recipe), added with llvm-objcopy-22 --add-section
#   gnu-debugdata-corrupt  X86/elf-gnu-debugdata-corrupt.yaml: .gnu_debugdata is an xz stream
#                          header followed by garbage (the test's bytes)
#   symtab-debug, symtab-symbols   X86/elf-symtab-file.yaml's input (without DWARF) and --symtab-file
#   NAME.llvm22.txt        llvm-gsymutil-22 --convert's stdout, stderr and exit status for the
#                          gnu-debugdata binaries (LLVM 22 ignores the section: --llvm-compat=22)
# Deterministic: running it twice gives no diff. Needs yaml2obj-22, llvm-objcopy-22, xz,
# llvm-gsymutil-22.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/llvmtests"
GSYM22=${GSYM22:-llvm-gsymutil-22}
YAML2OBJ=${YAML2OBJ:-yaml2obj-22}
OBJCOPY=${OBJCOPY:-llvm-objcopy-22}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

$YAML2OBJ statistics.yaml -o statistics
$GSYM22 --convert statistics --merged-functions --dwarf-callsites --num-threads=1 \
  --out-file statistics.llvm22.gsym > /dev/null

$YAML2OBJ gnu-debugdata-mini.yaml -o "$TMP/mini"
xz --format=xz --check=crc32 -9 --threads=1 --stdout "$TMP/mini" > "$TMP/mini.xz"
$YAML2OBJ gnu-debugdata.yaml -o "$TMP/outer"
$OBJCOPY --add-section .gnu_debugdata="$TMP/mini.xz" "$TMP/outer" gnu-debugdata

printf '\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46\xde\xad\xbe\xef\xde\xad\xbe\xef\xde\xad\xbe\xef' > "$TMP/corrupt.xz"
$YAML2OBJ gnu-debugdata-corrupt.yaml -o "$TMP/corrupt"
$OBJCOPY --add-section .gnu_debugdata="$TMP/corrupt.xz" "$TMP/corrupt" gnu-debugdata-corrupt

$YAML2OBJ symtab-debug.yaml -o symtab-debug
$YAML2OBJ symtab-symbols.yaml -o symtab-symbols

for name in gnu-debugdata gnu-debugdata-corrupt; do
  set +e
  $GSYM22 --convert "$name" --out-file "$TMP/$name.gsym" --num-threads=1 > "$TMP/out" 2> "$TMP/err"
  status=$?
  set -e
  {
    echo "## command: llvm-gsymutil-22 --convert $name --out-file OUT --num-threads=1 (in llvmtests/)"
    echo "## exit: $status"
    echo "## stdout:"
    sed "s|$TMP/$name.gsym|OUT|g" "$TMP/out"
    echo "## stderr:"
    sed "s|$TMP/$name.gsym|OUT|g" "$TMP/err"
  } > "$name.llvm22.txt"
done
{
  $YAML2OBJ --version | grep -i version | head -1
  $GSYM22 --version | grep -i version | head -1
  xz --version | head -1
} > tool-versions.txt
echo "built llvmtests/"
