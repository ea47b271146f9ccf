package dev.gsym.demangle;

import dev.gsym.ByteStrings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Our demangling of names against llvm-cxxfilt-22's, with every difference sorted into the
 * categories docs/symbolize.md ("Demangling") explains, or left unexplained.
 */
record Comparison(String corpus, int total, int identical, int demangledByLlvm, List<String> explained, List<String> unexplained) {
  private static final byte[] IMP = "__imp_".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** Compares {@code Demangler.llvm().demangle} (the String API) with llvm-cxxfilt's lines. */
  static Comparison of(String corpus, List<byte[]> names, List<byte[]> expected) {
    if (names.size() != expected.size()) throw new IllegalArgumentException(names.size() + " names, " + expected.size() + " outputs");
    Demangler d = Demangler.llvm();
    int identical = 0;
    int demangled = 0;
    List<String> explained = new ArrayList<>();
    List<String> unexplained = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      String name = ByteStrings.decode(names.get(i));
      String want = ByteStrings.decode(expected.get(i));
      String got = d.demangle(name);
      if (!want.equals(name)) demangled++;
      if (got.equals(want)) {
        identical++;
        continue;
      }
      String line = name + "\n  llvm-cxxfilt-22: " + want + "\n  ours:            " + got;
      if (startsWith(names.get(i), IMP) && got.equals(name) && want.startsWith("import thunk for ")) {
        // llvm-cxxfilt's own extension for Windows import thunks; llvm-symbolizer (our target)
        // leaves these names alone.
        explained.add("[__imp_ prefix] " + line);
      } else {
        unexplained.add(line);
      }
    }
    return new Comparison(corpus, names.size(), identical, demangled, explained, unexplained);
  }

  private static boolean startsWith(byte[] b, byte[] prefix) {
    return b.length >= prefix.length && Arrays.equals(b, 0, prefix.length, prefix, 0, prefix.length);
  }

  double identicalRatio() {
    return total == 0 ? 1 : (double) identical / total;
  }

  String summary() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%s: %d names (%d demangled by llvm-cxxfilt-22), %d identical (%.4f%%), %d explained, %d unexplained%n",
        corpus, total, demangledByLlvm, identical, 100 * identicalRatio(), explained.size(), unexplained.size()));
    explained.stream().limit(5).forEach(s -> sb.append("  ").append(s).append('\n'));
    unexplained.stream().limit(20).forEach(s -> sb.append("  UNEXPLAINED ").append(s).append('\n'));
    return sb.toString();
  }
}
