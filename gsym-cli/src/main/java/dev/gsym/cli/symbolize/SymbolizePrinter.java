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
   */
  record Request(String module, boolean hasAddress, long address, String symbol) {}

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
   * {@code --stack}: how a frame with merged functions was resolved (docs/symbolize.md, "Merged
   * functions"), its names encoded for the style ({@link #encode}).
   *
   * @param resolution {@code unique}, {@code call_site} or {@code ambiguous}
   * @param callerFrame the frame (index in its stack) whose call site chose, or -1
   */
  record MergedNote(String resolution, int callerFrame, List<byte[]> candidates, List<byte[]> chosen) {}

  private static final byte[] EMPTY_STRING = {'"', '"'};
  private static final byte[] UNKNOWN = {'?', '?'};

  private final Config c;
  private final boolean json;
  /** JSON: spaces per level; 0 compact. */
  private final int indent;

  SymbolizePrinter(Config config) {
    this.c = config;
    this.json = config.style == Style.JSON;
    this.indent = config.pretty ? 2 : 0;
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
      for (LineInfo f : frames) frame(j, out, f);
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
    j.member("ModuleName", r.module);
    if (r.symbol != null) j.member("SymName", r.symbol);
  }

  private void frame(JsonText j, TextBuffer out, LineInfo f) {
    j.objectBegin();
    j.member("Column", 0).member("Discriminator", 0);
    j.rawMember("FileName", f.file == null ? EMPTY_STRING : f.file);
    j.rawMember("FunctionName", f.function == null ? EMPTY_STRING : f.function);
    j.member("Line", f.line);
    if (c.context.enabled() && f.fileText != null) {
      TextBuffer src = new TextBuffer(256);
      c.context.format(src, f.fileText, f.line);
      if (src.length() > 0) j.member("Source", src.toString());
    }
    if (f.hasStart) j.hexMember("StartAddress", f.start);
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
    if (c.printFunctions) {
      if (c.pretty && inlined) out.append(" (inlined by) ");
      out.append(f.function == null ? UNKNOWN : f.function);
      out.append(c.pretty ? " at " : "\n");
    }
    byte[] file = f.file == null ? UNKNOWN : f.file;
    if (c.verbose) {
      out.append("  Filename: ").append(file).append('\n');
      if (c.style == Style.LLVM && f.hasStart) out.append("  Function start address: ").appendHex(f.start, 1).append('\n');
      out.append("  Line: ").appendUnsigned(f.line).append('\n');
      out.append("  Column: 0\n");
      return;
    }
    out.append(file).append(':').appendUnsigned(f.line);
    if (c.style == Style.LLVM) out.append(':').append('0');
    out.append('\n');
    if (f.fileText != null) c.context.format(out, f.fileText, f.line);
  }
}
