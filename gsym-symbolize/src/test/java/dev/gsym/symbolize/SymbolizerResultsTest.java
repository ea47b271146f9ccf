package dev.gsym.symbolize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.demangle.Demangler;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The answers as a caller reads them: names demangled unless asked otherwise (the module's name
 * kept beside), where the symbols came from as a value, misses counted, addresses printed in hex.
 */
class SymbolizerResultsTest {
  @TempDir Path tmp;

  /** An address of a C++ function whose name is mangled, in cpp-clang-O2's GSYM. */
  private static long mangledFunction(GsymReader r) {
    for (int i = 0; i < r.numFunctions(); i++) {
      long a = r.functionAddress(i);
      LookupResult res = r.find(a).orElseThrow();
      if (res.functionName().startsWith("_ZN")) return a;
    }
    throw new AssertionError("no mangled name");
  }

  @Test
  void namesAreDemangledByDefault() throws Exception {
    Path gsym = Fixtures.llvmGsym("cpp-clang-O2");
    try (GsymReader r = GsymReader.open(gsym); Symbolizer on = Symbolizer.builder().build();
        Symbolizer off = Symbolizer.builder().demangle(false).build();
        Symbolizer gnu = Symbolizer.builder().demangle(Demangler.llvm()).build()) {
      long a = mangledFunction(r);
      String raw = r.find(a).orElseThrow().locations().getLast().name();
      Frame demangled = ((Symbolized.Found) on.symbolize(ModuleRef.file(gsym), a)).function();
      assertThat(demangled.rawName()).isEqualTo(raw);
      assertThat(demangled.function()).isEqualTo(Demangler.llvm().demangle(raw)).isNotEqualTo(raw).contains("::");
      Frame kept = ((Symbolized.Found) off.symbolize(ModuleRef.file(gsym), a)).function();
      assertThat(kept.function()).isEqualTo(raw);
      assertThat(kept.rawName()).isEqualTo(raw);
      assertThat(((Symbolized.Found) gnu.symbolize(ModuleRef.file(gsym), a)).function()).isEqualTo(demangled);
    }
  }

  @Test
  void theOriginIsAValue() throws Exception {
    Path gsym = Fixtures.llvmGsym("c-gcc-O2");
    try (Symbolizer s = Symbolizer.builder().build()) {
      Symbolized.Found f = (Symbolized.Found) s.symbolize(ModuleRef.file(gsym), Fixtures.functionAddressOf("c-gcc-O2"));
      assertThat(f.source()).isEqualTo(Origin.FILE);
      assertThat(f.source().id()).isEqualTo("file");
      assertThat(f.merged()).isEmpty();
      assertThat(f.function().callSite()).isEmpty();
      assertThat(f.function().inlined()).isFalse();
    }
    assertThat(List.of(Origin.values()).stream().map(Origin::id))
        .containsExactly("store", "file", "debug-dir", "debuginfod", "breakpad");
  }

  @Test
  void inlinedFramesHaveTheirCallSite() throws Exception {
    Path gsym = Fixtures.llvmGsym("c-clang-O2");
    try (GsymReader r = GsymReader.open(gsym); Symbolizer s = Symbolizer.builder().build()) {
      for (long a : Fixtures.functionAddresses(r)) {
        if (!(s.symbolize(ModuleRef.file(gsym), a) instanceof Symbolized.Found f) || f.frames().size() < 2) continue;
        for (int i = 0; i < f.frames().size() - 1; i++) {
          assertThat(f.frames().get(i).callSite()).contains(f.frames().get(i + 1).location());
        }
        return;
      }
      throw new AssertionError("no inlined frame in c-clang-O2");
    }
  }

  @Test
  void everyAnswerWithoutAModuleIsCounted() throws Exception {
    ModuleRef missing = ModuleRef.buildId("00112233445566778899aabbccddeeff00112233");
    try (Symbolizer s = Symbolizer.builder().store(tmp.resolve("store")).build()) {
      for (int i = 0; i < 10_000; i++) {
        assertThat(s.symbolize(missing, i)).isInstanceOf(Symbolized.ModuleNotFound.class);
      }
      assertThat(s.stats().moduleFailures()).isEqualTo(10_000);
      // a file that is not there, and one of no known kind
      s.symbolize(ModuleRef.file(tmp.resolve("nothing")), 1);
      s.symbolize(ModuleRef.file(tmp), 1);
      assertThat(s.stats().moduleFailures()).isEqualTo(10_002);
      // a batch resolves each distinct module once
      List<Symbolizer.Request> batch = new ArrayList<>();
      for (int i = 0; i < 1000; i++) batch.add(new Symbolizer.Request(missing, i));
      assertThat(s.symbolize(batch)).allMatch(r -> r instanceof Symbolized.ModuleNotFound);
      assertThat(s.stats().moduleFailures()).isEqualTo(10_003);
    }
  }

  @Test
  void recordsPrintAddressesInHex() throws Exception {
    Path gsym = Fixtures.llvmGsym("c-gcc-O2");
    long a = Fixtures.functionAddressOf("c-gcc-O2");
    try (Symbolizer s = Symbolizer.builder().build()) {
      Symbolized.Found f = (Symbolized.Found) s.symbolize(ModuleRef.file(gsym), a);
      String hex = "0x" + Long.toHexString(a);
      assertThat(f.toString()).contains("address=" + hex).contains("fileAddress=" + hex).contains("base=0x")
          .contains("startAddress=0x").contains("source=FILE").doesNotContain("address=" + a + ",");
      assertThat(s.symbolize(ModuleRef.file(gsym), 0x10).toString()).startsWith("AddressNotCovered[").contains("address=0x10,")
          .contains("fileAddress=0x10,");
      assertThat(s.symbolize(ModuleRef.buildId("abcd"), 0x20).toString()).startsWith("ModuleNotFound[").contains("address=0x20,");
      assertThat(s.symbolize(ModuleRef.file(tmp), 0x30).toString()).startsWith("ModuleUnreadable[").contains("address=0x30,");
      assertThat(new Symbolizer.Request(ModuleRef.file(gsym), 0x1234).toString()).endsWith("address=0x1234]");
    }
  }
}
