package dev.gsym.breakpad;

import dev.gsym.unwind.Arch;
import dev.gsym.unwind.BreakpadRegisterNames;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindEntry;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import dev.gsym.unwind.WindowsFrameInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Breakpad {@code STACK CFI} and {@code STACK WIN} records to and from unwind entries.
 *
 * <p>Writing follows dump_syms ({@code dwarf_cfi_to_module.cc}, {@code module.cc}): per table a
 * {@code STACK CFI INIT address size} record with the first row's rules, then a {@code STACK CFI
 * address} record per later row with the rules that changed (a register whose rule the row drops
 * is written as keeping its value, {@code $reg: $reg}, as Breakpad's CFI reader reports it);
 * rules are named {@code .cfa}, {@code .ra} (the return-address column) and dump_syms' register
 * names, ordered as C++'s {@code std::map<std::string>} orders them; {@code .ra} defaults to the
 * return-address register's name; rules Breakpad cannot express (DWARF expressions, undefined)
 * are left out, as dump_syms leaves them out.
 *
 * <p>Reading maps each rule back: {@code REG N +} and {@code REG N -} for the CFA, {@code .cfa N +
 * ^} (saved at), {@code .cfa N +} (value), a register name (its value or same value); any other
 * postfix expression is kept as a {@link CfaRule.Postfix} / {@link RegisterRule.Postfix}.
 */
public final class StackRecords {
  private StackRecords() {}

  // ---- writing ---------------------------------------------------------------------------------

  /**
   * The records of {@code e} as dump_syms writes them, each line ending in '\n'; "" when the
   * architecture has no Breakpad register names (dump_syms writes no CFI for it).
   */
  public static String write(Arch arch, UnwindEntry e) {
    return write(arch, e, 0);
  }

  /** As {@link #write(Arch, UnwindEntry)}, with {@code loadAddress} subtracted from every address. */
  public static String write(Arch arch, UnwindEntry e, long loadAddress) {
    StringBuilder sb = new StringBuilder();
    switch (e) {
      case CfiTable t -> writeCfi(sb, arch, t, loadAddress);
      case WindowsFrameInfo w -> writeWin(sb, w, loadAddress);
    }
    return sb.toString();
  }

  private static void writeCfi(StringBuilder sb, Arch arch, CfiTable t, long base) {
    List<String> names = BreakpadRegisterNames.names(arch);
    if (names == null || t.rows().isEmpty()) return;
    int ra = t.returnAddressRegister();
    UnwindRow first = t.rows().getFirst();
    TreeMap<String, String> init = new TreeMap<>(StackRecords::compareStd);
    String raName = BreakpadRegisterNames.name(arch, ra);
    if (raName != null) init.put(BreakpadRegisterNames.RA, raName);
    if ((arch == Arch.X86 || arch == Arch.X86_64) && first.rule(ra) != null && !expressible(first.rule(ra))) {
      // an FDE that makes the return address undefined (_start, thread entry points): dump_syms
      // cannot record that and keeps the rule its CIE set first, which on x86 is always [CFA - size]
      init.put(BreakpadRegisterNames.RA, BreakpadRegisterNames.CFA + " -" + arch.addressSize() + " + ^");
    }
    rules(init, arch, ra, null, first);
    sb.append("STACK CFI INIT ").append(Long.toHexString(t.start() - base)).append(' ').append(Long.toHexString(t.length()));
    for (Map.Entry<String, String> r : init.entrySet()) sb.append(' ').append(r.getKey()).append(": ").append(r.getValue());
    sb.append('\n');
    for (int i = 1; i < t.rows().size(); i++) {
      TreeMap<String, String> delta = new TreeMap<>(StackRecords::compareStd);
      rules(delta, arch, ra, t.rows().get(i - 1), t.rows().get(i));
      if (delta.isEmpty()) continue;
      sb.append("STACK CFI ").append(Long.toHexString(t.rows().get(i).address() - base));
      for (Map.Entry<String, String> r : delta.entrySet()) sb.append(' ').append(r.getKey()).append(": ").append(r.getValue());
      sb.append('\n');
    }
  }

  /** The rules of {@code to} that differ from {@code from} (all of them when from is null), by name. */
  private static void rules(Map<String, String> out, Arch arch, int ra, UnwindRow from, UnwindRow to) {
    if (to.cfa() != null && (from == null || !to.cfa().equals(from.cfa()))) {
      String cfa = switch (to.cfa()) {
        case CfaRule.RegisterOffset r -> name(arch, ra, r.register()) + " " + r.offset() + " +";
        case CfaRule.Postfix p -> p.expression();
        case CfaRule.Expression x -> null; // dump_syms cannot translate DWARF expressions
      };
      if (cfa != null) out.put(BreakpadRegisterNames.CFA, cfa);
    }
    SortedMap<Integer, RegisterRule> now = to.registers();
    if (from != null) {
      for (int reg : from.registers().keySet()) {
        if (!now.containsKey(reg)) out.put(name(arch, ra, reg), name(arch, ra, reg)); // Breakpad: same value
      }
    }
    for (Map.Entry<Integer, RegisterRule> e : now.entrySet()) {
      int reg = e.getKey();
      if (from != null && e.getValue().equals(from.registers().get(reg))) continue;
      String name = name(arch, ra, reg);
      String rule = switch (e.getValue()) {
        case RegisterRule.SameValue s -> name;
        case RegisterRule.Offset o -> BreakpadRegisterNames.CFA + " " + o.offset() + " + ^";
        case RegisterRule.ValOffset o -> BreakpadRegisterNames.CFA + " " + o.offset() + " +";
        case RegisterRule.Register r -> name(arch, ra, r.register());
        case RegisterRule.Postfix p -> p.expression();
        case RegisterRule.Undefined u -> null;
        case RegisterRule.Expression x -> null;
        case RegisterRule.ValExpression x -> null;
        case RegisterRule.Constant c -> null;
      };
      if (rule != null) out.put(name, rule);
    }
  }

  /** Whether Breakpad can write {@code rule} (not undefined, a DWARF expression or a constant). */
  private static boolean expressible(RegisterRule rule) {
    return !(rule instanceof RegisterRule.Undefined || rule instanceof RegisterRule.Expression
        || rule instanceof RegisterRule.ValExpression || rule instanceof RegisterRule.Constant);
  }

  /** dump_syms' RegisterName: .ra for the return-address column, the register's name, else unnamed_registerN. */
  private static String name(Arch arch, int ra, int reg) {
    if (reg == ra) return BreakpadRegisterNames.RA;
    String n = BreakpadRegisterNames.name(arch, reg);
    return n != null ? n : "unnamed_register" + reg;
  }

  /** std::string's operator&lt;: byte order (names are ASCII). */
  private static int compareStd(String a, String b) {
    return a.compareTo(b);
  }

  private static void writeWin(StringBuilder sb, WindowsFrameInfo w, long base) {
    sb.append("STACK WIN ").append(Integer.toHexString(w.type())).append(' ').append(Long.toHexString(w.start() - base))
        .append(' ').append(Long.toHexString(w.length())).append(' ').append(Long.toHexString(w.prologSize()))
        .append(' ').append(Long.toHexString(w.epilogSize())).append(' ').append(Long.toHexString(w.parameterSize()))
        .append(' ').append(Long.toHexString(w.savedRegisterSize())).append(' ').append(Long.toHexString(w.localSize()))
        .append(' ').append(Long.toHexString(w.maxStackSize()));
    if (w.programString() != null) sb.append(" 1 ").append(w.programString());
    else sb.append(" 0 ").append(w.allocatesBasePointer() ? '1' : '0');
    sb.append('\n');
  }

  // ---- reading ---------------------------------------------------------------------------------

  /**
   * Collects a {@code .sym} file's STACK records into unwind entries: {@code STACK CFI INIT} starts
   * a table, the {@code STACK CFI} records after it add rows; {@code STACK WIN} records are entries of
   * their own. Ordinals count the entries in file order.
   */
  public static final class Reader {
    /** Most STACK CFI records one table may have when they are not in address order (each row replays them). */
    public static final int MAX_UNORDERED_RECORDS = 4096;

    private final Arch arch;
    private final List<UnwindEntry> entries = new ArrayList<>();
    private long ordinal;
    // the table being read: its INIT rules and its records' rules, in file order
    private long start;
    private long length;
    private List<String[]> init;
    private final List<Long> deltaAt = new ArrayList<>();
    private final List<List<String[]>> deltas = new ArrayList<>();
    private boolean ordered;
    private long skipped;

    /** A reader for STACK records of {@code arch} (register names are the architecture's). */
    public Reader(Arch arch) {
      this.arch = arch;
    }

    /**
     * Reads one STACK record ({@code kind} is "CFI" or "WIN", {@code text} the rest of the line
     * after it). A malformed record changes nothing; a malformed INIT record drops its table's
     * records up to the next INIT (they are then records before any INIT).
     *
     * @throws IllegalArgumentException with the reason when the record is malformed
     */
    public void accept(String kind, String text) {
      String[] f = text.trim().split("\\s+");
      switch (kind) {
        case "CFI" -> {
          if (f.length >= 2 && f[0].equals("INIT")) {
            finishTable();
            if (f.length < 3) throw new IllegalArgumentException("STACK CFI INIT needs 'address size rules'");
            long s0 = hex(f[1], "address");
            long l0 = hex(f[2], "size");
            List<String[]> rules = rules(f, 3);
            start = s0;
            length = l0;
            init = rules;
            ordered = true;
          } else {
            if (init == null) throw new IllegalArgumentException("STACK CFI record before any STACK CFI INIT");
            if (f.length < 1 || f[0].isEmpty()) throw new IllegalArgumentException("STACK CFI needs 'address rules'");
            long at = hex(f[0], "address");
            List<String[]> rules = rules(f, 1);
            if (Long.compareUnsigned(at - start, length) >= 0) {
              skipped++; // outside its INIT's range: Breakpad's processor never reaches it
              return;
            }
            if (!deltaAt.isEmpty() && Long.compareUnsigned(at, deltaAt.getLast()) < 0) ordered = false;
            if (!ordered && deltas.size() >= MAX_UNORDERED_RECORDS) {
              throw new IllegalArgumentException("more than " + MAX_UNORDERED_RECORDS
                  + " STACK CFI records out of address order for the table at 0x" + Long.toHexString(start));
            }
            deltaAt.add(at);
            deltas.add(rules);
          }
        }
        case "WIN" -> {
          if (f.length < 11) throw new IllegalArgumentException("STACK WIN needs 11 fields");
          int type = (int) hex(f[0], "type");
          boolean hasProgram = hex(f[9], "has_program_string") != 0;
          String program = null;
          boolean bp = false;
          if (hasProgram) program = String.join(" ", java.util.Arrays.copyOfRange(f, 10, f.length));
          else bp = hex(f[10], "allocates_base_pointer") != 0;
          WindowsFrameInfo w = new WindowsFrameInfo(UnwindSource.BREAKPAD_WIN, 0, type, hex(f[1], "rva"), hex(f[2], "code_size"),
              hex(f[3], "prologue_size"), hex(f[4], "epilogue_size"), hex(f[5], "parameter_size"),
              hex(f[6], "saved_register_size"), hex(f[7], "local_size"), hex(f[8], "max_stack_size"), program, bp);
          finishTable();
          entries.add(new WindowsFrameInfo(w.source(), ordinal++, w.type(), w.start(), w.length(), w.prologSize(),
              w.epilogSize(), w.parameterSize(), w.savedRegisterSize(), w.localSize(), w.maxStackSize(),
              w.programString(), w.allocatesBasePointer()));
        }
        default -> throw new IllegalArgumentException("unknown STACK record kind '" + kind + "'");
      }
    }

    /** STACK CFI records outside their INIT record's range, and rules for unknown registers (left out). */
    public long skipped() {
      return skipped;
    }

    /** The entries read so far, in file order. */
    public List<UnwindEntry> entries() {
      finishTable();
      return List.copyOf(entries);
    }

    /**
     * The table of the INIT record read last: as Breakpad's processor, the rules at an address are the
     * INIT record's, then those of every STACK CFI record at or below it, in file order.
     */
    private void finishTable() {
      if (init == null) return;
      List<UnwindRow> rows = new ArrayList<>();
      State st = new State();
      st.apply(init, true);
      rows.add(st.row(start));
      if (ordered) {
        for (int i = 0; i < deltas.size(); i++) {
          st.apply(deltas.get(i), false);
          UnwindRow r = st.row(deltaAt.get(i));
          if (r.address() == rows.getLast().address()) rows.set(rows.size() - 1, r);
          else rows.add(r);
        }
      } else {
        java.util.TreeSet<Long> at = new java.util.TreeSet<>(Long::compareUnsigned);
        at.addAll(deltaAt);
        for (long a : at) {
          State s2 = new State();
          s2.apply(init, true);
          for (int i = 0; i < deltas.size(); i++) if (Long.compareUnsigned(deltaAt.get(i), a) <= 0) s2.apply(deltas.get(i), false);
          UnwindRow r = s2.row(a);
          if (r.address() == rows.getLast().address()) rows.set(rows.size() - 1, r);
          else rows.add(r);
        }
      }
      entries.add(new CfiTable(UnwindSource.BREAKPAD_CFI, ordinal++, start, length, arch.returnAddress(), rows));
      init = null;
      deltaAt.clear();
      deltas.clear();
    }

    /** The "name: expr..." pairs of f[from...], checked. */
    private static List<String[]> rules(String[] f, int from) {
      List<String[]> out = new ArrayList<>();
      int i = from;
      while (i < f.length) {
        String name = f[i];
        if (!name.endsWith(":") || name.length() < 2) {
          throw new IllegalArgumentException("expected 'register:' but found '" + cut(name) + "'");
        }
        int j = i + 1;
        while (j < f.length && !f[j].endsWith(":")) j++;
        if (j == i + 1) throw new IllegalArgumentException("rule for " + cut(name) + " has no expression");
        out.add(new String[] {name.substring(0, name.length() - 1), String.join(" ", java.util.Arrays.copyOfRange(f, i + 1, j))});
        i = j;
      }
      return out;
    }

    private static String cut(String s) {
      return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    /** The rules in effect while a table's records are applied. */
    private final class State {
      CfaRule cfa;
      final TreeMap<Integer, RegisterRule> regs = new TreeMap<>();

      UnwindRow row(long at) {
        return new UnwindRow(at, cfa, regs);
      }

      void apply(List<String[]> rules, boolean isInit) {
        for (String[] r : rules) apply(r[0], r[1], isInit);
      }

      void apply(String name, String expr, boolean isInit) {
        String[] t = expr.split(" ");
        if (name.equals(BreakpadRegisterNames.CFA)) {
          int reg = t.length >= 1 ? register(t[0]) : -1;
          if (reg >= 0 && t.length == 1) cfa = new CfaRule.RegisterOffset(reg, 0);
          else if (reg >= 0 && t.length == 3 && (t[2].equals("+") || t[2].equals("-")) && isNumber(t[1])) {
            long n = Long.parseLong(t[1]);
            cfa = new CfaRule.RegisterOffset(reg, t[2].equals("+") ? n : -n);
          } else cfa = new CfaRule.Postfix(expr);
          return;
        }
        boolean isRa = name.equals(BreakpadRegisterNames.RA);
        int reg = isRa ? arch.returnAddress() : register(name);
        if (isRa && isInit && t.length == 1 && !t[0].equals(BreakpadRegisterNames.RA) && register(t[0]) == reg) {
          regs.remove(reg); // dump_syms' default: the return address is in its register on entry
          return;
        }
        if (reg < 0) {
          skipped++; // a register this architecture has no number for (counted each time it is replayed)
          return;
        }
        RegisterRule rule;
        if (t.length == 1 && register(t[0]) >= 0) {
          int other = register(t[0]);
          rule = other == reg ? RegisterRule.SAME_VALUE : new RegisterRule.Register(other);
        } else if (t.length >= 3 && t.length <= 4 && t[0].equals(BreakpadRegisterNames.CFA) && isNumber(t[1])
            && (t[2].equals("+") || t[2].equals("-")) && (t.length == 3 || t[3].equals("^"))) {
          long n = Long.parseLong(t[1]);
          if (t[2].equals("-")) n = -n;
          rule = t.length == 4 ? new RegisterRule.Offset(n) : new RegisterRule.ValOffset(n);
        } else {
          rule = new RegisterRule.Postfix(expr);
        }
        regs.put(reg, rule);
      }
    }

    private int register(String name) {
      if (name.equals(BreakpadRegisterNames.RA)) return arch.returnAddress();
      if (name.startsWith("unnamed_register")) {
        try {
          return Integer.parseInt(name.substring("unnamed_register".length()));
        } catch (NumberFormatException e) {
          return -1;
        }
      }
      return BreakpadRegisterNames.number(arch, name);
    }

    private static boolean isNumber(String s) {
      return s.matches("-?[0-9]+") && s.length() < 19;
    }

    private static long hex(String s, String what) {
      try {
        if (s.isEmpty() || s.length() > 16) throw new NumberFormatException();
        return Long.parseUnsignedLong(s, 16);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("STACK record " + what + " '" + (s.length() > 40 ? s.substring(0, 40) + "..." : s)
            + "' is not a hexadecimal number");
      }
    }
  }
}
