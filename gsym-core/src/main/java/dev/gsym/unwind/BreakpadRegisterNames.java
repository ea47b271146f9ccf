package dev.gsym.unwind;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The register names Breakpad's {@code STACK CFI} records use for DWARF register numbers, per
 * architecture (those dump_syms writes: i386, x86-64, ARM, AArch64, MIPS, RISC-V), plus the
 * pseudo-registers {@code .cfa} and {@code .ra}. dump_syms writes no CFI for other architectures.
 */
public final class BreakpadRegisterNames {
  /** The canonical frame address and the return address, as STACK CFI names them. */
  public static final String CFA = ".cfa";
  /** The return address pseudo-register. */
  public static final String RA = ".ra";

  private static final List<String> I386 = List.of(
      "$eax", "$ecx", "$edx", "$ebx", "$esp", "$ebp", "$esi", "$edi",
      "$eip", "$eflags", "$unused1",
      "$st0", "$st1", "$st2", "$st3", "$st4", "$st5", "$st6", "$st7",
      "$unused2", "$unused3",
      "$xmm0", "$xmm1", "$xmm2", "$xmm3", "$xmm4", "$xmm5", "$xmm6", "$xmm7",
      "$mm0", "$mm1", "$mm2", "$mm3", "$mm4", "$mm5", "$mm6", "$mm7",
      "$fcw", "$fsw", "$mxcsr",
      "$es", "$cs", "$ss", "$ds", "$fs", "$gs", "$unused4", "$unused5",
      "$tr", "$ldtr");

  private static final List<String> X86_64 = List.of(
      "$rax", "$rdx", "$rcx", "$rbx", "$rsi", "$rdi", "$rbp", "$rsp",
      "$r8", "$r9", "$r10", "$r11", "$r12", "$r13", "$r14", "$r15",
      "$rip",
      "$xmm0", "$xmm1", "$xmm2", "$xmm3", "$xmm4", "$xmm5", "$xmm6", "$xmm7",
      "$xmm8", "$xmm9", "$xmm10", "$xmm11", "$xmm12", "$xmm13", "$xmm14", "$xmm15",
      "$st0", "$st1", "$st2", "$st3", "$st4", "$st5", "$st6", "$st7",
      "$mm0", "$mm1", "$mm2", "$mm3", "$mm4", "$mm5", "$mm6", "$mm7",
      "$rflags",
      "$es", "$cs", "$ss", "$ds", "$fs", "$gs", "$unused1", "$unused2",
      "$fs.base", "$gs.base", "$unused3", "$unused4",
      "$tr", "$ldtr",
      "$mxcsr", "$fcw", "$fsw");

  private static final List<String> ARM = withBlanks(List.of(
      "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7",
      "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc",
      "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7",
      "fps", "cpsr"), 64, List.of(
      "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
      "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15",
      "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23",
      "s24", "s25", "s26", "s27", "s28", "s29", "s30", "s31",
      "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7"));

  private static final List<String> ARM64 = withBlanks(List.of(
      "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7",
      "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15",
      "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23",
      "x24", "x25", "x26", "x27", "x28", "x29", "x30", "sp"), 64, List.of(
      "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
      "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15",
      "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23",
      "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31"));

  private static final List<String> MIPS = List.of(
      "$zero", "$at", "$v0", "$v1", "$a0", "$a1", "$a2", "$a3",
      "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7",
      "$s0", "$s1", "$s2", "$s3", "$s4", "$s5", "$s6", "$s7",
      "$t8", "$t9", "$k0", "$k1", "$gp", "$sp", "$fp", "$ra",
      "$lo", "$hi", "$pc", "$f0", "$f2", "$f3", "$f4", "$f5",
      "$f6", "$f7", "$f8", "$f9", "$f10", "$f11", "$f12", "$f13",
      "$f14", "$f15", "$f16", "$f17", "$f18", "$f19", "$f20",
      "$f21", "$f22", "$f23", "$f24", "$f25", "$f26", "$f27",
      "$f28", "$f29", "$f30", "$f31", "$fcsr", "$fir");

  private static final List<String> RISCV = withBlanks(List.of(
      "pc", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
      "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
      "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
      "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
      "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7",
      "f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15",
      "f16", "f17", "f18", "f19", "f20", "f21", "f22", "f23",
      "f24", "f25", "f26", "f27", "f28", "f29", "f30", "f31"), 96, List.of(
      "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
      "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15",
      "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23",
      "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31"));

  private static List<String> withBlanks(List<String> low, int highFrom, List<String> high) {
    String[] all = new String[highFrom + high.size()];
    java.util.Arrays.fill(all, "");
    for (int i = 0; i < low.size(); i++) all[i] = low.get(i);
    for (int i = 0; i < high.size(); i++) all[highFrom + i] = high.get(i);
    return List.of(all);
  }

  private static final Map<Arch, Map<String, Integer>> NUMBERS = new HashMap<>();

  static {
    for (Arch a : Arch.values()) {
      List<String> names = names(a);
      if (names == null) continue;
      Map<String, Integer> m = new HashMap<>();
      for (int i = 0; i < names.size(); i++) if (!names.get(i).isEmpty()) m.putIfAbsent(names.get(i), i);
      NUMBERS.put(a, Map.copyOf(m));
    }
  }

  private BreakpadRegisterNames() {}

  /**
   * dump_syms' names by DWARF register number for {@code arch} ("" for a number it has no name
   * for), or null for an architecture it writes no CFI for.
   */
  public static List<String> names(Arch arch) {
    return switch (arch) {
      case X86 -> I386;
      case X86_64 -> X86_64;
      case ARM -> ARM;
      case AARCH64 -> ARM64;
      case MIPS, MIPS64 -> MIPS;
      case RISCV32, RISCV64 -> RISCV;
      default -> null;
    };
  }

  /** The name of {@code register}, or null when dump_syms has none. */
  public static String name(Arch arch, int register) {
    List<String> names = names(arch);
    if (names == null || register < 0 || register >= names.size() || names.get(register).isEmpty()) return null;
    return names.get(register);
  }

  /** The DWARF number of {@code name} (the first register of that name), or -1. */
  public static int number(Arch arch, String name) {
    Map<String, Integer> m = NUMBERS.get(arch);
    Integer n = m == null ? null : m.get(name);
    return n == null ? -1 : n;
  }
}
