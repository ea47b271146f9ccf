#!/usr/bin/env bash
# What Breakpad's tools say about the cores of the crash corpus (regenerate.sh), for the comparison
# of `gsymutil stackwalk CORE` with minidump_stackwalk (gsym-stackwalk's ElfCoreCore2mdTest):
# Breakpad's core2md turns each x86-64 and i386 core into a minidump (the /proc files it reads
# beside the core, maps and auxv, are written from the core by procfs.py; the cores' binaries must
# be at the paths they name, /tmp/gsym-crash/bin, where they are copied), Breakpad's dump_syms
# writes the symbols of the corpus's binaries and of the system libraries the cores loaded (libc,
# ld.so: they must be this machine's, see tool-versions.txt), and minidump_stackwalk walks each
# minidump with them, in its text and -m forms.
#
#   src-test-data/crash/regenerate-core2md.sh
#
# Needs g++ with g++-multilib, xz, python3 and Breakpad: the npm package minidump@0.26.0 unpacked
# at $BREAKPAD_PKG (default /work/peers/package: bin/linux-x64/{dump_syms,minidump_stackwalk} and
# the sources in deps/, whose client library is compiled here, in $WORK, never in the package).
#
# Writes (into crash/):
#   core2md/NAME.stackwalk.txt, NAME.stackwalk-m.txt  minidump_stackwalk's outputs on core2md's
#                                                      minidump of cores/NAME.core.xz
#   core2md/symbols/NAME/ID/NAME.sym[.xz]              the symbols they were made with (the system
#                                                      libraries' compressed)
set -euo pipefail
export LC_ALL=C TZ=UTC
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-/tmp/gsym-core2md}
BREAKPAD_PKG=${BREAKPAD_PKG:-/work/peers/package}
BP="$BREAKPAD_PKG/deps/breakpad/src"
TOOLS="$BREAKPAD_PKG/bin/linux-x64"
CXX=${CXX:-g++}
for t in dump_syms minidump_stackwalk; do [ -x "$TOOLS/$t" ] || { echo "missing $TOOLS/$t" >&2; exit 1; }; done

mkdir -p "$WORK" "$WORK/include32"
# -m32 finds the kernel's asm/ headers only through a link gcc-multilib may not make
ln -sfn /usr/include/x86_64-linux-gnu/asm "$WORK/include32/asm"

# core2md and the part of Breakpad's client library it needs, per word size
build_core2md() { # BITS
  local out="$WORK/core2md-$1" flags=(-m"$1") objs=()
  [ -x "$out/core2md" ] && return 0
  [ "$1" = 32 ] && flags+=(-isystem "$WORK/include32")
  mkdir -p "$out"
  for s in client/linux/crash_generation/crash_generation_client.cc client/linux/dump_writer_common/thread_info.cc \
      client/linux/dump_writer_common/ucontext_reader.cc client/linux/handler/exception_handler.cc \
      client/linux/handler/minidump_descriptor.cc client/linux/log/log.cc client/linux/microdump_writer/microdump_writer.cc \
      client/linux/minidump_writer/linux_core_dumper.cc client/linux/minidump_writer/linux_dumper.cc \
      client/linux/minidump_writer/linux_ptrace_dumper.cc client/linux/minidump_writer/minidump_writer.cc \
      client/linux/minidump_writer/pe_file.cc client/minidump_file_writer.cc common/convert_UTF.cc common/md5.cc \
      common/string_conversion.cc common/linux/elf_core_dump.cc common/linux/elfutils.cc common/linux/file_id.cc \
      common/linux/guid_creator.cc common/linux/linux_libc_support.cc common/linux/memory_mapped_file.cc \
      common/linux/safe_readlink.cc common/path_helper.cc; do
    local o="$out/$(echo "$s" | tr / _).o"
    "$CXX" "${flags[@]}" -O2 -std=c++17 -fno-exceptions -w -I"$BP" -I"$BREAKPAD_PKG/deps" \
      -DHAVE_GETCONTEXT -DHAVE_SYS_RANDOM_H -DHAVE_GETRANDOM -c "$BP/$s" -o "$o"
    objs+=("$o")
  done
  "$CXX" "${flags[@]}" -O2 -std=c++17 -w -I"$BP" -I"$BREAKPAD_PKG/deps" "$BP/tools/linux/core2md/core2md.cc" "${objs[@]}" \
    -o "$out/core2md"
}
build_core2md 64
build_core2md 32

# the cores name their binaries under /tmp/gsym-crash/bin (core2md reads their build-ids there)
mkdir -p /tmp/gsym-crash/bin
for f in "$HERE"/bin/*; do cmp -s "$f" "/tmp/gsym-crash/bin/$(basename "$f")" || cp "$f" /tmp/gsym-crash/bin/; done

rm -rf "$HERE/core2md" "$WORK/symbols" "$WORK/run"
mkdir -p "$HERE/core2md/symbols" "$WORK/symbols" "$WORK/run"

# dump_syms of a file into WORK/symbols (the system libraries with their debug files, when installed)
declare -A seen
symbols() { # FILE
  [ -n "${seen[$1]:-}" ] && return 0
  seen[$1]=1
  local sym="$WORK/sym.tmp" name id
  "$TOOLS/dump_syms" "$1" > "$sym" 2> /dev/null
  read -r _ _ _ id name < "$sym"
  mkdir -p "$WORK/symbols/$name/$id" "$HERE/core2md/symbols/$name/$id"
  mv "$sym" "$WORK/symbols/$name/$id/$name.sym"
  case "$1" in
    /tmp/gsym-crash/*) cp "$WORK/symbols/$name/$id/$name.sym" "$HERE/core2md/symbols/$name/$id/" ;;
    *) xz -9 -c "$WORK/symbols/$name/$id/$name.sym" > "$HERE/core2md/symbols/$name/$id/$name.sym.xz" ;;
  esac
}

# the kernel's cores (gdb's leaves out the mappings of code it can read from the files, so the maps
# of its process cannot be written from it)
for xz in "$HERE"/cores/*-x86_64-*.core.xz "$HERE"/cores/*-i386-*.core.xz; do
  name=$(basename "$xz" .core.xz)
  [[ "$name" = *.gdb ]] && continue
  bits=$([[ "$name" = *i386* ]] && echo 32 || echo 64)
  run="$WORK/run/$name"
  mkdir -p "$run/proc"
  xz -dc "$xz" > "$run/core"
  python3 "$HERE/procfs.py" "$run/core" "$run/proc"
  "$WORK/core2md-$bits/core2md" "$run/core" "$run/proc" "$run/dump.dmp" 2> "$run/core2md.log"
  # every file the core maps (from the maps just written)
  while read -r f; do symbols "$f"; done < <(awk '$6 ~ /^\// {print $6}' "$run/proc/maps" | sort -u)
  "$TOOLS/minidump_stackwalk" "$run/dump.dmp" "$WORK/symbols" > "$HERE/core2md/$name.stackwalk.txt" 2> /dev/null
  "$TOOLS/minidump_stackwalk" -m "$run/dump.dmp" "$WORK/symbols" > "$HERE/core2md/$name.stackwalk-m.txt" 2> /dev/null
done
du -sh "$HERE/core2md"
