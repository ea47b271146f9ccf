package dev.gsym.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field Breakpad's minidump_dump prints, for every dump of the corpus (src-test-data/minidump:
 * Breakpad's Linux client on x86-64 and i386, core2md, and the external dumps of other writers),
 * equals what our reader reads: {@link MinidumpDumpText} writes minidump_dump's output from our
 * reader, compared byte for byte with the committed {@code expected/NAME.dump.txt.gz}.
 */
class MinidumpDumpTest {
  static Path dir() {
    return TestData.path("minidump");
  }

  /** Every corpus dump: dumps/*.dmp and external/*.dmp. */
  static Stream<Path> dumps() {
    try (Stream<Path> a = Files.list(dir().resolve("dumps")); Stream<Path> b = Files.list(dir().resolve("external"))) {
      List<Path> all = Stream.concat(a, b).filter(p -> p.toString().endsWith(".dmp")).sorted().toList();
      assertThat(all).hasSizeGreaterThan(20);
      return all.stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String name(Path dump) {
    String f = dump.getFileName().toString();
    return f.substring(0, f.length() - 4);
  }

  /** The exit status of {@code tool} on {@code dump} when the goldens were made (expected/status.tsv). */
  static int status(Path dump, String tool) {
    String key = dir().relativize(dump).toString();
    try {
      for (String line : Files.readAllLines(dir().resolve("expected").resolve("status.tsv"))) {
        String[] f = line.split("\t");
        if (f[0].equals(key) && f[1].equals(tool)) return Integer.parseInt(f[2]);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalArgumentException("no status of " + tool + " on " + key);
  }

  /** The committed minidump_dump output of {@code dump}, bytes as {@link ByteStrings} decodes them. */
  static String expectedDump(Path dump) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(dir().resolve("expected").resolve(name(dump) + ".dump.txt.gz")))) {
      return ByteStrings.decode(in.readAllBytes());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dumps")
  void printsWhatMinidumpDumpPrints(Path path) throws IOException {
    String expected = expectedDump(path);
    Minidump dump;
    try {
      dump = Minidump.open(path);
    } catch (GsymFormatException refused) {
      // minidump_dump prints nothing for a dump whose header or directory Breakpad refuses
      assertThat(expected).as("minidump_dump read %s, we refused it: %s", path, refused.getMessage()).isEmpty();
      return;
    }
    try (dump) {
      String actual = MinidumpDumpText.of(dump);
      if (!actual.equals(expected)) {
        // the whole text, for a diff against the golden
        Path out = Path.of("target", "minidump-dump", name(path) + ".dump.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, ByteStrings.encode(actual));
      }
      assertThat(actual).as("minidump_dump's output (ours in gsym-object/target/minidump-dump)").isEqualTo(expected);
    }
  }
}
