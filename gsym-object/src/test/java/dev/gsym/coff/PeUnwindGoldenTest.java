package dev.gsym.coff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PeUnwind} against the goldens of src-test-data/unwind (regenerate-unwind.sh): the function
 * table and every UNWIND_INFO are llvm-objdump-22 --unwind-info's, line for line; handlers and
 * chained parents are llvm-readobj-22 --unwind's; and the rows of the hand-written functions of
 * pe-x64-asm.exe are the states worked out by hand from their instructions (src/unwind_pe_x64.s),
 * as Windows' RtlVirtualUnwind computes them.
 */
class PeUnwindGoldenTest {
  static final String[] IMAGES = {"pe-x64-asm.exe", "pe-x64-msvc.exe", "pe-x64-msvc-v2.exe", "pe-x64-mingw.exe"};

  static String golden(String name) throws IOException {
    // ISO-8859-1: llvm-objdump prints the register of UOP_SaveXMM128Big as a raw byte
    return new String(Files.readAllBytes(TestData.path("unwind", "expected", name)), StandardCharsets.ISO_8859_1);
  }

  static PeUnwind read(String image) throws IOException {
    try (CoffFile f = CoffFile.open(TestData.path("unwind", "bin", image))) {
      return PeUnwind.read(f);
    }
  }

  private static final String[] REGISTERS = {"RAX", "RCX", "RDX", "RBX", "RSP", "RBP", "RSI", "RDI", "R8", "R9", "R10", "R11", "R12", "R13",
      "R14", "R15"};

  /** llvm-objdump-22 --unwind-info's printing of an image's function table, from its first "Function Table:" on. */
  static String render(PeUnwind pe) {
    StringBuilder sb = new StringBuilder();
    for (PeUnwind.Function fn : pe.functions()) {
      PeUnwind.UnwindInfo ui = fn.info();
      sb.append("Function Table:\n");
      sb.append("  Start Address: 0x").append(Long.toHexString(fn.entry().begin())).append('\n');
      sb.append("  End Address: 0x").append(Long.toHexString(fn.entry().end())).append('\n');
      sb.append("  Unwind Info Address: 0x").append(Long.toHexString(fn.entry().unwindData())).append('\n');
      sb.append("    Version: ").append(ui.version()).append('\n');
      sb.append("    Flags: ").append(ui.flags());
      if ((ui.flags() & 1) != 0) sb.append(" UNW_ExceptionHandler");
      if ((ui.flags() & 2) != 0) sb.append(" UNW_TerminateHandler");
      if ((ui.flags() & 4) != 0) sb.append(" UNW_ChainInfo");
      sb.append('\n');
      sb.append("    Size of prolog: ").append(ui.prologSize()).append('\n');
      sb.append("    Number of Codes: ").append(ui.slots().length).append('\n');
      if (ui.frameRegister() != 0) {
        sb.append("    Frame register: ").append(REGISTERS[ui.frameRegister()]).append('\n');
        sb.append("    Frame offset: ").append(16 * ui.frameOffset()).append('\n');
      } else {
        sb.append("    No frame pointer used\n");
      }
      if (!ui.codes().isEmpty()) sb.append("    Unwind Codes:\n");
      boolean seenEpilog = false;
      for (PeUnwind.UnwindCode c : ui.codes()) {
        sb.append(String.format("      0x%02x: ", c.codeOffset()));
        switch (c) {
          case PeUnwind.UnwindCode.PushNonVol p -> sb.append("UOP_PushNonVol ").append(REGISTERS[p.register()]);
          case PeUnwind.UnwindCode.AllocLarge a -> sb.append("UOP_AllocLarge ").append(a.wide() ? a.size() : a.size() / 8);
          case PeUnwind.UnwindCode.AllocSmall a -> sb.append("UOP_AllocSmall ").append(a.size());
          case PeUnwind.UnwindCode.SetFpReg s -> sb.append("UOP_SetFPReg ");
          case PeUnwind.UnwindCode.SaveNonVol s -> sb.append(s.far() ? "UOP_SaveNonVolBig " : "UOP_SaveNonVol ").append(REGISTERS[s.register()])
              .append(String.format(s.far() ? " [0x%08x]" : " [0x%04x]", s.offset()));
          // llvm-objdump prints the register of the far form as a character (its uint8_t)
          case PeUnwind.UnwindCode.SaveXmm128 s -> sb.append(s.far() ? "UOP_SaveXMM128Big XMM" + (char) s.register() : "UOP_SaveXMM128 XMM" + s.register())
              .append(String.format(s.far() ? " [0x%08x]" : " [0x%04x]", s.offset()));
          // and "w/o" for a machine frame with an error code (OpInfo 1)
          case PeUnwind.UnwindCode.PushMachFrame m -> sb.append("UOP_PushMachFrame ").append(m.errorCode() ? "w/o" : "w").append(" error code");
          case PeUnwind.UnwindCode.Epilog e -> {
            sb.append("UOP_Epilog");
            if (!seenEpilog) {
              sb.append(" atend=").append((e.opInfo() & 1) != 0 ? "yes" : "no").append(", length=0x")
                  .append(Integer.toHexString(e.codeOffset()).toUpperCase());
              seenEpilog = true;
            } else {
              int offset = e.codeOffset() | e.opInfo() << 8;
              sb.append(offset == 0 ? " padding" : " offset=0x" + Integer.toHexString(offset).toUpperCase());
            }
          }
          case PeUnwind.UnwindCode.Spare s -> sb.append("UOP_SpareCode");
        }
        sb.append('\n');
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  @ParameterizedTest
  @ValueSource(strings = {"pe-x64-asm.exe", "pe-x64-msvc.exe", "pe-x64-msvc-v2.exe", "pe-x64-mingw.exe"})
  void recordsAreLlvmObjdumps(String image) throws IOException {
    String llvm = golden(image + ".unwind-info.txt");
    llvm = llvm.substring(llvm.indexOf("Function Table:"));
    assertThat(render(read(image)).lines()).containsExactlyElementsOf(llvm.lines().toList());
  }

  private static final Pattern READOBJ = Pattern.compile(
      "  RuntimeFunction \\{\\n    StartAddress: (?:\\S+ )?\\(0x([0-9A-F]+)\\)\\n(?:(?!  RuntimeFunction)[\\s\\S])*?(?=\\n  RuntimeFunction|\\n]\\n)");
  private static final Pattern HANDLER = Pattern.compile("      Handler: (?:\\S+ )?\\(0x([0-9A-F]+)\\)");
  private static final Pattern CHAINED = Pattern.compile(
      "      Chained \\{\\n        StartAddress: (?:\\S+ )?\\(0x([0-9A-F]+)\\)\\n        EndAddress: (?:\\S+ )?\\(0x([0-9A-F]+)\\)\\n        UnwindInfoAddress: (?:\\S+ )?\\(0x([0-9A-F]+)\\)");

  @ParameterizedTest
  @ValueSource(strings = {"pe-x64-asm.exe", "pe-x64-msvc.exe", "pe-x64-msvc-v2.exe", "pe-x64-mingw.exe"})
  void handlersAndChainedParentsAreLlvmReadobjs(String image) throws IOException {
    PeUnwind pe = read(image);
    Matcher m = READOBJ.matcher(golden(image + ".readobj-unwind.txt"));
    List<String> llvm = new ArrayList<>();
    while (m.find()) {
      Matcher h = HANDLER.matcher(m.group());
      Matcher c = CHAINED.matcher(m.group());
      llvm.add(Long.parseLong(m.group(1), 16) + " handler=" + (h.find() ? Long.parseLong(h.group(1), 16) : "-") + " chained="
          + (c.find() ? Long.parseLong(c.group(1), 16) + ".." + Long.parseLong(c.group(2), 16) + "@" + Long.parseLong(c.group(3), 16) : "-"));
    }
    List<String> ours = new ArrayList<>();
    long base = pe.imageBase();
    for (PeUnwind.Function fn : pe.functions()) {
      PeUnwind.UnwindInfo ui = fn.info();
      PeUnwind.RuntimeFunction p = ui.chained();
      ours.add((base + fn.entry().begin()) + " handler=" + (ui.handler() < 0 ? "-" : base + ui.handler()) + " chained="
          + (p == null ? "-" : (base + p.begin()) + ".." + (base + p.end()) + "@" + (base + p.unwindData())));
    }
    assertThat(ours).containsExactlyElementsOf(llvm);
    if (image.equals("pe-x64-asm.exe")) {
      assertThat(ours).anyMatch(s -> s.contains("handler=5368713600")).anyMatch(s -> !s.endsWith("chained=-"));
    }
  }

  /** The rows of a function of pe-x64-asm.exe, by its RVA, as text (UnwindRow's llvm-dwarfdump-like form). */
  static List<String> rows(PeUnwind pe, long rva) {
    PeUnwind.Function fn = pe.functions().stream().filter(f -> f.entry().begin() == rva).findFirst().orElseThrow();
    assertThat(fn.plan()).as(fn.toString()).isInstanceOf(PeUnwind.Plan.Rows.class);
    CfiTable t = ((PeUnwind.Plan.Rows) fn.plan()).table();
    assertThat(t.source()).isEqualTo(UnwindSource.PE_UNWIND);
    assertThat(t.ordinal()).isEqualTo(fn.index());
    assertThat(t.start()).isEqualTo(pe.imageBase() + rva);
    assertThat(t.length()).isEqualTo(fn.entry().end() - fn.entry().begin());
    assertThat(t.returnAddressRegister()).isEqualTo(16);
    return t.rows().stream().map(UnwindRow::toString).toList();
  }

  @Test
  void rowsOfEachUnwindCodeAreWindowsStates() throws IOException {
    PeUnwind pe = read("pe-x64-asm.exe");
    assertThat(pe.imageBase()).isEqualTo(0x140000000L);
    // push rbp; sub rsp, 32; lea rbp, [rsp+16] (frame register RBP, offset 16): CFA = rbp + 32 after it
    assertThat(rows(pe, 0x1000)).containsExactly(
        "0x140001000: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001001: CFA=reg7+16: reg6=[CFA-16], reg16=[CFA-8]",
        "0x140001005: CFA=reg7+48: reg6=[CFA-16], reg16=[CFA-8]",
        "0x14000100a: CFA=reg6+32: reg6=[CFA-16], reg16=[CFA-8]");
    // push rsi; push rdi; push r12 (a 2-byte push); sub rsp, 48
    assertThat(rows(pe, 0x1050)).containsExactly(
        "0x140001050: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001051: CFA=reg7+16: reg4=[CFA-16], reg16=[CFA-8]",
        "0x140001052: CFA=reg7+24: reg4=[CFA-16], reg5=[CFA-24], reg16=[CFA-8]",
        "0x140001054: CFA=reg7+32: reg4=[CFA-16], reg5=[CFA-24], reg12=[CFA-32], reg16=[CFA-8]",
        "0x140001058: CFA=reg7+80: reg4=[CFA-16], reg5=[CFA-24], reg12=[CFA-32], reg16=[CFA-8]");
    // UWOP_ALLOC_LARGE, 16-bit form
    assertThat(rows(pe, 0x1070)).containsExactly(
        "0x140001070: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001077: CFA=reg7+4104: reg16=[CFA-8]");
    // push rbx; sub rsp, 0x100000 (32-bit form); rdi at rsp+600000, xmm7 at rsp+700000 (far forms)
    assertThat(rows(pe, 0x1080)).containsExactly(
        "0x140001080: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001081: CFA=reg7+16: reg3=[CFA-16], reg16=[CFA-8]",
        "0x140001088: CFA=reg7+1048592: reg3=[CFA-16], reg16=[CFA-8]",
        "0x140001090: CFA=reg7+1048592: reg3=[CFA-16], reg5=[CFA-448592], reg16=[CFA-8]",
        "0x140001098: CFA=reg7+1048592: reg3=[CFA-16], reg5=[CFA-448592], reg16=[CFA-8], reg24=[CFA-348592]");
    // sub rsp, 88; rbx, r15 at rsp+32, rsp+40; xmm6, xmm15 at rsp+48, rsp+64
    assertThat(rows(pe, 0x10c0)).containsExactly(
        "0x1400010c0: CFA=reg7+8: reg16=[CFA-8]",
        "0x1400010c4: CFA=reg7+96: reg16=[CFA-8]",
        "0x1400010c9: CFA=reg7+96: reg3=[CFA-64], reg16=[CFA-8]",
        "0x1400010ce: CFA=reg7+96: reg3=[CFA-64], reg15=[CFA-56], reg16=[CFA-8]",
        "0x1400010d3: CFA=reg7+96: reg3=[CFA-64], reg15=[CFA-56], reg16=[CFA-8], reg23=[CFA-48]",
        "0x1400010d9: CFA=reg7+96: reg3=[CFA-64], reg15=[CFA-56], reg16=[CFA-8], reg23=[CFA-48], reg32=[CFA-32]");
    // push r13; sub rsp, 64; lea r13, [rsp+32] (frame r13, offset 32); rsi, xmm8 saved from the
    // establisher frame r13-32; the body's sub rsp does not move the CFA off r13
    assertThat(rows(pe, 0x1100)).containsExactly(
        "0x140001100: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001102: CFA=reg7+16: reg13=[CFA-16], reg16=[CFA-8]",
        "0x140001106: CFA=reg7+80: reg13=[CFA-16], reg16=[CFA-8]",
        "0x14000110b: CFA=reg13+48: reg13=[CFA-16], reg16=[CFA-8]",
        "0x140001110: CFA=reg13+48: reg4=[CFA-32], reg13=[CFA-16], reg16=[CFA-8]",
        "0x140001116: CFA=reg13+48: reg4=[CFA-32], reg13=[CFA-16], reg16=[CFA-8], reg25=[CFA-64]");
    // a machine frame with an error code (rip at rsp+8, the caller's rsp at rsp+32), then push rax
    // and sub rsp, 8: the CFA is loaded from the frame (DW_OP_breg7 N; DW_OP_deref), the saves are
    // addresses (DW_OP_breg7 N)
    assertThat(rows(pe, 0x1140)).containsExactly(
        "0x140001140: CFA=expr(772006): reg16=[expr(7708)]",
        "0x140001141: CFA=expr(772806): reg0=[expr(7700)], reg16=[expr(7710)]",
        "0x140001145: CFA=expr(773006): reg0=[expr(7708)], reg16=[expr(7718)]");
    assertThat(rows(pe, 0x1150)).containsExactly(
        "0x140001150: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001151: CFA=reg7+16: reg3=[CFA-16], reg16=[CFA-8]",
        "0x140001155: CFA=reg7+48: reg3=[CFA-16], reg16=[CFA-8]");
    // the cold part: its own push rsi, then the whole prolog of its chained parent
    assertThat(rows(pe, 0x11c1)).containsExactly(
        "0x1400011c1: CFA=reg7+48: reg3=[CFA-16], reg16=[CFA-8]",
        "0x1400011c2: CFA=reg7+56: reg3=[CFA-16], reg4=[CFA-56], reg16=[CFA-8]");
    // push rbp; mov rbp, rsp (frame RBP, offset 0)
    assertThat(rows(pe, 0x1170)).containsExactly(
        "0x140001170: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001171: CFA=reg7+16: reg6=[CFA-16], reg16=[CFA-8]",
        "0x140001174: CFA=reg6+16: reg6=[CFA-16], reg16=[CFA-8]");
  }

  @Test
  void rowsOfVersion2EpilogsUndoThePrologPopByPop() throws IOException {
    PeUnwind pe = read("pe-x64-asm.exe");
    // push rsi; push r13; sub rsp, 40; epilogs "pop r13; pop rsi; ret" at 0x119f and at the end (0x11a7),
    // each after an add rsp, 40 that is still the body
    String body = "CFA=reg7+64: reg4=[CFA-16], reg13=[CFA-24], reg16=[CFA-8]";
    assertThat(rows(pe, 0x1190)).containsExactly(
        "0x140001190: CFA=reg7+8: reg16=[CFA-8]",
        "0x140001191: CFA=reg7+16: reg4=[CFA-16], reg16=[CFA-8]",
        "0x140001193: CFA=reg7+24: reg4=[CFA-16], reg13=[CFA-24], reg16=[CFA-8]",
        "0x140001197: " + body,
        "0x14000119f: CFA=reg7+24: reg4=[CFA-16], reg13=[CFA-24], reg16=[CFA-8]",
        "0x1400011a0: CFA=reg7+16: reg4=[CFA-16], reg16=[CFA-8]",
        "0x1400011a2: CFA=reg7+8: reg16=[CFA-8]",
        "0x1400011a3: " + body,
        "0x1400011a7: CFA=reg7+24: reg4=[CFA-16], reg13=[CFA-24], reg16=[CFA-8]",
        "0x1400011a8: CFA=reg7+16: reg4=[CFA-16], reg16=[CFA-8]",
        "0x1400011aa: CFA=reg7+8: reg16=[CFA-8]");
    // push rbx; sub rsp, 16; one epilog "pop rbx; ret" at 0x11bd, then a ud2 (the body again)
    assertThat(rows(pe, 0x11b0)).containsExactly(
        "0x1400011b0: CFA=reg7+8: reg16=[CFA-8]",
        "0x1400011b1: CFA=reg7+16: reg3=[CFA-16], reg16=[CFA-8]",
        "0x1400011b5: CFA=reg7+32: reg3=[CFA-16], reg16=[CFA-8]",
        "0x1400011bd: CFA=reg7+16: reg3=[CFA-16], reg16=[CFA-8]",
        "0x1400011be: CFA=reg7+8: reg16=[CFA-8]",
        "0x1400011bf: CFA=reg7+32: reg3=[CFA-16], reg16=[CFA-8]");
  }

  @Test
  void everyFunctionOfTheCompiledImagesHasRows() throws IOException {
    for (String image : IMAGES) {
      PeUnwind pe = read(image);
      assertThat(pe.functions()).as(image).isNotEmpty();
      for (PeUnwind.Function fn : pe.functions()) {
        assertThat(fn.plan()).as(image + " " + fn).isInstanceOf(PeUnwind.Plan.Rows.class);
        List<UnwindRow> rows = ((PeUnwind.Plan.Rows) fn.plan()).table().rows();
        boolean machineFrame = fn.info().codes().stream().anyMatch(c -> c instanceof PeUnwind.UnwindCode.PushMachFrame);
        boolean chained = fn.info().chained() != null;
        // at a function's first byte no prolog instruction has run: the return address is at rsp
        if (!machineFrame && !chained) assertThat(rows.getFirst().toString()).endsWith(": CFA=reg7+8: reg16=[CFA-8]");
      }
      assertThat(pe.tables()).hasSameSizeAs(pe.functions());
    }
  }

  @Test
  void otherMachinesAndObjectsHaveNone() throws IOException {
    for (String other : new String[] {"c-aarch64-O2.exe", "c-i686-O2.exe", "c-x86_64-O2.o"}) {
      try (CoffFile f = CoffFile.open(TestData.path("pecoff", "bin", other))) {
        assertThat(PeUnwind.read(f)).as(other).isNull();
      }
    }
  }
}
