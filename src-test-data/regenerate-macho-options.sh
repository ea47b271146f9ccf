#!/usr/bin/env bash
# llvm-gsymutil-22's options on Mach-O (MachOCliTest), from the inputs of macho/bin (run
# regenerate-macho.sh first; regenerate.sh calls this after it), separately runnable:
#
#   src-test-data/regenerate-macho-options.sh
#
# macho-options/gsym/NAME.gsym[.ARCH]   llvm-gsymutil-22 --convert ../macho/bin/INPUT --num-threads=1
#   --verify FLAGS, run in macho-options/: --dwarf-callsites, --callsites-yaml-file callsites.yaml
#   (hand-written), --merged-functions, alone and together, on dSYMs, an object, a universal dSYM
#   and an executable without DWARF.
# macho-options/expected/NAME.convert.txt   its stdout; NAME.dump.txt, NAME.addrs, NAME.lookup.txt:
#   llvm-gsymutil-22's dump of each GSYM file and lookups of the addresses derive-addresses.py takes
#   from it; NAME.merged.txt: the same lookups with --merged-functions.
# macho-options/manifest.tsv   NAME, input (in macho/bin), flags, exit status (macho/'s format).
# Deterministic: running it twice gives no diff. Needs llvm-gsymutil-22 and python3.
set -euo pipefail
export LC_ALL=C TZ=UTC

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/macho-options"
GSYM22=${GSYM22:-llvm-gsymutil-22}
rm -rf gsym expected manifest.tsv
mkdir -p gsym expected

printf '# name\tinput (in macho/bin)\tflags\texit\n' > manifest.tsv
convert() { # NAME INPUT FLAGS...
  local name=$1 in=$2; shift 2
  local rc=0
  "$GSYM22" --convert "../macho/bin/$in" --out-file "gsym/$name.gsym" --num-threads=1 --verify "$@" \
    > "expected/$name.convert.txt" 2>&1 || rc=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$in" "$*" "$rc" >> manifest.tsv
  [ $rc = 0 ] || { echo "conversion failed: $name" >&2; cat "expected/$name.convert.txt" >&2; exit 1; }
}
convert icf-arm64.dSYM.merged-callsites icf-arm64.dSYM --merged-functions --dwarf-callsites
convert icf-x86_64.dSYM.merged-callsites-yaml icf-x86_64.dSYM --merged-functions --callsites-yaml-file callsites.yaml
convert c-x86_64-O2.dSYM.callsites c-x86_64-O2.dSYM --dwarf-callsites
convert cpp-arm64-O2-d5.dSYM.callsites cpp-arm64-O2-d5.dSYM --dwarf-callsites
convert c-x86_64-O0-d4.dSYM.callsites-yaml c-x86_64-O0-d4.dSYM --callsites-yaml-file callsites.yaml
convert c-arm64-O2.dSYM.both c-arm64-O2.dSYM --dwarf-callsites --callsites-yaml-file callsites.yaml
convert c-arm64-O2.o.callsites c-arm64-O2.o --dwarf-callsites
convert fat-c-O2.dSYM.callsites fat-c-O2.dSYM --dwarf-callsites
convert icf-arm64.merged icf-arm64 --merged-functions

for f in $(cd gsym && ls); do
  "$GSYM22" "gsym/$f" > "expected/$f.dump.txt"
  "$GSYM22" "gsym/$f" | python3 ../derive-addresses.py > "expected/$f.addrs"
  (cd gsym && "$GSYM22" $(sed 's/^/--address /' "../expected/$f.addrs") "$f") > "expected/$f.lookup.txt"
  (cd gsym && "$GSYM22" --merged-functions $(sed 's/^/--address /' "../expected/$f.addrs") "$f") > "expected/$f.merged.txt"
done
echo "$GSYM22: $("$GSYM22" --version | grep -i version | head -1)" > tool-versions.txt
echo "built macho-options/ ($(ls gsym | wc -l) GSYM files)"
