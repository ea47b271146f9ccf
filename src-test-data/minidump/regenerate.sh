#!/usr/bin/env bash
# Builds the minidump corpus (src-test-data/README.md, "minidump/", says what is where):
#  - dumps/: small programs (src/) that install Breakpad's Linux ExceptionHandler and crash in known
#    ways, for x86-64 and i386, with and without frame pointers, and the minidumps Breakpad's handler
#    writes; one minidump made by Breakpad's core2md from a gdb core file; one each for aarch64 and
#    arm made by core2md from the core files of programs crashing under qemu-user;
#  - external/: real dumps of other writers (Windows, Crashpad, macOS) at pinned commits;
#  - expected/: the outputs of Breakpad's own tools on each (minidump_dump, minidump_stackwalk [-m],
#    without and with the symbols dump_syms writes into symbols/), and LD_SHOW_AUXV's auxv.
#
# Needs g++ 12 with g++-multilib (-m32), g++-aarch64-linux-gnu, g++-arm-linux-gnueabihf, qemu-user,
# gdb, python3, xz and Breakpad: the npm package minidump@0.26.0 unpacked at $BREAKPAD_PKG (default
# /work/peers/package; fetched with `npm pack` when absent), whose bin/linux-x64 holds minidump_dump,
# minidump_stackwalk and dump_syms and whose deps/ hold the Breakpad sources (the client library is
# compiled here, in $WORK, never inside the package).
#
# The programs run under `setarch -R` (no address randomisation) with an empty environment, so
# dumps hold no secrets and their addresses are stable; their times, process ids and stack
# contents differ from run to run, so regenerating changes every dump and golden together.
#
#   src-test-data/minidump/regenerate.sh                           # everything
#   src-test-data/minidump/regenerate.sh --external                # only external/ and its goldens
#   src-test-data/minidump/regenerate.sh --build-minidump-dump DIR # only DIR/minidump_dump (tests)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="${WORK:-/tmp/gsym-minidump}"   # fixed: paths under it are recorded in the dumps
CXX="${CXX:-g++}"
CC="${CC:-gcc}"
BREAKPAD_PKG="${BREAKPAD_PKG:-/work/peers/package}"
MODES="null abort recurse lib thread"

# --build-minidump-dump DIR: only build Breakpad's minidump_dump from the package's sources into DIR
# (the live differential test's oracle where the package's binaries are not installed; seconds)
if [ "${1:-}" = "--build-minidump-dump" ]; then
  out="$2"
  mkdir -p "$out"
  src="$BREAKPAD_PKG/deps/breakpad/src"
  if [ ! -d "$src/processor" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && npm pack --silent minidump@0.26.0 > /dev/null && tar xzf minidump-*.tgz)
    src="$tmp/package/deps/breakpad/src"
  fi
  p="$src/processor"
  "$CXX" -std=c++17 -O1 -w -I"$src" -o "$out/minidump_dump.tmp" "$p/minidump_dump.cc" "$src/common/path_helper.cc" \
    "$p/basic_code_modules.cc" "$p/convert_old_arm64_context.cc" "$p/dump_context.cc" "$p/dump_object.cc" "$p/logging.cc" \
    "$p/minidump.cc" "$p/pathname_stripper.cc" "$p/proc_maps_linux.cc"
  mv "$out/minidump_dump.tmp" "$out/minidump_dump"
  exit 0
fi

# --external: only fetch external/ (and its symbols) and remake its goldens; dumps/ and its goldens stay
EXTERNAL_ONLY=
[ "${1:-}" = "--external" ] && EXTERNAL_ONLY=1

mkdir -p "$WORK"
if [ ! -x "$BREAKPAD_PKG/bin/linux-x64/minidump_dump" ] || [ ! -d "$BREAKPAD_PKG/deps/breakpad/src" ]; then
  echo "== $BREAKPAD_PKG has no Breakpad: npm pack minidump@0.26.0"
  (cd "$WORK" && npm pack minidump@0.26.0 > /dev/null && tar xzf minidump-0.26.0.tgz)
  BREAKPAD_PKG="$WORK/package"
  # the npm package builds its tools on install (build.js: configure + make), outside the sources
  (cd "$BREAKPAD_PKG" && node build.js)
fi
BP="$BREAKPAD_PKG/deps/breakpad/src"
TOOLS="$BREAKPAD_PKG/bin/linux-x64"
for t in minidump_dump minidump_stackwalk dump_syms; do [ -x "$TOOLS/$t" ] || { echo "missing $TOOLS/$t" >&2; exit 1; }; done

if [ -z "$EXTERNAL_ONLY" ]; then
# the client libraries are kept between runs (they depend only on the Breakpad sources); the rest is rebuilt
rm -rf "$WORK/bin" "$WORK/run" "$WORK/core" "$WORK/core2md"

CLIENT_SOURCES="
client/linux/crash_generation/crash_generation_client.cc
client/linux/crash_generation/crash_generation_server.cc
client/linux/dump_writer_common/thread_info.cc
client/linux/dump_writer_common/ucontext_reader.cc
client/linux/handler/exception_handler.cc
client/linux/handler/minidump_descriptor.cc
client/linux/log/log.cc
client/linux/microdump_writer/microdump_writer.cc
client/linux/minidump_writer/linux_core_dumper.cc
client/linux/minidump_writer/linux_dumper.cc
client/linux/minidump_writer/linux_ptrace_dumper.cc
client/linux/minidump_writer/minidump_writer.cc
client/linux/minidump_writer/pe_file.cc
client/minidump_file_writer.cc
common/convert_UTF.cc
common/md5.cc
common/string_conversion.cc
common/linux/elf_core_dump.cc
common/linux/elfutils.cc
common/linux/file_id.cc
common/linux/guid_creator.cc
common/linux/linux_libc_support.cc
common/linux/memory_mapped_file.cc
common/linux/safe_readlink.cc"

# -m32 finds the kernel's asm/ headers only through /usr/include/asm, a link gcc-multilib makes on
# some installations and not on others: make it here
mkdir -p "$WORK/include32"
ln -sfn /usr/include/x86_64-linux-gnu/asm "$WORK/include32/asm"
m32() { [ "$1" = 32 ] && echo "-isystem $WORK/include32"; true; }

# Breakpad's client library, one per word size (no -g: its debug information would be most of each
# binary, and the stack walks go through our code and libc, not the handler's)
build_client() { # NAME COMPILER FLAGS...
  local out="$WORK/client-$1" cxx="$2"
  shift 2
  [ -f "$out/libbreakpad_client.a" ] && return 0
  mkdir -p "$out"
  local objs=()
  for s in $CLIENT_SOURCES common/path_helper.cc; do
    local o="$out/$(echo "$s" | tr / _).o"
    "$cxx" "$@" -O2 -std=c++17 -fno-exceptions -w -I"$BP" -I"$BREAKPAD_PKG/deps" \
      -DHAVE_GETCONTEXT -DHAVE_SYS_RANDOM_H -DHAVE_GETRANDOM -c "$BP/$s" -o "$o"
    objs+=("$o")
  done
  ar rcs "$out/libbreakpad_client.a" "${objs[@]}"
}
echo "== Breakpad client library (64 and 32 bit)"
build_client 64 "$CXX" -m64
build_client 32 "$CXX" -m32 $(m32 32)

# NAME M FRAMEPOINTER-FLAG
variants="x86_64-fp:64:-fno-omit-frame-pointer x86_64-nofp:64:-fomit-frame-pointer i386-fp:32:-fno-omit-frame-pointer i386-nofp:32:-fomit-frame-pointer"
prefix="-ffile-prefix-map=$here/src=/gsym-test/minidump"
for v in $variants; do
  IFS=: read -r name m fp <<< "$v"
  echo "== build $name"
  d="$WORK/bin/$name"
  mkdir -p "$d"
  "$CC" -m"$m" $(m32 "$m") -O2 -g $fp $prefix -fPIC -shared -Wl,-soname,libcrashlib.so -Wl,--build-id \
    "$here/src/crashlib.c" -o "$d/libcrashlib.so"
  "$CXX" -m"$m" $(m32 "$m") -O2 -g $fp $prefix -std=c++17 -I"$BP" -I"$BREAKPAD_PKG/deps" -pthread -Wl,--build-id \
    "$here/src/crasher.cc" -o "$d/crasher" -L"$d" -lcrashlib -Wl,-rpath,'$ORIGIN' "$WORK/client-$m/libbreakpad_client.a"
done

rm -rf "$here/bin" "$here/dumps" "$here/expected" "$here/symbols"
mkdir -p "$here/external"
mkdir -p "$here/bin" "$here/dumps" "$here/expected" "$here/symbols"

run_crash() { # VARIANT MODE
  local out="$WORK/run/$1-$2"
  mkdir -p "$out"
  # the handler re-raises the signal after writing the dump: the exit status is the signal's
  set +e
  # LD_SHOW_AUXV: the dynamic loader prints the process's auxiliary vector (the golden of the
  # dump's MD_LINUX_AUXV stream); no core file from the signal the handler re-raises
  (cd "$WORK/bin/$1" && ulimit -c 0 && env -i PATH=/usr/bin:/bin setarch -R env LD_SHOW_AUXV=1 ./crasher "$2" "$out" \
    > "$out.auxv" 2> "$out.stderr")
  local rc=$?
  set -e
  local dumps=("$out"/*.dmp)
  if [ ${#dumps[@]} -ne 1 ] || [ ! -s "${dumps[0]}" ]; then
    echo "no minidump from $1 $2 (exit $rc):" >&2; cat "$out.stderr" >&2; exit 1
  fi
  cp "${dumps[0]}" "$here/dumps/$1-$2.dmp"
  cp "$out.auxv" "$here/expected/$1-$2.auxv.txt"
}
for v in $variants; do
  IFS=: read -r name _ _ <<< "$v"
  for mode in $MODES; do
    echo "== crash $name $mode"
    run_crash "$name" "$mode"
  done
done

# core2md: a minidump written from a core file gdb made at the crash (and the /proc files of the
# stopped process, which core2md reads beside the core)
echo "== core2md"
"$CXX" -m64 -O2 -std=c++17 -I"$BP" -I"$BREAKPAD_PKG/deps" "$BP/tools/linux/core2md/core2md.cc" \
  -o "$WORK/core2md" "$WORK/client-64/libbreakpad_client.a"
core="$WORK/core"
mkdir -p "$core/proc"
(cd "$WORK/bin/x86_64-fp" && env -i PATH=/usr/bin:/bin setarch -R gdb -nx -batch \
  -ex 'set startup-with-shell off' \
  -ex "run" \
  -ex "python import shutil; pid = gdb.selected_inferior().pid; [shutil.copyfile('/proc/%d/%s' % (pid, n), '$core/proc/' + n) for n in ('auxv', 'cmdline', 'environ', 'maps', 'status')]" \
  -ex "gcore $core/core" \
  -ex kill \
  --args ./crasher null "$core" > "$core/gdb.log" 2>&1)
"$WORK/core2md" "$core/core" "$core/proc" "$here/dumps/x86_64-fp-core2md.dmp"

# Other CPUs, through core2md alone (Breakpad's ExceptionHandler writes dumps with ptrace, which
# qemu-user does not emulate): src/procfs_crash.c, cross-compiled, copies its emulated /proc/self
# files and crashes under qemu-user, which writes the emulated process's core file; core2md, cross-
# compiled too, runs under qemu on that core. aarch64 dumps have Breakpad's old arm64 context
# layout, arm ones MDRawContextARM. Needs g++-aarch64-linux-gnu, g++-arm-linux-gnueabihf and
# qemu-user; the host's own core file of the crashing qemu is deleted.
for t in aarch64:aarch64-linux-gnu arm:arm-linux-gnueabihf; do
  IFS=: read -r cpu triple <<< "$t"
  echo "== core2md for $cpu under qemu-$cpu"
  build_client "$triple" "$triple-g++"
  q="$WORK/qemu-$cpu"
  rm -rf "$q"
  mkdir -p "$q/proc"
  "$triple-g++" -O2 -std=c++17 -static -I"$BP" -I"$BREAKPAD_PKG/deps" "$BP/tools/linux/core2md/core2md.cc" \
    -o "$q/core2md" "$WORK/client-$triple/libbreakpad_client.a"
  "$triple-gcc" -O2 -g -fno-omit-frame-pointer $prefix "$here/src/procfs_crash.c" -o "$q/procfs_crash"
  set +e
  (cd "$q" && ulimit -c unlimited && env -i PATH=/usr/bin:/bin "qemu-$cpu" -L "/usr/$triple" ./procfs_crash proc 2> /dev/null)
  set -e
  rm -f "$q/core"
  cores=("$q"/qemu_procfs_crash_*.core)
  [ -f "${cores[0]}" ] || { echo "qemu-$cpu wrote no core file" >&2; exit 1; }
  (cd "$q" && "qemu-$cpu" "./core2md" "${cores[0]}" proc "$here/dumps/$cpu-core2md.dmp" 2> core2md.log)
  mkdir -p "$here/bin/$cpu"
  cp "$q/procfs_crash" "$here/bin/$cpu/"
done

for v in $variants; do
  IFS=: read -r name _ _ <<< "$v"
  mkdir -p "$here/bin/$name"
  cp "$WORK/bin/$name/crasher" "$WORK/bin/$name/libcrashlib.so" "$here/bin/$name/"
done

# symbols: every module of every dump whose file is on this machine (our binaries and the system
# libraries they loaded), in Breakpad's NAME/DEBUGID/NAME.sym layout. The system libraries' symbols
# are committed xz-compressed (NAME.sym.xz: 0.7 MB instead of 9 MB); the goldens are made from the
# uncompressed files, which tests recreate in a temporary directory.
echo "== dump_syms"
symdir="$WORK/symbols"
rm -rf "$symdir"
declare -A seen
for dmp in "$here"/dumps/*.dmp; do
  # (code_file) and (debug_identifier) of each module, from Breakpad's own reading of the dump
  while IFS=$'\t' read -r file debugid; do
    [ -n "${seen[$debugid/$file]:-}" ] && continue
    seen[$debugid/$file]=1
    if [ ! -f "$file" ]; then echo "   $(basename "$dmp"): no file for $file ($debugid)"; continue; fi
    sym="$WORK/sym.tmp"
    "$TOOLS/dump_syms" "$file" > "$sym" 2> /dev/null
    read -r _ _ _ id name < "$sym"
    [ "$id" = "$debugid" ] || { echo "dump_syms of $file: id $id, the dump says $debugid" >&2; exit 1; }
    mkdir -p "$symdir/$name/$id"
    mv "$sym" "$symdir/$name/$id/$name.sym"
    mkdir -p "$here/symbols/$name/$id"
    case "$file" in
      "$WORK"/*) cp "$symdir/$name/$id/$name.sym" "$here/symbols/$name/$id/$name.sym" ;;
      *) xz -9 -c "$symdir/$name/$id/$name.sym" > "$here/symbols/$name/$id/$name.sym.xz" ;;
    esac
  done < <("$TOOLS/minidump_dump" "$dmp" 2> /dev/null | python3 -c '
import sys
code = None
for line in sys.stdin:
    if line.startswith("  (code_file)"):
        code = line.split("= ", 1)[1].strip().strip("\"")
    elif line.startswith("  (debug_identifier)") and code is not None:
        print(code + "\t" + line.split("= ", 1)[1].strip().strip("\""))
        code = None
')
done

fi # EXTERNAL_ONLY

# external/: real minidumps of other writers, from the test data of rust-minidump and symbolic (both
# MIT-licensed) and of Breakpad itself (BSD-3-Clause) at pinned commits (external/SOURCES.tsv):
# fetched when missing, checked against their SHA-256 (so are rust-minidump's own JSON reports of
# two of them, its snapshot tests' *.json-pretty.snap). Breakpad's test data also has the symbol files
# of some of its dumps (STACK WIN and FUNC parameter sizes of Windows x86 modules, INLINE records):
# external/symbols/NAME/ID/NAME.sym, committed as NAME.sym.xz (the SHA-256 is the .sym's), unpacked
# into $WORK/external-symbols for the goldens. (linux_inline.sym is Breakpad's linux_inline.new.sym.)
echo "== external"
extsyms="$WORK/external-symbols"
rm -rf "$extsyms"
while IFS=$'\t' read -r file repo commit path sha _; do
  [ "$file" = file ] && continue
  f="$here/external/$file"
  case "$file" in
    *.sym)
      mkdir -p "$(dirname "$f")" "$extsyms/$(dirname "${file#symbols/}")"
      if [ ! -f "$f.xz" ]; then
        curl -fsSL -o "$f.tmp" "https://raw.githubusercontent.com/$repo/$commit/$path"
        echo "$sha  $f.tmp" | sha256sum -c --quiet -
        xz -9 -c "$f.tmp" > "$f.xz"
        rm -f "$f.tmp"
      fi
      xz -dc "$f.xz" > "$extsyms/${file#symbols/}"
      echo "$sha  $extsyms/${file#symbols/}" | sha256sum -c --quiet - ;;
    *)
      [ -f "$f" ] || curl -fsSL -o "$f" "https://raw.githubusercontent.com/$repo/$commit/$path"
      echo "$sha  $f" | sha256sum -c --quiet - ;;
  esac
done < "$here/external/SOURCES.tsv"

# The goldens: Breakpad's tools on every dump, run in this directory (so they name dumps/X.dmp);
# minidump_dump's output (mostly the hex of memory) gzip-compressed. status.tsv: each run's exit
# status (minidump_dump exits 1 for a dump without a stream it expects, e.g. Linux dumps have no
# memory info list).
echo "== goldens"
status="$here/expected/status.tsv"
if [ -n "$EXTERNAL_ONLY" ]; then
  # keep the rows of dumps/; external/'s are made again below
  grep -v "^external/" "$status" > "$status.tmp"
  mv "$status.tmp" "$status"
  sets="external/*.dmp"
else
  printf 'dump\ttool\tstatus\n' > "$status"
  sets="dumps/*.dmp external/*.dmp"
fi
run_tool() { # DUMP NAME OUTPUT TOOL ARGS...
  local dmp="$1" name="$2" out="$3"
  shift 3
  set +e
  (cd "$here" && "$@" > "$out" 2> /dev/null)
  local rc=$?
  set -e
  printf '%s\t%s\t%s\n' "$dmp" "$name" "$rc" >> "$status"
}
for dmp in $(cd "$here" && echo $sets); do
  n="$(basename "$dmp" .dmp)"
  e="$here/expected/$n"
  run_tool "$dmp" minidump_dump "$e.dump.txt" "$TOOLS/minidump_dump" "$dmp"
  gzip -9 -n -f "$e.dump.txt"
  run_tool "$dmp" minidump_stackwalk "$e.stackwalk.txt" "$TOOLS/minidump_stackwalk" "$dmp"
  run_tool "$dmp" "minidump_stackwalk -m" "$e.stackwalk-m.txt" "$TOOLS/minidump_stackwalk" -m "$dmp"
  # with symbols: ours for dumps/, Breakpad's test data's for external/
  case "$dmp" in dumps/*) syms="$symdir" ;; *) syms="$extsyms" ;; esac
  run_tool "$dmp" "minidump_stackwalk SYMBOLS" "$e.stackwalk-sym.txt" "$TOOLS/minidump_stackwalk" "$dmp" "$syms"
  run_tool "$dmp" "minidump_stackwalk -m SYMBOLS" "$e.stackwalk-sym-m.txt" "$TOOLS/minidump_stackwalk" -m "$dmp" "$syms"
done
[ -n "$EXTERNAL_ONLY" ] && exit 0

{
  echo "g++: $("$CXX" --version | head -1)"
  echo "gdb: $(gdb --version | head -1)"
  echo "aarch64-linux-gnu-g++: $(aarch64-linux-gnu-g++ --version | head -1)"
  echo "arm-linux-gnueabihf-g++: $(arm-linux-gnueabihf-g++ --version | head -1)"
  echo "qemu: $(qemu-aarch64 --version | head -1)"
  echo "breakpad: npm minidump@$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$BREAKPAD_PKG/package.json")"
  echo "libc: $(ldd --version | head -1)"
  echo "kernel: $(uname -sr)"
} > "$here/expected/tool-versions.txt"
du -sh "$here/bin" "$here/dumps" "$here/expected" "$here/symbols"
