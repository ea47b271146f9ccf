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
  private final boolean corrupt;
  private final Map<Integer, FunctionInfo> functions = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Integer, FunctionInfo> eldest) {
      return size() > CACHED_FUNCTIONS;
    }
  };

  /** Symbols answered from {@code reader} (null: an empty symbol file); {@code corrupt} as minidump_stackwalk warns. */
  GsymModuleSymbols(GsymReader reader, boolean corrupt) {
    this.reader = reader;
    this.corrupt = corrupt;
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
    try {
      r = reader.lookup(offset);
      int index = reader.indexForAddress(offset);
      fi = functions.get(index);
      if (fi == null) {
        fi = reader.functionInfoAtIndex(index);
        functions.put(index, fi);
      }
    } catch (LookupException | GsymFormatException e) {
      return null;
    }
    long functionBase = r.functionRange().start();
    // the line record holding the address: the last row at or below it, unless it is a gap row
    boolean hasLine = false;
    long lineBase = 0;
    String file = "";
    int line = 0;
    if (fi.lineTable() != null) {
      LineEntry row = null;
      for (LineEntry e : fi.lineTable().rows()) {
        if (Long.compareUnsigned(e.address(), offset) > 0) break;
        row = e;
      }
      if (row != null) {
        FileEntry f = row.file() == 0 ? null : reader.file(row.file());
        if (f != null && !f.equals(FileEntry.NONE)) {
          hasLine = true;
          lineBase = row.address();
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
      return reader.unwindRow(offset, state);
    } catch (GsymFormatException | IllegalStateException e) {
      return false;
    }
  }

  @Override
  public WindowsFrameInfo windowsFrameInfo(long offset) {
    return null;
  }

  @Override
  public long parameterSize(long offset) {
    return -1;
  }
}
