package dev.gsym.unwind;

/**
 * The processor architectures whose unwind information is understood, with the DWARF register
 * numbers an unwinder needs (psABI numbering). The code is stored in GSYM unwind information.
 */
public enum Arch {
  /** i386: eax 0, ecx 1, edx 2, ebx 3, esp 4, ebp 5, esi 6, edi 7, eip 8. */
  X86(1, 4, 4, 5, 8),
  /** x86-64: rax 0, rdx 1, rcx 2, rbx 3, rsi 4, rdi 5, rbp 6, rsp 7, r8-r15 8-15, rip 16. */
  X86_64(2, 8, 7, 6, 16),
  /** 32-bit ARM: r0-r15 0-15 (sp 13, lr 14, pc 15); the frame pointer is r11 (ARM) or r7 (Thumb). */
  ARM(3, 4, 13, 11, 14),
  /** AArch64: x0-x30 0-30 (fp x29, lr x30), sp 31; 34 is RA_SIGN_STATE (pointer authentication). */
  AARCH64(4, 8, 31, 29, 30),
  /** 32-bit PowerPC: r0-r31 0-31 (sp r1), lr 65. */
  PPC(5, 4, 1, 31, 65),
  /** 64-bit PowerPC: r0-r31 0-31 (sp r1), lr 65. */
  PPC64(6, 8, 1, 31, 65),
  /** 32-bit MIPS: $sp 29, $fp 30, $ra 31. */
  MIPS(7, 4, 29, 30, 31),
  /** 64-bit MIPS. */
  MIPS64(8, 8, 29, 30, 31),
  /** 64-bit RISC-V: ra x1, sp x2, fp x8. */
  RISCV64(9, 8, 2, 8, 1),
  /** 32-bit RISC-V. */
  RISCV32(10, 4, 2, 8, 1),
  /** 64-bit s390x: r15 is the stack pointer, r11 the frame pointer, r14 the return address. */
  S390X(11, 8, 15, 11, 14);

  /** The AArch64 pseudo-register DW_CFA_AARCH64_negate_ra_state toggles. */
  public static final int AARCH64_RA_SIGN_STATE = 34;

  private final int code;
  private final int addressSize;
  private final int stackPointer;
  private final int framePointer;
  private final int returnAddress;

  Arch(int code, int addressSize, int stackPointer, int framePointer, int returnAddress) {
    this.code = code;
    this.addressSize = addressSize;
    this.stackPointer = stackPointer;
    this.framePointer = framePointer;
    this.returnAddress = returnAddress;
  }

  /** The number stored in GSYM unwind information. */
  public int code() {
    return code;
  }

  /** Bytes in an address (and in a saved register) on this architecture. */
  public int addressSize() {
    return addressSize;
  }

  /** DWARF number of the stack pointer. */
  public int stackPointer() {
    return stackPointer;
  }

  /** DWARF number of the conventional frame pointer. */
  public int framePointer() {
    return framePointer;
  }

  /** DWARF number of the register (or column) that holds the return address on entry. */
  public int returnAddress() {
    return returnAddress;
  }

  private static final Arch[] BY_CODE = new Arch[16];

  static {
    for (Arch a : values()) BY_CODE[a.code] = a;
  }

  /** The architecture stored as {@code code}, or null for a code no version of this library wrote. */
  public static Arch ofCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }

  /**
   * The architecture of an llvm architecture name as object files report it ({@code x86_64},
   * {@code i386}, {@code aarch64}, {@code arm64}, {@code arm}, {@code thumb}, {@code ppc64le}, ...),
   * or null.
   */
  public static Arch ofName(String name) {
    return switch (name) {
      case "x86_64", "x86-64", "amd64", "x86_64h" -> X86_64;
      case "i386", "i486", "i586", "i686", "x86" -> X86;
      case "aarch64", "aarch64_be", "arm64", "arm64e", "arm64_32" -> AARCH64;
      case "arm", "armeb", "thumb", "thumbeb", "armv7", "armv7s", "armv7k", "armv6", "armv7m", "armv7em" -> ARM;
      case "ppc", "powerpc" -> PPC;
      case "ppc64", "ppc64le", "powerpc64", "powerpc64le" -> PPC64;
      case "mips", "mipsel" -> MIPS;
      case "mips64", "mips64el" -> MIPS64;
      case "riscv64" -> RISCV64;
      case "riscv32" -> RISCV32;
      case "s390x", "systemz" -> S390X;
      default -> null;
    };
  }
}
