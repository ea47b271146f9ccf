package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Symbolizer on Mach-O modules (src-test-data/macho): a linked executable (no DWARF of its own,
 * an LC_UUID) given by path finds its dSYM's DWARF file in a debug directory by that UUID (the
 * build-id layout), a UUID reference finds it too, and a Mach-O with DWARF given by path is
 * converted itself; every function address answers as llvm-gsymutil-22's GSYM of the dSYM.
 */
class MachOSymbolizeTest {
  @TempDir Path tmp;

  private static Path macho(String... more) {
    return TestData.path("macho", more);
  }

  private static void assertAnswersOf(Symbolizer s, ModuleRef ref, Path llvmGsym) throws Exception {
    try (GsymReader llvm = GsymReader.open(llvmGsym)) {
      for (long a : Fixtures.functionAddresses(llvm)) Fixtures.assertSameAnswer(llvm, a, s.symbolize(ref, a), ref + " " + a);
    }
  }

  @Test
  void executableFindsItsDsymByUuid() throws Exception {
    Path exe = macho("bin", "c-arm64-O2");
    Path dwarf = macho("bin", "c-arm64-O2.dSYM", "Contents", "Resources", "DWARF", "c-arm64-O2");
    ConverterAdapter.ObjectFacts facts = ConverterAdapter.probe(exe);
    assertFalse(facts.hasDwarf());
    assertEquals(0x100000000L, facts.base());
    String uuid = facts.buildId();
    assertEquals(32, uuid.length());
    assertEquals(uuid, ConverterAdapter.probe(dwarf).buildId());
    assertTrue(ConverterAdapter.probe(dwarf).hasDwarf());

    Path debugDir = tmp.resolve("debug");
    Path link = debugDir.resolve(".build-id/" + uuid.substring(0, 2) + "/" + uuid.substring(2) + ".debug");
    Files.createDirectories(link.getParent());
    Files.copy(dwarf, link);
    Path store = tmp.resolve("store");
    try (Symbolizer s = Symbolizer.builder().store(store).addSource(Source.DebugDirectories.of(debugDir)).build()) {
      assertAnswersOf(s, ModuleRef.file(exe), macho("gsym", "c-arm64-O2.dSYM.gsym"));
      assertAnswersOf(s, ModuleRef.buildId(uuid), macho("gsym", "c-arm64-O2.dSYM.gsym"));
      assertEquals(1, s.stats().conversions());
    }
    Path stored = store.resolve(uuid.substring(0, 2) + "/" + uuid.substring(2) + ".gsym");
    assertTrue(Files.exists(stored));
    try (GsymReader r = GsymReader.open(stored)) {
      assertEquals(0x100000000L, r.header().baseAddress());
    }
  }

  @Test
  void executableWithoutItsDsymAnswersFromItsSymbols() throws Exception {
    try (Symbolizer s = Symbolizer.builder().store(tmp.resolve("store")).addSource(Source.DebugDirectories.of(tmp.resolve("none")))
        .build()) {
      assertAnswersOf(s, ModuleRef.file(macho("bin", "c-x86_64-O2")), macho("gsym", "c-x86_64-O2.gsym"));
    }
  }

  @Test
  void machOWithDwarfGivenByPath() throws Exception {
    try (Symbolizer s = Symbolizer.builder().store(tmp.resolve("store")).build()) {
      assertAnswersOf(s, ModuleRef.file(macho("bin", "cpp-x86_64-O2-d5.dSYM", "Contents", "Resources", "DWARF", "cpp-x86_64-O2-d5")),
          macho("gsym", "cpp-x86_64-O2-d5.dSYM.gsym"));
      assertAnswersOf(s, ModuleRef.file(macho("bin", "c-arm64-O2.o")), macho("gsym", "c-arm64-O2.o.gsym"));
    }
  }
}
