package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.testing.Breakpad;
import dev.gsym.testing.StartsProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Symbol files through {@link BreakpadSymbolDirectories}: each converted once into the cache and
 * mapped afterwards (also by another instance: the second walk parses no text), converted again when
 * the .sym or the cache entry changes; bad symbol files load as Breakpad loads them (corrupt,
 * possibly empty) and the walk goes on.
 */
class SymbolFilesTest {
  @TempDir
  Path tmp;

  static Path dump(String name) {
    return Corpus.dir().resolve("dumps").resolve(name + ".dmp");
  }

  /** A copy of the corpus's (unpacked) symbol directory. */
  Path copySymbols() throws IOException {
    Path src = Corpus.symbols();
    Path out = tmp.resolve("symbols");
    try (Stream<Path> s = Files.walk(src)) {
      for (Path p : s.toList()) {
        Path to = out.resolve(src.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(to);
        else Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return out;
  }

  static String text(Path dump, BreakpadSymbolDirectories symbols) throws IOException {
    return Corpus.walk(dump, Stackwalker.builder().symbols(symbols).build(), s -> StackwalkPrinter.text(s, false, false));
  }

  @Test
  void convertedOnceThenMapped() throws IOException {
    Path syms = copySymbols();
    Path cache = tmp.resolve("cache");
    Path d = dump("x86_64-nofp-abort");
    String first;
    try (BreakpadSymbolDirectories s = new BreakpadSymbolDirectories(List.of(syms), cache)) {
      first = text(d, s);
      assertThat(s.conversions()).as("crasher and libc.so.6, the modules frames fell into").isEqualTo(2);
      assertThat(text(d, s)).isEqualTo(first);
      assertThat(s.conversions()).as("the same instance keeps them open").isEqualTo(2);
    }
    assertThat(first).isEqualTo(dev.gsym.testing.TestData.text(Corpus.golden(d, "stackwalk-sym")));
    try (BreakpadSymbolDirectories s = new BreakpadSymbolDirectories(List.of(syms), cache)) {
      assertThat(text(d, s)).isEqualTo(first);
      assertThat(s.conversions()).as("another process: the cache's GSYMs, no text parsed").isZero();
    }
    // a changed .sym (every crasher.sym: one more line) and a damaged cache entry are converted again
    try (Stream<Path> s = Files.walk(syms.resolve("crasher"))) {
      for (Path sym : s.filter(p -> p.toString().endsWith(".sym")).toList()) {
        Files.writeString(sym, "\n", java.nio.file.StandardOpenOption.APPEND);
      }
    }
    try (Stream<Path> s = Files.walk(cache)) {
      for (Path g : s.filter(p -> p.toString().endsWith("libc.so.6.gsym")).toList()) Files.write(g, new byte[] {1, 2, 3});
    }
    try (BreakpadSymbolDirectories s = new BreakpadSymbolDirectories(List.of(syms), cache)) {
      assertThat(text(d, s)).isEqualTo(first);
      assertThat(s.conversions()).isEqualTo(2);
    }
  }

  /** Symbol files of every kind of damage, walked by minidump_stackwalk (a reported skip without it) and by us. */
  @Test
  @StartsProcesses
  void damagedSymbolFilesAsMinidumpStackwalk() throws Exception {
    Path tool = Breakpad.minidumpStackwalk();
    Path syms = copySymbols();
    List<Path> all;
    try (Stream<Path> s = Files.walk(syms)) {
      all = s.filter(p -> p.toString().endsWith(".sym")).sorted().toList();
    }
    for (Path sym : all) {
      String name = sym.getFileName().toString();
      if (name.equals("crasher.sym")) {
        // bad records in the middle: a FUNC that does not parse (its lines are then without a
        // function), a record type nobody knows
        List<String> lines = new ArrayList<>(Files.readAllLines(sym));
        int func = 0;
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith("FUNC ")) func = i;
        lines.set(func, "FUNC zz 10 0 broken");
        lines.add(3, "NONSENSE 1 2 3");
        Files.write(sym, lines);
      } else if (name.equals("libc.so.6.sym")) {
        Files.writeString(sym, "this is not a symbol file\nat all\n");
      } else if (name.equals("ld-linux-x86-64.so.2.sym") || name.equals("ld-linux.so.2.sym")) {
        Files.write(sym, new byte[0]);
      } else if (name.equals("libcrashlib.so.sym")) {
        Files.delete(sym);
        Files.createDirectory(sym); // a directory where the file should be
      }
    }
    try (BreakpadSymbolDirectories s = new BreakpadSymbolDirectories(List.of(syms), tmp.resolve("cache"))) {
      for (String n : List.of("x86_64-nofp-lib", "x86_64-fp-abort", "i386-nofp-lib", "i386-fp-thread")) {
        Path d = dump(n);
        Process p = new ProcessBuilder(tool.toString(), d.toString(), syms.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String expected = ByteStrings.decode(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String actual = text(d, s);
        StackwalkGoldenTest.assertSame(n, expected, actual);
        assertThat(actual).contains("(WARNING: Corrupt symbols, crasher, ");
      }
    }
  }

}
