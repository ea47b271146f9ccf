package dev.gsym.breakpad;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FileEntry;
import dev.gsym.format.FileTable;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.io.AtomicFile;
import dev.gsym.read.GsymReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;

/**
 * Writes a GSYM file as a Breakpad symbol file (see docs/breakpad.md for the mapping):
 * {@code MODULE}, {@code INFO CODE_ID}, one {@code FILE} per file-table entry (number = GSYM file
 * index), one {@code INLINE_ORIGIN} per distinct inlined-function name, then in address order a
 * {@code FUNC} with its {@code INLINE} and line records for every function with a size, and a
 * {@code PUBLIC} for every size-0 function. Functions are read one at a time (two passes over the
 * mapped file), so memory does not grow with the file.
 */
public final class BreakpadWriter {
  /**
   * MODULE fields, and the load address subtracted from every address (Breakpad addresses are
   * module-relative; 0 writes GSYM's addresses unchanged).
   */
  public record Options(String os, String arch, String moduleName, long loadAddress) {
    public static Options defaults(String moduleName) {
      return new Options("Linux", "x86_64", moduleName, 0);
    }
  }

  /** What was written. */
  public record Result(long functions, long publics, long files, long inlineOrigins) {}

  private final GsymReader reader;
  private final Options options;
  private final HashMap<Integer, Integer> originIds = new HashMap<>();
  private final boolean[] fileWritten;

  public BreakpadWriter(GsymReader reader, Options options) {
    this.reader = reader;
    this.options = options;
    this.fileWritten = new boolean[reader.numFiles()];
  }

  /** Writes to {@code path} through a temporary file renamed into place (no partial output). */
  public static Result write(GsymReader reader, Options options, Path path) throws IOException {
    return AtomicFile.write(path, ch -> {
      Writer w = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(ch),
          StandardCharsets.UTF_8), 1 << 16);
      Result r = new BreakpadWriter(reader, options).write(w);
      w.flush();
      return r;
    });
  }

  public Result write(Writer out) throws IOException {
    StringBuilder sb = new StringBuilder(1 << 12);
    byte[] uuid = reader.header().uuid();
    sb.append("MODULE ").append(options.os()).append(' ').append(options.arch()).append(' ')
        .append(BreakpadIds.moduleId(options.os(), uuid)).append(' ').append(clean(options.moduleName())).append('\n');
    String codeId = BreakpadIds.codeId(uuid);
    if (codeId != null) sb.append("INFO CODE_ID ").append(codeId).append('\n');
    long files = 0;
    for (int i = 1; i < reader.numFiles(); i++) {
      FileEntry fe = reader.file(i);
      String path = path(fe);
      if (path.isEmpty()) continue;
      fileWritten[i] = true;
      files++;
      sb.append("FILE ").append(i).append(' ').append(clean(path)).append('\n');
      flushIfBig(sb, out);
    }
    // pass 1: inline origins
    int n = reader.numFunctions();
    for (int i = 0; i < n; i++) {
      FunctionInfo fi = reader.functionInfoAtIndex(i);
      if (fi.inlineInfo() == null || fi.range().size() == 0) continue;
      for (InlineInfo c : fi.inlineInfo().children()) collectOrigins(c, sb);
      flushIfBig(sb, out);
    }
    // pass 2: functions
    long funcs = 0;
    long publics = 0;
    for (int i = 0; i < n; i++) {
      FunctionInfo fi = reader.functionInfoAtIndex(i);
      long size = fi.range().size();
      long start = rel(fi.range().start());
      String name = clean(reader.string(fi.name()));
      if (name.isEmpty()) name = "<unnamed>";
      boolean multiple = fi.mergedFunctions() != null && !fi.mergedFunctions().mergedFunctions().isEmpty();
      if (size == 0) {
        sb.append("PUBLIC ").append(multiple ? "m " : "").append(Long.toHexString(start)).append(" 0 ")
            .append(name).append('\n');
        publics++;
      } else {
        sb.append("FUNC ").append(multiple ? "m " : "").append(Long.toHexString(start)).append(' ')
            .append(Long.toHexString(size)).append(" 0 ").append(name).append('\n');
        funcs++;
        if (fi.inlineInfo() != null) {
          for (InlineInfo c : fi.inlineInfo().children()) inlineRecords(c, 0, sb);
        }
        if (fi.lineTable() != null) lineRecords(fi.lineTable().rows(), fi.range(), sb);
      }
      flushIfBig(sb, out);
    }
    out.append(sb);
    return new Result(funcs, publics, files, originIds.size());
  }

  /** {@code a} relative to the load address. */
  private long rel(long a) {
    long load = options.loadAddress();
    if (Long.compareUnsigned(a, load) < 0) {
      throw new dev.gsym.io.GsymFormatException(reader.source(), -1, "address 0x" + Long.toHexString(a)
          + " is below the load address 0x" + Long.toHexString(load));
    }
    return a - load;
  }

  private static void flushIfBig(StringBuilder sb, Writer out) throws IOException {
    if (sb.length() >= 1 << 15) {
      out.append(sb);
      sb.setLength(0);
    }
  }

  private String path(FileEntry fe) {
    String dir = fe.dir() == 0 ? "" : reader.string(fe.dir());
    String base = fe.base() == 0 ? "" : reader.string(fe.base());
    if (dir.isEmpty() && base.isEmpty()) return "";
    StringBuilder sb = new StringBuilder();
    FileTable.appendPath(sb, dir, base);
    return sb.toString();
  }

  /** A name or path on one line (CR/LF would end the record). */
  private static String clean(String s) {
    if (s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
    return s.replace('\n', ' ').replace('\r', ' ');
  }

  private boolean hasCallSite(InlineInfo node) {
    int f = node.callFile();
    return f > 0 && f < fileWritten.length && fileWritten[f];
  }

  private void collectOrigins(InlineInfo node, StringBuilder sb) {
    if (hasCallSite(node) && !originIds.containsKey(node.name())) {
      int id = originIds.size();
      originIds.put(node.name(), id);
      String name = clean(reader.string(node.name()));
      sb.append("INLINE_ORIGIN ").append(id).append(' ').append(name.isEmpty() ? "<unnamed>" : name).append('\n');
    }
    for (InlineInfo c : node.children()) collectOrigins(c, sb);
  }

  /**
   * INLINE records in pre-order. A node without a usable call file never becomes a frame in a
   * GSYM lookup; it is left out and its children take its place (same lookups).
   */
  private void inlineRecords(InlineInfo node, int level, StringBuilder sb) {
    if (!hasCallSite(node)) {
      for (InlineInfo c : node.children()) inlineRecords(c, level, sb);
      return;
    }
    sb.append("INLINE ").append(level).append(' ').append(Integer.toUnsignedLong(node.callLine())).append(' ')
        .append(node.callFile()).append(' ').append(originIds.get(node.name()));
    for (AddressRange r : node.ranges()) {
      sb.append(' ').append(Long.toHexString(rel(r.start()))).append(' ').append(Long.toHexString(r.size()));
    }
    sb.append('\n');
    for (InlineInfo c : node.children()) inlineRecords(c, level + 1, sb);
  }

  /**
   * One line record per distinct row address: the last row at an address (the one GSYM lookups
   * answer with) from its address to the next row's address or the function end. Rows whose file
   * is 0 (or has no path) get no record.
   */
  private void lineRecords(List<LineEntry> rows, AddressRange range, StringBuilder sb) {
    for (int i = 0; i < rows.size(); i++) {
      LineEntry row = rows.get(i);
      long a = row.address();
      int j = i + 1;
      if (j < rows.size() && rows.get(j).address() == a) continue; // a later row at a wins
      long end = j < rows.size() ? rows.get(j).address() : range.end();
      if (Long.compareUnsigned(a, range.start()) < 0 || Long.compareUnsigned(a, range.end()) >= 0) continue;
      if (Long.compareUnsigned(end, range.end()) > 0) end = range.end();
      int f = row.file();
      if (f <= 0 || f >= fileWritten.length || !fileWritten[f]) continue;
      sb.append(Long.toHexString(rel(a))).append(' ').append(Long.toHexString(end - a)).append(' ')
          .append(Integer.toUnsignedLong(row.line())).append(' ').append(f).append('\n');
    }
  }
}
