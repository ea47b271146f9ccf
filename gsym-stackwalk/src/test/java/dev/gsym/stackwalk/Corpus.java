package dev.gsym.stackwalk;

import dev.gsym.ByteStrings;
import dev.gsym.minidump.Minidump;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.tukaani.xz.XZInputStream;

/** The minidump corpus of src-test-data/minidump: dumps, goldens, symbols (unpacked once per JVM). */
final class Corpus {
  private Corpus() {}

  static Path dir() {
    return TestData.repoRoot().resolve("src-test-data").resolve("minidump");
  }

  /** Every dump: dumps/*.dmp, then external/*.dmp, by name. */
  static List<Path> dumps() {
    List<Path> out = new ArrayList<>();
    for (String sub : List.of("dumps", "external")) {
      try (Stream<Path> s = Files.list(dir().resolve(sub))) {
        s.filter(p -> p.toString().endsWith(".dmp")).sorted().forEach(out::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  static String name(Path dump) {
    String n = dump.getFileName().toString();
    return n.substring(0, n.length() - ".dmp".length());
  }

  /** The golden {@code X.KIND.txt} (KIND: stackwalk, stackwalk-m, stackwalk-sym, stackwalk-sym-m), or null when there is none. */
  static Path golden(Path dump, String kind) {
    Path p = dir().resolve("expected").resolve(name(dump) + "." + kind + ".txt");
    return Files.exists(p) ? p : null;
  }

  /** minidump_stackwalk's exit status for the dump and tool ("minidump_stackwalk", "minidump_stackwalk -m", ...). */
  static int status(Path dump, String tool) {
    String rel = dir().relativize(dump).toString();
    try {
      for (String line : Files.readAllLines(dir().resolve("expected").resolve("status.tsv"))) {
        String[] f = line.split("\t");
        if (f.length == 3 && f[0].equals(rel) && f[1].equals(tool)) return Integer.parseInt(f[2]);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("no status for " + rel + " " + tool);
  }

  private static Path symbols;
  private static Path externalSymbols;

  /** The symbol directory the goldens of {@code dump} were made with: symbols/ for dumps/, external/symbols/ for external/. */
  static Path symbols(Path dump) throws IOException {
    return dump.getParent().getFileName().toString().equals("external") ? externalSymbols() : symbols();
  }

  /** The symbol directory of dumps/: symbols/ with its .sym.xz files unpacked (into a temporary directory). */
  static synchronized Path symbols() throws IOException {
    if (symbols == null) symbols = unpack(dir().resolve("symbols"));
    return symbols;
  }

  /** The symbol directory of external/: external/symbols/ (Breakpad's test data) unpacked. */
  static synchronized Path externalSymbols() throws IOException {
    if (externalSymbols == null) externalSymbols = unpack(dir().resolve("external").resolve("symbols"));
    return externalSymbols;
  }

  private static Path unpack(Path src) throws IOException {
    Path out = Files.createTempDirectory("gsym-stackwalk-symbols");
    try (Stream<Path> s = Files.walk(src)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Path rel = src.relativize(p);
        String n = rel.toString();
        Path to = out.resolve(n.endsWith(".xz") ? n.substring(0, n.length() - 3) : n);
        Files.createDirectories(to.getParent());
        if (n.endsWith(".xz")) {
          try (InputStream in = new XZInputStream(Files.newInputStream(p))) {
            Files.copy(in, to);
          }
        } else {
          Files.copy(p, to);
        }
      }
    }
    return out;
  }

  /** The bytes minidump_stackwalk prints for {@code text} (Strings decoded by ByteStrings). */
  static byte[] bytes(String text) {
    return ByteStrings.encode(text);
  }

  /** What {@code print} makes of the walk of {@code dump} with {@code walker} (printed while the dump is open). */
  static String walk(Path dump, Stackwalker walker, java.util.function.Function<ProcessState, String> print) throws IOException {
    try (Minidump d = Minidump.open(dump)) {
      return print.apply(walker.walk(d));
    }
  }
}
