package dev.gsym.macho;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindRow;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference tools' views of the unwind goldens (src-test-data/unwind), read back for the
 * compact unwind tests: llvm-objdump's {@code --unwind-info} printing (which {@link #render} writes
 * from our records), llvm-dwarfdump's {@code --eh-frame} rows, llvm-nm's symbols.
 */
final class CompactUnwindGoldens {
  private CompactUnwindGoldens() {}

  /** llvm-objdump-22 --unwind-info's printing of an {@code __unwind_info} section, from its "Contents of" line. */
  static String render(CompactUnwind cu) {
    StringBuilder sb = new StringBuilder("Contents of __unwind_info section:\n");
    CompactUnwind.Header h = cu.header();
    sb.append("  Version:                                   0x").append(Long.toHexString(h.version())).append('\n');
    sb.append("  Common encodings array section offset:     0x").append(Long.toHexString(h.commonEncodingsOffset())).append('\n');
    sb.append("  Number of common encodings in array:       0x").append(Long.toHexString(h.commonEncodingsCount())).append('\n');
    sb.append("  Personality function array section offset: 0x").append(Long.toHexString(h.personalitiesOffset())).append('\n');
    sb.append("  Number of personality functions in array:  0x").append(Long.toHexString(h.personalitiesCount())).append('\n');
    sb.append("  Index array section offset:                0x").append(Long.toHexString(h.indexOffset())).append('\n');
    sb.append("  Number of indices in array:                0x").append(Long.toHexString(h.indexCount())).append('\n');
    sb.append("  Common encodings: (count = ").append(cu.commonEncodings().size()).append(")\n");
    for (int i = 0; i < cu.commonEncodings().size(); i++) {
      sb.append("    encoding[").append(i).append("]: ").append(hex8(cu.commonEncodings().get(i))).append('\n');
    }
    sb.append("  Personality functions: (count = ").append(cu.personalities().size()).append(")\n");
    for (int i = 0; i < cu.personalities().size(); i++) {
      sb.append("    personality[").append(i + 1).append("]: ").append(hex8(cu.personalities().get(i))).append('\n');
    }
    sb.append("  Top level indices: (count = ").append(cu.index().size()).append(")\n");
    for (int i = 0; i < cu.index().size(); i++) {
      CompactUnwind.IndexEntry e = cu.index().get(i);
      sb.append("    [").append(i).append("]: function offset=").append(hex8(e.functionOffset())).append(", 2nd level page offset=")
          .append(hex8(e.secondLevelPageOffset())).append(", LSDA offset=").append(hex8(e.lsdaIndexOffset())).append('\n');
    }
    sb.append("  LSDA descriptors:\n");
    for (int i = 0; i < cu.lsdas().size(); i++) {
      CompactUnwind.LsdaEntry e = cu.lsdas().get(i);
      sb.append("    [").append(i).append("]: function offset=").append(hex8(e.functionOffset())).append(", LSDA offset=")
          .append(hex8(e.lsdaOffset())).append('\n');
    }
    sb.append("  Second level indices:\n");
    for (int i = 0; i < cu.pages().size(); i++) {
      CompactUnwind.Page p = cu.pages().get(i);
      sb.append("    Second level index[").append(i).append("]: offset in section=").append(hex8(p.sectionOffset()))
          .append(", base function offset=").append(hex8(p.baseFunctionOffset())).append('\n');
      if (!p.pageEncodings().isEmpty()) {
        sb.append("      Page encodings: (count = ").append(p.pageEncodings().size()).append(")\n");
        for (int k = 0; k < p.pageEncodings().size(); k++) {
          sb.append("        encoding[").append(cu.commonEncodings().size() + k).append("]: ").append(hex8(p.pageEncodings().get(k)))
              .append('\n');
        }
      }
      for (int k = 0; k < p.entries().size(); k++) {
        CompactUnwind.PageEntry e = p.entries().get(k);
        sb.append("      [").append(k).append("]: function offset=").append(hex8(e.functionOffset())).append(", encoding");
        if (p.kind() == CompactUnwind.UNWIND_SECOND_LEVEL_COMPRESSED) sb.append('[').append(e.encodingIndex()).append(']');
        sb.append('=').append(hex8(e.encoding())).append('\n');
      }
    }
    return sb.toString();
  }

  private static String hex8(long v) {
    return String.format("0x%08x", v & 0xffffffffL);
  }

  /** The part of an llvm-objdump --unwind-info output from "Contents of __unwind_info section:" on. */
  static String unwindInfoSection(String objdump) {
    int at = objdump.indexOf("Contents of __unwind_info section:");
    if (at < 0) throw new IllegalArgumentException("no __unwind_info in the llvm-objdump output");
    return objdump.substring(at);
  }

  /** One entry of an object's {@code __compact_unwind} section as llvm-objdump prints it. */
  record ObjectEntry(long start, String name, long length, int encoding) {}

  private static final Pattern ENTRY = Pattern.compile(
      "    start: +0x([0-9a-f]+) (\\S+)\\n    length: +0x([0-9a-f]+)\\n    compact encoding: +0x([0-9a-f]{8})\\n");

  static List<ObjectEntry> objectEntries(String objdump) {
    List<ObjectEntry> out = new ArrayList<>();
    Matcher m = ENTRY.matcher(objdump);
    while (m.find()) {
      out.add(new ObjectEntry(Long.parseLong(m.group(1), 16), m.group(2), Long.parseLong(m.group(3), 16),
          (int) Long.parseLong(m.group(4), 16)));
    }
    return out;
  }

  /** An FDE of llvm-dwarfdump --eh-frame: its section offset, pc range as printed and its rows' rules (without the addresses). */
  record Fde(long offset, long pcStart, long pcEnd, List<String> rows) {
    String lastRow() {
      return rows.getLast();
    }
  }

  private static final Pattern FDE = Pattern.compile("^([0-9a-f]{8}) [0-9a-f]{8} [0-9a-f]{8} FDE cie=[0-9a-f]{8} pc=([0-9a-f]+)\\.\\.\\.([0-9a-f]+)$");
  private static final Pattern ROW = Pattern.compile("^  0x[0-9a-f]+: (CFA=.*)$");

  static List<Fde> fdes(String dwarfdump) {
    List<Fde> out = new ArrayList<>();
    long offset = -1, start = 0, end = 0;
    List<String> rows = null;
    for (String line : dwarfdump.split("\n", -1)) {
      Matcher f = FDE.matcher(line);
      if (f.matches()) {
        if (rows != null) out.add(new Fde(offset, start, end, rows));
        offset = Long.parseLong(f.group(1), 16);
        start = Long.parseUnsignedLong(f.group(2), 16);
        end = Long.parseUnsignedLong(f.group(3), 16);
        rows = new ArrayList<>();
        continue;
      }
      if (line.endsWith(" CIE")) {
        if (rows != null) out.add(new Fde(offset, start, end, rows));
        rows = null;
        continue;
      }
      Matcher r = ROW.matcher(line);
      if (r.matches() && rows != null) rows.add(r.group(1));
    }
    if (rows != null) out.add(new Fde(offset, start, end, rows));
    return out;
  }

  /** llvm-nm -n's defined text symbols: name to address (the first definition of a name). */
  static Map<String, Long> textSymbols(String nm) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String line : nm.split("\n")) {
      String[] f = line.trim().split(" ");
      if (f.length == 3 && (f[1].equals("T") || f[1].equals("t")) && !f[2].startsWith("ltmp")) {
        out.putIfAbsent(f[2], Long.parseUnsignedLong(f[0], 16));
      }
    }
    return out;
  }

  /**
   * A row's rules as llvm-dwarfdump prints them for a Mach-O file of {@code arch}: "CFA=RBP+16:
   * RBP=[CFA-16], RIP=[CFA-8]". i386 registers are named as llvm-dwarfdump names the numbers of a
   * Darwin i386 file (4 "EBP", 5 "ESP": Darwin's i386 EH numbering), while MC writes the generic
   * numbers (4 esp, 5 ebp) there, which are {@link Arch#X86}'s: so the names are swapped, the
   * numbers agree.
   */
  static String dwarfdumpRules(Arch arch, UnwindRow row) {
    StringBuilder sb = new StringBuilder("CFA=");
    CfaRule.RegisterOffset cfa = (CfaRule.RegisterOffset) row.cfa();
    sb.append(name(arch, cfa.register()));
    if (cfa.offset() != 0) sb.append(cfa.offset() > 0 ? "+" : "").append(cfa.offset());
    String sep = ": ";
    for (var e : row.registers().entrySet()) {
      sb.append(sep).append(name(arch, e.getKey())).append('=');
      switch (e.getValue()) {
        case RegisterRule.Offset o -> sb.append("[CFA").append(o.offset() >= 0 ? "+" : "").append(o.offset()).append(']');
        default -> sb.append(e.getValue());
      }
      sep = ", ";
    }
    return sb.toString();
  }

  private static final String[] X86_64 = {"RAX", "RDX", "RCX", "RBX", "RSI", "RDI", "RBP", "RSP", "R8", "R9", "R10", "R11", "R12",
      "R13", "R14", "R15", "RIP"};
  private static final String[] X86_DARWIN = {"EAX", "ECX", "EDX", "EBX", "EBP", "ESP", "ESI", "EDI", "EIP"};

  static String name(Arch arch, int reg) {
    return switch (arch) {
      case X86_64 -> X86_64[reg];
      case X86 -> X86_DARWIN[reg];
      case AARCH64 -> reg == 31 ? "WSP" : reg < 31 ? "W" + reg : "B" + (reg - 64);
      default -> throw new IllegalArgumentException(arch.toString());
    };
  }

  static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}
