package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Breakpad symbol stores in the symbol-server layout ({@code <debug file>/<DEBUG ID>/<name>.sym}),
 * as a directory and over HTTP on loopback. Answers are compared with the checked-in GSYM of the
 * same {@code .sym} ({@code breakpad/basic.gsym}, itself checked against llvm-gsymutil-22's
 * lookups) and, for a {@code .sym} made from an ELF file, with llvm-gsymutil-22's GSYM of that file.
 */
@StartsProcesses
class BreakpadStoreTest {
  static final String BASIC_FILE = "my app"; // basic.sym's MODULE name (a space: URL-encoded)
  static final String BASIC_ID = "D3096ED481217FD4C16B29CD9BC208BA0";

  @TempDir Path tmp;

  static Path basicSym() {
    return TestData.path("breakpad", "basic.sym");
  }

  private Path layout(Path root, String debugFile, String id, String symName, Path sym) throws Exception {
    Path p = root.resolve(debugFile).resolve(id).resolve(symName);
    Files.createDirectories(p.getParent());
    Files.copy(sym, p);
    return p;
  }

  private static void assertBasicAnswers(Symbolizer s, ModuleRef ref) throws Exception {
    try (GsymReader golden = GsymReader.open(TestData.path("breakpad", "basic.gsym"))) {
      List<Long> addrs = Fixtures.functionAddresses(golden);
      assertTrue(addrs.size() > 10);
      for (long a : addrs) Fixtures.assertSameAnswer(golden, a, s.symbolize(ref, a), ref + " " + Long.toHexString(a));
    }
  }

  @Test
  void directory() throws Exception {
    Path root = tmp.resolve("symbols");
    layout(root, BASIC_FILE, BASIC_ID, BASIC_FILE + ".sym", basicSym());
    Path store = tmp.resolve("store");
    try (Symbolizer s = Symbolizer.builder().store(store).addSource(Source.BreakpadSymbols.directory(root)).build()) {
      assertBasicAnswers(s, ModuleRef.breakpad(BASIC_FILE, BASIC_ID));
      // the id in lower case names the same module
      assertBasicAnswers(s, ModuleRef.breakpad(BASIC_FILE, BASIC_ID.toLowerCase()));
      assertEquals(1, s.stats().conversions());
    }
    assertTrue(Files.exists(store.resolve("breakpad").resolve(BASIC_FILE).resolve(BASIC_ID + ".gsym")));
  }

  @Test
  void pdbNamesDropTheirExtension() throws Exception {
    Path root = tmp.resolve("symbols");
    layout(root, "xul.pdb", BASIC_ID, "xul.sym", basicSym());
    layout(root, "Other.PDB", BASIC_ID, "Other.sym", basicSym());
    layout(root, "libc.so.6", BASIC_ID, "libc.so.6.sym", basicSym());
    try (Symbolizer s = Symbolizer.builder().addSource(Source.BreakpadSymbols.directory(root)).build()) {
      assertBasicAnswers(s, ModuleRef.breakpad("xul.pdb", BASIC_ID));
      assertBasicAnswers(s, ModuleRef.breakpad("Other.PDB", BASIC_ID));
      assertBasicAnswers(s, ModuleRef.breakpad("libc.so.6", BASIC_ID));
      // a Windows path as a minidump gives it: its last component is the debug file
      assertBasicAnswers(s, ModuleRef.breakpad("C:\\build\\xul.pdb", BASIC_ID));
    }
    assertEquals("xul.sym", BreakpadFetcher.symName("xul.pdb"));
    assertEquals(".pdb.sym", BreakpadFetcher.symName(".pdb"));
  }

  @Test
  void httpServer() throws Exception {
    try (FakeHttpServer server = new FakeHttpServer()) {
      server.route("/symbols/my%20app/" + BASIC_ID + "/my%20app.sym", FakeHttpServer.bytes(Files.readAllBytes(basicSym())));
      Path store = tmp.resolve("store");
      Source.BreakpadSymbols src = Source.BreakpadSymbols.server(URI.create(server.url() + "/symbols"));
      try (Symbolizer s = Symbolizer.builder().store(store).addSource(src).build()) {
        assertBasicAnswers(s, ModuleRef.breakpad(BASIC_FILE, BASIC_ID));
        assertEquals(1, s.stats().downloads());
        Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class,
            s.symbolize(ModuleRef.breakpad("nothere.pdb", BASIC_ID), 0x1000));
        assertFalse(nf.retryable());
        assertTrue(nf.message().contains("/symbols/nothere.pdb/" + BASIC_ID + "/nothere.sym: HTTP 404"), nf.message());
      }
      try (Stream<Path> files = Files.walk(store)) {
        assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "downloads removed");
      }
    }
  }

  @Test
  void buildIdWithDebugFileFindsDumpSymsOutput() throws Exception {
    // elf/cpp-gcc-O2.sym is gsymutil --to-breakpad of bin/cpp-gcc-O2 (dump_syms' MODULE id rule,
    // names demangled as dump_syms writes them)
    String id = Fixtures.buildId(Fixtures.bin("cpp-gcc-O2"));
    String breakpadId = ConverterAdapter.breakpadIdOfBuildId(id);
    assertEquals("8FAB67EAF93A7F0BBF35ED0BAF7878080", breakpadId);
    Path root = tmp.resolve("symbols");
    layout(root, "cpp-gcc-O2", breakpadId, "cpp-gcc-O2.sym", TestData.path("breakpad", "elf", "cpp-gcc-O2.sym"));
    try (Symbolizer s = Symbolizer.builder().addSource(Source.BreakpadSymbols.directory(root)).build();
        GsymReader llvm = GsymReader.open(Fixtures.llvmGsym("cpp-gcc-O2"))) {
      ModuleRef ref = ModuleRef.buildId(id).withDebugFile("cpp-gcc-O2");
      int compared = 0;
      for (long a : Fixtures.functionAddresses(llvm)) {
        List<Frame> expected = Fixtures.expectedFrames(llvm, a);
        Symbolized r = s.symbolize(ref, a);
        if (expected == null || !expected.getLast().location().hasFile()) continue; // symbol-table-only functions
        Symbolized.Found f = assertInstanceOf(Symbolized.Found.class, r, Long.toHexString(a));
        assertEquals(dev.gsym.demangle.Demangler.llvm().demangle(expected.getLast().function()), f.function().function(),
            Long.toHexString(a));
        assertEquals(expected.getFirst().location(), f.frames().getFirst().location(), Long.toHexString(a));
        compared++;
      }
      assertTrue(compared > 20, "compared " + compared);
      // the same build-id without the name is the same module, open already
      assertInstanceOf(Symbolized.Found.class, s.symbolize(ModuleRef.buildId(id), Fixtures.functionAddressOf("cpp-gcc-O2")));
    }
    // without a debug file name a Breakpad store cannot be asked
    try (Symbolizer s = Symbolizer.builder().addSource(Source.BreakpadSymbols.directory(root)).build()) {
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class, s.symbolize(ModuleRef.buildId(id), 0x1000));
      assertTrue(nf.message().contains("no configured source"), nf.message());
    }
  }

  @Test
  void strippedBinaryByPathFindsItsSymFile() throws Exception {
    Path objcopy = Fixtures.tool("objcopy");
    Path dir = Files.createDirectories(tmp.resolve("bin"));
    Files.copy(Fixtures.bin("cpp-gcc-O2"), dir.resolve("full"));
    Fixtures.run(dir, objcopy.toString(), "--strip-debug", "full", "cpp-gcc-O2");
    Path root = tmp.resolve("symbols");
    layout(root, "cpp-gcc-O2", "8FAB67EAF93A7F0BBF35ED0BAF7878080", "cpp-gcc-O2.sym", TestData.path("breakpad", "elf", "cpp-gcc-O2.sym"));
    try (Symbolizer s = Symbolizer.builder().addSource(Source.BreakpadSymbols.directory(root)).build();
        GsymReader llvm = GsymReader.open(Fixtures.llvmGsym("cpp-gcc-O2"))) {
      // dump_syms' identity of the binary (file name, debug id from the build-id) names the .sym
      long main = -1;
      for (int i = 0; i < llvm.numFunctions(); i++) {
        if (llvm.lookup(llvm.functionAddress(i)).functionName().equals("main")) main = llvm.functionAddress(i);
      }
      Symbolized.Found f = assertInstanceOf(Symbolized.Found.class, s.symbolize(ModuleRef.file(dir.resolve("cpp-gcc-O2")), main));
      assertEquals("main", f.function().function());
      assertTrue(f.function().location().hasFile(), "from the .sym, not the stripped symbol table");
    }
    // a shared library is named by its SONAME (dump_syms' MODULE name), here with an 8-byte build-id
    Files.copy(TestData.path("breakpad", "elf", "libgsymtest-clang-O2.so"), dir.resolve("lib.so"));
    Fixtures.run(dir, objcopy.toString(), "--strip-debug", "lib.so", "libgsymtest-clang-O2.so");
    layout(root, "libgsymtest.so.1", "67452301AB89EFCD00000000000000000", "libgsymtest.so.1.sym",
        TestData.path("breakpad", "elf", "libgsymtest-clang-O2.so.sym"));
    try (Symbolizer s = Symbolizer.builder().addSource(Source.BreakpadSymbols.directory(root)).build()) {
      Symbolized.Found f = assertInstanceOf(Symbolized.Found.class,
          s.symbolize(ModuleRef.file(dir.resolve("libgsymtest-clang-O2.so")), 0x1100));
      assertEquals("util_sum", f.function().function());
      assertEquals(new SourceLine("/gsym-test/src", "c_util.c", f.function().location().line()), f.function().location());
      assertTrue(f.function().location().line() > 0);
    }
  }

  @Test
  void symFileByPathIsPublishedUnderItsModuleIdentity() throws Exception {
    Path store = tmp.resolve("store");
    try (Symbolizer s = Symbolizer.builder().store(store).build()) {
      assertBasicAnswers(s, ModuleRef.file(basicSym()));
    }
    try (Symbolizer s = Symbolizer.builder().store(store).build()) {
      assertBasicAnswers(s, ModuleRef.breakpad(BASIC_FILE, BASIC_ID)); // no source: the store has it
      assertEquals(0, s.stats().conversions());
    }
  }

  @Test
  void unusableSymFileIsUnreadableAndNotPublished() throws Exception {
    Path root = tmp.resolve("symbols");
    Path bad = tmp.resolve("bad.sym");
    Files.writeString(bad, "MODULE Linux x86_64 " + BASIC_ID + " bad\nSTACK CFI INIT 1000 10 .cfa: $rsp 8 +\n");
    layout(root, "bad", BASIC_ID, "bad.sym", bad);
    Path store = tmp.resolve("store");
    try (Symbolizer s = Symbolizer.builder().store(store).addSource(Source.BreakpadSymbols.directory(root)).build()) {
      Symbolized.ModuleUnreadable u = assertInstanceOf(Symbolized.ModuleUnreadable.class,
          s.symbolize(ModuleRef.breakpad("bad", BASIC_ID), 0x1000));
      assertTrue(u.message().contains("no FUNC or PUBLIC records"), u.message());
    }
    try (Stream<Path> files = Files.walk(store)) {
      assertTrue(files.noneMatch(p -> p.toString().endsWith(".gsym") || p.toString().endsWith(".tmp")));
    }
  }
}
