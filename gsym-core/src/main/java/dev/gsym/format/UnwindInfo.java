package dev.gsym.format;

import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindEntry;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import dev.gsym.unwind.UnwindState;
import dev.gsym.unwind.WindowsFrameInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A function's unwind information (InfoType {@link FunctionInfo#UNWIND_INFO}, not an LLVM
 * InfoType): the call frame information tables and Windows frame data of the code from the
 * function's start up to the next function's start. Entries are stored once, in the record of the
 * function their range starts in ({@code entries}); an entry that runs on into later functions is
 * repeated in their records ({@code continued}), so that one record answers every address of its
 * function's region. Addresses are absolute in memory and relative to the function start on disk.
 *
 * <pre>
 * ENCODING (all addresses relative to the function's start; LEB128 unless said otherwise)
 *   u8 Version (1)   u8 Arch (dev.gsym.unwind.Arch code)   ULEB EntryCount
 *   EntryCount x {
 *     u8 Kind: bits 0-3 UnwindSource code, bit 4 Continued (the entry starts in an earlier record)
 *     ULEB Ordinal   SLEB Start   ULEB Length   ULEB ByteSize (of the body that follows)
 *     body of a CFI table (sources 1-5): ULEB ReturnAddressRegister, then operations until End;
 *       the state starts empty, the first row is at Start, each Advance closes a row:
 *       0x00 End                          0x01 Advance ULEB         0x02 CfaRegOffset ULEB reg SLEB off
 *       0x03 CfaRegister ULEB reg         0x04 CfaOffset SLEB off   0x05 CfaExpression ULEB len bytes
 *       0x06 CfaPostfix ULEB len bytes    0x07 Unspecified ULEB reg 0x08 Undefined ULEB reg
 *       0x09 SameValue ULEB reg           0x0a Offset ULEB reg SLEB off   0x0b ValOffset ULEB reg SLEB off
 *       0x0c Register ULEB reg ULEB reg   0x0d Expression ULEB reg ULEB len bytes
 *       0x0e ValExpression ULEB reg ULEB len bytes   0x0f Constant ULEB reg SLEB value
 *       0x10 Postfix ULEB reg ULEB len bytes
 *       0x11 EntryState: CFA = sp + AddressSize and the return address at [CFA - AddressSize] on x86
 *            and x86-64, CFA = sp + 0 elsewhere (the state at a function's first instruction)
 *       0x12 CfaNone: no CFA rule (a Breakpad record without one)
 *       0x40-0x7f Advance by op - 0x3f (1-64)
 *       0x80-0xbf Offset of register op - 0x80 (0-63) at CFA - ULEB * AddressSize
 *       0xc0-0xff CfaOffset (op - 0xc0) * AddressSize
 *     body of Windows frame data (source 6): u8 Type, ULEB PrologSize, EpilogSize, ParameterSize,
 *       SavedRegisterSize, LocalSize, MaxStackSize, u8 Flags (bit 0 program string, bit 1 allocates
 *       base pointer) [, ULEB length, program string bytes]
 *   }
 * </pre>
 *
 * @param entries the entries that start in this function's region, in ascending address order
 * @param continued entries that start in an earlier function's region and cover part of this one
 */
public record UnwindInfo(Arch arch, List<UnwindEntry> entries, List<UnwindEntry> continued) {
  public static final int VERSION = 1;

  static final int END = 0x00;
  static final int ADVANCE = 0x01;
  static final int CFA_REG_OFFSET = 0x02;
  static final int CFA_REGISTER = 0x03;
  static final int CFA_OFFSET = 0x04;
  static final int CFA_EXPRESSION = 0x05;
  static final int CFA_POSTFIX = 0x06;
  static final int UNSPECIFIED = 0x07;
  static final int UNDEFINED = 0x08;
  static final int SAME_VALUE = 0x09;
  static final int OFFSET = 0x0a;
  static final int VAL_OFFSET = 0x0b;
  static final int REGISTER = 0x0c;
  static final int EXPRESSION = 0x0d;
  static final int VAL_EXPRESSION = 0x0e;
  static final int CONSTANT = 0x0f;
  static final int POSTFIX = 0x10;
  static final int ENTRY_STATE = 0x11;
  static final int CFA_NONE = 0x12;
  static final int SHORT_ADVANCE = 0x40;
  static final int SHORT_OFFSET = 0x80;
  static final int SHORT_CFA_OFFSET = 0xc0;

  private static final int CONTINUED = 0x10;

  /** Most entries one record may hold, rows one table may have: bounds on hostile input. */
  public static final long MAX_ENTRIES = 1 << 20;
  public static final long MAX_ROWS = 1 << 20;

  /** Checks the architecture and copies the lists. */
  public UnwindInfo {
    Objects.requireNonNull(arch);
    entries = List.copyOf(entries);
    continued = List.copyOf(continued);
  }

  /** Every entry, continued ones first (the order they are stored in). */
  public List<UnwindEntry> all() {
    List<UnwindEntry> all = new ArrayList<>(continued);
    all.addAll(entries);
    return all;
  }

  // ---- the walker ---------------------------------------------------------------------------

  /** Receives a payload's parts from {@link #parse}; each method returns false to stop the walk. */
  public interface EntryVisitor {
    /** Version and architecture (null for a code this library does not know) and the entry count. */
    boolean header(int version, Arch arch, int archCode, long count);

    /** One entry; {@code body} covers exactly its ByteSize bytes. Addresses are absolute. */
    boolean entry(UnwindSource source, boolean continued, long ordinal, long start, long length, Cursor body);
  }

  /** The one decoder of the payload's entry list. */
  public static void parse(Cursor c, long functionStart, EntryVisitor v) {
    if (!c.has(2)) throw c.errorHere("missing UnwindInfo header");
    int version = c.u8();
    if (version != VERSION) throw c.errorAt(c.position() - 1, "unsupported UnwindInfo version " + version);
    int archCode = c.u8();
    long count = c.uleb();
    if (count > MAX_ENTRIES || count > c.remaining()) {
      throw c.errorHere("UnwindInfo entry count " + count + " is more than the payload can hold");
    }
    if (!v.header(version, Arch.ofCode(archCode), archCode, count)) return;
    for (long i = 0; i < count; i++) {
      long kindAt = c.position();
      if (!c.has(1)) throw c.errorHere("missing UnwindInfo entry kind");
      int kind = c.u8();
      UnwindSource source = UnwindSource.ofCode(kind & 0x0f);
      if (source == null || (kind & ~0x1f) != 0) throw c.errorAt(kindAt, "unknown UnwindInfo entry kind 0x" + Integer.toHexString(kind));
      long ordinal = c.uleb();
      long start = functionStart + c.sleb();
      long length = c.uleb();
      long size = c.uleb();
      if (Long.compareUnsigned(size, c.remaining()) > 0) throw c.errorHere("UnwindInfo entry of " + size + " bytes is truncated");
      Cursor body = c.split(size);
      if (!v.entry(source, (kind & CONTINUED) != 0, ordinal, start, length, body)) return;
    }
  }

  /**
   * Receives a CFI table body's rows from {@link #parseTable}: the state is kept in {@code state},
   * and {@link #row} is called when a row is complete with the address where the next row starts
   * (or the table's end). Return false to stop.
   */
  @FunctionalInterface
  public interface RowVisitor {
    /** A row is complete: {@code state} holds it, {@code next} is where the next row starts. */
    boolean row(UnwindState state, long next);
  }

  /**
   * The one interpreter of a CFI table's operations: runs the body of an entry at {@code start}
   * covering {@code length} bytes into {@code state}, calling {@code v} per row.
   */
  public static void parseTable(Cursor body, Arch arch, UnwindSource source, long start, long length,
      UnwindState state, RowVisitor v) {
    int ra = toInt(body, body.uleb(), "return address register");
    state.clear();
    state.table(arch, source, start, length, ra);
    long address = start;
    long end = start + length;
    int unit = arch.addressSize();
    long rows = 0;
    state.address(address);
    while (true) {
      if (!body.has(1)) throw body.errorHere("UnwindInfo table ends before End");
      long opAt = body.position();
      int op = body.u8();
      if (op >= SHORT_CFA_OFFSET) {
        state.cfaOffsetOnly((long) (op - SHORT_CFA_OFFSET) * unit);
        continue;
      }
      if (op >= SHORT_OFFSET) {
        state.rule(op - SHORT_OFFSET, UnwindState.OFFSET, -body.uleb() * unit, null);
        continue;
      }
      if (op >= SHORT_ADVANCE || op == ADVANCE || op == END) {
        long delta = op == END ? end - address : op == ADVANCE ? body.uleb() : op - SHORT_ADVANCE + 1;
        // rows may lie at or past the table's end (DWARF CFI keeps them; lookups never reach them)
        if (op != END && (delta <= 0 || Long.compareUnsigned(address + delta, address) < 0)) {
          throw body.errorAt(opAt, "UnwindInfo row advance " + Long.toUnsignedString(delta) + " at 0x"
              + Long.toHexString(address) + " does not move forward");
        }
        if (++rows > MAX_ROWS) throw body.errorAt(opAt, "UnwindInfo table has more than " + MAX_ROWS + " rows");
        if (!v.row(state, address + delta) || op == END) return;
        address += delta;
        state.address(address);
        continue;
      }
      switch (op) {
        case CFA_REG_OFFSET -> {
          int reg = reg(body);
          state.cfaRegisterOffset(reg, body.sleb());
        }
        case CFA_REGISTER -> state.cfaRegisterOnly(reg(body));
        case CFA_OFFSET -> state.cfaOffsetOnly(body.sleb());
        case CFA_EXPRESSION -> state.cfaExpression(bytes(body));
        case CFA_POSTFIX -> state.cfaPostfix(new String(bytes(body), StandardCharsets.UTF_8));
        case UNSPECIFIED -> state.unspecified(reg(body));
        case UNDEFINED -> state.rule(reg(body), UnwindState.UNDEFINED, 0, null);
        case SAME_VALUE -> state.rule(reg(body), UnwindState.SAME_VALUE, 0, null);
        case OFFSET -> {
          int reg = reg(body);
          state.rule(reg, UnwindState.OFFSET, body.sleb(), null);
        }
        case VAL_OFFSET -> {
          int reg = reg(body);
          state.rule(reg, UnwindState.VAL_OFFSET, body.sleb(), null);
        }
        case REGISTER -> {
          int reg = reg(body);
          state.rule(reg, UnwindState.REGISTER, reg(body), null);
        }
        case EXPRESSION -> {
          int reg = reg(body);
          state.rule(reg, UnwindState.EXPRESSION, 0, bytes(body));
        }
        case VAL_EXPRESSION -> {
          int reg = reg(body);
          state.rule(reg, UnwindState.VAL_EXPRESSION, 0, bytes(body));
        }
        case CONSTANT -> {
          int reg = reg(body);
          state.rule(reg, UnwindState.CONSTANT, body.sleb(), null);
        }
        case POSTFIX -> {
          int reg = reg(body);
          state.rule(reg, UnwindState.POSTFIX, 0, new String(bytes(body), StandardCharsets.UTF_8));
        }
        case ENTRY_STATE -> entryState(arch, state);
        case CFA_NONE -> state.cfaNone();
        default -> throw body.errorAt(opAt, "unknown UnwindInfo operation 0x" + Integer.toHexString(op));
      }
      if (state.ruleCount() > UnwindState.MAX_RULES) throw body.errorAt(opAt, "too many register rules");
    }
  }

  /** The state at a function's first instruction, as {@link #ENTRY_STATE} sets it. */
  static void entryState(Arch arch, UnwindState state) {
    boolean x86 = arch == Arch.X86 || arch == Arch.X86_64;
    state.cfaRegisterOffset(arch.stackPointer(), x86 ? arch.addressSize() : 0);
    if (x86) state.rule(arch.returnAddress(), UnwindState.OFFSET, -arch.addressSize(), null);
  }

  private static int reg(Cursor c) {
    return toInt(c, c.uleb(), "register");
  }

  private static int toInt(Cursor c, long v, String what) {
    if (v < 0 || v > Integer.MAX_VALUE) throw c.errorHere("UnwindInfo " + what + " " + Long.toUnsignedString(v) + " is too large");
    return (int) v;
  }

  private static byte[] bytes(Cursor c) {
    long len = c.uleb();
    if (Long.compareUnsigned(len, c.remaining()) > 0) throw c.errorHere("UnwindInfo expression of " + len + " bytes is truncated");
    byte[] b = new byte[(int) len];
    for (int i = 0; i < b.length; i++) b[i] = (byte) c.u8();
    return b;
  }

  // ---- lookup and decoding ------------------------------------------------------------------------

  /**
   * Finds the row in effect at {@code address} in the payload {@code c} of a function starting at
   * {@code functionStart}, filling {@code state}. Of several CFI tables covering the address the
   * first stored wins (continued entries, then entries in ascending address order). Returns false
   * when no CFI table of the payload covers the address.
   */
  public static boolean lookup(Cursor c, long functionStart, long address, UnwindState state) {
    Finder f = new Finder(address, state);
    parse(c, functionStart, f);
    return f.found;
  }

  /** The visitor of {@link #lookup}: one object for the entries and the rows of the covering table. */
  private static final class Finder implements EntryVisitor, RowVisitor {
    private final long address;
    private final UnwindState state;
    private Arch arch;
    boolean found;

    Finder(long address, UnwindState state) {
      this.address = address;
      this.state = state;
    }

    @Override
    public boolean header(int version, Arch a, int code, long count) {
      arch = a;
      return a != null;
    }

    @Override
    public boolean entry(UnwindSource source, boolean continued, long ordinal, long start, long length, Cursor body) {
      if (source == UnwindSource.BREAKPAD_WIN || Long.compareUnsigned(address - start, length) >= 0) return true;
      parseTable(body, arch, source, start, length, state, this);
      return !found;
    }

    @Override
    public boolean row(UnwindState s, long next) {
      if (Long.compareUnsigned(address, next) < 0) {
        found = true;
        return false;
      }
      return true;
    }
  }

  /** Decodes a whole payload; {@code functionStart} is the function's start address. */
  public static UnwindInfo decode(Cursor c, long functionStart) {
    List<UnwindEntry> entries = new ArrayList<>();
    List<UnwindEntry> continued = new ArrayList<>();
    Arch[] arch = {null};
    parse(c, functionStart, new EntryVisitor() {
      @Override
      public boolean header(int version, Arch a, int code, long count) {
        if (a == null) throw c.error("unknown UnwindInfo architecture " + code);
        arch[0] = a;
        return true;
      }

      @Override
      public boolean entry(UnwindSource source, boolean cont, long ordinal, long start, long length, Cursor body) {
        UnwindEntry e = source == UnwindSource.BREAKPAD_WIN
            ? decodeWindows(body, ordinal, start, length)
            : decodeTable(body, arch[0], source, ordinal, start, length);
        if (body.remaining() != 0) throw body.errorHere(body.remaining() + " bytes after an UnwindInfo entry");
        (cont ? continued : entries).add(e);
        return true;
      }
    });
    return new UnwindInfo(arch[0], entries, continued);
  }

  private static CfiTable decodeTable(Cursor body, Arch arch, UnwindSource source, long ordinal, long start, long length) {
    List<UnwindRow> rows = new ArrayList<>();
    UnwindState state = new UnwindState();
    int[] ra = {0};
    parseTable(body, arch, source, start, length, state, (s, next) -> {
      ra[0] = s.returnAddressRegister();
      rows.add(s.toRow());
      return true;
    });
    return new CfiTable(source, ordinal, start, length, ra[0], rows);
  }

  private static WindowsFrameInfo decodeWindows(Cursor body, long ordinal, long start, long length) {
    if (!body.has(1)) throw body.errorHere("missing STACK WIN type");
    int type = body.u8();
    long prolog = body.uleb();
    long epilog = body.uleb();
    long params = body.uleb();
    long saved = body.uleb();
    long locals = body.uleb();
    long maxStack = body.uleb();
    if (!body.has(1)) throw body.errorHere("missing STACK WIN flags");
    int flags = body.u8();
    if ((flags & ~3) != 0) throw body.errorAt(body.position() - 1, "unknown STACK WIN flags 0x" + Integer.toHexString(flags));
    String program = (flags & 1) != 0 ? new String(bytes(body), StandardCharsets.UTF_8) : null;
    return new WindowsFrameInfo(UnwindSource.BREAKPAD_WIN, ordinal, type, start, length, prolog, epilog, params,
        saved, locals, maxStack, program, (flags & 2) != 0);
  }

  // ---- encoding --------------------------------------------------------------------------------

  /** Encodes the payload for a function starting at {@code functionStart}. */
  public void encode(GsymWriter w, long functionStart) {
    w.u8(VERSION);
    w.u8(arch.code());
    w.uleb(continued.size() + entries.size());
    Scratch scratch = new Scratch(w.order());
    for (UnwindEntry e : continued) encodeEntry(w, e, true, functionStart, scratch);
    for (UnwindEntry e : entries) encodeEntry(w, e, false, functionStart, scratch);
  }

  /** Writers reused for an entry's body and the two ways of writing a table's first row. */
  private static final class Scratch {
    final GsymWriter body;
    final GsymWriter a;
    final GsymWriter b;

    Scratch(java.nio.ByteOrder order) {
      body = new GsymWriter(order);
      a = new GsymWriter(order);
      b = new GsymWriter(order);
    }
  }

  /** Each architecture's state at a function's first instruction, as {@link #ENTRY_STATE} sets it. */
  private static final java.util.Map<Arch, UnwindRow> ENTRY_ROWS = entryRows();

  private static java.util.Map<Arch, UnwindRow> entryRows() {
    java.util.EnumMap<Arch, UnwindRow> m = new java.util.EnumMap<>(Arch.class);
    for (Arch a : Arch.values()) {
      UnwindState s = new UnwindState();
      entryState(a, s);
      m.put(a, s.toRow());
    }
    return m;
  }

  /** The payload's bytes for a function starting at {@code functionStart}, little endian (LEB128s only). */
  public byte[] encode(long functionStart) {
    GsymWriter w = new GsymWriter(java.nio.ByteOrder.LITTLE_ENDIAN);
    encode(w, functionStart);
    return w.toByteArray();
  }

  private void encodeEntry(GsymWriter w, UnwindEntry e, boolean cont, long functionStart, Scratch scratch) {
    w.u8(e.source().code() | (cont ? CONTINUED : 0));
    w.uleb(e.ordinal());
    w.sleb(e.start() - functionStart);
    w.uleb(e.length());
    GsymWriter body = scratch.body;
    body.reset();
    switch (e) {
      case CfiTable t -> encodeTable(body, t, scratch);
      case WindowsFrameInfo f -> encodeWindows(body, f);
    }
    w.uleb(body.length());
    w.bytes(body.toByteArray());
  }

  private static void encodeWindows(GsymWriter w, WindowsFrameInfo f) {
    w.u8(f.type());
    w.uleb(f.prologSize());
    w.uleb(f.epilogSize());
    w.uleb(f.parameterSize());
    w.uleb(f.savedRegisterSize());
    w.uleb(f.localSize());
    w.uleb(f.maxStackSize());
    w.u8((f.programString() != null ? 1 : 0) | (f.allocatesBasePointer() ? 2 : 0));
    if (f.programString() != null) bytes(w, f.programString().getBytes(StandardCharsets.UTF_8));
  }

  private static final UnwindRow EMPTY = new UnwindRow(0, null, new TreeMap<>());

  private void encodeTable(GsymWriter w, CfiTable t, Scratch scratch) {
    w.uleb(t.returnAddressRegister());
    UnwindRow prev = EMPTY;
    for (int i = 0; i < t.rows().size(); i++) {
      UnwindRow row = t.rows().get(i);
      if (i > 0) {
        long delta = row.address() - prev.address();
        if (delta <= 64) w.u8(SHORT_ADVANCE + (int) delta - 1);
        else {
          w.u8(ADVANCE);
          w.uleb(delta);
        }
      } else {
        // the first row: from nothing, or from the entry state when that is shorter (never for a
        // first row without a CFA rule, such as a STACK CFI INIT record with only a .ra rule)
        GsymWriter a = scratch.a;
        GsymWriter b = scratch.b;
        a.reset();
        b.reset();
        changes(a, EMPTY, row);
        if (row.cfa() != null) {
          b.u8(ENTRY_STATE);
          changes(b, ENTRY_ROWS.get(arch), row);
        }
        w.bytes((row.cfa() != null && b.length() < a.length() ? b : a).toByteArray());
        prev = row;
        continue;
      }
      changes(w, prev, row);
      prev = row;
    }
    w.u8(END);
  }

  /** The operations that turn {@code from}'s rules into {@code to}'s. */
  private void changes(GsymWriter w, UnwindRow from, UnwindRow to) {
    int unit = arch.addressSize();
    if (!Objects.equals(from.cfa(), to.cfa())) {
      switch (to.cfa()) {
        case null -> w.u8(CFA_NONE);
        case CfaRule.RegisterOffset r -> {
          boolean sameReg = from.cfa() instanceof CfaRule.RegisterOffset f && f.register() == r.register();
          boolean sameOff = from.cfa() instanceof CfaRule.RegisterOffset f && f.offset() == r.offset();
          if (sameReg) {
            long units = r.offset() / unit;
            if (r.offset() % unit == 0 && units >= 0 && units < 64) w.u8(SHORT_CFA_OFFSET + (int) units);
            else {
              w.u8(CFA_OFFSET);
              w.sleb(r.offset());
            }
          } else if (sameOff) {
            w.u8(CFA_REGISTER);
            w.uleb(r.register());
          } else {
            w.u8(CFA_REG_OFFSET);
            w.uleb(r.register());
            w.sleb(r.offset());
          }
        }
        case CfaRule.Expression x -> {
          w.u8(CFA_EXPRESSION);
          bytes(w, x.expression());
        }
        case CfaRule.Postfix p -> {
          w.u8(CFA_POSTFIX);
          bytes(w, p.expression().getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    SortedMap<Integer, RegisterRule> a = from.registers();
    SortedMap<Integer, RegisterRule> b = to.registers();
    for (Map.Entry<Integer, RegisterRule> e : a.entrySet()) {
      if (!b.containsKey(e.getKey())) {
        w.u8(UNSPECIFIED);
        w.uleb(e.getKey());
      }
    }
    for (Map.Entry<Integer, RegisterRule> e : b.entrySet()) {
      int reg = e.getKey();
      RegisterRule rule = e.getValue();
      if (rule.equals(a.get(reg))) continue;
      switch (rule) {
        case RegisterRule.Offset o when reg < 64 && o.offset() <= 0 && o.offset() % unit == 0 -> {
          w.u8(SHORT_OFFSET + reg);
          w.uleb(-o.offset() / unit);
        }
        case RegisterRule.Offset o -> op(w, OFFSET, reg).sleb(o.offset());
        case RegisterRule.Undefined u -> op(w, UNDEFINED, reg);
        case RegisterRule.SameValue s -> op(w, SAME_VALUE, reg);
        case RegisterRule.ValOffset o -> op(w, VAL_OFFSET, reg).sleb(o.offset());
        case RegisterRule.Register r -> op(w, REGISTER, reg).uleb(r.register());
        case RegisterRule.Expression x -> bytes(op(w, EXPRESSION, reg), x.expression());
        case RegisterRule.ValExpression x -> bytes(op(w, VAL_EXPRESSION, reg), x.expression());
        case RegisterRule.Constant c -> op(w, CONSTANT, reg).sleb(c.value());
        case RegisterRule.Postfix p -> bytes(op(w, POSTFIX, reg), p.expression().getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private static GsymWriter op(GsymWriter w, int op, int reg) {
    w.u8(op);
    w.uleb(reg);
    return w;
  }

  private static void bytes(GsymWriter w, byte[] b) {
    w.uleb(b.length);
    w.bytes(b);
  }

  // ---- dump ------------------------------------------------------------------------------------

  /**
   * Appends "UnwindInfo (ARCH):" and per entry its source, range and rows (or STACK WIN fields),
   * every line indented by {@code indent}.
   */
  public void dump(StringBuilder sb, int indent) {
    sb.repeat(' ', indent).append("UnwindInfo (").append(arch.name().toLowerCase(java.util.Locale.ROOT)).append("):\n");
    for (UnwindEntry e : all()) {
      sb.repeat(' ', indent + 2).append(e.source().name().toLowerCase(java.util.Locale.ROOT)).append(" #").append(e.ordinal())
          .append(' ');
      new AddressRange(e.start(), e.start() + e.length()).appendTo(sb);
      if (continued.contains(e)) sb.append(" (continued)");
      switch (e) {
        case CfiTable t -> {
          sb.append(" ra=reg").append(t.returnAddressRegister()).append('\n');
          for (UnwindRow r : t.rows()) sb.repeat(' ', indent + 4).append(r).append('\n');
        }
        case WindowsFrameInfo f -> sb.append(" type=").append(f.type()).append(" prolog=").append(f.prologSize())
            .append(" epilog=").append(f.epilogSize()).append(" params=").append(f.parameterSize())
            .append(" saved=").append(f.savedRegisterSize()).append(" locals=").append(f.localSize())
            .append(" max_stack=").append(f.maxStackSize())
            .append(f.programString() != null ? " program=\"" + f.programString() + "\"" : " uses_bp=" + f.allocatesBasePointer())
            .append('\n');
      }
    }
  }
}
