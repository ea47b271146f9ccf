package dev.gsym.cfi;

import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The FDEs and rows of {@code llvm-dwarfdump-22 --eh-frame --debug-frame} output, parsed into a
 * structure our tables are compared with: registers by DWARF number (llvm's names read back through
 * {@link RegisterNames}), rules by kind and offset; DWARF expressions as llvm's text, against which
 * ours are printed by {@link DwarfExpressionText}.
 */
final class LlvmFrames {
  /** One FDE: section, offset, {@code [pcBegin, pcEnd)}, rows as llvm prints them. */
  record Fde(UnwindSource section, long offset, long pcBegin, long pcEnd, List<Row> rows) {}

  /**
   * A row: {@code cfa} is {@code regN+OFF}, {@code expr:TEXT} or null (unspecified); each rule is
   * {@code undefined}, {@code same}, {@code [CFA+OFF]}, {@code CFA+OFF}, {@code regN}, {@code
   * [expr:TEXT]}, {@code expr:TEXT} or a constant.
   */
  record Row(long address, String cfa, Map<Integer, String> registers) {}

  private static final Pattern FDE = Pattern.compile("^([0-9a-f]{8}) [0-9a-f]+ [0-9a-f]+ FDE cie=\\S+ pc=([0-9a-f]+)\\.\\.\\.([0-9a-f]+)$");
  private static final Pattern ENTRY = Pattern.compile("^[0-9a-f]{8} ");
  private static final Pattern ROW = Pattern.compile("^  0x([0-9a-f]+): CFA=(.*)$");
  private static final Pattern REG_OFFSET = Pattern.compile("^([A-Za-z0-9_]+)([+-][0-9]+)?$");
  private static final Pattern CFA_OFFSET = Pattern.compile("^CFA([+-][0-9]+)?$");

  private LlvmFrames() {}

  /** The FDEs of the output, in order. */
  static List<Fde> parse(String text, RegisterNames regs) {
    List<Fde> out = new ArrayList<>();
    UnwindSource section = null;
    long offset = 0;
    long begin = 0;
    long end = 0;
    List<Row> rows = null;
    for (String line : text.split("\n", -1)) {
      if (line.equals(".debug_frame contents:") || line.equals(".eh_frame contents:")) {
        if (rows != null) out.add(new Fde(section, offset, begin, end, rows));
        rows = null;
        section = line.startsWith(".debug") ? UnwindSource.DEBUG_FRAME : UnwindSource.EH_FRAME;
        continue;
      }
      Matcher m = FDE.matcher(line);
      if (m.matches() || ENTRY.matcher(line).find()) {
        if (rows != null) out.add(new Fde(section, offset, begin, end, rows));
        rows = null;
        if (m.matches()) {
          offset = Long.parseLong(m.group(1), 16);
          begin = Long.parseUnsignedLong(m.group(2), 16);
          end = Long.parseUnsignedLong(m.group(3), 16);
          rows = new ArrayList<>();
        }
        continue;
      }
      Matcher r = ROW.matcher(line);
      if (r.matches() && rows != null) rows.add(row(Long.parseUnsignedLong(r.group(1), 16), r.group(2), regs));
    }
    if (rows != null) out.add(new Fde(section, offset, begin, end, rows));
    return out;
  }

  private static Row row(long address, String text, RegisterNames regs) {
    // "CFA: R1=rule, R2=rule": an expression's operations are separated by ", " too, so a piece
    // starting "NAME=" starts the next register
    int colon = text.indexOf(": ");
    String cfa = colon < 0 ? text : text.substring(0, colon);
    Map<Integer, String> registers = new TreeMap<>();
    if (colon >= 0) {
      Map<String, StringBuilder> rules = new LinkedHashMap<>();
      StringBuilder current = null;
      for (String piece : text.substring(colon + 2).split(", ")) {
        int eq = piece.indexOf('=');
        if (eq > 0 && piece.substring(0, eq).matches("[A-Za-z0-9_]+")) {
          current = new StringBuilder(piece.substring(eq + 1));
          rules.put(piece.substring(0, eq), current);
        } else {
          current.append(", ").append(piece);
        }
      }
      for (var e : rules.entrySet()) {
        int n = regs.number(e.getKey());
        if (n < 0) throw new IllegalArgumentException("unknown register name " + e.getKey() + " in row 0x" + Long.toHexString(address));
        registers.put(n, rule(e.getValue().toString(), regs));
      }
    }
    return new Row(address, cfaRule(cfa, regs), registers);
  }

  private static String cfaRule(String s, RegisterNames regs) {
    if (s.equals("unspecified")) return null;
    Matcher m = REG_OFFSET.matcher(s);
    if (m.matches() && regs.number(m.group(1)) >= 0) {
      return "reg" + regs.number(m.group(1)) + offset(m.group(2) == null ? 0 : Long.parseLong(m.group(2)));
    }
    return "expr:" + s;
  }

  private static String rule(String s, RegisterNames regs) {
    if (s.equals("undefined") || s.equals("same") || s.matches("-?[0-9]+")) return s;
    Matcher c = CFA_OFFSET.matcher(s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s);
    if (c.matches()) {
      String v = "CFA" + offset(c.group(1) == null ? 0 : Long.parseLong(c.group(1)));
      return s.startsWith("[") ? "[" + v + "]" : v;
    }
    if (regs.number(s) >= 0) return "reg" + regs.number(s);
    if (s.startsWith("[") && s.endsWith("]")) return "[expr:" + s.substring(1, s.length() - 1) + "]";
    return "expr:" + s;
  }

  private static String offset(long o) {
    return (o < 0 ? "" : "+") + o;
  }

  /** Our row in the form {@link #parse} gives llvm's. */
  static Row of(UnwindRow row, ByteOrder order, int addressSize, RegisterNames regs) {
    String cfa = switch (row.cfa()) {
      case null -> null;
      case CfaRule.RegisterOffset ro -> "reg" + ro.register() + offset(ro.offset());
      case CfaRule.Expression e -> "expr:" + DwarfExpressionText.print(e.expression(), order, addressSize, regs);
      case CfaRule.Postfix p -> "postfix:" + p.expression();
    };
    Map<Integer, String> registers = new TreeMap<>();
    for (var e : row.registers().entrySet()) {
      String rule = switch (e.getValue()) {
        case RegisterRule.Undefined u -> "undefined";
        case RegisterRule.SameValue s -> "same";
        case RegisterRule.Offset o -> "[CFA" + offset(o.offset()) + "]";
        case RegisterRule.ValOffset o -> "CFA" + offset(o.offset());
        case RegisterRule.Register r -> "reg" + r.register();
        case RegisterRule.Expression x -> "[expr:" + DwarfExpressionText.print(x.expression(), order, addressSize, regs) + "]";
        case RegisterRule.ValExpression x -> "expr:" + DwarfExpressionText.print(x.expression(), order, addressSize, regs);
        case RegisterRule.Constant k -> Long.toString(k.value());
        case RegisterRule.Postfix p -> "postfix:" + p.expression();
      };
      registers.put(e.getKey(), rule);
    }
    return new Row(row.address(), cfa, registers);
  }

  /** llvm's rows with the rows of a zero advance merged (the later one holds), as our tables keep them. */
  static List<Row> merged(List<Row> rows) {
    List<Row> out = new ArrayList<>();
    for (Row r : rows) {
      if (!out.isEmpty() && out.getLast().address() == r.address()) out.set(out.size() - 1, r);
      else out.add(r);
    }
    return out;
  }

  /** Our table's rows in llvm's form. */
  static List<Row> rows(CfiTable t, ByteOrder order, int addressSize, RegisterNames regs) {
    List<Row> out = new ArrayList<>();
    for (UnwindRow r : t.rows()) out.add(of(r, order, addressSize, regs));
    return out;
  }
}
