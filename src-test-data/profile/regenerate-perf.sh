#!/usr/bin/env bash
# A real perf recording of bin/profdemo (see regenerate.sh), for the perf input of the profile
# tests (gsym-profile PerfScriptTest, docs/profiles.md):
#
#   src-test-data/profile/regenerate-perf.sh
#
# Runs bin/profdemo from /tmp/gsym-profile-perf (the path the recording names) under
# `perf record -g -e cpu-clock -F 999` (Debian's linux-perf; a software event, which works in a
# VM) and writes perf/:
#   profdemo.perf.txt   perf script -F comm,pid,tid,period,ip,dso --show-mmap-events (no symbols:
#                       what gsymutil symbolizes)
#   profdemo.buildids.txt  perf buildid-list
#   profdemo.perf-sym.txt  perf script -F ip,sym,dso --no-demangle: perf's own symbol of every frame
#                       (from the modules' symbol tables), the oracle of the outermost function of
#                       each frame
# A recording differs at each run (addresses, samples): commit the four files together.
set -euo pipefail
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=/tmp/gsym-profile-perf
rm -rf "$RUN" && mkdir -p "$RUN" "$HERE/perf"
cp "$HERE/bin/profdemo" "$HERE/bin/libprofdemo.so" "$RUN/"
cd "$RUN"
perf record -q -g -e cpu-clock -F 999 -o perf.data ./profdemo 15 > /dev/null
perf script -i perf.data -F comm,pid,tid,period,ip,dso --show-mmap-events > "$HERE/perf/profdemo.perf.txt" 2> /dev/null
perf script -i perf.data -F ip,sym,dso --no-demangle > "$HERE/perf/profdemo.perf-sym.txt" 2> /dev/null
perf buildid-list -i perf.data > "$HERE/perf/profdemo.buildids.txt"
perf --version > "$HERE/perf/tool-versions.txt"
echo "perf/: $(grep -c "^profdemo " "$HERE/perf/profdemo.perf.txt") samples"
