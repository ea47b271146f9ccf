package dev.gsym.read;

import dev.gsym.GsymFormatException;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.GlobalData;
import dev.gsym.format.GlobalDataDirectory;
import dev.gsym.format.Header;
import dev.gsym.format.MergedFunctionsInfo;
import dev.gsym.io.Cursor;
import java.util.HexFormat;
import java.util.List;

/**
 * LLVM main's {@code llvm-gsymutil --statistics}: where the bytes of a GSYM file go. The top-level
 * counts add up to the file size (whatever no table or section claims is {@code padding}); the
 * FunctionInfo counts add up to the FunctionInfo data (alignment between records is its {@code
 * padding}); the merged-function counts add up to {@code merged_func_info}.
 *
 * <p>Version 1 files have no directory and no UUID section (the UUID is part of the 48-byte
 * header): those counts are 0, and the FunctionInfo data runs from the first record to the end of
 * the file. A record that cannot be decoded counts as far as it could be read; the rest of it is
 * padding.
 *
 * @param uuid the UUID bytes (empty if none)
 * @param functionInfo sizes of the top-level records' parts
 * @param merged sizes of the parts of the merged functions' records
 */
public record GsymStatistics(
    String path,
    byte[] uuid,
    long numAddresses,
    long fileSize,
    long header,
    long globalDataDirectory,
    long uuidSection,
    long padding,
    long addressTable,
    long addrInfoOffsets,
    long fileTable,
    long stringTable,
    long functionInfoData,
    InfoTypeSizes functionInfo,
    InfoTypeSizes merged) {

  /**
   * Bytes per part of FunctionInfo records: Size and Name, each InfoType chunk with its 8-byte type
   * and length, the EndOfList entry. {@code padding} is used at the top level only, {@code
   * countAndSizes} (the MergedFunctionsInfo chunk's type, length, count and per-function sizes) in
   * the merged-function totals only.
   */
  public record InfoTypeSizes(long sizeAndName, long lineTable, long inlineInfo, long callSites,
      long mergedFunctions, long endOfList, long padding, long countAndSizes) {

    long total() {
      return sizeAndName + lineTable + inlineInfo + callSites + mergedFunctions + endOfList + countAndSizes;
    }
  }

  /** The output formats of {@code --statistics[=FORMAT]}. */
  public enum Format {
    /** LLVM's text report. */
    TEXT,
    /** JSON on one line. */
    JSON,
    /** JSON, indented. */
    PRETTY_JSON;

    /** {@code text}, {@code json} or {@code pretty-json}; null for anything else. */
    public static Format parse(String s) {
      return switch (s) {
        case "text" -> TEXT;
        case "json" -> JSON;
        case "pretty-json" -> PRETTY_JSON;
        default -> null;
      };
    }
  }

  /** Copies the UUID. */
  public GsymStatistics {
    uuid = uuid.clone();
  }

  /** Counts the bytes of {@code r}, reported under {@code path}. */
  public static GsymStatistics of(GsymReader r, String path) {
    long fileSize = r.size();
    long n = r.numFunctions();
    long header = r.header().encodedSize();
    long directory = 0;
    long uuidSection = 0;
    long addressTable = n * r.header().addrOffSize();
    long addrInfo = n * r.header().addressInfoOffsetSize();
    long fileTable;
    long stringTable = r.stringTable().size();
    long fiData;
    GlobalDataDirectory dir = r.directory();
    if (dir != null) {
      directory = (dir.entries().size() + 1L) * GlobalData.SIZE;
      GlobalData id = dir.find(GlobalData.UUID);
      uuidSection = id == null ? 0 : id.fileSize();
      addressTable = dir.find(GlobalData.ADDR_OFFSETS).fileSize();
      addrInfo = dir.find(GlobalData.ADDR_INFO_OFFSETS).fileSize();
      fileTable = dir.find(GlobalData.FILE_TABLE).fileSize();
      stringTable = dir.find(GlobalData.STRING_TABLE).fileSize();
      fiData = dir.find(GlobalData.FUNCTION_INFO).fileSize();
    } else {
      fileTable = 4 + 8L * r.numFiles();
      stringTable = ((Header) r.header()).strtabSize();
      long first = fileSize;
      for (int i = 0; i < n; i++) first = Math.min(first, r.functionInfoOffset(i));
      fiData = n == 0 ? 0 : Math.max(0, fileSize - first);
    }
    Counter top = new Counter();
    Counter merged = new Counter();
    for (int i = 0; i < n; i++) {
      try {
        count(r.recordAt(i), top, merged);
      } catch (GsymFormatException e) {
        // counted as far as it was readable; the rest is padding
      }
    }
    long fiPadding = fiData - top.total();
    long padding = fileSize - header - directory - uuidSection - addressTable - addrInfo - fileTable
        - stringTable - fiData;
    return new GsymStatistics(path, r.uuid(), n, fileSize, header, directory, uuidSection, padding,
        addressTable, addrInfo, fileTable, stringTable, fiData, top.sizes(fiPadding), merged.sizes(0));
  }

  private static final class Counter {
    long sizeAndName;
    long[] types = new long[5];
    long endOfList;
    long countAndSizes;

    long total() {
      long t = sizeAndName + endOfList + countAndSizes;
      for (long v : types) t += v;
      return t;
    }

    InfoTypeSizes sizes(long padding) {
      return new InfoTypeSizes(sizeAndName, types[FunctionInfo.LINE_TABLE_INFO], types[FunctionInfo.INLINE_INFO],
          types[FunctionInfo.CALL_SITE_INFO], types[FunctionInfo.MERGED_FUNCTIONS_INFO], endOfList, padding,
          countAndSizes);
    }
  }

  /** Adds one record's parts to {@code c}, and its merged functions' parts to {@code merged}. */
  private static void count(Cursor rec, Counter c, Counter merged) {
    int head = 4 + rec.strpSize();
    if (!rec.has(head)) return;
    rec.skip(head);
    c.sizeAndName += head;
    while (rec.has(8)) {
      int type = rec.s32();
      long len = rec.u32();
      if (type == FunctionInfo.END_OF_LIST) {
        c.endOfList += 8;
        return;
      }
      if (!rec.has(len)) return;
      Cursor body = rec.split(len);
      if (type >= FunctionInfo.LINE_TABLE_INFO && type <= FunctionInfo.CALL_SITE_INFO) c.types[type] += 8 + len;
      if (type == FunctionInfo.MERGED_FUNCTIONS_INFO && merged != null) {
        List<Cursor> children = MergedFunctionsInfo.childRecords(body);
        merged.countAndSizes += 8 + 4 + 4L * children.size();
        for (Cursor child : children) count(child, merged, null);
      }
    }
  }

  /**
   * The UUID in upper-case hex: dashed 8-4-4-4-12 when it has 16 bytes, as llvm main's test
   * statistics-detailed.yaml shows it; undashed for any other length (ELF build IDs have 20 bytes:
   * llvm main's formatting of those could not be read, see docs/compatibility.md); "" for none.
   */
  public String uuidText() {
    String hex = HexFormat.of().withUpperCase().formatHex(uuid);
    if (uuid.length != 16) return hex;
    return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
        + hex.substring(16, 20) + "-" + hex.substring(20);
  }

  /** The report in {@code format}, ending with a newline. */
  public String render(Format format) {
    Node root = new Node(null)
        .put("path", path)
        .put("uuid", uuidText())
        .put("num_addresses", numAddresses);
    Node sizes = root.child("byte-sizes")
        .put("file_size", fileSize)
        .put("header", header)
        .put("global_data_directory", globalDataDirectory)
        .put("uuid_section", uuidSection)
        .put("padding", padding)
        .put("address_table", addressTable)
        .put("addr_info_offsets", addrInfoOffsets)
        .put("file_table", fileTable)
        .put("string_table", stringTable)
        .put("function_info_data", functionInfoData);
    Node fi = sizes.child("function_info_type_sizes")
        .put("size_and_name", functionInfo.sizeAndName())
        .put("line_table_info", functionInfo.lineTable())
        .put("inline_info", functionInfo.inlineInfo())
        .put("call_site_info", functionInfo.callSites())
        .put("merged_func_info", functionInfo.mergedFunctions())
        .put("end_of_list", functionInfo.endOfList())
        .put("padding", functionInfo.padding());
    fi.child("merged_func_info_type_sizes")
        .put("infotype_infolength_count_and_fnsize", merged.countAndSizes())
        .put("size_and_name", merged.sizeAndName())
        .put("line_table_info", merged.lineTable())
        .put("inline_info", merged.inlineInfo())
        .put("call_site_info", merged.callSites())
        .put("merged_func_info", merged.mergedFunctions())
        .put("end_of_list", merged.endOfList());
    StringBuilder sb = new StringBuilder();
    switch (format) {
      case TEXT -> root.text(sb, 0);
      case JSON -> root.json(sb, -1, 0);
      case PRETTY_JSON -> root.json(sb, 0, 0);
    }
    return sb.append('\n').toString();
  }

  /** An ordered key/value tree rendered three ways (LLVM's text, compact and pretty JSON). */
  private static final class Node {
    final String name;
    final java.util.List<Object[]> entries = new java.util.ArrayList<>();

    Node(String name) {
      this.name = name;
    }

    Node put(String key, Object value) {
      entries.add(new Object[] {key, value});
      return this;
    }

    Node child(String key) {
      Node n = new Node(key);
      entries.add(new Object[] {key, n});
      return n;
    }

    /** "key: value" lines; "key {" ... "}" for a child, two more spaces per level. */
    void text(StringBuilder sb, int indent) {
      for (int i = 0; i < entries.size(); i++) {
        Object[] e = entries.get(i);
        if (i > 0 || indent > 0) sb.append('\n');
        sb.repeat(' ', indent).append(e[0]);
        if (e[1] instanceof Node n) {
          sb.append(" {");
          n.text(sb, indent + 2);
          sb.append('\n').repeat(' ', indent).append('}');
        } else {
          sb.append(": ").append(e[1]);
        }
      }
    }

    /** Compact JSON when {@code indent} is negative, else llvm::json's pretty form (2 spaces). */
    void json(StringBuilder sb, int indent, int depth) {
      sb.append('{');
      for (int i = 0; i < entries.size(); i++) {
        Object[] e = entries.get(i);
        if (i > 0) sb.append(',');
        if (indent >= 0) sb.append('\n').repeat(' ', 2 * (depth + 1));
        quote(sb, (String) e[0]).append(indent >= 0 ? ": " : ":");
        if (e[1] instanceof Node n) n.json(sb, indent, depth + 1);
        else if (e[1] instanceof String s) quote(sb, s);
        else sb.append(e[1]);
      }
      if (indent >= 0 && !entries.isEmpty()) sb.append('\n').repeat(' ', 2 * depth);
      sb.append('}');
    }

    private static StringBuilder quote(StringBuilder sb, String s) {
      sb.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '"' -> sb.append("\\\"");
          case '\\' -> sb.append("\\\\");
          case '\n' -> sb.append("\\n");
          case '\t' -> sb.append("\\t");
          case '\r' -> sb.append("\\r");
          default -> {
            if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
          }
        }
      }
      return sb.append('"');
    }
  }
}
