#!/usr/bin/env bash
# Inputs and goldens of the DWARF call frame information tests (gsym-object, package dev.gsym.cfi),
# built apart from regenerate.sh (which calls it at its end) so that they can be rebuilt alone:
#
#   src-test-data/regenerate-cfi.sh
#
# cfi/bin/ (from src/):
#   cfi-ops-x86_64         src/cfi_ops_x86_64.s: the DW_CFA instructions llvm decodes, augmentations
#                          S/P/L with personality and LSDA encodings; .eh_frame and .debug_frame (CIE v4)
#   cfi-ops-x86_64.o       the same object, unlinked (relocated .eh_frame and .debug_frame)
#   cfi-ops-x86_64-dwarf64 the same with a 64-bit DWARF .debug_frame only (llvm-mc -dwarf64, CIE v1)
#   cfi-exprs-x86_64       src/cfi_exprs_x86_64.s: DWARF expressions of every operand kind
#   cfi-raw-x86_64         src/cfi_raw_x86_64.s: hand-written .eh_frame, one CIE per FDE pointer
#                          encoding (absolute and pcrel udata/sdata 2/4/8, absptr), a version 3 CIE
#   cfi-ops-aarch64        src/cfi_ops_aarch64.s: negate_ra_state, 'B', 'G', negate_ra_state_with_pc
#   cfi-gnu-x86_64         src/cfi_gnu_x86_64.s: DW_CFA_GNU_negative_offset_extended and
#                          DW_CFA_MIPS_advance_loc8 (llvm rejects both; the golden is binutils readelf -wF)
#   c-aarch64-pac          freestanding.c, -mbranch-protection=pac-ret+leaf (negate_ra_state); the
#                          freestanding builds ask for unwind tables (-ffreestanding drops them)
#   c-armv7-O2             freestanding.c for armv7-linux-gnueabihf: .debug_frame (ARM EH is .ARM.exidx)
#   c-ppc-O2               freestanding.c for 32-bit big-endian PowerPC: .eh_frame
#   c-mips-O2              freestanding.c for 32-bit big-endian MIPS: .eh_frame
#   c-x86_64-debug-frame   freestanding.c, -fno-asynchronous-unwind-tables -g: .debug_frame only
#   c-x86_64-debug-frame-gz  the same with zlib-compressed debug sections (-gz=zlib)
#   both-gcc-O2            c_main.c + c_util.c, gcc -O2 -g -fno-asynchronous-unwind-tables with glibc's
#                          start files: .debug_frame (ours) and .eh_frame (crt1.o, crti.o)
#   both-gcc-O2-gc         the same, -no-pie, with c_util.c in -ffunction-sections and --gc-sections: the
#                          .debug_frame FDE of the unused function is left at address 0, outside
#                          every PT_LOAD (dump_syms drops it)
#   both-gcc-O2.stripped + both-gcc-O2.debug   objcopy --only-keep-debug / --strip-debug
#                          --add-gnu-debuglink: the debug file's .eh_frame is SHT_NOBITS
#   eh-x86_64, eh-arm64    Mach-O executables (ld64.lld-22) with __eh_frame FDEs (src/cfi_macho_*.s;
#                          compact unwind covers the C functions); eh-x86_64.o: an object whose
#                          __eh_frame has an FDE per function
#   eh-i686.exe            mingw i686 PE image (-fexceptions: DWARF EH in .eh_frame)
# cfi/expected/:
#   SET/NAME.frames.txt    llvm-dwarfdump-22 --eh-frame --debug-frame NAME (stdout) for every input of
#                          bin/, macho/bin/, pecoff/bin/ and cfi/bin/ (SET) with an FDE;
#                          SET/NAME.frames.stderr.txt its stderr when it has one
#   SET/NAME.unwind.txt    llvm-readelf-22 --unwind NAME (ELF files with .eh_frame_hdr)
#   regs/ARCH.txt          llvm-dwarfdump-22's register names for DWARF registers 0-299 ("N NAME"),
#                          from an object llvm-mc-22 assembles with .cfi_undefined 0 ... 299
#   cfi-gnu-x86_64.readelf.txt  binutils readelf --debug-dump=frames-interp cfi-gnu-x86_64
#   NAME.dump_syms.txt     the STACK CFI INIT lines of Breakpad's dump_syms (../peers minidump package)
#                          for both-gcc-O2, both-gcc-O2-gc, cfi-ops-x86_64 and the stripped pair (dump_syms
#                          both-gcc-O2.stripped cfi/bin, which follows the debug link)
# cfi/manifest.tsv         SET, NAME, register table of each golden.
# Deterministic: running it twice gives no diff. Needs clang-22, llvm-mc-22, ld.lld-22, ld64.lld-22,
# llvm-dwarfdump-22, llvm-readelf-22, llvm-objcopy-22, gcc 12 + binutils (objcopy, readelf), and
# DUMP_SYMS (default: /work/peers/package/bin/linux-x64/dump_syms).
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0 ZERO_AR_DATE=1

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
CC_CLANG=${CC_CLANG:-clang-22}
CC_GCC=${CC_GCC:-gcc}
MC=${MC:-llvm-mc-22}
LLD=${LLD:-ld.lld-22}
LD64=${LD64:-ld64.lld-22}
DWARFDUMP=${DWARFDUMP:-llvm-dwarfdump-22}
READELF22=${READELF22:-llvm-readelf-22}
DUMP_SYMS=${DUMP_SYMS:-/work/peers/package/bin/linux-x64/dump_syms}
PREFIX=/gsym-test
TMP=$(mktemp -d)
OBJ=/tmp/gsym-test-cfi-obj # Mach-O executables name their objects (debug map): a fixed directory
rm -rf "$OBJ"
mkdir -p "$OBJ"
trap 'rm -rf "$TMP" "$OBJ"' EXIT
rm -rf cfi
mkdir -p cfi/bin cfi/expected/regs

MAP="-ffile-prefix-map=$HERE/src=$PREFIX/src -ffile-prefix-map=$TMP=$PREFIX/obj -ffile-prefix-map=$OBJ=$PREFIX/obj"
FS="-fno-ident -ffreestanding -fno-stack-protector -fno-builtin -fno-omit-frame-pointer"
FS_LD="-fuse-ld=lld -nostdlib -static -Wl,--gc-sections -Wl,-e,_start -Wl,--build-id=sha1 -Wl,--eh-frame-hdr"

# cross NAME TARGET "CFLAGS" [LDFLAGS]: freestanding.c for TARGET, linked by lld
cross() {
  local name=$1 target=$2 cflags=$3 ldflags=${4:-}
  (cd src && $CC_CLANG --target="$target" $FS $cflags $MAP -c freestanding.c -o "$TMP/$name.o")
  $CC_CLANG --target="$target" $FS_LD $ldflags -o "cfi/bin/$name" "$TMP/$name.o"
}
# asm NAME TARGET SOURCE [MCFLAGS]: an assembly source, linked by lld
asm() {
  local name=$1 target=$2 src=$3 mcflags=${4:-}
  $MC -triple="$target" $mcflags -filetype=obj "src/$src" -o "$TMP/$name.o"
  $LLD --eh-frame-hdr --build-id=sha1 -e _start -o "cfi/bin/$name" "$TMP/$name.o"
}

asm cfi-ops-x86_64 x86_64-linux-gnu cfi_ops_x86_64.s -dwarf-version=4
cp "$TMP/cfi-ops-x86_64.o" cfi/bin/cfi-ops-x86_64.o
# only .debug_frame, 64-bit DWARF (a version 1 CIE: DWARF 2)
sed 's/^\t.cfi_sections .eh_frame, .debug_frame/\t.cfi_sections .debug_frame/' src/cfi_ops_x86_64.s > "$TMP/dwarf64.s"
$MC -triple=x86_64-linux-gnu -dwarf64 -dwarf-version=2 -filetype=obj "$TMP/dwarf64.s" -o "$TMP/dwarf64.o" 2>/dev/null \
  || $MC -triple=x86_64-linux-gnu -dwarf64 -dwarf-version=3 -filetype=obj "$TMP/dwarf64.s" -o "$TMP/dwarf64.o"
$LLD --build-id=sha1 -e _start -o cfi/bin/cfi-ops-x86_64-dwarf64 "$TMP/dwarf64.o"
asm cfi-exprs-x86_64 x86_64-linux-gnu cfi_exprs_x86_64.s
asm cfi-raw-x86_64 x86_64-linux-gnu cfi_raw_x86_64.s
asm cfi-ops-aarch64 aarch64-linux-gnu cfi_ops_aarch64.s
asm cfi-gnu-x86_64 x86_64-linux-gnu cfi_gnu_x86_64.s

cross c-aarch64-pac aarch64-linux-gnu "-O2 -g -ffunction-sections -fasynchronous-unwind-tables -mbranch-protection=pac-ret+leaf"
cross c-armv7-O2 armv7-linux-gnueabihf "-O2 -g -ffunction-sections"
cross c-ppc-O2 powerpc-linux-gnu "-O2 -g -ffunction-sections -fasynchronous-unwind-tables"
cross c-mips-O2 mips-linux-gnu "-O2 -g -ffunction-sections -fasynchronous-unwind-tables"
cross c-x86_64-debug-frame x86_64-linux-gnu "-O2 -g -ffunction-sections -fno-asynchronous-unwind-tables"
cross c-x86_64-debug-frame-gz x86_64-linux-gnu "-O2 -g -ffunction-sections -fno-asynchronous-unwind-tables -gz=zlib" \
  "-Wl,--compress-debug-sections=zlib"

# gcc with glibc's start files: .debug_frame from our code, .eh_frame from crt1.o/crti.o
(cd src && $CC_GCC -O2 -g -fno-asynchronous-unwind-tables -fno-ident $MAP -c c_main.c -o "$TMP/both-main.o" \
  && $CC_GCC -O2 -g -fno-asynchronous-unwind-tables -fno-ident $MAP -c c_util.c -o "$TMP/both-util.o")
$CC_GCC -Wl,--build-id=sha1 -o cfi/bin/both-gcc-O2 "$TMP/both-main.o" "$TMP/both-util.o"
(cd src && $CC_GCC -O2 -g -fno-asynchronous-unwind-tables -fno-ident -ffunction-sections $MAP -c c_util.c -o "$TMP/both-util-fs.o")
$CC_GCC -no-pie -Wl,--build-id=sha1 -Wl,--gc-sections -o cfi/bin/both-gcc-O2-gc "$TMP/both-main.o" "$TMP/both-util-fs.o"
objcopy --only-keep-debug cfi/bin/both-gcc-O2 cfi/bin/both-gcc-O2.debug
(cd cfi/bin && objcopy --strip-debug --add-gnu-debuglink=both-gcc-O2.debug both-gcc-O2 both-gcc-O2.stripped)

# Mach-O: functions compact unwind describes lose their FDE at link time; the assembly ones keep it
MACHO_FLAGS="$FS -O2 -g -funwind-tables -femit-dwarf-unwind=always"
for a in x86_64 arm64; do
  (cd src && $CC_CLANG -target "$a-apple-macos11" $MACHO_FLAGS $MAP -c macho_main.c -o "$OBJ/eh-$a-main.o" \
    && $CC_CLANG -target "$a-apple-macos11" $MACHO_FLAGS $MAP -c macho_util.c -o "$OBJ/eh-$a-util.o" \
    && $CC_CLANG -target "$a-apple-macos11" -c "cfi_macho_$a.s" -o "$OBJ/eh-$a-asm.o")
  touch -d @0 "$OBJ"/eh-$a-*.o
  $LD64 -arch $a -platform_version macos 11.0 11.0 -e _main -o "cfi/bin/eh-$a" "$OBJ/eh-$a-main.o" "$OBJ/eh-$a-util.o" "$OBJ/eh-$a-asm.o"
done
cp "$OBJ/eh-x86_64-main.o" cfi/bin/eh-x86_64.o # clang-22 writes no arm64 __eh_frame into objects

# mingw i686: DWARF exception handling, so .eh_frame
(cd src && for s in macho_main macho_util; do
  $CC_CLANG -target i686-w64-windows-gnu $FS -O2 -g -fexceptions -funwind-tables $MAP -c $s.c -o "$TMP/pe-$s.o"; done
  $CC_CLANG -target i686-w64-windows-gnu -O2 $MAP -c pe_stub.c -o "$TMP/pe-stub.o")
$LLD -m i386pe --entry=main -o cfi/bin/eh-i686.exe "$TMP/pe-macho_main.o" "$TMP/pe-macho_util.o" "$TMP/pe-stub.o"

# llvm's register names per architecture
regs() { # ARCH TRIPLE
  { echo ".text"; echo "f:"; echo ".cfi_startproc"; for n in $(seq 0 299); do echo ".cfi_undefined $n"; done
    echo "nop"; echo ".cfi_endproc"; } > "$TMP/regs.s"
  $MC -triple="$2" -filetype=obj "$TMP/regs.s" -o "$TMP/regs.o"
  $DWARFDUMP --eh-frame "$TMP/regs.o" | grep -m1 '^  0x0: CFA=' | sed 's/^  0x0: CFA=[^:]*: //' | tr -d '\n' \
    | awk -v RS=', ' '{ sub(/=undefined$/, ""); print NR - 1, $0 }' > "cfi/expected/regs/$1.txt"
}
regs x86_64 x86_64-linux-gnu
regs i386 i386-linux-gnu
regs aarch64 aarch64-linux-gnu
regs arm armv7-linux-gnueabihf
regs powerpc powerpc-linux-gnu
regs powerpc64 powerpc64-linux-gnu
regs mips mips-linux-gnu

arch_of() { # the register table of llvm-dwarfdump's "file format" name
  case $1 in
    elf64-x86-64|Mach-O\ 64-bit\ x86-64|COFF-x86-64) echo x86_64 ;;
    elf32-i386|COFF-i386|Mach-O\ 32-bit\ i386) echo i386 ;;
    elf64-littleaarch64|elf64-bigaarch64|Mach-O\ arm64|COFF-ARM64) echo aarch64 ;;
    elf32-littlearm|elf32-bigarm) echo arm ;;
    elf32-powerpc) echo powerpc ;;
    elf64-powerpc|elf64-powerpcle) echo powerpc64 ;;
    elf32-mips|elf32-tradbigmips) echo mips ;;
    *) echo "unknown file format '$1'" >&2; return 1 ;;
  esac
}

MANIFEST=cfi/manifest.tsv
printf '# set\tname\tregister table\n' > $MANIFEST
for dir in bin macho/bin pecoff/bin cfi/bin; do
  set=${dir%/bin}
  mkdir -p "cfi/expected/$set"
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    case $name in cfi-gnu-x86_64|fat*) continue ;; esac # llvm cannot read the first; universal files have slices
    out=$( (cd "$dir" && $DWARFDUMP --eh-frame --debug-frame "$name" 2>"$TMP/err") ) || true
    grep -q ' FDE cie=' <<< "$out" || continue
    printf '%s\n' "$out" > "cfi/expected/$set/$name.frames.txt"
    if [ -s "$TMP/err" ]; then cp "$TMP/err" "cfi/expected/$set/$name.frames.stderr.txt"; fi
    format=$(sed -n '1s/^.*file format //p' <<< "$out")
    printf '%s\t%s\t%s\n' "$set" "$name" "$(arch_of "$format")" >> $MANIFEST
    if $READELF22 -S -W "$f" 2>/dev/null | grep '\.eh_frame_hdr' | grep -q PROGBITS; then
      (cd "$dir" && $READELF22 --unwind "$name") > "cfi/expected/$set/$name.unwind.txt"
    fi
  done
done

readelf --debug-dump=frames-interp cfi/bin/cfi-gnu-x86_64 > cfi/expected/cfi-gnu-x86_64.readelf.txt

stack_init() { grep '^STACK CFI INIT ' || true; }
(cd cfi/bin && "$DUMP_SYMS" both-gcc-O2 2>/dev/null) | stack_init > cfi/expected/both-gcc-O2.dump_syms.txt
(cd cfi/bin && "$DUMP_SYMS" both-gcc-O2-gc 2>/dev/null) | stack_init > cfi/expected/both-gcc-O2-gc.dump_syms.txt
(cd cfi/bin && "$DUMP_SYMS" cfi-ops-x86_64 2>/dev/null) | stack_init > cfi/expected/cfi-ops-x86_64.dump_syms.txt
(cd cfi/bin && "$DUMP_SYMS" both-gcc-O2.stripped . 2>/dev/null) | stack_init > cfi/expected/both-gcc-O2.stripped.dump_syms.txt

{
  echo "$($CC_CLANG --version | head -1)"
  echo "$($DWARFDUMP --version | grep -i 'llvm version' | head -1 | sed 's/^ *//')"
  echo "$($CC_GCC --version | head -1)"
  echo "$(readelf --version | head -1)"
  echo "dump_syms: $DUMP_SYMS (Breakpad, npm minidump $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$(dirname "$DUMP_SYMS")/../../package.json" 2>/dev/null | head -1))"
} > cfi/tool-versions.txt
echo "cfi/: $(ls cfi/bin | wc -l) inputs, $(($(wc -l < $MANIFEST) - 1)) llvm-dwarfdump goldens"
