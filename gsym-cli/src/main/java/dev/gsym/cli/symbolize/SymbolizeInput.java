package dev.gsym.cli.symbolize;

import dev.gsym.ByteStrings;
import dev.gsym.cli.Addresses;
import java.util.HexFormat;
import java.util.Locale;

/**
 * One input of {@code gsymutil symbolize} (an address argument or a stdin line) parsed as
 * llvm-symbolizer-22's {@code parseCommand} parses it: an optional {@code CODE }, {@code DATA } or
 * {@code FRAME } command, an optional {@code FILE:} or {@code BUILDID:} prefix, the module (a word
 * ended by a space, CR or LF, or quoted with {@code "} or {@code '}; absent when {@code --obj} or
 * {@code --build-id} names it), then the address: a number in C notation ({@code 0x} hex, {@code
 * 0b} binary, {@code 0o} or a leading {@code 0} octal, else decimal; anything after a space is
 * ignored) or, if it does not start with a digit, a symbol name with an optional {@code +offset}.
 *
 * @param command what is asked
 * @param module the module name llvm prints: the path as given, or the build-id in upper-case hex
 *     ("" if none could be parsed)
 * @param buildId the build-id bytes, or null for a module given by path
 * @param symbol the symbol of a symbol lookup ({@code FILE main}), or null for an address
 * @param offset the address (or the offset after the symbol)
 * @param error llvm's message if the input cannot be parsed (then only {@code module} and {@code
 *     raw} are set)
 * @param raw the input as given, for the message about an input that cannot be parsed (null for
 *     one that parses)
 */
record SymbolizeInput(Command command, String module, byte[] buildId, String symbol, long offset, String error,
    String raw) {
  /** llvm-symbolizer's commands. */
  enum Command {
    CODE,
    DATA,
    FRAME,
  }

  private static final byte[] CODE = {'C', 'O', 'D', 'E', ' '};
  private static final byte[] DATA = {'D', 'A', 'T', 'A', ' '};
  private static final byte[] FRAME = {'F', 'R', 'A', 'M', 'E', ' '};
  private static final byte[] FILE = {'F', 'I', 'L', 'E', ':'};
  private static final byte[] BUILDID = {'B', 'U', 'I', 'L', 'D', 'I', 'D', ':'};

  /** {@link #parse(byte[], int, int, String, byte[])} of a String (an address argument). */
  static SymbolizeInput parse(String input, String binaryName, byte[] buildId) {
    byte[] b = ByteStrings.encode(input);
    return parse(b, 0, b.length, binaryName, buildId);
  }

  /**
   * Parses the input in {@code b[from, to)} for a command line that named the module with {@code
   * --obj} ({@code binaryName}, "" if not) or {@code --build-id} ({@code buildId}, null if not).
   * Works on the bytes (llvm's delimiters are ASCII) and decodes only the module name and a symbol.
   */
  static SymbolizeInput parse(byte[] b, int from, int to, String binaryName, byte[] buildId) {
    return parse(b, from, to, binaryName, buildId, null);
  }

  /**
   * Module words already read, by their bytes: a batch names few modules, each many times, and a
   * word seen before gives its module name and build-id without decoding them again. Direct-mapped
   * (a word that collides is read again); one per reading thread.
   */
  static final class Words {
    private static final int SLOTS = 1 << 10;
    private final byte[][] word = new byte[SLOTS][];
    private final boolean[] buildIdWord = new boolean[SLOTS];
    private final String[] name = new String[SLOTS];
    private final byte[][] id = new byte[SLOTS][];
    /** The last build-id named in upper-case hex, and that name. */
    private byte[] lastId;
    private String lastIdName;
    private int found = -1;

    /** True if {@code b[from, to)} was read before as a word of this kind: {@link #name}, {@link #id}. */
    private boolean find(byte[] b, int from, int to, boolean buildId) {
      int slot = slot(b, from, to);
      byte[] w = word[slot];
      if (w == null || buildIdWord[slot] != buildId || !java.util.Arrays.equals(w, 0, w.length, b, from, to)) return false;
      found = slot;
      return true;
    }

    private void put(byte[] b, int from, int to, boolean buildId, String moduleName, byte[] buildIdBytes) {
      int slot = slot(b, from, to);
      word[slot] = java.util.Arrays.copyOfRange(b, from, to);
      buildIdWord[slot] = buildId;
      name[slot] = moduleName;
      id[slot] = buildIdBytes;
    }

    /** The upper-case hex of {@code buildId} (the same array as last time: the same name). */
    private String hexName(byte[] buildId) {
      if (buildId != lastId) {
        lastIdName = HexFormat.of().formatHex(buildId).toUpperCase(Locale.ROOT);
        lastId = buildId;
      }
      return lastIdName;
    }

    private static int slot(byte[] b, int from, int to) {
      int h = 1;
      for (int i = from; i < to; i++) h = 31 * h + b[i];
      h *= 0x9E3779B9;
      return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
  }

  /**
   * {@link #parse(byte[], int, int, String, byte[])} with module words remembered in {@code words}
   * (null: none), for a batch of lines.
   */
  static SymbolizeInput parse(byte[] b, int from, int to, String binaryName, byte[] buildId, Words words) {
    String moduleName = binaryName;
    byte[] id = buildId;
    Command cmd = Command.CODE;
    int p = from;
    if (startsWith(b, p, to, CODE)) {
      p += CODE.length;
    } else if (startsWith(b, p, to, DATA)) {
      cmd = Command.DATA;
      p += DATA.length;
    } else if (startsWith(b, p, to, FRAME)) {
      cmd = Command.FRAME;
      p += FRAME.length;
    }
    boolean filePrefix = false;
    boolean buildIdPrefix = false;
    while (p < to) {
      p = skipWhitespace(b, p, to);
      if (startsWith(b, p, to, FILE)) {
        if (filePrefix || buildIdPrefix) return error(b, from, to, moduleName, "duplicate input file specification prefix");
        filePrefix = true;
        p += FILE.length;
        continue;
      }
      if (startsWith(b, p, to, BUILDID)) {
        if (filePrefix || buildIdPrefix) return error(b, from, to, moduleName, "duplicate input file specification prefix");
        buildIdPrefix = true;
        p += BUILDID.length;
        continue;
      }
      break;
    }
    if (filePrefix || buildIdPrefix) {
      p = skipWhitespace(b, p, to);
      if (p == to) {
        return error(b, from, to, moduleName, filePrefix ? "must be followed by an input file" : "must be followed by a hash");
      }
      if (!binaryName.isEmpty() || buildId != null) return error(b, from, to, moduleName, "input file has already been specified");
      int[] w = word(b, p, to);
      int ws = w[0];
      int we = w[1];
      if (we == ws) return error(b, from, to, moduleName, "unbalanced quotes in input file name");
      p = w[2];
      if (words != null && words.find(b, ws, we, buildIdPrefix)) {
        moduleName = words.name[words.found];
        id = words.id[words.found];
      } else if (buildIdPrefix) {
        id = parseBuildId(ByteStrings.decode(b, ws, we - ws));
        if (id == null) return error(b, from, to, moduleName, "wrong format of build-id");
        moduleName = HexFormat.of().formatHex(id).toUpperCase(Locale.ROOT);
        if (words != null) words.put(b, ws, we, true, moduleName, id);
      } else {
        moduleName = ByteStrings.decode(b, ws, we - ws);
        if (words != null) words.put(b, ws, we, false, moduleName, null);
      }
    } else if (binaryName.isEmpty() && buildId == null) {
      int[] w = word(b, p, to);
      int ws = w[0];
      int we = w[1];
      if (words != null && words.find(b, ws, we, false)) {
        moduleName = words.name[words.found];
      } else {
        moduleName = ByteStrings.decode(b, ws, we - ws);
        if (words != null && we > ws) words.put(b, ws, we, false, moduleName, null);
      }
      if (we == ws) return error(b, from, to, moduleName, "no input filename has been specified");
      p = w[2];
    } else if (id != null) {
      // --build-id names the module of every line
      moduleName = words != null ? words.hexName(id) : HexFormat.of().formatHex(id).toUpperCase(Locale.ROOT);
    }
    p = skipWhitespace(b, p, to);
    int end = to;
    while (end > p && whitespace(b[end - 1])) end--;
    if (p == end) return error(b, from, to, moduleName, "no module offset has been specified");
    int specEnd = p;
    while (specEnd < end && !delimiter(b[specEnd])) specEnd++;
    long[] value = new long[1];
    if (Addresses.parse(b, p, specEnd, value)) return new SymbolizeInput(cmd, moduleName, id, null, value[0], null, null);
    if (b[p] >= '0' && b[p] <= '9') return error(b, from, to, moduleName, "expected a number as module offset");
    // a symbol, perhaps "symbol+offset"
    int plus = specEnd - 1;
    while (plus >= p && b[plus] != '+') plus--;
    if (plus > p && plus + 1 < specEnd && Addresses.parse(b, plus + 1, specEnd, value)) {
      return new SymbolizeInput(cmd, moduleName, id, ByteStrings.decode(b, p, plus - p), value[0], null, null);
    }
    return new SymbolizeInput(cmd, moduleName, id, ByteStrings.decode(b, p, specEnd - p), 0, null, null);
  }

  /** True for a module named by build-id. */
  boolean byBuildId() {
    return buildId != null;
  }

  /**
   * llvm's {@code tryGetFromHex}: hex digits of either case, an odd count read as if a 0 came first;
   * null if empty or not hex.
   */
  static byte[] parseBuildId(String hex) {
    if (hex.isEmpty()) return null;
    for (int i = 0; i < hex.length(); i++) if (Character.digit(hex.charAt(i), 16) < 0 || hex.charAt(i) > 0x7f) return null;
    String even = hex.length() % 2 == 0 ? hex : "0" + hex;
    return HexFormat.of().parseHex(even);
  }

  private static SymbolizeInput error(byte[] b, int from, int to, String module, String message) {
    return new SymbolizeInput(Command.CODE, module, null, null, 0, message, ByteStrings.decode(b, from, to - from));
  }

  /** Whitespace as {@code StringRef::trim} has it: space, TAB, LF, VT, FF, CR. */
  private static boolean whitespace(byte c) {
    return c == ' ' || c >= '\t' && c <= '\r';
  }
  /** What ends a word ({@code getSpaceDelimitedWord}) and an address. */
  private static boolean delimiter(byte c) {
    return c == ' ' || c == '\n' || c == '\r';
  }

  private static boolean startsWith(byte[] b, int p, int to, byte[] prefix) {
    if (to - p < prefix.length) return false;
    for (int i = 0; i < prefix.length; i++) if (b[p + i] != prefix[i]) return false;
    return true;
  }

  private static int skipWhitespace(byte[] b, int p, int to) {
    while (p < to && whitespace(b[p])) p++;
    return p;
  }

  /**
   * llvm's {@code getSpaceDelimitedWord}: the word at {@code p} after delimiters, or inside quotes,
   * as {start, end, where parsing goes on}; empty for an unclosed quote.
   */
  private static int[] word(byte[] b, int p, int to) {
    while (p < to && delimiter(b[p])) p++;
    if (p < to && (b[p] == '"' || b[p] == '\'')) {
      byte quote = b[p];
      int close = p + 1;
      while (close < to && b[close] != quote) close++;
      if (close == to) return new int[] {p, p, p};
      return new int[] {p + 1, close, close + 1};
    }
    int e = p;
    while (e < to && !delimiter(b[e])) e++;
    return new int[] {p, e, e};
  }
}
