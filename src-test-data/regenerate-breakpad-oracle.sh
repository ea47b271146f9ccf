#!/usr/bin/env bash
# The lookup oracle for Breakpad .sym files: Breakpad's own resolver (BasicSourceLineResolver),
# built from the Breakpad sources of the npm package minidump@0.26.0 around
# breakpad/oracle/resolve.cc, and its answers for every .sym file in breakpad/:
#
#   src-test-data/regenerate-breakpad-oracle.sh            # regenerates breakpad/X.resolver.txt
#   src-test-data/regenerate-breakpad-oracle.sh --build DIR # only builds DIR/resolve (tests use it)
#
# The sources: $BREAKPAD_SRC, else /work/peers/package/deps/breakpad, else the package fetched
# with `npm pack minidump@0.26.0` into a temporary directory. Only the six processor files the
# resolver needs are compiled (no configure: the processor builds without config.h), in a few
# seconds. X.resolver.txt holds resolve's answers for every address X.sym's records make
# interesting (resolve.cc says which and the format); breakpad/oracle/tool-versions.txt the
# package and compiler. bad.sym (malformed lines) and stack-only.sym (no FUNC or PUBLIC) get
# none. Deterministic: running it twice gives no diff. Needs g++ (C++17) and, without a local
# copy of the package, npm.
set -euo pipefail
export LC_ALL=C TZ=UTC

HERE=$(cd "$(dirname "$0")" && pwd)
PACKAGE=minidump@0.26.0
CXX=${CXX:-g++}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

src=${BREAKPAD_SRC:-}
if [ -z "$src" ]; then
  if [ -d /work/peers/package/deps/breakpad/src/processor ]; then
    src=/work/peers/package/deps/breakpad
  else
    (cd "$TMP" && npm pack --silent "$PACKAGE" > /dev/null && tar xzf minidump-*.tgz)
    src="$TMP/package/deps/breakpad"
  fi
fi

build() { # build OUT: the resolver binary
  local out=$1 p="$src/src/processor"
  "$CXX" -std=c++17 -O1 -w -I"$src/src" -o "$out" "$HERE/breakpad/oracle/resolve.cc" \
    "$p/basic_source_line_resolver.cc" "$p/source_line_resolver_base.cc" "$p/tokenize.cc" \
    "$p/logging.cc" "$p/pathname_stripper.cc" "$p/cfi_frame_info.cc"
}

if [ "${1:-}" = "--build" ]; then
  mkdir -p "$2"
  build "$2/resolve.tmp"
  mv "$2/resolve.tmp" "$2/resolve"
  exit 0
fi

build "$TMP/resolve"
cd "$HERE/breakpad"
for sym in *.sym; do
  case $sym in bad.sym | stack-only.sym) continue ;; esac
  "$TMP/resolve" --addresses "$sym" > "${sym%.sym}.resolver.txt" 2> /dev/null
  echo "wrote breakpad/${sym%.sym}.resolver.txt"
done
{
  echo "Breakpad: npm package $PACKAGE (deps/breakpad), BasicSourceLineResolver"
  "$CXX" --version | head -1
} > oracle/tool-versions.txt
