package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local debug-file search, on files made here from {@code bin/c-gcc-O2} with objcopy ({@code
 * --only-keep-debug}, {@code --strip-debug --add-gnu-debuglink}): the build-id directory, a
 * debuglink beside the binary, in {@code .debug/} and under a debug directory, a debuglink whose
 * CRC does not match (ignored: the stripped binary's symbol table answers, and nothing is
 * published). A reported skip without objcopy (a failure under -Dgsym.requireTools=true).
 */
@StartsProcesses
class DebugFileSearchTest {
  static final String NAME = "c-gcc-O2";

  @TempDir Path tmp;
  Path work;
  Path debugFile; // only-keep-debug of the binary
  Path stripped; // --strip-debug, with a .gnu_debuglink to "app.debug"
  Path strippedNoLink;
  Path otherDebug; // a debug file of another binary
  String buildId;

  @BeforeEach
  void makeFiles() throws Exception {
    Path objcopy = Fixtures.tool("objcopy");
    work = Files.createDirectories(tmp.resolve("work"));
    Files.copy(Fixtures.bin(NAME), work.resolve("app"));
    Files.copy(Fixtures.bin("c-clang-O2"), work.resolve("other"));
    Fixtures.run(work, objcopy.toString(), "--only-keep-debug", "app", "app.debug");
    Fixtures.run(work, objcopy.toString(), "--only-keep-debug", "other", "other.debug");
    Fixtures.run(work, objcopy.toString(), "--strip-debug", "--add-gnu-debuglink=app.debug", "app", "app.stripped");
    Fixtures.run(work, objcopy.toString(), "--strip-debug", "app", "app.nolink");
    debugFile = work.resolve("app.debug");
    stripped = work.resolve("app.stripped");
    strippedNoLink = work.resolve("app.nolink");
    otherDebug = work.resolve("other.debug");
    buildId = Fixtures.buildId(Fixtures.bin(NAME));
    assertFalse(ConverterAdapter.probe(stripped).hasDwarf());
    assertEquals("app.debug", ConverterAdapter.probe(stripped).debuglink());
    assertTrue(ConverterAdapter.probe(debugFile).hasDwarf());
  }

  /** A binary directory holding only the stripped binary, named "app". */
  private Path binaryDir(String dirName, Path binary) throws Exception {
    Path d = Files.createDirectories(tmp.resolve(dirName));
    Files.copy(binary, d.resolve("app"), StandardCopyOption.REPLACE_EXISTING);
    return d;
  }

  private Symbolizer symbolizer(Path store, Path... debugDirs) {
    return Symbolizer.builder().store(store).addSource(Source.DebugDirectories.of(debugDirs)).build();
  }

  /** Every function address answers as llvm-gsymutil-22's GSYM of the unstripped binary. */
  private static void assertFullAnswers(Symbolizer s, ModuleRef ref) throws Exception {
    try (GsymReader llvm = GsymReader.open(Fixtures.llvmGsym(NAME))) {
      for (long a : Fixtures.functionAddresses(llvm)) Fixtures.assertSameAnswer(llvm, a, s.symbolize(ref, a), ref + " " + a);
    }
  }

  @Test
  void buildIdDirectory() throws Exception {
    Path debugDir = tmp.resolve("debug");
    Path link = TestData.buildIdPath(debugDir, buildId);
    Files.createDirectories(link.getParent());
    Files.copy(debugFile, link);
    Path store = tmp.resolve("store");
    try (Symbolizer s = symbolizer(store, tmp.resolve("nothing-here"), debugDir)) {
      assertFullAnswers(s, ModuleRef.buildId(buildId));
      // a stripped binary without debuglink finds it by its build-id too (the store already has it)
      assertFullAnswers(s, ModuleRef.file(binaryDir("bin", strippedNoLink).resolve("app")));
      assertEquals(1, s.stats().conversions());
    }
    assertTrue(Files.exists(store.resolve(buildId.substring(0, 2) + "/" + buildId.substring(2) + ".gsym")));
  }

  @Test
  void debuglinkBesideTheBinary() throws Exception {
    Path d = binaryDir("beside", stripped);
    Files.copy(debugFile, d.resolve("app.debug"));
    try (Symbolizer s = symbolizer(tmp.resolve("store"), tmp.resolve("no-debug-dir"))) {
      assertFullAnswers(s, ModuleRef.file(d.resolve("app")));
      assertEquals(1, s.stats().conversions());
    }
  }

  @Test
  void debuglinkInDotDebug() throws Exception {
    Path d = binaryDir("dotdebug", stripped);
    Files.createDirectories(d.resolve(".debug"));
    Files.copy(debugFile, d.resolve(".debug/app.debug"));
    try (Symbolizer s = symbolizer(tmp.resolve("store"), tmp.resolve("no-debug-dir"))) {
      assertFullAnswers(s, ModuleRef.file(d.resolve("app")));
    }
  }

  @Test
  void debuglinkUnderADebugDirectory() throws Exception {
    Path d = binaryDir("global", stripped);
    Path debugDir = tmp.resolve("usr-lib-debug");
    Path abs = d.toAbsolutePath();
    Path mirrored = debugDir.resolve(abs.getRoot().relativize(abs)).resolve("app.debug");
    Files.createDirectories(mirrored.getParent());
    Files.copy(debugFile, mirrored);
    try (Symbolizer s = symbolizer(tmp.resolve("store"), tmp.resolve("first-dir"), debugDir)) {
      assertFullAnswers(s, ModuleRef.file(d.resolve("app")));
    }
  }

  @Test
  void debuglinkWithWrongCrcIsIgnored() throws Exception {
    Path d = binaryDir("badcrc", stripped);
    // the right debug file (same build-id, valid ELF) with one byte more: its CRC-32 differs
    Files.write(d.resolve("app.debug"), java.util.Arrays.copyOf(Files.readAllBytes(debugFile), (int) Files.size(debugFile) + 1));
    Path store = tmp.resolve("store");
    try (Symbolizer s = symbolizer(store, tmp.resolve("no-debug-dir"));
        GsymReader llvm = GsymReader.open(Fixtures.llvmGsym(NAME))) {
      ModuleRef ref = ModuleRef.file(d.resolve("app"));
      int named = 0;
      for (long a : Fixtures.functionAddresses(llvm)) {
        Symbolized r = s.symbolize(ref, a);
        if (!(r instanceof Symbolized.Found f)) continue;
        // the symbol table's answer: one frame, no source file
        assertEquals(1, f.frames().size(), "" + a);
        assertFalse(f.function().location().hasFile(), "" + a);
        named++;
      }
      assertTrue(named > 5, "symbol-table functions found: " + named);
    }
    // a symbol-table-only conversion is not published: a debug file may appear later
    assertFalse(Files.exists(store.resolve(buildId.substring(0, 2) + "/" + buildId.substring(2) + ".gsym")));
    // ... and with the right file in place, the next symbolizer finds it once the store's
    // negative record is older than its negative time
    Files.copy(debugFile, d.resolve("app.debug"), StandardCopyOption.REPLACE_EXISTING);
    try (Symbolizer s = Symbolizer.builder().store(store)
        .addSource(Source.DebugDirectories.of(tmp.resolve("no-debug-dir")).withNegativeTtl(java.time.Duration.ofMillis(1)))
        .build()) {
      assertFullAnswers(s, ModuleRef.file(d.resolve("app")));
    }
  }

  @Test
  void buildIdEntryOfAnotherBinaryIsRejected() throws Exception {
    Path debugDir = tmp.resolve("debug");
    Path link = TestData.buildIdPath(debugDir, buildId);
    Files.createDirectories(link.getParent());
    Files.copy(otherDebug, link);
    Path store = tmp.resolve("store");
    try (Symbolizer s = symbolizer(store, debugDir)) {
      Symbolized r = s.symbolize(ModuleRef.buildId(buildId), 0x1000);
      Symbolized.ModuleUnreadable u = assertInstanceOf(Symbolized.ModuleUnreadable.class, r);
      assertTrue(u.message().contains("has build-id " + Fixtures.buildId(Fixtures.bin("c-clang-O2"))), u.message());
      assertEquals(0, s.stats().conversions());
    }
    try (var files = Files.walk(store)) {
      assertTrue(files.noneMatch(p -> p.toString().endsWith(".gsym") || p.toString().endsWith(".tmp")), "nothing published");
    }
  }

  @Test
  void notFoundNamesWhereItLooked() throws Exception {
    Path debugDir = tmp.resolve("empty-debug");
    try (Symbolizer s = symbolizer(tmp.resolve("store"), debugDir)) {
      Symbolized r = s.symbolize(ModuleRef.buildId(buildId), 0x1000);
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class, r);
      assertTrue(nf.message().contains(TestData.buildIdPath(Path.of(""), buildId).toString()),
          nf.message());
      assertFalse(nf.retryable());
      // without any source
      try (Symbolizer none = Symbolizer.builder().build()) {
        Symbolized.ModuleNotFound n2 = assertInstanceOf(Symbolized.ModuleNotFound.class,
            none.symbolize(ModuleRef.buildId(buildId), 0x1000));
        assertTrue(n2.message().contains("no configured source"), n2.message());
      }
    }
  }

  @Test
  void rememberedPerSourceUntilItsTimePasses() throws Exception {
    Path debugDir = tmp.resolve("late-debug");
    Path store = tmp.resolve("store");
    // long enough that the checks within it are not outrun by a loaded machine; the test sleeps only what is left
    java.time.Duration ttl = java.time.Duration.ofSeconds(3);
    Source.DebugDirectories src = Source.DebugDirectories.of(debugDir).withNegativeTtl(ttl);
    try (Symbolizer s = Symbolizer.builder().store(store).addSource(src).build()) {
      ModuleRef ref = ModuleRef.buildId(buildId);
      assertInstanceOf(Symbolized.ModuleNotFound.class, s.symbolize(ref, 0x1000));
      long remembered = System.nanoTime(); // after the marker was written
      // the debug file appears: within the negative time the answer is remembered ...
      Path link = TestData.buildIdPath(debugDir, buildId);
      Files.createDirectories(link.getParent());
      Files.copy(debugFile, link);
      assertInstanceOf(Symbolized.ModuleNotFound.class, s.symbolize(ref, 0x1000));
      // ... also by another process (a new symbolizer) reading the store's marker
      try (Symbolizer other = Symbolizer.builder().store(store).addSource(src).build()) {
        assertInstanceOf(Symbolized.ModuleNotFound.class, other.symbolize(ref, 0x1000));
        assertEquals(0, other.stats().conversions());
      }
      long left = ttl.toMillis() + 100 - (System.nanoTime() - remembered) / 1_000_000;
      if (left > 0) Thread.sleep(left);
      assertInstanceOf(Symbolized.Found.class, s.symbolize(ref, Fixtures.functionAddressOf(NAME)));
    }
  }
}
