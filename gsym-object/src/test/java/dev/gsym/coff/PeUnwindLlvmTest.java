package dev.gsym.coff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PeUnwind} against llvm-22 live: llvm-objdump-22 and llvm-readobj-22 on the committed
 * images, and random x64 functions (seeded: every run makes the same ones) with every kind of
 * prolog instruction, unwind v1 and v2 epilogs and chained cold parts, assembled by clang-22 and
 * linked by lld-link-22. Their records are llvm's; their rows are checked against the machine
 * itself: at every instruction of a prolog, body and version 2 epilog (addresses from
 * llvm-objdump-22 -d), the row must say where the instructions executed so far put the return
 * address, the caller's stack pointer and each saved register (a simulation of the instructions,
 * not of the unwind codes). Skipped without those tools.
 */
@NeedsLlvm
class PeUnwindLlvmTest {
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

  static void assertLlvmsRecords(PeUnwind pe, String objdump) {
    String llvm = objdump.substring(objdump.indexOf("Function Table:"));
    assertThat(PeUnwindGoldenTest.render(pe).lines()).containsExactlyElementsOf(llvm.lines().toList());
  }

  @ParameterizedTest
  @ValueSource(strings = {"pe-x64-asm.exe", "pe-x64-msvc.exe", "pe-x64-msvc-v2.exe", "pe-x64-mingw.exe"})
  void committedImagesAgainstLlvm(String image) throws Exception {
    Path file = TestData.path("unwind", "bin", image);
    assertLlvmsRecords(PeUnwindGoldenTest.read(image), run(tmp, tool("llvm-objdump-22").toString(), "--unwind-info", file.toString()));
    // the readobj golden, compared by the golden test, is still what llvm-readobj says
    assertThat(run(tmp, tool("llvm-readobj-22").toString(), "--unwind", file.toString()).replace(file.toString(), "bin/" + image))
        .isEqualTo(PeUnwindGoldenTest.golden(image + ".readobj-unwind.txt"));
  }

  // ----- random functions and a simulation of their instructions -----

  private static final String[] SAVED = {"rbx", "rbp", "rsi", "rdi", "r12", "r13", "r14", "r15"};
  private static final Map<String, Integer> DWARF = new HashMap<>();

  static {
    String[] names = {"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"};
    for (int i = 0; i < names.length; i++) DWARF.put(names[i], i);
    for (int i = 0; i < 16; i++) DWARF.put("xmm" + i, 17 + i);
  }

  /** What an instruction does to the frame. */
  enum Kind { PUSH, SUB, LEA_FRAME, SAVE, ADD, POP, OTHER }

  /** Where an instruction is: its rows are checked in all regions but a version 1 epilog's pops and return (RtlVirtualUnwind decodes those). */
  enum Region { PROLOG, BODY, EPILOG_V1, EPILOG_V2 }

  record Insn(String mnemonic, Kind kind, String reg, long value, Region region) {}

  /** The frame as the instructions left it, relative to S, the stack pointer at entry. */
  static final class State {
    long rsp; // rsp - S
    String frameReg;
    long frame; // frame register - S
    long ripAt; // where the return address is, - S
    long cfaAt = Long.MIN_VALUE; // a machine frame: where the caller's rsp is stored, - S
    final Map<String, Long> saved = new HashMap<>();
    /** The registers saved with a mov: restored before an epilog, which RtlVirtualUnwind does not look at for them. */
    final java.util.Set<String> moved = new java.util.HashSet<>();

    State copy() {
      State s = new State();
      s.rsp = rsp;
      s.frameReg = frameReg;
      s.frame = frame;
      s.ripAt = ripAt;
      s.cfaAt = cfaAt;
      s.saved.putAll(saved);
      s.moved.addAll(moved);
      return s;
    }

    void apply(Insn i) {
      switch (i.kind()) {
        case PUSH -> {
          rsp -= 8;
          saved.putIfAbsent(i.reg(), rsp);
        }
        case SUB -> rsp -= i.value();
        case ADD -> rsp += i.value();
        case LEA_FRAME -> {
          frameReg = i.reg();
          frame = rsp + i.value();
        }
        case SAVE -> {
          saved.putIfAbsent(i.reg(), rsp + i.value());
          moved.add(i.reg());
        }
        case POP -> {
          rsp += 8;
          saved.remove(i.reg());
        }
        case OTHER -> { }
      }
    }

    /** The row the unwinder must give here: registers relative to the CFA (the frame register once set, else rsp); {@code epilog}: rsp. */
    UnwindRow row(long address, boolean epilog) {
      boolean fromFrame = frameReg != null && !epilog;
      int base = DWARF.get(fromFrame ? frameReg : "rsp");
      long baseAt = fromFrame ? frame : rsp;
      TreeMap<Integer, RegisterRule> rules = new TreeMap<>();
      CfaRule cfa;
      Map<String, Long> saved = new HashMap<>(this.saved);
      if (epilog) saved.keySet().removeAll(moved);
      if (cfaAt != Long.MIN_VALUE) {
        cfa = new CfaRule.Expression(breg(base, cfaAt - baseAt, true));
        for (var e : saved.entrySet()) rules.put(DWARF.get(e.getKey()), new RegisterRule.Expression(breg(base, e.getValue() - baseAt, false)));
        rules.put(16, new RegisterRule.Expression(breg(base, ripAt - baseAt, false)));
      } else {
        cfa = new CfaRule.RegisterOffset(base, 8 - baseAt);
        for (var e : saved.entrySet()) rules.put(DWARF.get(e.getKey()), new RegisterRule.Offset(e.getValue() - 8));
        rules.put(16, new RegisterRule.Offset(ripAt - 8));
      }
      return new UnwindRow(address, cfa, rules);
    }
  }

  static byte[] breg(int reg, long offset, boolean deref) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x70 + reg);
    long v = offset;
    boolean more = true;
    while (more) {
      int b = (int) v & 0x7f;
      v >>= 7;
      more = !((v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0));
      out.write(more ? b | 0x80 : b);
    }
    if (deref) out.write(0x06);
    return out.toByteArray();
  }

  /** One random function: its assembly and its instructions in address order (cold part last). */
  record Function(String name, String asm, String cold, List<Insn> insns, boolean machineFrame, boolean chained) {}

  static Function function(Random r, int n) {
    String name = "f" + n;
    StringBuilder a = new StringBuilder();
    List<Insn> insns = new ArrayList<>();
    boolean v2 = r.nextBoolean();
    boolean machineFrame = !v2 && r.nextInt(8) == 0;
    a.append("\t.globl\t").append(name).append("\n\t.p2align\t4\n").append(name).append(":\n.seh_proc ").append(name).append('\n');
    if (v2) a.append("\t.seh_unwindversion 2\n");
    if (machineFrame) a.append(r.nextBoolean() ? "\t.seh_pushframe @code\n" : "\t.seh_pushframe\n");
    List<String> regs = new ArrayList<>(List.of(SAVED));
    Collections.shuffle(regs, r);
    List<String> pushed = new ArrayList<>(regs.subList(0, r.nextInt(7)));
    List<String> spare = new ArrayList<>(regs.subList(pushed.size(), regs.size()));
    for (String p : pushed) {
      a.append("\tpushq\t%").append(p).append("\n\t.seh_pushreg %").append(p).append('\n');
      insns.add(new Insn("pushq", Kind.PUSH, p, 0, Region.PROLOG));
    }
    long alloc = switch (r.nextInt(5)) {
      case 0 -> 0;
      case 1, 2 -> 8L * (1 + r.nextInt(16));
      case 3 -> 8L * (20 + r.nextInt(60000));
      default -> 8L * (70000 + r.nextInt(200000));
    };
    if (alloc > 0) {
      a.append("\tsubq\t$").append(alloc).append(", %rsp\n\t.seh_stackalloc ").append(alloc).append('\n');
      insns.add(new Insn("subq", Kind.SUB, null, alloc, Region.PROLOG));
    }
    // the frame register (one of the pushed, so its value is kept), then saves into the allocation,
    // in a random order
    List<String[]> after = new ArrayList<>();
    List<String> restores = new ArrayList<>();
    String frameReg = null;
    if (!pushed.isEmpty() && r.nextBoolean()) {
      frameReg = pushed.get(r.nextInt(pushed.size()));
      long off = 16L * r.nextInt((int) Math.min(16, alloc / 16 + 1));
      after.add(new String[] {"frame", frameReg, Long.toString(off)});
    }
    int saves = alloc >= 16 ? r.nextInt(4) : 0;
    List<Long> usedSlots = new ArrayList<>();
    for (int k = 0; k < saves && !spare.isEmpty(); k++) {
      boolean xmm = r.nextBoolean();
      long off = xmm ? 16L * r.nextLong(alloc / 16) : 8L * r.nextLong(alloc / 8);
      if (xmm && alloc - off < 16) continue;
      if (usedSlots.stream().anyMatch(u -> Math.abs(u - off) < 16)) continue;
      usedSlots.add(off);
      String reg = xmm ? "xmm" + (6 + r.nextInt(10)) : spare.removeFirst();
      if (xmm && after.stream().anyMatch(x -> x[1].equals(reg))) continue;
      after.add(new String[] {xmm ? "xmm" : "reg", reg, Long.toString(off)});
    }
    Collections.shuffle(after, r);
    for (String[] x : after) {
      long off = Long.parseLong(x[2]);
      switch (x[0]) {
        case "frame" -> {
          a.append("\tleaq\t").append(off).append("(%rsp), %").append(x[1]).append("\n\t.seh_setframe %").append(x[1]).append(", ").append(off).append('\n');
          insns.add(new Insn("leaq", Kind.LEA_FRAME, x[1], off, Region.PROLOG));
        }
        case "reg" -> {
          a.append("\tmovq\t%").append(x[1]).append(", ").append(off).append("(%rsp)\n\t.seh_savereg %").append(x[1]).append(", ").append(off).append('\n');
          insns.add(new Insn("movq", Kind.SAVE, x[1], off, Region.PROLOG));
          restores.add("movq\t" + off + "(%rsp), %" + x[1]);
        }
        default -> {
          a.append("\tmovaps\t%").append(x[1]).append(", ").append(off).append("(%rsp)\n\t.seh_savexmm %").append(x[1]).append(", ").append(off).append('\n');
          insns.add(new Insn("movaps", Kind.SAVE, x[1], off, Region.PROLOG));
          restores.add("movaps\t" + off + "(%rsp), %" + x[1]);
        }
      }
    }
    // a chained cold part (its own pushes below the function's frame) for some: without a frame
    // register, where the rows of both are rsp-relative
    boolean chained = !v2 && !machineFrame && frameReg == null && r.nextInt(4) == 0;
    a.append("\t.seh_endprologue\n\tnop\n");
    insns.add(new Insn("nop", Kind.OTHER, null, 0, Region.BODY));
    StringBuilder cold = new StringBuilder();
    if (machineFrame) {
      a.append("\tud2\n");
      insns.add(new Insn("ud2", Kind.OTHER, null, 0, Region.BODY));
    } else {
      a.append("\ttestl\t%ecx, %ecx\n\tje\t.L").append(name).append("b\n");
      insns.add(new Insn("testl", Kind.OTHER, null, 0, Region.BODY));
      insns.add(new Insn("je", Kind.OTHER, null, 0, Region.BODY));
      if (chained) {
        a.append("\tjl\t.L").append(name).append("cold\n");
        insns.add(new Insn("jl", Kind.OTHER, null, 0, Region.BODY));
      }
      epilog(a, insns, restores, pushed, alloc, v2);
      a.append(".L").append(name).append("b:\n");
      epilog(a, insns, restores, pushed, alloc, v2);
      if (chained) {
        // a cold part with its own pushes, chained to the function's unwind information
        cold.append("\t.section\t.text$cold,\"xr\"\n\t.seh_startchained\n.L").append(name).append("cold:\n");
        // (pushes only when the function saves no register with a mov: RtlVirtualUnwind finds those
        // from the cold part's stack pointer, below the function's frame by the pushes, as our rows do)
        List<String> more = new ArrayList<>(spare.subList(0, restores.isEmpty() ? Math.min(spare.size(), r.nextInt(3)) : 0));
        for (String p : more) {
          cold.append("\tpushq\t%").append(p).append("\n\t.seh_pushreg %").append(p).append('\n');
        }
        cold.append("\t.seh_endprologue\n\tnop\n");
        for (String p : more.reversed()) cold.append("\tpopq\t%").append(p).append('\n');
        cold.append("\tjmp\t.L").append(name).append("b\n\t.seh_endchained\n\t.text\n");
      }
    }
    String coldText = cold.toString();
    return new Function(name, a.toString(), coldText, insns, machineFrame, chained);
  }

  private static void epilog(StringBuilder a, List<Insn> insns, List<String> restores, List<String> pushed, long alloc, boolean v2) {
    // registers saved with a mov come back before the epilog (the canonical order)
    for (String m : restores) {
      a.append('\t').append(m).append('\n');
      insns.add(new Insn(m.substring(0, m.indexOf('\t')), Kind.OTHER, null, 0, Region.BODY));
    }
    if (v2) a.append("\t.seh_startepilogue\n");
    if (alloc > 0) {
      a.append("\taddq\t$").append(alloc).append(", %rsp\n");
      // the deallocation still has the body's frame: RtlVirtualUnwind counts it out of the epilog
      insns.add(new Insn("addq", Kind.ADD, null, alloc, Region.BODY));
    }
    if (v2) a.append("\t.seh_unwindv2start\n");
    for (String p : pushed.reversed()) {
      a.append("\tpopq\t%").append(p).append('\n');
      insns.add(new Insn("popq", Kind.POP, p, 0, v2 ? Region.EPILOG_V2 : Region.EPILOG_V1));
    }
    if (v2) a.append("\t.seh_endepilogue\n");
    a.append("\tretq\n");
    insns.add(new Insn("retq", Kind.OTHER, null, 0, v2 ? Region.EPILOG_V2 : Region.EPILOG_V1));
  }

  private static final Pattern INSN = Pattern.compile("^\\s*([0-9a-f]+):\\s+(\\S+)");

  /** llvm-objdump -d --no-show-raw-insn: every instruction's address and mnemonic. */
  static TreeMap<Long, String> disassembly(String text) {
    TreeMap<Long, String> out = new TreeMap<>();
    for (String line : text.split("\n")) {
      Matcher m = INSN.matcher(line);
      if (m.find()) out.put(Long.parseUnsignedLong(m.group(1), 16), m.group(2));
    }
    return out;
  }

  /** The rules of a row, without its address. */
  static String rules(UnwindRow row) {
    return row == null ? "none" : row.toString().substring(row.toString().indexOf(':') + 2);
  }

  @Test
  void randomFunctionsAgainstLlvmAndTheMachine() throws Exception {
    Path clang = tool("clang-22");
    Path link = tool("lld-link-22");
    Path objdump = tool("llvm-objdump-22");
    Random r = new Random(35);
    List<Function> fns = new ArrayList<>();
    StringBuilder asm = new StringBuilder("\t.text\n\t.globl\tmainCRTStartup\nmainCRTStartup:\n\tretq\n");
    for (int n = 0; n < 300; n++) {
      Function f = function(r, n);
      fns.add(f);
      asm.append(f.asm()).append(f.cold()).append(".seh_endproc\n");
    }
    Files.writeString(tmp.resolve("f.s"), asm);
    run(tmp, clang.toString(), "--target=x86_64-pc-windows-msvc", "-c", "f.s", "-o", "f.obj");
    run(tmp, link.toString(), "/nodefaultlib", "/entry:mainCRTStartup", "/subsystem:console", "/out:f.exe", "f.obj");
    PeUnwind pe;
    try (CoffFile f = CoffFile.open(tmp.resolve("f.exe"))) {
      pe = PeUnwind.read(f);
    }
    assertLlvmsRecords(pe, run(tmp, objdump.toString(), "--unwind-info", "f.exe"));
    TreeMap<Long, String> code = disassembly(run(tmp, objdump.toString(), "-d", "--no-show-raw-insn", "f.exe"));
    // the entries without chained information, in address order, are the functions in source order
    // (the cold parts, in .text$cold, follow all of them)
    List<PeUnwind.Function> parents = pe.functions().stream().filter(x -> x.info().chained() == null).toList();
    assertThat(parents).hasSameSizeAs(fns);
    int checked = 0, v2Epilogs = 0, cold = 0, frames = 0;
    for (int n = 0; n < fns.size(); n++) {
      Function f = fns.get(n);
      PeUnwind.Function entry = parents.get(n);
      long start = pe.imageBase() + entry.entry().begin();
      List<Long> addrs = new ArrayList<>(code.subMap(start, pe.imageBase() + entry.entry().end()).keySet());
      assertThat(addrs.size()).as(f.name()).isGreaterThanOrEqualTo(f.insns().size());
      assertThat(entry.plan()).as(f.name()).isInstanceOf(PeUnwind.Plan.Rows.class);
      CfiTable table = ((PeUnwind.Plan.Rows) entry.plan()).table();
      State s = new State();
      if (f.machineFrame()) {
        s.ripAt = f.asm().contains("@code") ? 8 : 0;
        s.cfaAt = s.ripAt + 24;
        frames++;
      }
      State body = null;
      Region previous = Region.PROLOG;
      for (int i = 0; i < f.insns().size(); i++) {
        Insn insn = f.insns().get(i);
        long at = addrs.get(i);
        assertThat(code.get(at)).as(f.name() + " instruction " + i).isEqualTo(insn.mnemonic());
        if (insn.region() == Region.BODY && body == null) body = s.copy();
        if (insn.region() == Region.EPILOG_V2 && previous != Region.EPILOG_V2) v2Epilogs++;
        if (insn.region() != Region.EPILOG_V1) {
          assertThat(rules(table.rowAt(at))).as(f.name() + " at 0x" + Long.toHexString(at) + " (" + insn + ")\n" + f.asm())
              .isEqualTo(rules(s.row(at, insn.region() == Region.EPILOG_V2)));
          checked++;
        }
        s.apply(insn);
        // an epilog's state does not carry over to the code after its return
        if (insn.mnemonic().equals("retq")) s = body.copy();
        previous = insn.region();
      }
      if (f.chained()) {
        // the cold part: entered from the body, its pushes then the parent's frame
        PeUnwind.Function child = pe.functions().stream().filter(x -> x.info().chained() != null
            && pe.imageBase() + x.info().chained().begin() == start).findFirst().orElseThrow();
        CfiTable t = ((PeUnwind.Plan.Rows) child.plan()).table();
        State c = body.copy();
        long a = t.start();
        int k = 0;
        for (String line : f.cold().split("\n")) {
          if (!line.startsWith("\tpushq")) continue;
          assertThat(rules(t.rowAt(a + k))).as(f.name() + " cold").isEqualTo(rules(c.row(a + k, false)));
          c.apply(new Insn("pushq", Kind.PUSH, line.substring(line.indexOf('%') + 1), 0, Region.PROLOG));
          k++; // pushes of rbx..r15 here: 1 byte, or 2 with REX
          if (line.contains("%r1") || line.contains("%r8") || line.contains("%r9")) k++;
        }
        assertThat(rules(t.rowAt(a + k))).as(f.name() + " cold body").isEqualTo(rules(c.row(a + k, false)));
        cold++;
      }
    }
    assertThat(checked).isGreaterThan(2000);
    assertThat(v2Epilogs).isGreaterThan(100);
    assertThat(cold).isGreaterThan(10);
    assertThat(frames).isGreaterThan(5);
  }
}
