#!/usr/bin/env bash
# Inputs and goldens of the profile tests (gsym-profile, gsym-cli; docs/profiles.md):
#
#   src-test-data/profile/regenerate.sh
#
# bin/: profdemo (profdemo_main.cpp; clang++-22 -O2 -g, GNU ld, PIE) and libprofdemo.so
# (profdemo_lib.cpp; clang++-22 -O2 -g -shared, ld.lld-22, whose executable segment is at a
# virtual address 0x1000 past its file offset, so that pprof's program-header rules matter);
# -fno-omit-frame-pointer (perf's call chains), paths mapped to /gsym-test/profile.
# synthetic.pb.gz: a profile written by Go's own github.com/google/pprof/profile package (gen/,
# Debian's golang-github-google-pprof-dev) from synthetic.spec (make-spec.py): both modules mapped
# as a process maps them, about ten addresses in every function, plus a module that is nowhere, the
# vDSO, a location without mapping, a Go binary's symbolized mapping, a location that already has
# its line, an address outside its mapping; samples with two values and labels; two comments.
# debug/.build-id/: links to bin/ by build-id, a debug directory for the commands of README.md.
# synthetic.pb: synthetic.pb.gz uncompressed (the pprof fuzz target's seed).
# synthetic.addresses.txt: location id, module, module address of the locations of the two
# modules; synthetic.nofunction.txt: the same for the addresses past their last function, and
# expected/synthetic.nofunction.llvm-gsymutil.txt: llvm-gsymutil-22's lookups of them in its own
# conversions (not in GSYM; llvm-symbolizer would name the size-0 symbol _fini before them); expected/synthetic.llvm-symbolizer.txt and .raw.txt: llvm-symbolizer-22 --inlines
# (demangled, and --no-demangle) at those module addresses, LLVM style, one block per line of
# synthetic.addresses.txt. Deterministic: running it twice gives no diff.
# Needs clang++-22, llvm-gsymutil-22, ld.lld-22, llvm-readelf-22, llvm-nm-22, llvm-symbolizer-22, go and
# golang-github-google-pprof-dev, python3.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
mkdir -p bin expected
FLAGS=(-O2 -g -fno-omit-frame-pointer -fno-ident "-ffile-prefix-map=$HERE=/gsym-test/profile" -Wl,--build-id)
clang++-22 "${FLAGS[@]}" -fPIC -shared -fuse-ld=lld -Wl,-soname,libprofdemo.so -o bin/libprofdemo.so profdemo_lib.cpp
clang++-22 "${FLAGS[@]}" -o bin/profdemo profdemo_main.cpp -Lbin -lprofdemo -Wl,-rpath,'$ORIGIN'

TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
./make-spec.py synthetic.spec synthetic.addresses.txt synthetic.nofunction.txt
(cd gen && GO111MODULE=off GOPATH=/usr/share/gocode go run main.go ../synthetic.spec ../synthetic.pb.gz)

: > expected/synthetic.llvm-symbolizer.txt
: > expected/synthetic.llvm-symbolizer.raw.txt
for module in bin/profdemo bin/libprofdemo.so; do
  awk -v m="$module" '$2 == m {print $3}' synthetic.addresses.txt > "$TMP"
  llvm-symbolizer-22 --inlines --obj="$module" < "$TMP" >> expected/synthetic.llvm-symbolizer.txt
  llvm-symbolizer-22 --inlines --no-demangle --obj="$module" < "$TMP" >> expected/synthetic.llvm-symbolizer.raw.txt
done
# the addresses with no function: llvm-gsymutil-22's lookups in its own conversions
: > expected/synthetic.nofunction.llvm-gsymutil.txt
while read -r id module addr; do
  llvm-gsymutil-22 --convert "$module" --num-threads=1 -o "$TMP.gsym" > /dev/null
  { llvm-gsymutil-22 --address "$addr" "$TMP.gsym" 2>&1 || true; } | grep -v "^Looking up" >> expected/synthetic.nofunction.llvm-gsymutil.txt
done < synthetic.nofunction.txt
rm -f "$TMP.gsym"
if [ "$(grep -c 'is not in GSYM' expected/synthetic.nofunction.llvm-gsymutil.txt)" != "$(wc -l < synthetic.nofunction.txt)" ]; then
  echo "an address of synthetic.nofunction.txt has a function" >&2
  exit 1
fi
echo "regenerated: $(wc -l < synthetic.addresses.txt) addresses"
# the same profile uncompressed: the pprof fuzz target's seed (mutations of protobuf, not of gzip)
gzip -dc synthetic.pb.gz > synthetic.pb
# debug/: the two modules under their build-ids (relative links to bin/), a debug directory for
# the README's commands (--debug-file-directory=src-test-data/profile/debug)
rm -rf debug
for m in profdemo libprofdemo.so cgodemo; do   # cgodemo: regenerate-cgo.sh
  [ -f "bin/$m" ] || continue
  id=$(llvm-readelf-22 -n "bin/$m" | awk '/Build ID/ {print $3}')
  mkdir -p "debug/.build-id/${id:0:2}"
  ln -s "../../../bin/$m" "debug/.build-id/${id:0:2}/${id:2}.debug"
done
