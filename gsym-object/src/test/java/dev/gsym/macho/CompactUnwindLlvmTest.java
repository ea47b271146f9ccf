package dev.gsym.macho;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.Tools;
import dev.gsym.unwind.Arch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link CompactUnwind} against llvm-22 live: llvm-objdump-22 on the committed images (the goldens
 * still say what llvm says), and randomly made frames (seeded: every run makes the same ones)
 * assembled by clang-22 with a DWARF FDE beside each compact encoding, linked by ld64.lld-22: the
 * images' records are llvm-objdump-22's, the rows of every encoding are the rules llvm-dwarfdump-22
 * prints for the function's FDE. Skipped without those tools.
 */
@NeedsLlvm
class CompactUnwindLlvmTest {
  @TempDir Path tmp;

  static Path tool(String name) {
    return Tools.require(Llvm.tool(name), name);
  }

  static String run(Path dir, String... args) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(args).directory(dir.toFile()).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String text = new String(out, StandardCharsets.ISO_8859_1);
    assertThat(p.exitValue()).as(String.join(" ", args) + "\n" + text).isZero();
    return text;
  }

  @ParameterizedTest
  @ValueSource(strings = {"cu-x86_64", "cu-arm64", "cu-x86_64-omitfp", "cu-pages-x86_64", "cu-fat.x86_64", "cu-fat.arm64"})
  void committedImagesAgainstLlvmObjdump(String name) throws Exception {
    Path objdump = tool("llvm-objdump-22");
    int dot = name.indexOf('.');
    String file = dot < 0 ? name : name.substring(0, dot);
    List<String> args = new ArrayList<>(List.of(objdump.toString(), "--unwind-info"));
    if (dot >= 0) args.add("--arch=" + name.substring(dot + 1));
    args.add(CompactUnwindGoldenTest.bin(file).toString());
    String llvm = run(tmp, args.toArray(String[]::new));
    String ours = CompactUnwindGoldenTest.withImage(name, m -> CompactUnwindGoldens.render(CompactUnwind.read(m)));
    assertThat(ours.lines()).containsExactlyElementsOf(CompactUnwindGoldens.unwindInfoSection(llvm).lines().toList());
  }

  private static final String[] X64_REGS = {"rbx", "r12", "r13", "r14", "r15", "rbp"};
  private static final String[] X86_REGS = {"ebx", "ecx", "edx", "edi", "esi", "ebp"};

  /** {@code n} of {@code from} in a random order (the frame pointer excluded when {@code frame}). */
  private static List<String> pick(Random r, String[] from, int n, boolean frame) {
    List<String> all = new ArrayList<>(List.of(from).subList(0, frame ? from.length - 1 : from.length));
    Collections.shuffle(all, r);
    return all.subList(0, Math.min(n, all.size()));
  }

  /** Random x86 functions: frameless (small and large stacks) and frame-pointer ones, 0 to 6 saved registers. */
  static String x86Functions(Random r, boolean is64, int count) {
    int w = is64 ? 8 : 4;
    String q = is64 ? "q" : "l";
    String sp = is64 ? "%rsp" : "%esp";
    String bp = is64 ? "%rbp" : "%ebp";
    StringBuilder sb = new StringBuilder("\t.section\t__TEXT,__text,regular,pure_instructions\n");
    for (int f = 0; f < count; f++) {
      boolean frame = r.nextInt(3) == 0;
      List<String> regs = pick(r, is64 ? X64_REGS : X86_REGS, r.nextInt(frame ? 6 : 7), frame);
      int local = r.nextInt(4) == 0 ? w * (300 + r.nextInt(20000)) : w * r.nextInt(40);
      sb.append("\t.globl\t_f").append(f).append("\n\t.p2align\t4\n_f").append(f).append(":\n\t.cfi_startproc\n");
      int depth = w;
      if (frame) {
        sb.append("\tpush").append(q).append('\t').append(bp).append("\n\t.cfi_def_cfa_offset ").append(2 * w).append('\n');
        sb.append("\t.cfi_offset ").append(bp).append(", -").append(2 * w).append('\n');
        sb.append("\tmov").append(q).append('\t').append(sp).append(", ").append(bp).append("\n\t.cfi_def_cfa_register ").append(bp).append('\n');
        depth = 2 * w;
      }
      for (String reg : regs) {
        depth += w;
        sb.append("\tpush").append(q).append("\t%").append(reg).append('\n');
        if (!frame) sb.append("\t.cfi_def_cfa_offset ").append(depth).append('\n');
      }
      if (local > 0) {
        sb.append("\tsub").append(q).append("\t$").append(local).append(", ").append(sp).append('\n');
        if (!frame) sb.append("\t.cfi_def_cfa_offset ").append(depth + local).append('\n');
      }
      // lowest address first, as llvm lists them (MC's encoding assumes that order)
      for (int i = regs.size() - 1; i >= 0; i--) {
        sb.append("\t.cfi_offset %").append(regs.get(i)).append(", -").append((frame ? 2 * w : w) + w * (i + 1)).append('\n');
      }
      sb.append("\tret").append(is64 ? "q" : "l").append("\n\t.cfi_endproc\n");
    }
    return sb.append(".subsections_via_symbols\n").toString();
  }

  private static final String[][] PAIRS = {{"x19", "x20"}, {"x21", "x22"}, {"x23", "x24"}, {"x25", "x26"}, {"x27", "x28"}, {"d8", "d9"},
      {"d10", "d11"}, {"d12", "d13"}, {"d14", "d15"}};

  private static String cfiName(String reg) {
    return reg.startsWith("d") ? "b" + reg.substring(1) : "w" + reg.substring(1);
  }

  /** Random arm64 functions: frames with a random set of pairs, frameless ones with a stack and maybe pairs at its top. */
  static String arm64Functions(Random r, int count) {
    StringBuilder sb = new StringBuilder("\t.section\t__TEXT,__text,regular,pure_instructions\n");
    for (int f = 0; f < count; f++) {
      List<String[]> pairs = new ArrayList<>();
      boolean frame = r.nextInt(3) != 0;
      for (int k = 0; k < PAIRS.length; k++) if (r.nextInt(3) == 0 && (frame || k < 5)) pairs.add(PAIRS[k]);
      int n = pairs.size();
      sb.append("\t.globl\t_f").append(f).append("\n\t.p2align\t2\n_f").append(f).append(":\n\t.cfi_startproc\n");
      if (frame) {
        sb.append("\tsub\tsp, sp, #").append(16 * (n + 1)).append('\n');
        for (int k = 0; k < n; k++) {
          sb.append("\tstp\t").append(pairs.get(k)[1]).append(", ").append(pairs.get(k)[0]).append(", [sp, #").append(16 * (n - 1 - k)).append("]\n");
        }
        sb.append("\tstp\tx29, x30, [sp, #").append(16 * n).append("]\n\tadd\tx29, sp, #").append(16 * n).append('\n');
        sb.append("\t.cfi_def_cfa w29, 16\n\t.cfi_offset w30, -8\n\t.cfi_offset w29, -16\n");
        for (int k = 0; k < n; k++) {
          sb.append("\t.cfi_offset ").append(cfiName(pairs.get(k)[0])).append(", -").append(24 + 16 * k).append('\n');
          sb.append("\t.cfi_offset ").append(cfiName(pairs.get(k)[1])).append(", -").append(32 + 16 * k).append('\n');
        }
      } else {
        // (stp reaches 504 bytes from sp: a frame with pairs stays small)
        int size = 16 * (n + r.nextInt(n > 0 ? 20 : 200));
        if (size > 0) sb.append("\tsub\tsp, sp, #").append(size).append("\n\t.cfi_def_cfa_offset ").append(size).append('\n');
        for (int k = 0; k < n; k++) {
          sb.append("\tstp\t").append(pairs.get(k)[1]).append(", ").append(pairs.get(k)[0]).append(", [sp, #").append(size - 16 * (k + 1)).append("]\n");
        }
        for (int k = 0; k < n; k++) {
          sb.append("\t.cfi_offset ").append(cfiName(pairs.get(k)[0])).append(", -").append(8 + 16 * k).append('\n');
          sb.append("\t.cfi_offset ").append(cfiName(pairs.get(k)[1])).append(", -").append(16 + 16 * k).append('\n');
        }
      }
      sb.append("\tret\n\t.cfi_endproc\n");
    }
    // a function compact unwind cannot say, so that MC writes the FDE of every function
    sb.append("\t.globl\t_dwarf_anchor\n_dwarf_anchor:\n\t.cfi_startproc\n\t.cfi_escape 0x2e, 0x00\n\tret\n\t.cfi_endproc\n");
    return sb.append(".subsections_via_symbols\n").toString();
  }

  @ParameterizedTest
  @ValueSource(strings = {"x86_64", "i386", "arm64"})
  void randomFramesAgainstLlvm(String arch) throws Exception {
    Path clang = tool("clang-22");
    Path objdump = tool("llvm-objdump-22");
    Path dwarfdump = tool("llvm-dwarfdump-22");
    Random r = new Random(35 + arch.hashCode());
    String source = switch (arch) {
      case "x86_64" -> x86Functions(r, true, 400);
      case "i386" -> x86Functions(r, false, 400);
      default -> arm64Functions(r, 400);
    };
    Files.writeString(tmp.resolve("f.s"), source);
    run(tmp, clang.toString(), "-target", arch + "-apple-macos11", "-femit-dwarf-unwind=always", "-c", "f.s", "-o", "f.o");
    List<CompactUnwindGoldens.ObjectEntry> entries = CompactUnwindGoldens.objectEntries(run(tmp, objdump.toString(), "--unwind-info", "f.o"));
    List<CompactUnwindGoldens.Fde> fdes = CompactUnwindGoldens.fdes(run(tmp, dwarfdump.toString(), "--eh-frame", "f.o"));
    if (arch.equals("arm64")) fdes = fdes.subList(0, fdes.size() - 1); // the anchor, whose entry says DWARF
    if (arch.equals("arm64")) entries = entries.subList(0, entries.size() - 1);
    Map<CompactUnwindGoldens.ObjectEntry, CompactUnwindGoldens.Fde> pairs = CompactUnwindGoldenTest.pair(arch, entries, fdes);
    // (an x86 function with no CFI instruction has an FDE but no compact entry: MC's encoding 0)
    assertThat(pairs.size()).isGreaterThan(380);
    int compared = 0, dwarf = 0;
    try (MachOFile m = MachOFile.open(tmp.resolve("f.o"))) {
      Arch a = CompactUnwind.arch(m.header().cpuType());
      CompactUnwind.CodeReader code = CompactUnwind.codeReader(m);
      for (var p : pairs.entrySet()) {
        CompactUnwindGoldens.ObjectEntry e = p.getKey();
        CompactUnwind.Plan plan = CompactUnwind.plan(a, e.encoding(), 0, e.start(), e.length(), code);
        if (plan instanceof CompactUnwind.Plan.Dwarf) {
          dwarf++;
          continue;
        }
        assertThat(plan).as(e.name() + " 0x" + Integer.toHexString(e.encoding())).isInstanceOf(CompactUnwind.Plan.Rows.class);
        String ours = CompactUnwindGoldens.dwarfdumpRules(a, ((CompactUnwind.Plan.Rows) plan).table().rows().getFirst());
        assertThat(ours).as(e.name() + " 0x" + Integer.toHexString(e.encoding())).isEqualTo(p.getValue().lastRow());
        compared++;
      }
    }
    // MC falls back on DWARF for what the encodings cannot hold (more than 7 i386/x86_64 stack adjustments)
    assertThat(compared).as("compared, %d DWARF", dwarf).isGreaterThan(300);
    if (arch.equals("i386")) return; // ld64.lld links no i386
    run(tmp, tool("ld64.lld-22").toString(), "-arch", arch, "-platform_version", "macos", "11.0", "11.0", "-e", "_f0", "-o", "f", "f.o");
    String llvm = run(tmp, objdump.toString(), "--unwind-info", "f");
    try (MachOFile m = MachOFile.open(tmp.resolve("f"))) {
      CompactUnwind cu = CompactUnwind.read(m);
      assertThat(CompactUnwindGoldens.render(cu).lines()).containsExactlyElementsOf(CompactUnwindGoldens.unwindInfoSection(llvm).lines().toList());
      assertThat(cu.ranges()).allSatisfy(x -> assertThat(x.plan()).isNotInstanceOf(CompactUnwind.Plan.Invalid.class));
    }
  }

  @Test
  void theGeneratorsMakeEveryMode() {
    // a check of the test itself: the random functions cover each mode the rows are compared for
    String x64 = x86Functions(new Random(1), true, 400);
    assertThat(x64).contains("%rbp\n\t.cfi_def_cfa_register").containsPattern("\\$[0-9]{5}, %rsp");
    assertThat(arm64Functions(new Random(1), 400)).contains("add\tx29").contains("d14, [sp");
  }
}
