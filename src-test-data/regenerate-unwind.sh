#!/usr/bin/env bash
# Inputs and goldens of the native unwind tests (gsym-object: CompactUnwind*Test, PeUnwind*Test),
# runnable alone (regenerate.sh calls it too):
#
#   src-test-data/regenerate-unwind.sh
#
# Sources: src/unwind_c.c (C: frame pointers, alloca, large frames, callee-saved integer and
# vector registers, recursion), src/unwind_macho_{x86_64,arm64,i386}.s (hand-written, one function
# per compact unwind mode), src/unwind_pe_x64.s (hand-written, every x64 unwind code, chained
# information, a handler, unwind v2 epilogs), src/pe_stub.c; the x86_64 functions of
# cu-pages-x86_64 are generated below. Freestanding, no SDK.
# unwind/bin/
#   cu-x86_64, cu-arm64            ld64.lld executables (the .s and the C), __TEXT,__unwind_info
#   cu-x86_64.dSYM                 dsymutil's dSYM of cu-x86_64 (its __unwind_info has no contents)
#   cu-x86_64-omitfp               the C alone, -fomit-frame-pointer (frameless encodings from clang)
#   cu-pages-x86_64                1,322 functions with many encodings: several second-level pages,
#                                  regular and compressed, page-local encodings
#   cu-fat                         universal: cu-x86_64 + cu-arm64
#   cu-{x86_64,arm64,i386}-asm.o, cu-{x86_64,arm64}-c.o, cu-x86_64-omitfp-c.o
#                                  the objects, assembled with -femit-dwarf-unwind=always: each
#                                  function has its compact encoding (__LD,__compact_unwind) and a
#                                  DWARF FDE of the same frame, the oracle for the rows
#   pe-x64-asm.exe                 lld-link of unwind_pe_x64.s
#   pe-x64-msvc.exe, pe-x64-msvc-v2.exe
#                                  the C for x86_64-pc-windows-msvc, the second with
#                                  -fwinx64-eh-unwindv2=best-effort (epilogs in the unwind codes)
#   pe-x64-mingw.exe               the C for x86_64-w64-windows-gnu, linked by ld.lld
# unwind/expected/
#   NAME.unwind-info.txt           llvm-objdump-22 --unwind-info bin/NAME (run in unwind/; for the
#                                  universal cu-fat, NAME.ARCH.* per slice with --arch=ARCH)
#   NAME.eh-frame.txt              llvm-dwarfdump-22 --eh-frame bin/NAME (Mach-O files)
#   NAME.readobj-unwind.txt        llvm-readobj-22 --unwind bin/NAME (PE images: chained parents)
#   NAME.symbols.txt               llvm-nm-22 -n bin/NAME (Mach-O files: function names for the rows)
# Deterministic: running it twice gives no diff. Needs clang-22, ld64.lld-22, lld-link-22,
# ld.lld-22, dsymutil-22, llvm-lipo-22, llvm-objdump-22, llvm-dwarfdump-22, llvm-readobj-22,
# llvm-nm-22.
set -euo pipefail
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0 ZERO_AR_DATE=1

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
CC_CLANG=${CC_CLANG:-clang-22}
LD64=${LD64:-ld64.lld-22}
LLD_LINK=${LLD_LINK:-lld-link-22}
LLD=${LLD:-ld.lld-22}
DSYMUTIL=${DSYMUTIL:-dsymutil-22}
LIPO=${LIPO:-llvm-lipo-22}
OBJDUMP=${OBJDUMP:-llvm-objdump-22}
DWARFDUMP=${DWARFDUMP:-llvm-dwarfdump-22}
READOBJ=${READOBJ:-llvm-readobj-22}
NM=${NM:-llvm-nm-22}
PREFIX=/gsym-test
# a fixed directory: the executables' debug maps name the objects, dsymutil reads them there
OBJ=/tmp/gsym-test-unwind-obj
rm -rf "$OBJ"
mkdir -p "$OBJ"
trap 'rm -rf "$OBJ"' EXIT
rm -rf unwind
mkdir -p unwind/bin unwind/expected

MAP="-ffile-prefix-map=$HERE/src=$PREFIX/src -ffile-prefix-map=$OBJ=$PREFIX/obj"
CFLAGS="-O2 -ffreestanding -fno-stack-protector -fno-builtin -fno-ident"
# Mach-O: synchronous unwind tables, as Apple's toolchain makes them for arm64 (asynchronous ones add
# epilog CFI, which compact unwind cannot say: every such function would be DWARF-only); -ffreestanding
# turns them off unless asked for. Windows x64 needs asynchronous ones.
MACHO_CFLAGS="$CFLAGS -funwind-tables"
PE_CFLAGS="$CFLAGS -fasynchronous-unwind-tables"

# Mach-O: objects with a DWARF FDE beside every compact encoding. clang honours
# -femit-dwarf-unwind=always when it assembles, not when it compiles C, so C goes through assembly;
# and MC writes the FDEs of all functions only once one function needs DWARF, so the C's assembly
# gets _dwarf_anchor, whose DW_CFA_GNU_args_size compact unwind cannot say.
ANCHOR='	.section	__TEXT,__text,regular,pure_instructions
	.globl	_dwarf_anchor
	.p2align	2
_dwarf_anchor:
	.cfi_startproc
	.cfi_escape 0x2e, 0x00
	ret
	.cfi_endproc'
macho() { # OUT.o ARCH FLAGS... SOURCE
  local out=$1 arch=$2; shift 2
  local src=${*: -1}
  if [ "${src%.c}" != "$src" ]; then
    (cd src && $CC_CLANG -target "$arch-apple-macos11" $MAP "$@" -S -o "$OBJ/${out%.o}.s")
    echo "$ANCHOR" >> "$OBJ/${out%.o}.s"
    (cd "$OBJ" && $CC_CLANG -target "$arch-apple-macos11" -femit-dwarf-unwind=always -c -o "$out" "${out%.o}.s")
  else
    (cd src && $CC_CLANG -target "$arch-apple-macos11" -femit-dwarf-unwind=always $MAP "$@" -c -o "$OBJ/$out")
  fi
  touch -d @0 "$OBJ/$out"
}
link64() { # NAME ARCH OBJECTS...
  local name=$1 arch=$2; shift 2
  local objs=()
  for o in "$@"; do objs+=("$OBJ/$o"); done
  $LD64 -arch "$arch" -platform_version macos 11.0 11.0 -e _main -o "unwind/bin/$name" "${objs[@]}"
}
for a in x86_64 arm64; do
  macho cu-$a-asm.o $a unwind_macho_$a.s
  macho cu-$a-c.o $a $MACHO_CFLAGS -g unwind_c.c
  link64 cu-$a $a cu-$a-asm.o cu-$a-c.o
  cp "$OBJ/cu-$a-asm.o" "$OBJ/cu-$a-c.o" unwind/bin/
done
$DSYMUTIL unwind/bin/cu-x86_64 -o unwind/bin/cu-x86_64.dSYM
find unwind/bin -path '*.dSYM/Contents/Resources/Relocations' -prune -exec rm -rf {} +
macho cu-i386-asm.o i386 unwind_macho_i386.s
cp "$OBJ/cu-i386-asm.o" unwind/bin/
macho cu-x86_64-omitfp-c.o x86_64 $MACHO_CFLAGS -fomit-frame-pointer unwind_c.c
link64 cu-x86_64-omitfp x86_64 cu-x86_64-omitfp-c.o
cp "$OBJ/cu-x86_64-omitfp-c.o" unwind/bin/
$LIPO -create unwind/bin/cu-x86_64 unwind/bin/cu-arm64 -output unwind/bin/cu-fat

# 1,322 frameless functions whose encodings (pushed registers x stack size) ld64.lld cannot fit in
# one page: the first 1,022 each have an encoding of their own (two regular pages, as the page-local
# encodings of a compressed page run out), the last 300 cycle through ten frequent encodings (common
# ones) and have 50 rare ones among them (a compressed page with page-local encodings)
PUSHES=("" "rbx" "r12" "rbx r12" "r12 rbx" "r13 r14 r15")
frameless() { # NAME REGISTER-SET-INDEX SIZE-STEP
  local regs=${PUSHES[$2]} depth=8 off=-8 r
  echo "	.globl	$1"
  echo "$1:"
  echo '	.cfi_startproc'
  for r in $regs; do
    depth=$((depth + 8))
    echo "	pushq	%$r"
    echo "	.cfi_def_cfa_offset $depth"
  done
  echo "	subq	\$$((8 * $3)), %rsp"
  echo "	.cfi_def_cfa_offset $((depth + 8 * $3))"
  for r in $regs; do
    off=$((off - 8))
    echo "	.cfi_offset %$r, $off"
  done
  echo "	addq	\$$((8 * $3)), %rsp"
  for r in $(echo "$regs" | tr ' ' '\n' | tac); do echo "	popq	%$r"; done
  echo '	retq'
  echo '	.cfi_endproc'
}
{
  echo '	.section	__TEXT,__text,regular,pure_instructions'
  echo '	.globl	_main'
  echo '_main:'
  echo '	.cfi_startproc'
  echo '	retq'
  echo '	.cfi_endproc'
  for i in $(seq 0 1021); do frameless "_unique$i" $((i % 6)) $((10 + i / 6)); done
  for i in $(seq 0 299); do
    if [ $((i % 6)) = 5 ]; then
      frameless "_rare$i" $((i / 6 % 6)) $((1 + i / 36))
    else
      frameless "_frequent$i" $((i % 5)) 200
    fi
  done
  echo '.subsections_via_symbols'
} > "$OBJ/pages.s"
$CC_CLANG -target x86_64-apple-macos11 -c -o "$OBJ/pages.o" "$OBJ/pages.s"
link64 cu-pages-x86_64 x86_64 pages.o

# PE/COFF x64 images
$CC_CLANG --target=x86_64-pc-windows-msvc -c -o "$OBJ/pe-asm.obj" src/unwind_pe_x64.s
$LLD_LINK /nodefaultlib /entry:mainCRTStartup /subsystem:console /out:unwind/bin/pe-x64-asm.exe "$OBJ/pe-asm.obj"
pe_c() { # NAME TARGET FLAGS...
  local name=$1 target=$2; shift 2
  (cd src && $CC_CLANG --target=$target $PE_CFLAGS -mno-stack-arg-probe $MAP "$@" -c -o "$OBJ/$name.obj" unwind_c.c)
}
pe_c msvc x86_64-pc-windows-msvc
pe_c msvc-v2 x86_64-pc-windows-msvc -fwinx64-eh-unwindv2=best-effort
for n in msvc msvc-v2; do
  $LLD_LINK /nodefaultlib /entry:mainCRTStartup /subsystem:console /out:unwind/bin/pe-x64-$n.exe "$OBJ/$n.obj"
done
pe_c mingw x86_64-w64-windows-gnu
(cd src && $CC_CLANG --target=x86_64-w64-windows-gnu -O2 -c -o "$OBJ/stub.obj" pe_stub.c)
$LLD -m i386pep --entry=mainCRTStartup -o unwind/bin/pe-x64-mingw.exe "$OBJ/mingw.obj" "$OBJ/stub.obj"

# the reference tools' views, run in unwind/ so they name bin/NAME
cd unwind
for f in $(ls bin); do
  case $f in
    *.dSYM) ;;
    *.exe)
      $OBJDUMP --unwind-info "bin/$f" > "expected/$f.unwind-info.txt"
      $READOBJ --unwind "bin/$f" > "expected/$f.readobj-unwind.txt"
      ;;
    cu-fat) # one set per slice (llvm-objdump prints the first slice's unwind information only)
      for a in x86_64 arm64; do
        $OBJDUMP --unwind-info --arch=$a "bin/$f" > "expected/$f.$a.unwind-info.txt"
        $DWARFDUMP --eh-frame --arch=$a "bin/$f" > "expected/$f.$a.eh-frame.txt"
        $NM -n --arch=$a "bin/$f" > "expected/$f.$a.symbols.txt"
      done
      ;;
    *)
      $OBJDUMP --unwind-info "bin/$f" > "expected/$f.unwind-info.txt"
      $DWARFDUMP --eh-frame "bin/$f" > "expected/$f.eh-frame.txt"
      $NM -n "bin/$f" > "expected/$f.symbols.txt"
      ;;
  esac
done
$OBJDUMP --unwind-info bin/cu-x86_64.dSYM/Contents/Resources/DWARF/cu-x86_64 > expected/cu-x86_64.dSYM.unwind-info.txt
cd ..
{
  $CC_CLANG --version | head -1
  $OBJDUMP --version | grep -i version | head -1
} > unwind/tool-versions.txt
echo "built unwind/ ($(ls unwind/bin | wc -l) inputs)"
