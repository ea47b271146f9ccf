#!/usr/bin/env bash
# Breakpad's own dump_syms output for test binaries: the independent golden for the STACK CFI
# records gsymutil --to-breakpad writes (and reads back). dump_syms is the linux-x64 build shipped
# in the npm package minidump@0.26.0 (bin/linux-x64/dump_syms):
#
#   src-test-data/regenerate-breakpad-dumpsyms.sh [PACKAGE_DIR]
#
# PACKAGE_DIR is an unpacked minidump@0.26.0 (default /work/peers/package; else it is fetched with
# npm pack into a temporary directory). Writes breakpad/dump_syms/NAME.sym (stdout) for every NAME
# below; deterministic.
set -euo pipefail
export LC_ALL=C TZ=UTC
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
PKG=${1:-/work/peers/package}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ ! -x "$PKG/bin/linux-x64/dump_syms" ]; then
  (cd "$TMP" && npm pack --silent minidump@0.26.0 > /dev/null && tar xzf minidump-0.26.0.tgz)
  PKG="$TMP/package"
fi
DUMP_SYMS="$PKG/bin/linux-x64/dump_syms"
OUT=breakpad/dump_syms
mkdir -p "$OUT"
for name in c-gcc-O2 cpp-clang-O2 fs-aarch64-O2-d5 fs-i386-O2-d5; do
  "$DUMP_SYMS" "bin/$name" > "$OUT/$name.sym" 2> /dev/null
  echo "wrote $OUT/$name.sym ($(grep -c '^STACK CFI' "$OUT/$name.sym") STACK CFI records)"
done
echo "dump_syms from minidump@$(node -p "require('$PKG/package.json').version" 2>/dev/null || echo 0.26.0)" > "$OUT/tool-versions.txt"
