package dev.gsym.cli.symbolize;

import dev.gsym.TextBuffer;
import java.util.List;

/**
 * llvm-symbolizer-22's output ({@code DIPrinter.cpp}): the LLVM, GNU and JSON styles with {@code
 * --addresses}, {@code --pretty-print}, {@code --functions=none}, {@code --verbose} and {@code
 * --print-source-context-lines}, for each kind of answer llvm prints. Thread-safe: each call
 * writes one answer into the caller's buffer.
 *
 * <p>What GSYM does not record is printed as llvm prints it when its debug information lacks the
 * value (and as llvm-symbolizer-22 prints it for a GSYM file): column 0, discriminator 0, no
 * function start file or line ({@code "StartFileName":""}, {@code "StartLine":0}).
 */
final class SymbolizePrinter {
  /** {@code --output-style}. */
  enum Style {
    LLVM,
    GNU,
    JSON,
  }

  /**
   * What shapes the output.
   *
   * @param list JSON only: the answers form one array (addresses given as arguments), else one
   *     object per line (stdin)
   */
  record Config(Style style, boolean printAddress, boolean pretty, boolean printFunctions, boolean verbose,
      SourceContext context, boolean list) {}

  /**
   * What was asked (llvm's {@code Request}).
   *
   * @param module the module name as llvm prints it
   * @param hasAddress false for a symbol lookup and for input that could not be parsed
   * @param symbol the symbol of a symbol lookup, else null
   * @param moduleJson {@code module} quoted as a JSON string ({@link #encode} in JSON style), or null
   *     to quote it here: a module's many answers quote its name once
   */
  record Request(String module, boolean hasAddress, long address, String symbol, byte[] moduleJson) {
    Request(String module, boolean hasAddress, long address, String symbol) {
      this(module, hasAddress, address, symbol, null);
    }
  }

  /**
   * One frame (llvm's {@code DILineInfo}), its texts already encoded for the output style ({@link
   * #encode}), so that names and paths seen again are not quoted again.
   *
   * @param function null if unknown or not asked for (llvm's {@code <invalid>})
   * @param file null if unknown
   * @param fileText the file as text, for {@code --print-source-context-lines} (may be null when
   *     no context is printed)
   * @param hasStart whether a function start address is known
   */
  record LineInfo(byte[] function, byte[] file, String fileText, long line, boolean hasStart, long start) {
    static final LineInfo EMPTY = new LineInfo(null, null, null, 0, false, 0);
  }

  /**
   * The frames of one answer, as {@link LineInfo}s without an object per frame: one per thread,
   * refilled for each answer ({@link #clear}, {@link #add}), so that printing a batch allocates
   * nothing per answer.
   */
  static final class Frames {
    private int count;
    private byte[][] function = new byte[8][];
    private byte[][] file = new byte[8][];
    private String[] fileText = new String[8];
    private long[] line = new long[8];
    private long[] start = new long[8];
    private boolean[] hasStart = new boolean[8];

    void clear() {
      count = 0;
    }

    /** Adds llvm's frame without anything ({@link LineInfo#EMPTY}). */
    void addEmpty() {
      add(null, null, null, 0, 0);
      hasStart[count - 1] = false;
    }

    int count() {
      return count;
    }

    /** Adds a frame (its function start known), as {@link LineInfo}'s components. */
    void add(byte[] function, byte[] file, String fileText, long line, long start) {
      if (count == this.function.length) {
        int n = count * 2;
        this.function = java.util.Arrays.copyOf(this.function, n);
        this.file = java.util.Arrays.copyOf(this.file, n);
        this.fileText = java.util.Arrays.copyOf(this.fileText, n);
        this.line = java.util.Arrays.copyOf(this.line, n);
        this.start = java.util.Arrays.copyOf(this.start, n);
        this.hasStart = java.util.Arrays.copyOf(this.hasStart, n);
      }
      this.hasStart[count] = true;
      this.function[count] = function;
      this.file[count] = file;
      this.fileText[count] = fileText;
      this.line[count] = line;
      this.start[count] = start;
      count++;
    }
  }

  /**
   * {@code --stack}: how a frame with merged functions was resolved (docs/symbolize.md, "Merged
   * functions"), its names encoded for the style ({@link #encode}).
   *
   * @param resolution {@code unique}, {@code call_site} or {@code ambiguous}
   * @param callerFrame the frame (index in its stack) whose call site chose, or -1
   */
  record MergedNote(String resolution, int callerFrame, List<byte[]> candidates, List<byte[]> chosen) {}

  private static final byte[] EMPTY_STRING = {'"', '"'};
  // compact JSON as JsonText writes it, in pieces: the answer up to the address, then the module,
  // then the frames' array; a frame from its start to the file, and its members after it
  private static final byte[] ADDRESS_KEY = ascii("{\"Address\":\"");
  private static final byte[] MODULE_KEY = ascii("\",\"ModuleName\":");
  private static final byte[] SYMBOL_KEY = ascii(",\"Symbol\":[");
  private static final byte[] FRAME_FILE = ascii("{\"Column\":0,\"Discriminator\":0,\"FileName\":");
  private static final byte[] FRAME_FUNCTION = ascii(",\"FunctionName\":");
  private static final byte[] FRAME_LINE = ascii(",\"Line\":");
  private static final byte[] FRAME_START = ascii(",\"StartAddress\":\"");
  private static final byte[] FRAME_END = ascii("\",\"StartFileName\":\"\",\"StartLine\":0}");

  private static byte[] ascii(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
  private static final byte[] UNKNOWN = {'?', '?'};

  private final Config c;
  private final boolean json;
  /** JSON: spaces per level; 0 compact. */
  private final int indent;
  /** Compact JSON without source lines: {@link #frames} writes it from ready-made pieces. */
  private final boolean compact;

  SymbolizePrinter(Config config) {
    this.c = config;
    this.json = config.style == Style.JSON;
    this.indent = config.pretty ? 2 : 0;
    this.compact = json && indent == 0 && !config.context.enabled();
  }

  Config config() {
    return c;
  }

  /**
   * {@code text} as this style prints it: its bytes ({@link dev.gsym.ByteStrings}), or for JSON a
   * quoted JSON string (llvm's {@code fixUTF8} and escapes).
   */
  byte[] encode(String text) {
    TextBuffer b = new TextBuffer(text.length() + 8);
    if (json) JsonText.quote(b, text);
    else b.append(text);
    return java.util.Arrays.copyOf(b.array(), b.length());
  }

  /** What llvm prints before the first answer (JSON list: "["). */
  void begin(TextBuffer out) {
    if (json && c.list) out.append('[');
  }

  /** What llvm prints after the last answer (JSON list: "]" and a newline). */
  void end(TextBuffer out, boolean any) {
    if (!json || !c.list) return;
    if (any && indent > 0) out.append('\n');
    out.append(']').append('\n');
  }

  /** An address's frames, deepest first (llvm's {@code DIInliningInfo}); none prints one unknown frame in text. */
  void inlining(TextBuffer out, Request r, List<LineInfo> frames) {
    inlining(out, r, frames, null);
  }

  /** {@link #inlining(TextBuffer, Request, List)} with a {@code --stack} note (null: none). */
  void inlining(TextBuffer out, Request r, List<LineInfo> frames, MergedNote merged) {
    if (json) {
      JsonText j = open(out);
      top(j, r, null, merged);
      j.key("Symbol").arrayBegin();
      for (LineInfo f : frames) frame(j, f.function, f.file, f.fileText, f.line, f.hasStart, f.start);
      j.arrayEnd().objectEnd();
      close(j, out);
      return;
    }
    header(out, r);
    if (frames.isEmpty()) {
      plain(out, LineInfo.EMPTY, false);
    } else {
      for (int i = 0; i < frames.size(); i++) plain(out, frames.get(i), i > 0);
    }
    note(out, merged);
    footer(out);
  }

  /**
   * An address's frames, deepest first ({@link #inlining(TextBuffer, Request, List, MergedNote)});
   * with {@code inlines} false only frame 0 is printed ({@link #lineInfo(TextBuffer, Request,
   * LineInfo)}). Compact JSON without source context is written from ready-made pieces.
   */
  void frames(TextBuffer out, Request r, Frames f, boolean inlines) {
    int n = inlines ? f.count : Math.min(1, f.count);
    if (json) {
      if (compact) {
        if (c.list) out.append(',');
        out.append(ADDRESS_KEY).appendHex(r.address, 1).append(MODULE_KEY);
        if (r.moduleJson != null) out.append(r.moduleJson);
        else JsonText.quote(out, r.module);
        out.append(SYMBOL_KEY);
        for (int i = 0; i < n; i++) {
          if (i > 0) out.append(',');
          out.append(FRAME_FILE).append(f.file[i] == null ? EMPTY_STRING : f.file[i]).append(FRAME_FUNCTION)
              .append(f.function[i] == null ? EMPTY_STRING : f.function[i]).append(FRAME_LINE).appendUnsigned(f.line[i])
              .append(FRAME_START);
          if (f.hasStart[i]) out.appendHex(f.start[i], 1);
          out.append(FRAME_END);
        }
        out.append(']').append('}');
        if (!c.list) out.append('\n');
        return;
      }
      JsonText j = open(out);
      top(j, r, null, null);
      j.key("Symbol").arrayBegin();
      for (int i = 0; i < n; i++) frame(j, f.function[i], f.file[i], f.fileText[i], f.line[i], f.hasStart[i], f.start[i]);
      j.arrayEnd().objectEnd();
      close(j, out);
      return;
    }
    header(out, r);
    for (int i = 0; i < n; i++) plain(out, f.function[i], f.file[i], f.fileText[i], f.line[i], f.hasStart[i], f.start[i], i > 0);
    footer(out);
  }

  /** One frame (llvm's {@code DILineInfo}: {@code --no-inlines}, unknown input, empty input). */
  void lineInfo(TextBuffer out, Request r, LineInfo f) {
    lineInfo(out, r, f, null);
  }

  /** {@link #lineInfo(TextBuffer, Request, LineInfo)} with a {@code --stack} note (null: none). */
  void lineInfo(TextBuffer out, Request r, LineInfo f, MergedNote merged) {
    if (json) {
      inlining(out, r, List.of(f), merged);
      return;
    }
    header(out, r);
    plain(out, f, false);
    note(out, merged);
    footer(out);
  }

  /**
   * The text form of a {@link MergedNote}: {@code "  merged: RESOLUTION[ from frame N: CHOSEN] (K
   * candidates: NAMES)"}, names joined by ", ".
   */
  private static void note(TextBuffer out, MergedNote m) {
    if (m == null) return;
    out.append("  merged: ").append(m.resolution);
    if (m.callerFrame >= 0) {
      out.append(" from frame ").appendUnsigned(m.callerFrame).append(':').append(' ');
      join(out, m.chosen);
    }
    out.append(" (").appendUnsigned(m.candidates.size()).append(" candidates: ");
    join(out, m.candidates);
    out.append(')').append('\n');
  }

  private static void join(TextBuffer out, List<byte[]> names) {
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) out.append(',').append(' ');
      out.append(names.get(i));
    }
  }

  /** A {@code DATA} answer without a data symbol (GSYM has none): name unknown, start and size 0. */
  void data(TextBuffer out, Request r) {
    if (json) {
      emptyAnswer(out, r, j -> j.key("Data").objectBegin().member("Name", "").hexMember("Size", 0).hexMember("Start", 0).objectEnd());
      return;
    }
    header(out, r);
    out.append("??\n0 0\n??:?\n");
    footer(out);
  }

  /** A {@code FRAME} answer without locals (GSYM has none). */
  void locals(TextBuffer out, Request r) {
    if (json) {
      emptyAnswer(out, r, j -> j.key("Frame").arrayBegin().arrayEnd());
      return;
    }
    header(out, r);
    out.append("??\n");
    footer(out);
  }

  /** A symbol lookup without locations (llvm-symbolizer-22 finds none in a GSYM file). */
  void locations(TextBuffer out, Request r) {
    if (json) {
      emptyAnswer(out, r, j -> j.key("Loc").arrayBegin().arrayEnd());
      return;
    }
    lineInfo(out, r, LineInfo.EMPTY);
  }

  /** A JSON answer with nothing found: the address, {@code answer}'s member, the module and symbol. */
  private void emptyAnswer(TextBuffer out, Request r, java.util.function.Consumer<JsonText> answer) {
    JsonText j = open(out);
    j.objectBegin();
    if (r.hasAddress) j.hexMember("Address", r.address);
    answer.accept(j);
    j.member("ModuleName", r.module);
    if (r.symbol != null) j.member("SymName", r.symbol);
    j.objectEnd();
    close(j, out);
  }

  /** JSON only: the error object llvm prints instead of an answer. */
  void error(TextBuffer out, Request r, String message) {
    JsonText j = open(out);
    top(j, r, message, null);
    j.objectEnd();
    close(j, out);
  }

  private JsonText open(TextBuffer out) {
    if (c.list) {
      out.append(',');
      if (indent > 0) out.append('\n').repeat(' ', indent);
    }
    return new JsonText(out, indent, c.list ? indent : 0);
  }

  private void close(JsonText j, TextBuffer out) {
    if (!c.list) out.append('\n');
  }

  /** Opens the answer object and writes the members that sort before "Symbol". */
  private static void top(JsonText j, Request r, String error, MergedNote merged) {
    j.objectBegin();
    if (r.hasAddress) j.hexMember("Address", r.address);
    if (error != null) j.key("Error").objectBegin().member("Message", error).objectEnd();
    if (merged != null) {
      j.key("Merged").objectBegin();
      if (merged.callerFrame >= 0) j.member("CallerFrame", merged.callerFrame);
      j.key("Candidates").arrayBegin();
      for (byte[] n : merged.candidates) j.rawValue(n);
      j.arrayEnd().key("Chosen").arrayBegin();
      for (byte[] n : merged.chosen) j.rawValue(n);
      j.arrayEnd().member("Resolution", merged.resolution).objectEnd();
    }
    if (r.moduleJson != null) j.rawMember("ModuleName", r.moduleJson);
    else j.member("ModuleName", r.module);
    if (r.symbol != null) j.member("SymName", r.symbol);
  }

  private void frame(JsonText j, byte[] function, byte[] file, String fileText, long line, boolean hasStart, long start) {
    j.objectBegin();
    j.member("Column", 0).member("Discriminator", 0);
    j.rawMember("FileName", file == null ? EMPTY_STRING : file);
    j.rawMember("FunctionName", function == null ? EMPTY_STRING : function);
    j.member("Line", line);
    if (c.context.enabled() && fileText != null) {
      TextBuffer src = new TextBuffer(256);
      c.context.format(src, fileText, line);
      if (src.length() > 0) j.member("Source", src.toString());
    }
    if (hasStart) j.hexMember("StartAddress", start);
    else j.member("StartAddress", "");
    j.member("StartFileName", "").member("StartLine", 0);
    j.objectEnd();
  }

  private void header(TextBuffer out, Request r) {
    if (r.hasAddress && c.printAddress) {
      out.appendHex(r.address, 1);
      if (c.pretty) out.append(':').append(' ');
      else out.append('\n');
    }
  }

  private void footer(TextBuffer out) {
    if (c.style == Style.LLVM) out.append('\n');
  }

  private void plain(TextBuffer out, LineInfo f, boolean inlined) {
    plain(out, f.function, f.file, f.fileText, f.line, f.hasStart, f.start, inlined);
  }

  private void plain(TextBuffer out, byte[] function, byte[] fileName, String fileText, long line, boolean hasStart,
      long start, boolean inlined) {
    if (c.printFunctions) {
      if (c.pretty && inlined) out.append(INLINED_BY);
      out.append(function == null ? UNKNOWN : function);
      if (c.pretty) out.append(AT);
      else out.append('\n');
    }
    byte[] file = fileName == null ? UNKNOWN : fileName;
    if (c.verbose) {
      out.append("  Filename: ").append(file).append('\n');
      if (c.style == Style.LLVM && hasStart) out.append("  Function start address: ").appendHex(start, 1).append('\n');
      out.append("  Line: ").appendUnsigned(line).append('\n');
      out.append("  Column: 0\n");
      return;
    }
    out.append(file).append(':').appendUnsigned(line);
    if (c.style == Style.LLVM) out.append(':').append('0');
    out.append('\n');
    if (fileText != null) c.context.format(out, fileText, line);
  }

  private static final byte[] INLINED_BY = ascii(" (inlined by) ");
  private static final byte[] AT = ascii(" at ");
}
