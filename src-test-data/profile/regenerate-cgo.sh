#!/usr/bin/env bash
# A profile written by Go's own runtime/pprof (a real profiler) of a Go program with cgo, for the
# profile tests (gsym-profile PprofSymbolizeTest.goRuntimeProfileOfCgo, docs/profiles.md):
#
#   src-test-data/profile/regenerate-cgo.sh
#
# Builds cgo/ (main.go + cgodemo.c; Debian's golang-go, whose cgo compiles the C half with gcc -O2
# -g -fno-omit-frame-pointer) in /tmp/gsym-profile-cgo (the path its debug info names) into
# bin/cgodemo, runs it there for 3 s under runtime/pprof's CPU profiler and writes:
#   cgo.pb.gz                  the profile as Go wrote it: Go's frames named by the runtime, the C
#                              frames (walked by cgodemo_traceback through runtime.SetCgoTraceback)
#                              as locations whose one line names a function without name or file,
#                              their mapping without has_functions
#   cgo.addresses.txt          location id and address of those C locations (go tool pprof -raw)
#   expected/cgo.llvm-symbolizer.txt  llvm-symbolizer-22 --inlines --obj=bin/cgodemo at them (the
#                              executable is not PIE: module addresses are the process's)
#   debug/.build-id/: a link to bin/cgodemo under its build-id
# A run differs each time (samples, addresses): commit the files together.
# Needs go (golang-go), gcc, llvm-symbolizer-22, llvm-readelf-22.
set -euo pipefail
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=/tmp/gsym-profile-cgo
rm -rf "$RUN" && mkdir -p "$RUN" "$HERE/bin" "$HERE/expected"
cp "$HERE"/cgo/main.go "$HERE"/cgo/cgodemo.c "$HERE"/cgo/cgodemo.h "$RUN/"
cd "$RUN"
GO111MODULE=off GOFLAGS= go build -trimpath -o cgodemo .
./cgodemo cgo.pb.gz 3 > /dev/null
cp cgodemo "$HERE/bin/cgodemo"
cp cgo.pb.gz "$HERE/cgo.pb.gz"
go tool pprof -symbolize=none -raw cgo.pb.gz 2> /dev/null \
  | awk '/^Locations/ {on = 1; next} /^Mappings/ {on = 0} on && $4 == ":0" && $3 ~ /^M=/ {sub(":", "", $1); print $1, $2}' \
  > "$HERE/cgo.addresses.txt"
awk '{print $2}' "$HERE/cgo.addresses.txt" \
  | llvm-symbolizer-22 --inlines --obj="$HERE/bin/cgodemo" > "$HERE/expected/cgo.llvm-symbolizer.txt"
id=$(llvm-readelf-22 -n "$HERE/bin/cgodemo" | awk '/Build ID/ {print $3}')
mkdir -p "$HERE/debug/.build-id/${id:0:2}"
ln -sfn "../../../bin/cgodemo" "$HERE/debug/.build-id/${id:0:2}/${id:2}.debug"
go version > "$HERE/cgo/tool-versions.txt"
gcc --version | head -n1 >> "$HERE/cgo/tool-versions.txt"
echo "cgo.pb.gz: $(wc -l < "$HERE/cgo.addresses.txt") C locations without a function"
