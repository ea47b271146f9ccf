package dev.gsym.cli;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.GsymFormatException;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.FuzzSeeds;
import dev.gsym.testing.Slow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for gsymutil's conversions end to end (docs/reliability.md): the input
 * is an ELF file ({@code gsymutil --dwarf IN -o OUT}) or anything else as a Breakpad file ({@code
 * gsymutil --breakpad IN -o OUT}). A failed conversion must exit non-zero, name the input (in the
 * error, or in the {@code Input file:} line before llvm's wording), print no Java exception or
 * stack trace, and leave no file at OUT nor beside it; a successful one must leave a GSYM that
 * opens. An input taking longer than {@link #LIMIT} is a finding.
 */
@Slow
class ConversionCliFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);
  /** What an internal error looks like: a Java exception or error class, or a stack frame. */
  private static final Pattern JAVA_TRACE = Pattern.compile("\\b(java|javax|jdk|dev\\.gsym)\\.[\\w.$]*(Exception|Error)\\b|\\n\\s+at ");

  static Stream<Arguments> seeds() {
    return Stream.of(FuzzSeeds.files("breakpad", n -> n.endsWith(".sym")),
        Stream.of(FuzzSeeds.file("bin", "c-clang-O2"), FuzzSeeds.file("bin", "fs-ppc64-O2-d5"), FuzzSeeds.file("bin", "c-gcc-O2-gz-zstd"),
            FuzzSeeds.file("bin", "icf-clang-O2-gold"))).flatMap(s -> s);
  }

  @MethodSource("seeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void convert(byte[] input) throws IOException {
    boolean elf = input.length >= 4 && input[0] == 0x7f && input[1] == 'E' && input[2] == 'L' && input[3] == 'F';
    Path dir = Files.createTempDirectory("gsym-cli-fuzz");
    try {
      Path in = Files.write(dir.resolve(elf ? "in.elf" : "in.sym"), input);
      Path out = dir.resolve("out.gsym");
      FuzzLimits.within(LIMIT, "cli", (elf ? "--dwarf" : "--breakpad") + " of " + input.length + " bytes", () -> {
        deleteAllBut(dir, in);
        CliRun r = CliRun.run(elf ? "--dwarf" : "--breakpad", in.toString(), "-o", out.toString(), "--quiet");
        if (JAVA_TRACE.matcher(r.err()).find() || JAVA_TRACE.matcher(r.out()).find()) {
          throw new AssertionError("internal error: exit " + r.status() + "\n" + r.err() + r.out());
        }
        if (r.status() != 0) {
          // llvm's wording is kept where llvm has one ("DWARF conversion failed: : no functions to
          // encode"); the input is then named by the "Input file:" line before it
          if (!(r.out() + r.err()).contains(in.toString())) {
            throw new AssertionError("the input is not named: " + r.out() + r.err());
          }
          try (Stream<Path> s = Files.list(dir)) {
            java.util.List<Path> left = s.filter(p -> !p.equals(in)).toList();
            if (!left.isEmpty()) throw new AssertionError("a failed conversion left " + left + "; error: " + r.err());
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          return;
        }
        try (GsymReader g = GsymReader.open(out)) {
          g.dump(new StringBuilder());
        } catch (GsymFormatException | IOException e) {
          throw new AssertionError("a successful conversion wrote a GSYM that does not open: " + e.getMessage(), e);
        }
      });
    } finally {
      deleteAllBut(dir, null);
    }
  }

  /**
   * The seeds convert (exit 0, a GSYM that opens, with functions), but bad.sym (a malformed line
   * record) and stack-only.sym (no functions): the replay alone would pass a command that refused
   * every input.
   */
  @org.junit.jupiter.api.Test
  void seedsAreAccepted() {
    FuzzSeeds.assertRefused(seeds(), input -> {
      boolean elf = input.length >= 4 && input[0] == 0x7f && input[1] == 'E' && input[2] == 'L' && input[3] == 'F';
      Path dir = null;
      try {
        dir = Files.createTempDirectory("gsym-cli-seed");
        Path in = Files.write(dir.resolve(elf ? "in.elf" : "in.sym"), input);
        Path out = dir.resolve("out.gsym");
        CliRun r = CliRun.run(elf ? "--dwarf" : "--breakpad", in.toString(), "-o", out.toString(), "--quiet");
        if (r.status() != 0) throw new AssertionError("exit " + r.status() + ": " + r.err());
        try (GsymReader g = GsymReader.open(out)) {
          if (g.numFunctions() == 0) throw new AssertionError("no function converted");
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        if (dir != null) deleteAllBut(dir, null);
      }
    }, java.util.Map.of("breakpad/bad.sym", "invalid line record size 'zz'", "breakpad/stack-only.sym",
        "no FUNC or PUBLIC records: nothing to convert"));
  }

  private static void deleteAllBut(Path dir, Path keep) {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(keep) && !(keep != null && p.equals(dir))) Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
