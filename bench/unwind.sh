#!/usr/bin/env bash
# Unwind information, side by side with Breakpad's dump_syms (docs/performance.md, "Unwind
# information"; docs/unwind.md):
#
#   bench/unwind.sh [BINARY DEBUG_FILE] [RUNS]
#
# Defaults: /tmp/jvmdbg/libjvm.so and its debug file /tmp/jvmdbg/libjvm.debug (Debian's
# openjdk-17-jdk and openjdk-17-dbg: /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so and
# /usr/lib/debug/.build-id/xx/yyyy.debug), 3 runs each, alternating.
#
# 1. `gsymutil --to-breakpad BINARY --debug-file-directory DIR` against `dump_syms BINARY DIR`: the
#    DWARF of the debug file, the CFI of both; whole process, the ratio per pair; the STACK records
#    must be equal (checked). Debian's debug files carry a .gnu_debuglink CRC dump_syms refuses, so
#    the binary is given a fresh link to the debug file (objcopy) first.
# 2. `gsymutil --dwarf DEBUG --symtab-file BINARY [--unwind]`: the cost of --unwind (ratio per pair)
#    and the bytes it adds, against the .eh_frame + .eh_frame_hdr they came from and the STACK CFI
#    text dump_syms writes for them.
# Needs dump_syms (npm minidump@0.26.0 bin/linux-x64; BREAKPAD_PACKAGE or the PATH), objcopy,
# /usr/bin/time. Run on an idle machine: other processes change every figure.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-/tmp/jvmdbg/libjvm.so}
DEBUG=${2:-/tmp/jvmdbg/libjvm.debug}
RUNS=${3:-3}
GSYMUTIL="$HERE/gsymutil"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$HERE/src-test-data/breakpad-package.sh"
breakpad_dump_syms "$TMP"

name=$(basename "$BIN")
mkdir -p "$TMP/bin" "$TMP/dbg"
cp "$DEBUG" "$TMP/dbg/$name.debuginfo"
objcopy --remove-section .gnu_debuglink "$BIN" "$TMP/bin/$name"
objcopy --add-gnu-debuglink="$TMP/dbg/$name.debuginfo" "$TMP/bin/$name"
"$GSYMUTIL" --version > /dev/null # build first, outside the timings

# run LABEL OUT CMD...: whole-process wall seconds, user seconds and peak RSS (KB) of one run
run() {
  local label=$1 out=$2; shift 2
  /usr/bin/time -f "%e %U %M" -o "$TMP/time" "$@" > "$out" 2> /dev/null
  read -r wall user rss < "$TMP/time"
  printf '%-28s %7.2f s wall %7.2f s user %8d KB\n' "$label" "$wall" "$user" "$rss" >&2
  echo "$wall"
}

echo "== --to-breakpad with CFI against dump_syms ($name + its debug file), $RUNS pairs" >&2
ratios=()
for i in $(seq "$RUNS"); do
  ours=$(run "gsymutil --to-breakpad" "$TMP/ours.log" "$GSYMUTIL" --to-breakpad "$TMP/bin/$name" \
    --debug-file-directory "$TMP/dbg" -o "$TMP/ours.sym" --quiet)
  theirs=$(run "dump_syms" "$TMP/theirs.sym" "$DUMP_SYMS" "$TMP/bin/$name" "$TMP/dbg")
  ratios+=("$(echo "scale=3; $theirs / $ours" | bc)")
done
if cmp -s <(grep '^STACK ' "$TMP/ours.sym") <(grep '^STACK ' "$TMP/theirs.sym"); then
  echo "STACK records equal: $(grep -c '^STACK ' "$TMP/ours.sym")" >&2
else
  echo "STACK records DIFFER" >&2
  exit 1
fi
echo "dump_syms time / ours, per pair: ${ratios[*]}" >&2

echo "== --dwarf with and without --unwind, $RUNS pairs" >&2
ratios=()
for i in $(seq "$RUNS"); do
  with=$(run "--dwarf --unwind" /dev/null "$GSYMUTIL" --dwarf "$DEBUG" --symtab-file "$BIN" --unwind -o "$TMP/with.gsym" --quiet)
  without=$(run "--dwarf" /dev/null "$GSYMUTIL" --dwarf "$DEBUG" --symtab-file "$BIN" -o "$TMP/without.gsym" --quiet)
  ratios+=("$(echo "scale=3; $with / $without" | bc)")
done
echo "time with --unwind / without, per pair: ${ratios[*]}" >&2
added=$(( $(stat -c %s "$TMP/with.gsym") - $(stat -c %s "$TMP/without.gsym") ))
eh=0
for size in $(readelf -SW "$BIN" | awk '$2 == ".eh_frame" || $2 == ".eh_frame_hdr" { print $6 }'); do
  eh=$(( eh + 16#$size )) # mawk has no strtonum
done
cfi_text=$(grep '^STACK CFI' "$TMP/theirs.sym" | wc -c)
echo "bytes added by --unwind: $added; .eh_frame + .eh_frame_hdr: $eh (ratio $(echo "scale=3; $added / $eh" | bc));" \
  "dump_syms' STACK CFI text: $cfi_text (ratio $(echo "scale=3; $added / $cfi_text" | bc))" >&2
