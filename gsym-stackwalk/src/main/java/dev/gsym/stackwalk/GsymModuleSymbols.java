package dev.gsym.stackwalk;

import dev.gsym.GsymFormatException;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FileTable;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLocation;
import dev.gsym.unwind.UnwindState;
import dev.gsym.unwind.WindowsFrameInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A module's symbols from a GSYM file (mapped; made from its Breakpad symbol file with the STACK
 * records as unwind information): the function and line Breakpad's resolver would answer, the CFI
 * row at an address.
 */
final class GsymModuleSymbols implements ModuleSymbols {
  /** Decoded FunctionInfos kept per module (scans look up neighbouring addresses again and again). */
  private static final int CACHED_FUNCTIONS = 64;

  private final GsymReader reader;
  /** The GSYM address of module offset 0 (0 for a Breakpad symbol file's; an ELF file's first segment's address). */
  private final long delta;
  private final boolean corrupt;
  private final ParameterSizes parameterSizes;
  /** The STACK WIN records by type (0 FPO ... 4 FrameData), nested as Breakpad stores them; made on first use. */
  private List<ContainedRangeMap<WindowsFrameInfo>> windows;
  private final Map<Integer, FunctionInfo> functions = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Integer, FunctionInfo> eldest) {
      return size() > CACHED_FUNCTIONS;
    }
  };

  /**
   * Symbols answered from {@code reader} (null: an empty symbol file); {@code corrupt} as
   * minidump_stackwalk warns; {@code parameterSizes} the FUNC parameter sizes of an x86 module, or null.
   */
  GsymModuleSymbols(GsymReader reader, boolean corrupt, ParameterSizes parameterSizes) {
    this(reader, 0, corrupt, parameterSizes);
  }

  /**
   * As above, for a GSYM whose addresses are the module's own ({@code delta} + offset from the
   * module's base): one made from an ELF file, whose header's base address is its first segment's.
   */
  GsymModuleSymbols(GsymReader reader, long delta, boolean corrupt, ParameterSizes parameterSizes) {
    this.reader = reader;
    this.delta = delta;
    this.corrupt = corrupt;
    this.parameterSizes = parameterSizes;
  }

  GsymReader reader() {
    return reader;
  }

  @Override
  public boolean corrupt() {
    return corrupt;
  }

  @Override
  public synchronized SourceInfo lookup(long offset) {
    if (reader == null) return null;
    LookupResult r;
    FunctionInfo fi;
    long address = offset + delta;
    try {
      r = reader.lookup(address);
      int index = reader.indexForAddress(address);
      fi = functions.get(index);
      if (fi == null) {
        fi = reader.functionInfoAtIndex(index);
        functions.put(index, fi);
      }
    } catch (LookupException | GsymFormatException e) {
      return null;
    }
    long functionBase = r.functionRange().start() - delta;
    // the line record holding the address: the last row at or below it, unless it is a gap row
    boolean hasLine = false;
    long lineBase = 0;
    String file = "";
    int line = 0;
    if (fi.lineTable() != null) {
      LineEntry row = null;
      for (LineEntry e : fi.lineTable().rows()) {
        if (Long.compareUnsigned(e.address(), address) > 0) break;
        row = e;
      }
      if (row != null) {
        FileEntry f = row.file() == 0 ? null : reader.file(row.file());
        if (f != null && !f.equals(FileEntry.NONE)) {
          hasLine = true;
          lineBase = row.address() - delta;
          file = path(reader.string(f.dir()), reader.string(f.base()));
          line = row.line();
        }
      }
    }
    List<SourceInfo.Inlined> inlined = new ArrayList<>();
    List<SourceLocation> locations = r.locations();
    if (locations.size() > 1) {
      // deepest first; each caller at the call site of its callee, as Breakpad's frames after its swap
      for (int i = 0; i + 1 < locations.size(); i++) {
        SourceLocation l = locations.get(i);
        inlined.add(new SourceInfo.Inlined(l.name(), offset - l.offset(), l.hasFile() ? path(l.dir(), l.base()) : "", l.line()));
      }
      SourceLocation outer = locations.getLast();
      file = outer.hasFile() ? path(outer.dir(), outer.base()) : "";
      line = outer.line();
    }
    return new SourceInfo(r.functionName(), functionBase, file, line, lineBase, hasLine, inlined);
  }

  private static String path(String dir, String base) {
    StringBuilder sb = new StringBuilder();
    FileTable.appendPath(sb, dir, base);
    return sb.toString();
  }

  @Override
  public boolean cfi(long offset, UnwindState state) {
    if (reader == null) return false;
    try {
      state.clear();
      return reader.unwindRow(offset + delta, state);
    } catch (GsymFormatException | IllegalStateException e) {
      return false;
    }
  }

  @Override
  public synchronized WindowsFrameInfo windowsFrameInfo(long offset) {
    if (reader == null) return null;
    if (windows == null) windows = readWindowsFrameInfo();
    // FrameData (4) before FPO (0); the other types are never used
    WindowsFrameInfo w = windows.get(4).retrieve(offset + delta);
    return w != null ? w : windows.get(0).retrieve(offset + delta);
  }

  /** Every STACK WIN record of the file, stored in file order as Breakpad's resolver stores them. */
  private List<ContainedRangeMap<WindowsFrameInfo>> readWindowsFrameInfo() {
    List<WindowsFrameInfo> all = new ArrayList<>();
    try {
      for (int i = 0; i < reader.numFunctions(); i++) {
        dev.gsym.format.UnwindInfo u = reader.unwindInfoAtIndex(i);
        if (u == null) continue;
        for (var e : u.entries()) if (e instanceof WindowsFrameInfo w) all.add(w);
      }
    } catch (GsymFormatException e) {
      // what was read before the damage is kept
    }
    all.sort((a, b) -> Long.compareUnsigned(a.ordinal(), b.ordinal()));
    List<ContainedRangeMap<WindowsFrameInfo>> maps = new ArrayList<>();
    for (int t = 0; t < 5; t++) maps.add(new ContainedRangeMap<>());
    for (WindowsFrameInfo w : all) {
      if (w.type() >= 0 && w.type() < 5) maps.get(w.type()).store(w.start(), w.length(), w);
    }
    return maps;
  }

  @Override
  public long parameterSize(long offset) {
    return parameterSizes == null ? -1 : parameterSizes.at(offset);
  }
}
