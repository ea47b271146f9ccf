#!/usr/bin/env bash
# Hand-made Mach-O edge cases (MachOYamlTest), built apart from regenerate.sh (which calls this at
# its end) so that they can be rebuilt alone:
#
#   src-test-data/regenerate-macho-yaml.sh
#
# macho-yaml/src/NAME.yaml   the sources (yaml2obj-22 input), each opening with a comment saying
#   what it is: bad load commands, overlapping sections, segments and addresses, stripped files
#   (no symbol table, no DWARF). A "# patch: OFFSET VALUE" line writes VALUE as a little-endian
#   32-bit word at OFFSET of the built file: layouts yaml2obj will not write (it lays segments out
#   in order, so it cannot put two at the same file bytes).
# macho-yaml/bin/NAME         the built file
# macho-yaml/expected/NAME.convert.txt, NAME.stderr.txt
#   stdout and stderr of llvm-gsymutil-22 --convert bin/NAME --out-file gsym/NAME.gsym
#   --num-threads=1 (run in macho-yaml/); manifest.tsv has its exit status.
# macho-yaml/expected/NAME.llvm-size.txt   for a file llvm refuses: llvm-size-22's description
#   ("truncated or malformed object (...)"), the words of the libObject check that refused it
#   (llvm-gsymutil-22 prints only "Invalid data was encountered while parsing the file").
# macho-yaml/gsym/NAME.gsym and expected/NAME.gsym.{dump.txt,addrs,lookup.txt}: for the files llvm
#   converts, its GSYM file, dump, lookup addresses (derive-addresses.py) and lookups.
# Deterministic: running it twice gives no diff. Needs yaml2obj-22, llvm-gsymutil-22, llvm-size-22,
# python3.
set -euo pipefail
export LC_ALL=C TZ=UTC

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/macho-yaml"
GSYM22=${GSYM22:-llvm-gsymutil-22}
YAML2OBJ=${YAML2OBJ:-yaml2obj-22}
SIZE=${LLVM_SIZE:-llvm-size-22}
rm -rf bin gsym expected manifest.tsv
mkdir -p bin gsym expected

printf '# name\texit\n' > manifest.tsv
for src in src/*.yaml; do
  name=$(basename "$src" .yaml)
  "$YAML2OBJ" "$src" -o "bin/$name"
  { grep '^# patch: ' "$src" || true; } | while read -r _ _ offset value; do
    python3 -c 'import struct, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2], 0)); f.write(struct.pack("<I", int(sys.argv[3], 0)))' "bin/$name" "$offset" "$value"
  done
  rc=0
  "$GSYM22" --convert "bin/$name" --out-file "gsym/$name.gsym" --num-threads=1 \
    > "expected/$name.convert.txt" 2> "expected/$name.stderr.txt" || rc=$?
  printf '%s\t%s\n' "$name" "$rc" >> manifest.tsv
  if [ "$rc" != 0 ]; then
    rm -f "gsym/$name.gsym" # llvm leaves an empty file behind
    if grep -q 'Invalid data was encountered' "expected/$name.stderr.txt"; then
      err=$("$SIZE" "bin/$name" 2>&1 >/dev/null || true)
      printf '%s\n' "$err" | sed -n "s/^.*: error: 'bin\/$name': //p" > "expected/$name.llvm-size.txt"
      [ -s "expected/$name.llvm-size.txt" ] || { echo "llvm-size-22 accepts $name" >&2; exit 1; }
    fi
  fi
done
for f in $(cd gsym && ls); do
  "$GSYM22" "gsym/$f" > "expected/$f.dump.txt"
  "$GSYM22" "gsym/$f" | python3 ../derive-addresses.py > "expected/$f.addrs"
  (cd gsym && "$GSYM22" $(sed 's/^/--address /' "../expected/$f.addrs") "$f") > "expected/$f.lookup.txt"
done
{
  echo "$YAML2OBJ: $("$YAML2OBJ" --version | grep -i version | head -1)"
  echo "$GSYM22: $("$GSYM22" --version | grep -i version | head -1)"
  echo "$SIZE: $("$SIZE" --version | grep -i version | head -1)"
} > tool-versions.txt
echo "built macho-yaml/ ($(ls bin | wc -l) inputs, $(ls gsym | wc -l) GSYM files)"
