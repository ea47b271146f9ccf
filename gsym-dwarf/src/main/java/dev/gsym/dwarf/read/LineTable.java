package dev.gsym.dwarf.read;

import static dev.gsym.dwarf.read.DwarfConstants.*;

import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A .debug_line program (versions 2 to 5, 32-bit DWARF): the header's directories and files, the
 * rows produced by the state machine and the sequences, sorted by end address (LLVM's
 * DWARFDebugLine::LineTable).
 */
public final class LineTable {
  /** A file entry; {@code dirIndex} as stored (v5 zero-based, earlier one-based). */
  public record FileEntry(String name, long dirIndex) {}

  /** One row of the line matrix. */
  public record Row(long address, long file, long line, int column, boolean endSequence) {}

  /**
   * The rows as columns of primitives (a large binary's line programs produce tens of millions of
   * rows), seen as a list of {@link Row} values made on access.
   */
  static final class Rows extends java.util.AbstractList<Row> implements java.util.RandomAccess {
    long[] address;
    long[] file;
    /** Unsigned 32-bit lines. */
    int[] line;
    int[] column;
    boolean[] endSequence;
    int size;

    Rows(int capacity) {
      address = new long[capacity];
      file = new long[capacity];
      line = new int[capacity];
      column = new int[capacity];
      endSequence = new boolean[capacity];
    }

    void add(long a, long f, int l, int col, boolean end) {
      if (size == address.length) {
        int n = size * 2;
        address = java.util.Arrays.copyOf(address, n);
        file = java.util.Arrays.copyOf(file, n);
        line = java.util.Arrays.copyOf(line, n);
        column = java.util.Arrays.copyOf(column, n);
        endSequence = java.util.Arrays.copyOf(endSequence, n);
      }
      address[size] = a;
      file[size] = f;
      line[size] = l;
      column[size] = col;
      endSequence[size] = end;
      size++;
    }

    @Override
    public Row get(int i) {
      java.util.Objects.checkIndex(i, size);
      return new Row(address[i], file[i], Integer.toUnsignedLong(line[i]), column[i], endSequence[i]);
    }

    @Override
    public int size() {
      return size;
    }
  }

  /**
   * One sequence: rows [firstRow, lastRow) with addresses [lowPc, highPc); {@code stmtSeqOffset}
   * is the .debug_line offset of its first opcode (what DW_AT_LLVM_stmt_sequence refers to).
   * {@code sectionIndex} is llvm's SectionedAddress section of its last DW_LNE_set_address: the
   * section of the symbol it was relocated against in a relocatable object, else -1 (undefined).
   */
  public record Sequence(long lowPc, long highPc, int firstRow, int lastRow, long stmtSeqOffset, long sectionIndex) {
    public Sequence(long lowPc, long highPc, int firstRow, int lastRow, long stmtSeqOffset) {
      this(lowPc, highPc, firstRow, lastRow, stmtSeqOffset, -1);
    }

    boolean contains(long pc) {
      return Long.compareUnsigned(lowPc, pc) <= 0 && Long.compareUnsigned(pc, highPc) < 0;
    }
  }

  static final int DW_LNS_COPY = 1, DW_LNS_ADVANCE_PC = 2, DW_LNS_ADVANCE_LINE = 3, DW_LNS_SET_FILE = 4,
      DW_LNS_SET_COLUMN = 5, DW_LNS_NEGATE_STMT = 6, DW_LNS_SET_BASIC_BLOCK = 7, DW_LNS_CONST_ADD_PC = 8,
      DW_LNS_FIXED_ADVANCE_PC = 9, DW_LNS_SET_PROLOGUE_END = 10, DW_LNS_SET_EPILOGUE_BEGIN = 11, DW_LNS_SET_ISA = 12;
  static final int DW_LNE_END_SEQUENCE = 1, DW_LNE_SET_ADDRESS = 2, DW_LNE_DEFINE_FILE = 3,
      DW_LNE_SET_DISCRIMINATOR = 4;
  static final int DW_LNCT_PATH = 1, DW_LNCT_DIRECTORY_INDEX = 2;
  /** Bound on header entry counts that do not fit the remaining bytes anyway. */
  private static final int MAX_FORMAT_ENTRIES = 256;

  private final int version;
  private final List<String> includeDirs;
  private final List<FileEntry> files;
  private final Rows rows;
  private final List<Sequence> sequences;

  private LineTable(int version, List<String> dirs, List<FileEntry> files, Rows rows, List<Sequence> seqs) {
    this.version = version;
    this.includeDirs = dirs;
    this.files = files;
    this.rows = rows;
    this.sequences = seqs;
  }

  public int version() {
    return version;
  }

  public List<String> includeDirectories() {
    return includeDirs;
  }

  public List<FileEntry> files() {
    return files;
  }

  /** Row {@code i}'s address, file, line and end-of-sequence flag, without making a {@link Row}. */
  public long rowAddress(int i) {
    return rows.address[i];
  }

  public long rowFile(int i) {
    return rows.file[i];
  }

  public long rowLine(int i) {
    return Integer.toUnsignedLong(rows.line[i]);
  }

  public boolean rowEndsSequence(int i) {
    return rows.endSequence[i];
  }

  public List<Row> rows() {
    return java.util.Collections.unmodifiableList(rows);
  }

  /** The sequences lookups use (those with an undefined section index), by high PC. */
  public List<Sequence> sequences() {
    return sequences;
  }

  /** Parses the line program at {@code offset} of .debug_line. */
  public static LineTable parse(DwarfFile dwarf, DebugLineOffset at, int cuAddressSize) {
    long offset = at.value();
    ByteView sec = dwarf.sections().line();
    if (offset < 0 || offset >= sec.size()) throw sec.error(Math.max(0, Math.min(offset, sec.size())), "line table offset 0x" + Long.toHexString(offset) + " past end of section");
    Cursor c = sec.cursor(offset);
    long length = c.u32();
    int lengthSize = 4;
    int offsetSize = 4;
    if (length == 0xffffffffL) {
      length = c.u64();
      lengthSize = 12;
      offsetSize = 8;
    } else if (length >= 0xfffffff0L) {
      throw sec.error(offset, "invalid unit length 0x" + Long.toHexString(length));
    }
    if (length < 0 || length > sec.size() - offset - lengthSize) {
      throw sec.error(offset, "line table length 0x" + Long.toHexString(length) + " past end of section");
    }
    long end = offset + lengthSize + length;
    c = sec.slice(0, end).cursor(offset + lengthSize);
    int version = c.u16();
    if (version < 2 || version > 5) throw sec.error(offset + 4, "unsupported line table version " + version);
    int addressSize = cuAddressSize;
    if (version >= 5) {
      addressSize = c.u8();
      c.u8(); // segment selector size
    }
    long hlAt = c.position();
    long headerLength = DwarfUnit.uN(c.view(), hlAt, offsetSize);
    c.skip(offsetSize);
    long programStart = c.position() + headerLength;
    if (headerLength < 0 || headerLength > c.remaining()) throw sec.error(hlAt, "header length 0x" + Long.toHexString(headerLength) + " past end of line table");
    int minInst = c.u8();
    if (version >= 4) c.u8(); // maximum_operations_per_instruction (VLIW not supported; treated as 1)
    boolean defaultIsStmt = c.u8() != 0;
    int lineBase = (byte) c.u8();
    int lineRange = c.u8();
    int opcodeBase = c.u8();
    int[] stdLengths = new int[Math.max(opcodeBase, 1)];
    for (int i = 1; i < opcodeBase; i++) stdLengths[i] = c.u8();
    List<String> dirs = new ArrayList<>();
    List<FileEntry> files = new ArrayList<>();
    if (version >= 5) {
      Form.Params forms = new Form.Params(version, addressSize, offsetSize);
      for (String[] e : entries(dwarf, c, true, forms)) dirs.add(e[0] == null ? "" : e[0]); // no DW_LNCT_path: empty
      for (String[] e : entries(dwarf, c, false, forms)) files.add(new FileEntry(e[0], Long.parseLong(e[1])));
    } else {
      while (true) {
        String d = c.view().cString(c.position());
        skipCString(c);
        if (d.isEmpty()) break;
        dirs.add(d);
      }
      while (true) {
        String f = c.view().cString(c.position());
        skipCString(c);
        if (f.isEmpty()) break;
        long dir = c.uleb();
        c.uleb();
        c.uleb();
        files.add(new FileEntry(f, dir));
      }
    }
    if (programStart > c.size()) throw sec.error(offset, "line program start past end of line table");
    c.seek(programStart);
    // about one row per 2-3 bytes of line program: sized so that few tables grow (larger ones double)
    Rows rows = new Rows((int) Math.max(64, Math.min(1 << 16, (c.size() - programStart) / 3)));
    List<Sequence> seqs = new ArrayList<>();
    run(c, dwarf.sections().lineRelocationSection(), new Header(minInst, defaultIsStmt, lineBase, lineRange, opcodeBase, stdLengths),
        rows, seqs, files);
    seqs.sort((a, b) -> Long.compareUnsigned(a.highPc(), b.highPc()));
    return new LineTable(version, List.copyOf(dirs), List.copyOf(files), rows, List.copyOf(seqs));
  }

  /** The header fields the line program's opcodes depend on. */
  private record Header(int minInstLength, boolean defaultIsStmt, int lineBase, int lineRange, int opcodeBase, int[] standardLengths) {}

  /**
   * Runs the line program from the cursor to its end (DWARF 6.2.5): decodes each opcode and applies
   * it to the state machine's registers in place (no object per instruction: a large binary's line
   * programs have tens of millions), appending rows, sequences (those with an undefined section
   * only, see below) and DW_LNE_define_file entries. Unknown opcodes are skipped by their operands
   * (standard ones by the header's lengths, extended ones by their length).
   */
  private static void run(Cursor c, java.util.function.LongToIntFunction relocSection, Header p, Rows rows,
      List<Sequence> seqs, List<FileEntry> files) {
    final int opcodeBase = p.opcodeBase();
    final int lineRange = p.lineRange();
    final long minInst = p.minInstLength();
    final int[] stdLengths = p.standardLengths();
    // the registers (DWARF 6.2.2); is_stmt and the like are not kept: no row field depends on them
    long address = 0;
    long file = 1;
    long line = 1;
    int column = 0;
    int seqFirst = -1;
    long seqLow = 0;
    long seqOffset = c.position();
    long sectionIndex = -1;
    while (c.remaining() > 0) {
      long opAt = c.position();
      int op = c.u8();
      boolean endSequence = false;
      if (op >= opcodeBase) { // special opcode: advance address and line, append a row
        if (lineRange == 0) throw c.errorAt(opAt, "special opcode with line_range 0");
        int adj = op - opcodeBase;
        address += minInst * (adj / lineRange);
        line += p.lineBase() + (adj % lineRange);
      } else if (op == 0) { // extended opcode
        long len = c.uleb();
        if (len == 0 || len > c.remaining()) throw c.errorAt(opAt, "bad extended opcode length 0x" + Long.toHexString(len));
        long next = c.position() + len;
        int sub = c.u8();
        switch (sub) {
          case DW_LNE_END_SEQUENCE -> endSequence = true;
          case DW_LNE_SET_ADDRESS -> {
            int n = (int) (len - 1);
            if (n != 1 && n != 2 && n != 4 && n != 8) throw c.errorAt(opAt, "bad DW_LNE_set_address size " + n);
            address = DwarfUnit.uN(c.view(), c.position(), n);
            sectionIndex = relocSection.applyAsInt(c.position());
          }
          case DW_LNE_DEFINE_FILE -> {
            String f = c.view().cString(c.position());
            while (c.u8() != 0) {}
            files.add(new FileEntry(f, c.uleb()));
          }
          case DW_LNE_SET_DISCRIMINATOR -> c.uleb();
          default -> {} // unknown: skipped by its length
        }
        c.seek(next);
        if (!endSequence) continue;
      } else {
        switch (op) {
          case DW_LNS_COPY -> {}
          case DW_LNS_ADVANCE_PC -> {
            address += minInst * c.uleb();
            continue;
          }
          case DW_LNS_ADVANCE_LINE -> {
            line += c.sleb();
            continue;
          }
          case DW_LNS_SET_FILE -> {
            file = c.uleb();
            continue;
          }
          case DW_LNS_SET_COLUMN -> {
            column = (int) c.uleb();
            continue;
          }
          case DW_LNS_CONST_ADD_PC -> {
            if (lineRange == 0) throw c.errorAt(opAt, "DW_LNS_const_add_pc with line_range 0");
            address += minInst * ((255 - opcodeBase) / lineRange);
            continue;
          }
          case DW_LNS_FIXED_ADVANCE_PC -> {
            address += c.u16();
            continue;
          }
          case DW_LNS_SET_ISA -> {
            c.uleb();
            continue;
          }
          case DW_LNS_NEGATE_STMT, DW_LNS_SET_BASIC_BLOCK, DW_LNS_SET_PROLOGUE_END, DW_LNS_SET_EPILOGUE_BEGIN -> {
            continue;
          }
          default -> { // unknown standard opcode: its operands are skipped
            for (int i = stdLengths[op]; i > 0; i--) c.uleb();
            continue;
          }
        }
      }
      // append a row (special opcode, DW_LNS_copy, DW_LNE_end_sequence)
      int idx = rows.size();
      if (seqFirst < 0) {
        seqFirst = idx;
        seqLow = address;
      }
      rows.add(address, file, (int) line, column, endSequence);
      if (endSequence) {
        if (Long.compareUnsigned(seqLow, address) < 0) {
          // Our lookups are llvm's with an undefined section (DwarfTransformer, the verifier): a
          // sequence relocated against a section (every one in a relocatable object) never matches,
          // so it is left out.
          if (sectionIndex == -1) seqs.add(new Sequence(seqLow, address, seqFirst, idx + 1, seqOffset, sectionIndex));
        }
        seqOffset = c.position();
        sectionIndex = -1;
        seqFirst = -1;
        address = 0;
        file = 1;
        line = 1;
        column = 0;
      }
    }
  }

  private static void skipCString(Cursor c) {
    while (c.u8() != 0) {}
  }

  /** DWARF 5 directory or file entries: [path, directory index]. */
  private static List<String[]> entries(DwarfFile dwarf, Cursor c, boolean dirs, Form.Params forms) {
    long fmtAt = c.position();
    int nfmt = c.u8();
    long[][] fmt = new long[nfmt][];
    for (int i = 0; i < nfmt; i++) fmt[i] = new long[] {c.uleb(), c.uleb()};
    long countAt = c.position();
    long count = c.uleb();
    if (count > c.remaining() && nfmt > 0 || (nfmt == 0 && count > 0)) {
      throw c.errorAt(countAt, (dirs ? "directory" : "file name") + " count " + count + " does not fit the header");
    }
    if (nfmt > MAX_FORMAT_ENTRIES) throw c.errorAt(fmtAt, "too many entry formats: " + nfmt);
    List<String[]> out = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      String path = null;
      long dir = 0;
      for (long[] f : fmt) {
        int form = (int) f[1];
        long at = c.position();
        Object v = readEntryForm(dwarf, c, form, forms);
        if (f[0] == DW_LNCT_PATH) {
          if (!(v instanceof String s)) throw c.errorAt(at, "DW_LNCT_path with non-string form 0x" + Integer.toHexString(form));
          path = s;
        } else if (f[0] == DW_LNCT_DIRECTORY_INDEX) {
          if (v instanceof Long l) dir = l;
        }
      }
      out.add(new String[] {path, Long.toString(dir)});
    }
    return out;
  }

  /**
   * One value of a DWARF 5 entry format ({@link Form}): a String for string forms, a Long for
   * unsigned constants, null for blocks (skipped); other forms are not supported here.
   */
  private static Object readEntryForm(DwarfFile dwarf, Cursor c, int code, Form.Params p) {
    Form f = Form.of(code);
    Form.Meaning m = f == null ? Form.Meaning.OTHER : f.meaning;
    return switch (m) {
      case STRING -> {
        String s = c.view().cString(c.position());
        f.skip(c, p);
        yield s;
      }
      case STRP -> dwarf.string(dwarf.sections().str(), f.number(c, p));
      case LINE_STRP -> dwarf.string(dwarf.sections().lineStr(), f.number(c, p));
      case UNSIGNED -> f.number(c, p);
      case BLOCK -> {
        f.skip(c, p);
        yield null;
      }
      default -> throw c.errorHere("unsupported form 0x" + Integer.toHexString(code) + " in line table header");
    };
  }

  /** LLVM's hasFileAtIndex + cache sizing: indexes below files+1 are accepted. */
  public boolean acceptsFileIndex(long idx) {
    return idx >= 0 && idx < files.size() + 1L;
  }

  /** The absolute path of file {@code idx} (LLVM's getFileNameByIndex, AbsoluteFilePath), or null. */
  public String filePath(long idx, String compDir) {
    FileEntry e;
    if (version >= 5) {
      if (idx < 0 || idx >= files.size()) return null;
      e = files.get((int) idx);
    } else {
      if (idx < 1 || idx > files.size()) return null;
      e = files.get((int) idx - 1);
    }
    if (e.name() == null) return null;
    String name = e.name();
    if (isAbsolute(name)) return name;
    String dir = "";
    long di = e.dirIndex();
    if (version >= 5) {
      if (di >= 0 && di < includeDirs.size()) dir = includeDirs.get((int) di);
    } else if (di > 0 && di <= includeDirs.size()) {
      dir = includeDirs.get((int) di - 1);
    }
    StringBuilder p = new StringBuilder();
    if ((version < 5 || di != 0) && compDir != null && !compDir.isEmpty() && !isAbsolute(dir)) append(p, compDir);
    append(p, dir);
    append(p, name);
    return p.toString();
  }

  static boolean isAbsolute(String p) {
    if (p.startsWith("/")) return true;
    if (p.length() >= 3 && Character.isLetter(p.charAt(0)) && p.charAt(1) == ':' && (p.charAt(2) == '\\' || p.charAt(2) == '/')) return true;
    return p.startsWith("\\\\");
  }

  /** LLVM sys::path::append (POSIX) of one component. */
  private static void append(StringBuilder p, String comp) {
    if (comp == null || comp.isEmpty()) return;
    boolean pathHasSep = p.length() > 0 && p.charAt(p.length() - 1) == '/';
    if (pathHasSep) {
      int i = 0;
      while (i < comp.length() && comp.charAt(i) == '/') i++;
      p.append(comp, i, comp.length());
      return;
    }
    boolean compHasSep = comp.charAt(0) == '/';
    if (!compHasSep && p.length() > 0) p.append('/');
    p.append(comp);
  }

  /**
   * LLVM's lookupAddressRange: row indexes for [start, start+size), or null if no sequence
   * contains {@code start}.
   */
  public int[] lookupAddressRange(long start, long size) {
    return lookupAddressRange(start, size, -1);
  }

  /**
   * As {@link #lookupAddressRange(long, long)}; with {@code stmtSeqOffset} ≠ -1 only the sequence
   * starting at that .debug_line offset is used (DW_AT_LLVM_stmt_sequence), if it contains start.
   */
  public int[] lookupAddressRange(long start, long size, long stmtSeqOffset) {
    if (sequences.isEmpty()) return null;
    long endAddr = start + size;
    if (stmtSeqOffset != -1) {
      for (Sequence s : sequences) {
        if (s.stmtSeqOffset() != stmtSeqOffset) continue;
        if (!s.contains(start)) return null;
        int firstRow = findRowInSeq(s, start);
        int lastRow = findRowInSeq(s, endAddr - 1);
        if (lastRow < 0) lastRow = s.lastRow() - 1;
        int[] out = new int[Math.max(0, lastRow - firstRow + 1)];
        for (int i = 0; i < out.length; i++) out[i] = firstRow + i;
        return out;
      }
      return null;
    }
    // upper_bound by highPc
    int lo = 0, hi = sequences.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(start, sequences.get(mid).highPc()) < 0) hi = mid;
      else lo = mid + 1;
    }
    int pos = lo;
    if (pos == sequences.size() || !sequences.get(pos).contains(start)) return null;
    int first = pos;
    int[] out = new int[8];
    int n = 0;
    while (pos < sequences.size() && Long.compareUnsigned(sequences.get(pos).lowPc(), endAddr) < 0) {
      Sequence s = sequences.get(pos);
      int firstRow = pos == first ? findRowInSeq(s, start) : s.firstRow();
      int lastRow = findRowInSeq(s, endAddr - 1);
      if (lastRow < 0) lastRow = s.lastRow() - 1;
      for (int i = firstRow; i <= lastRow; i++) {
        if (n == out.length) out = Arrays.copyOf(out, n * 2);
        out[n++] = i;
      }
      pos++;
    }
    return Arrays.copyOf(out, n);
  }

  /** LLVM's lookupAddress: the row for {@code addr} (last row at or below it in its sequence), or -1. */
  public int lookupAddress(long addr) {
    int lo = 0, hi = sequences.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(addr, sequences.get(mid).highPc()) < 0) hi = mid;
      else lo = mid + 1;
    }
    return lo == sequences.size() ? -1 : findRowInSeq(sequences.get(lo), addr);
  }

  private int findRowInSeq(Sequence s, long addr) {
    if (!s.contains(addr)) return -1;
    // upper_bound over rows [firstRow+1, lastRow-1) by address, minus one.
    int lo = s.firstRow() + 1, hi = s.lastRow() - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(addr, rows.address[mid]) < 0) hi = mid;
      else lo = mid + 1;
    }
    return lo - 1;
  }
}
