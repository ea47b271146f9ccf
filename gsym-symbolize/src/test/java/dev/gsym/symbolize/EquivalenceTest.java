package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.read.GsymReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whatever a reader of llvm-gsymutil-22's own GSYM of a binary answers, the symbolizer answers:
 * every function's first, middle and last byte, plus addresses around the functions, through the
 * binary's path (our conversion, published into the store), then through its build-id (the store
 * file), in one-by-one and batch form, with absolute and relative addresses.
 */
class EquivalenceTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"c-gcc-O2", "c-clang-O2", "cpp-clang-O2", "cpp-gcc-O2", "rust-O2", "symtab-gcc-O0-nopie",
      "fs-ppc64-O2-d5"})
  void answersEqualLlvmGsym(String name) throws Exception {
    Path binary = Fixtures.bin(name);
    String id = Fixtures.buildId(binary);
    try (GsymReader ref = GsymReader.open(Fixtures.llvmGsym(name));
        Symbolizer s = Symbolizer.builder().store(tmp.resolve("store")).threads(2).build()) {
      List<Long> addrs = new ArrayList<>(Fixtures.functionAddresses(ref));
      long lo = ref.functionAddress(0);
      addrs.add(lo - 1); // below every function
      addrs.add(ref.functionAddress(ref.numFunctions() - 1) + (1 << 20)); // far above
      assertTrue(addrs.size() > 10, name + ": " + addrs.size() + " addresses");

      ModuleRef byPath = ModuleRef.file(binary);
      for (long a : addrs) Fixtures.assertSameAnswer(ref, a, s.symbolize(byPath, a), name + " " + Long.toHexString(a));
      assertEquals(1, s.stats().conversions(), "converted once");

      // the build-id now names the store file
      ModuleRef byId = ModuleRef.buildId(id);
      List<Symbolizer.Request> batch = new ArrayList<>();
      for (long a : addrs) batch.add(new Symbolizer.Request(byId, a));
      List<Symbolized> answers = s.symbolize(batch);
      for (int i = 0; i < addrs.size(); i++) {
        Fixtures.assertSameAnswer(ref, addrs.get(i), answers.get(i), name + " by id " + Long.toHexString(addrs.get(i)));
      }
      assertEquals(1, s.stats().conversions(), "no second conversion");
      assertEquals(1, s.stats().storeHits(), "opened from the store");
    }

    // relative addresses: offsets from the GSYM's base address (the first PT_LOAD)
    try (GsymReader ref = GsymReader.open(Fixtures.llvmGsym(name));
        Symbolizer s = Symbolizer.builder().store(tmp.resolve("store")).addressMode(AddressMode.RELATIVE).build()) {
      long base = ref.header().baseAddress();
      for (long a : Fixtures.functionAddresses(ref)) {
        Symbolized r = s.symbolize(ModuleRef.buildId(id), a - base);
        Fixtures.assertSameAnswer(ref, a, r, name + " relative " + Long.toHexString(a - base));
        if (r instanceof Symbolized.Found f) {
          assertEquals(base, f.base());
          assertEquals(a - base, f.relativeAddress());
        }
      }
      assertEquals(0, s.stats().conversions());
    }
  }

  @org.junit.jupiter.api.Test
  void buildIdOnlyInAProgramHeaderNote() throws Exception {
    // bin/c-clang-O2 with .note.gnu.build-id renamed: the build-id is found through PT_NOTE
    Path file = dev.gsym.testing.TestData.path("breakpad", "elf", "c-clang-O2-notesegment");
    String id = Fixtures.buildId(Fixtures.bin("c-clang-O2"));
    assertEquals(id, Fixtures.buildId(file));
    Path store = tmp.resolve("store");
    try (Symbolizer s = Symbolizer.builder().store(store).build(); GsymReader ref = GsymReader.open(Fixtures.llvmGsym("c-clang-O2"))) {
      for (long a : Fixtures.functionAddresses(ref)) Fixtures.assertSameAnswer(ref, a, s.symbolize(ModuleRef.file(file), a), "");
    }
    assertTrue(java.nio.file.Files.exists(store.resolve(id.substring(0, 2)).resolve(id.substring(2) + ".gsym")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"c-gcc-O2", "symtab-gcc-O0-nopie"})
  void gsymFileByPathAnswersAsItsReader(String name) throws Exception {
    Path gsym = Fixtures.llvmGsym(name);
    try (GsymReader ref = GsymReader.open(gsym); Symbolizer s = Symbolizer.builder().build()) {
      for (long a : Fixtures.functionAddresses(ref)) Fixtures.assertSameAnswer(ref, a, s.symbolize(ModuleRef.file(gsym), a), name);
      assertEquals(0, s.stats().conversions());
      Symbolized far = s.symbolize(ModuleRef.file(gsym), 0);
      assertInstanceOf(Symbolized.AddressNotCovered.class, far);
    }
  }
}
