#!/usr/bin/env bash
# The crash corpus: real Linux core files of small C programs that crash in known ways, with the
# answers of independent tools (gdb, elfutils' eu-unstrip) about each core. Runs alone:
#
#   src-test-data/crash/regenerate.sh
#
# Programs (src/): null (a null dereference three calls below main), abort (abort() below main:
# the top frames are in libc), recurse (100 recursive frames, then a null dereference), solib (a
# crash inside a shared library, libcrashlib, reached through a callback from it), threads (the
# third of four threads crashes while one sleeps in pthread_cond_wait, one in nanosleep and main in
# pthread_join). Each is built with gcc 12 -O2 -g twice, with frame pointers set up on entry to every
# function (-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-shrink-wrap; suffix -fp) and
# without (-fomit-frame-pointer, -nofp), both with -fno-optimize-sibling-calls (every call stays a
# call, so every function is on the stack where the source says), for x86-64 and for i386 (-m32, needs
# gcc-multilib), and run once under `setarch -R` (no address randomisation) with an empty
# environment (env -i: nothing of the machine's environment lands in the cores' stacks) and
# coredump_filter 0x33 (the kernel's default: anonymous memory and the first page of each ELF
# image). The kernel writes the core (core_pattern must be "core": no systemd-coredump).
# gdb's own writer is covered too: null-x86_64-fp.gdb.core is the same program stopped at the
# fault by `gdb -ex run -ex generate-core-file`. AArch64: fault-aarch64-fp (src/fault_fs.c, a
# freestanding null dereference built by clang-22 with frame pointers) crashed under qemu-aarch64,
# whose core (qemu's writer: no NT_FILE, no NT_SIGINFO) gdb-multiarch answers about.
#
# Writes (into crash/):
#   bin/NAME-ARCH-FP            the executables, bin/libcrashlib-ARCH-FP.so the libraries
#   cores/NAME-ARCH-FP.core.xz  the cores (xz: mostly zero pages; tests unpack them)
#   gdb/NAME-ARCH-FP.txt        gdb's answers on the core (gdb/answers.gdb: threads, signal,
#                               mappings, shared libraries, auxv; per thread bt, each frame's pc,
#                               info registers, the 8 words at the stack pointer)
#   gdb/NAME-ARCH-FP.modules.txt  eu-unstrip -n --core: each ELF image in the core with its
#                               address range and the build-id read from the core's memory
#   tool-versions.txt
# The binaries are built and run under /tmp/gsym-crash (the paths the cores record); the cores
# reference this machine's libc (Debian 12, libc6 2.36): tests that need gdb to read libc check
# its build-id against the one in the core first.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-gcc}
WORK=/tmp/gsym-crash
PROGRAMS="null abort recurse solib threads"

CC_CLANG=${CC_CLANG:-clang-22}
for tool in "$CC" "$CC_CLANG" ld.lld-22 gdb gdb-multiarch qemu-aarch64 eu-unstrip setarch xz; do
  command -v "$tool" > /dev/null || {
    echo "regenerate.sh: $tool is missing (apt-get install gcc-multilib clang-22 lld-22 gdb gdb-multiarch qemu-user elfutils xz-utils)" >&2
    exit 1
  }
done
if [ "$(cat /proc/sys/kernel/core_pattern)" != core ]; then
  echo "regenerate.sh: /proc/sys/kernel/core_pattern is '$(cat /proc/sys/kernel/core_pattern)', needs 'core'" >&2
  exit 1
fi

rm -rf "$WORK"
mkdir -p "$WORK/bin" "$WORK/run"
rm -rf "$HERE/bin" "$HERE/cores" "$HERE/gdb"
mkdir -p "$HERE/bin" "$HERE/cores" "$HERE/gdb"

# paths in the DWARF name /gsym-test/crash, wherever the checkout is
cd "$HERE/src"
COMMON="-O2 -g -fno-optimize-sibling-calls -fno-ident -ffile-prefix-map=$HERE/src=/gsym-test/crash -Wl,--build-id=sha1"

build() { # ARCH FP
  local arch=$1 fp=$2 m f s
  m=$([ "$arch" = i386 ] && echo -m32 || echo -m64)
  f=$([ "$fp" = fp ] && echo "-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-shrink-wrap" || echo -fomit-frame-pointer)
  s=$arch-$fp
  $CC $m $f $COMMON -o "$WORK/bin/null-$s" null.c common.c
  $CC $m $f $COMMON -o "$WORK/bin/abort-$s" abort.c common.c
  $CC $m $f $COMMON -o "$WORK/bin/recurse-$s" recurse.c common.c
  $CC $m $f $COMMON -fPIC -shared -Wl,-soname,libcrashlib-$s.so -o "$WORK/bin/libcrashlib-$s.so" crashlib.c common.c
  $CC $m $f $COMMON -o "$WORK/bin/solib-$s" solib.c -L"$WORK/bin" -lcrashlib-$s '-Wl,-rpath,$ORIGIN'
  $CC $m $f $COMMON -pthread -o "$WORK/bin/threads-$s" threads.c common.c
}

# Runs WORK/bin/PROG in a directory of its own until the kernel dumps its core there.
crash() { # PROG
  local dir="$WORK/run/$1"
  mkdir -p "$dir"
  # (the braces silence the shell's "Segmentation fault (core dumped)" report)
  { (
    cd "$dir"
    ulimit -c unlimited
    echo 0x33 > /proc/self/coredump_filter
    exec env -i PATH=/usr/bin:/bin setarch -R "$WORK/bin/$1"
  ); } 2> /dev/null && { echo "regenerate.sh: $1 did not crash" >&2; exit 1; }
  [ -f "$dir/core" ] || { echo "regenerate.sh: $1 crashed without a core in $dir" >&2; exit 1; }
  mv "$dir/core" "$WORK/run/$1.core"
}

# gdb's answers about CORE of PROG (a 32-bit core shows its stack in 4-byte words).
answers() { # PROG CORE OUT WORDSIZE [GDB]
  local x
  x=$([ "$4" = 4 ] && echo 'x/8xw $sp' || echo 'x/8xg $sp')
  sed "s|@STACK@|$x|" "$HERE/gdb-answers.gdb" > "$WORK/answers.gdb"
  (cd "$WORK/bin" && "${5:-gdb}" -batch -nx -x "$WORK/answers.gdb" "$WORK/bin/$1" "$2" > "$3" 2> "$WORK/gdb.stderr") || {
    cat "$WORK/gdb.stderr" >&2
    exit 1
  }
  grep -q "@@ end" "$3" || { echo "regenerate.sh: gdb gave no complete answer for $2" >&2; exit 1; }
}

for arch in x86_64 i386; do
  for fp in fp nofp; do
    build $arch $fp
  done
done

for arch in x86_64 i386; do
  ws=$([ "$arch" = i386 ] && echo 4 || echo 8)
  for fp in fp nofp; do
    for p in $PROGRAMS; do
      name=$p-$arch-$fp
      crash "$name"
      answers "$name" "$WORK/run/$name.core" "$HERE/gdb/$name.txt" "$ws"
      eu-unstrip -n --core="$WORK/run/$name.core" -e "$WORK/bin/$name" > "$HERE/gdb/$name.modules.txt"
      xz -9e -T1 -c "$WORK/run/$name.core" > "$HERE/cores/$name.core.xz"
    done
  done
done

# gdb's own core writer: the null program stopped at its fault
name=null-x86_64-fp
mkdir -p "$WORK/run/gdb"
(
  cd "$WORK/run/gdb"
  echo 0x33 > /proc/self/coredump_filter
  env -i PATH=/usr/bin:/bin gdb -batch -nx -ex run -ex "generate-core-file $WORK/run/$name.gdb.core" "$WORK/bin/$name" > /dev/null 2>&1
)
answers "$name" "$WORK/run/$name.gdb.core" "$HERE/gdb/$name.gdb.txt" 8
eu-unstrip -n --core="$WORK/run/$name.gdb.core" -e "$WORK/bin/$name" > "$HERE/gdb/$name.gdb.modules.txt"
xz -9e -T1 -c "$WORK/run/$name.gdb.core" > "$HERE/cores/$name.gdb.core.xz"

# AArch64: a freestanding program (no libc to emulate) run under qemu-user, whose own core writer
# (linux-user's elf_core_dump) writes the guest's core: NT_PRSTATUS, NT_PRPSINFO and NT_AUXV, no
# NT_FILE and no NT_SIGINFO. qemu's host process gets coredump_filter 0 (its own core is not kept).
name=fault-aarch64-fp
$CC_CLANG --target=aarch64-linux-gnu -O2 -g -ffreestanding -nostdlib -static -fuse-ld=lld -fno-omit-frame-pointer \
  -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls -fno-ident -ffile-prefix-map="$HERE/src=/gsym-test/crash" \
  -Wl,--build-id=sha1 -o "$WORK/bin/$name" fault_fs.c
mkdir -p "$WORK/run/$name"
qemu=$(command -v qemu-aarch64)
{ (
  cd "$WORK/run/$name"
  ulimit -c unlimited
  echo 0 > /proc/self/coredump_filter
  exec env -i "$qemu" -s 65536 "$WORK/bin/$name"
); } 2> /dev/null && { echo "regenerate.sh: $name did not crash" >&2; exit 1; }
mv "$WORK/run/$name"/qemu_*.core "$WORK/run/$name.core"
answers "$name" "$WORK/run/$name.core" "$HERE/gdb/$name.txt" 8 gdb-multiarch
eu-unstrip -n --core="$WORK/run/$name.core" -e "$WORK/bin/$name" > "$HERE/gdb/$name.modules.txt"
xz -9e -T1 -c "$WORK/run/$name.core" > "$HERE/cores/$name.core.xz"

cp "$WORK"/bin/* "$HERE/bin/"
{
  $CC --version | head -n 1
  $CC_CLANG --version | head -n 1
  gdb --version | head -n 1
  gdb-multiarch --version | head -n 1
  qemu-aarch64 --version | head -n 1
  eu-unstrip --version | head -n 1
  xz --version | head -n 1
  uname -srm
  for lib in /lib/x86_64-linux-gnu/libc.so.6 /lib32/libc.so.6; do
    echo "$lib $(readelf -n "$lib" | sed -n 's/.*Build ID: //p')"
  done
} > "$HERE/tool-versions.txt"
du -sh "$HERE/bin" "$HERE/cores" "$HERE/gdb"
