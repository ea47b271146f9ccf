package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.gsym.format.FunctionInfo;
import dev.gsym.read.LookupException;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLine;
import dev.gsym.read.SourceLocation;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Shared test helpers: test data, tools, and the reference answers of llvm-gsymutil-22's GSYM files. */
final class Fixtures {
  private Fixtures() {}

  static Path bin(String name) {
    return TestData.path("bin", name);
  }

  /** llvm-gsymutil-22's own conversion of {@code bin/<name>} (checked in). */
  static Path llvmGsym(String name) {
    return TestData.path("gsym", name + ".gsym");
  }

  static String buildId(Path elf) throws IOException {
    return ConverterAdapter.probe(elf).buildId();
  }

  /** The executable {@code name} on the PATH; the calling test is skipped without it (failed under -Dgsym.requireTools=true). */
  static Path tool(String name) {
    return Tools.require(name);
  }

  /** Runs a command; fails the test if it does not exit 0 within a minute. */
  static void run(Path dir, String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", cmd));
    }
    assertEquals(0, p.exitValue(), String.join(" ", cmd));
  }

  /** The first function's start in llvm-gsymutil-22's GSYM of {@code bin/<name>}. */
  static long functionAddressOf(String name) throws IOException {
    try (GsymReader r = GsymReader.open(llvmGsym(name))) {
      return r.functionAddress(0);
    }
  }

  /** Every function's first, middle and last byte in {@code r} (start only for size 0). */
  static List<Long> functionAddresses(GsymReader r) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < r.numFunctions(); i++) {
      FunctionInfo fi = r.functionInfoAtIndex(i);
      long start = fi.range().start();
      long size = fi.range().size();
      out.add(start);
      if (size > 1) out.add(start + size / 2);
      if (size > 2) out.add(start + size - 1);
    }
    return out;
  }

  /**
   * The frames a lookup in {@code ref} gives, built here from its LookupResult, names demangled (a
   * symbolizer's default); null if not covered.
   */
  static List<Frame> expectedFrames(GsymReader ref, long addr) {
    LookupResult r;
    try {
      r = ref.lookup(addr);
    } catch (LookupException e) {
      return null;
    }
    List<SourceLocation> locs = r.locations();
    List<Frame> out = new ArrayList<>();
    for (int i = 0; i < locs.size(); i++) {
      SourceLocation l = locs.get(i);
      boolean last = i == locs.size() - 1;
      SourceLine here = new SourceLine(l.dir(), l.base(), Integer.toUnsignedLong(l.line()));
      java.util.Optional<SourceLine> caller = last ? java.util.Optional.empty() : java.util.Optional.of(
          new SourceLine(locs.get(i + 1).dir(), locs.get(i + 1).base(), Integer.toUnsignedLong(locs.get(i + 1).line())));
      // a symbolizer demangles by default, as llvm-symbolizer does
      out.add(new Frame(dev.gsym.demangle.Demangler.llvm().demangle(l.name()), l.name(), here,
          last ? r.functionRange().start() : addr - l.offset(), caller));
    }
    return out;
  }

  /** Asserts that {@code s} is the answer {@code ref} gives for {@code fileAddress}. */
  static void assertSameAnswer(GsymReader ref, long fileAddress, Symbolized s, String what) {
    List<Frame> expected = expectedFrames(ref, fileAddress);
    if (expected == null) {
      assertInstanceOf(Symbolized.AddressNotCovered.class, s, what);
      return;
    }
    Symbolized.Found f = assertInstanceOf(Symbolized.Found.class, s, what);
    assertEquals(fileAddress, f.fileAddress(), what);
    assertEquals(expected, f.frames(), what);
  }
}
