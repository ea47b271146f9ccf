package dev.gsym.cli;

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
 * @param error llvm's message if the input cannot be parsed (then only {@code module} is set)
 */
record SymbolizeInput(Command command, String module, byte[] buildId, String symbol, long offset, String error) {
  /** llvm-symbolizer's commands. */
  enum Command {
    CODE,
    DATA,
    FRAME,
  }

  /** Whitespace as {@code StringRef::trim} has it. */
  private static final String WHITESPACE = " \t\n\u000b\f\r";
  /** What ends a word ({@code getSpaceDelimitedWord}) and an address. */
  private static final String DELIMITERS = " \n\r";

  /**
   * Parses {@code input} for a command line that named the module with {@code --obj} ({@code
   * binaryName}, "" if not) or {@code --build-id} ({@code buildId}, null if not).
   */
  static SymbolizeInput parse(String input, String binaryName, byte[] buildId) {
    String moduleName = binaryName;
    byte[] id = buildId;
    Command cmd = Command.CODE;
    String s = input;
    if (s.startsWith("CODE ")) {
      s = s.substring(5);
    } else if (s.startsWith("DATA ")) {
      cmd = Command.DATA;
      s = s.substring(5);
    } else if (s.startsWith("FRAME ")) {
      cmd = Command.FRAME;
      s = s.substring(6);
    }
    boolean filePrefix = false;
    boolean buildIdPrefix = false;
    while (!s.isEmpty()) {
      s = ltrim(s);
      if (s.startsWith("FILE:")) {
        if (filePrefix || buildIdPrefix) return error(moduleName, "duplicate input file specification prefix");
        filePrefix = true;
        s = s.substring(5);
        continue;
      }
      if (s.startsWith("BUILDID:")) {
        if (filePrefix || buildIdPrefix) return error(moduleName, "duplicate input file specification prefix");
        buildIdPrefix = true;
        s = s.substring(8);
        continue;
      }
      break;
    }
    int[] pos = {0};
    if (filePrefix || buildIdPrefix) {
      s = ltrim(s);
      if (s.isEmpty()) {
        return error(moduleName, filePrefix ? "must be followed by an input file" : "must be followed by a hash");
      }
      if (!binaryName.isEmpty() || buildId != null) return error(moduleName, "input file has already been specified");
      String name = word(s, pos);
      if (name.isEmpty()) return error(moduleName, "unbalanced quotes in input file name");
      s = s.substring(pos[0]);
      if (buildIdPrefix) {
        id = parseBuildId(name);
        if (id == null) return error(moduleName, "wrong format of build-id");
      } else {
        moduleName = name;
      }
    } else if (binaryName.isEmpty() && buildId == null) {
      moduleName = word(s, pos);
      s = s.substring(pos[0]);
      if (moduleName.isEmpty()) return error(moduleName, "no input filename has been specified");
    }
    if (id != null) moduleName = HexFormat.of().formatHex(id).toUpperCase(Locale.ROOT);
    s = trim(s);
    if (s.isEmpty()) return error(moduleName, "no module offset has been specified");
    int end = 0;
    while (end < s.length() && DELIMITERS.indexOf(s.charAt(end)) < 0) end++;
    String spec = s.substring(0, end);
    Long value = Addresses.parse(spec);
    if (value != null) return new SymbolizeInput(cmd, moduleName, id, null, value, null);
    if (spec.isEmpty() || isDigit(spec.charAt(0))) return error(moduleName, "expected a number as module offset");
    // a symbol, perhaps "symbol+offset"
    int plus = spec.lastIndexOf('+');
    if (plus > 0 && plus + 1 < spec.length()) {
      Long off = Addresses.parse(spec.substring(plus + 1));
      if (off != null) return new SymbolizeInput(cmd, moduleName, id, spec.substring(0, plus), off, null);
    }
    return new SymbolizeInput(cmd, moduleName, id, spec, 0, null);
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

  private static SymbolizeInput error(String module, String message) {
    return new SymbolizeInput(Command.CODE, module, null, null, 0, message);
  }

  /** llvm's {@code getSpaceDelimitedWord}: the word at the start of {@code s}; {@code pos[0]} ends after it. */
  private static String word(String s, int[] pos) {
    int i = 0;
    while (i < s.length() && DELIMITERS.indexOf(s.charAt(i)) >= 0) i++;
    if (i < s.length() && (s.charAt(i) == '"' || s.charAt(i) == '\'')) {
      char quote = s.charAt(i);
      int close = s.indexOf(quote, i + 1);
      if (close < 0) {
        pos[0] = i;
        return "";
      }
      pos[0] = close + 1;
      return s.substring(i + 1, close);
    }
    int start = i;
    while (i < s.length() && DELIMITERS.indexOf(s.charAt(i)) < 0) i++;
    pos[0] = i;
    return s.substring(start, i);
  }

  private static String ltrim(String s) {
    int i = 0;
    while (i < s.length() && WHITESPACE.indexOf(s.charAt(i)) >= 0) i++;
    return s.substring(i);
  }

  private static String trim(String s) {
    int e = s.length();
    while (e > 0 && WHITESPACE.indexOf(s.charAt(e - 1)) >= 0) e--;
    return ltrim(s.substring(0, e));
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
