package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.read.GsymReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-pair answers for bad modules and addresses, store repair, batches, relocation limits. */
class SymbolizerTest {
  @TempDir Path tmp;

  @Test
  void badModulesByPath() throws Exception {
    Path text = Files.writeString(tmp.resolve("notes.txt"), "hello\n");
    Path empty = Files.createFile(tmp.resolve("empty"));
    Path cut = tmp.resolve("cut.gsym");
    Files.write(cut, java.util.Arrays.copyOf(Files.readAllBytes(Fixtures.llvmGsym("c-gcc-O2")), 100));
    try (Symbolizer s = Symbolizer.builder().store(tmp.resolve("store")).build()) {
      Symbolized.ModuleNotFound nf = assertInstanceOf(Symbolized.ModuleNotFound.class,
          s.symbolize(ModuleRef.file(tmp.resolve("missing")), 1));
      assertTrue(nf.message().endsWith("missing: No such file or directory"), nf.message());
      for (Path p : List.of(text, empty, tmp)) {
        Symbolized.ModuleUnreadable u = assertInstanceOf(Symbolized.ModuleUnreadable.class, s.symbolize(ModuleRef.file(p), 1));
        assertTrue(u.message().startsWith(p.toString()), u.message());
      }
      Symbolized.ModuleUnreadable u = assertInstanceOf(Symbolized.ModuleUnreadable.class, s.symbolize(ModuleRef.file(cut), 1));
      assertTrue(u.message().contains(cut.toString()), u.message());
    }
  }

  /**
   * A binary carrying a GSYM (gsymutil embed) is answered from it, not from its DWARF: c-clang-O2
   * with c-gcc-O2's GSYM (another build, so the answers tell which was used) answers as that GSYM,
   * whose bytes are what the store keeps. A damaged one is unreadable, named with its section.
   */
  @Test
  void anEmbeddedGsymIsPreferredToTheDwarf() throws Exception {
    byte[] gsym = Files.readAllBytes(Fixtures.llvmGsym("c-gcc-O2"));
    byte[] bin = Files.readAllBytes(Fixtures.bin("c-clang-O2"));
    dev.gsym.elf.ElfSectionWriter w = new dev.gsym.elf.ElfSectionWriter(dev.gsym.elf.ElfFile.of(bin, "c-clang-O2"), ".gsym",
        gsym.length);
    Path embedded = tmp.resolve("c-clang-O2-with-gcc-gsym");
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(embedded, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      w.write(java.lang.foreign.MemorySegment.ofArray(gsym), ch);
    }
    Path store = tmp.resolve("store");
    try (Symbolizer s = Symbolizer.builder().store(store).build(); Symbolizer noStore = Symbolizer.builder().build();
        GsymReader gcc = GsymReader.open(Fixtures.llvmGsym("c-gcc-O2"))) {
      for (long a : Fixtures.functionAddresses(gcc)) {
        Fixtures.assertSameAnswer(gcc, a, s.symbolize(ModuleRef.file(embedded), a), "");
        Fixtures.assertSameAnswer(gcc, a, noStore.symbolize(ModuleRef.file(embedded), a), "");
      }
      assertEquals(1, s.stats().conversions());
    }
    Path kept = new GsymStore(store, Long.MAX_VALUE).gsym(ModuleKey.ofBuildId(Fixtures.buildId(Fixtures.bin("c-clang-O2"))));
    org.junit.jupiter.api.Assertions.assertArrayEquals(gsym, Files.readAllBytes(kept));

    byte[] bad = Files.readAllBytes(embedded);
    bad[(int) w.dataOffset() + 4] = 9; // GSYM version 9
    Path damaged = Files.write(tmp.resolve("damaged"), bad);
    try (Symbolizer s = Symbolizer.builder().build()) {
      Symbolized.ModuleUnreadable u = assertInstanceOf(Symbolized.ModuleUnreadable.class, s.symbolize(ModuleRef.file(damaged), 0x1139));
      assertTrue(u.message().contains(damaged + " (section .gsym): offset 0x"), u.message());
      assertTrue(u.message().contains("unsupported GSYM version 9"), u.message());
    }
  }

  /**
   * GSYM version 2 (LLVM main): a .gsym file and a binary carrying one in its .gsym section answer
   * as the version 1 file they were transcoded from; the store keeps the embedded version 2 bytes.
   */
  @Test
  void version2GsymsAnswerAsVersion1() throws Exception {
    byte[] v2;
    try (GsymReader r = GsymReader.open(Fixtures.llvmGsym("c-gcc-O2"))) {
      dev.gsym.write.GsymCreator c = dev.gsym.write.GsymCreator.from(r);
      c.setOutputVersion(2);
      c.finish(dev.gsym.write.Diagnostics.silent());
      v2 = c.encode(r.byteOrder());
    }
    Path file = Files.write(tmp.resolve("c-gcc-O2.v2.gsym"), v2);
    byte[] bin = Files.readAllBytes(Fixtures.bin("c-clang-O2"));
    dev.gsym.elf.ElfSectionWriter w = new dev.gsym.elf.ElfSectionWriter(dev.gsym.elf.ElfFile.of(bin, "c-clang-O2"), ".gsym",
        v2.length);
    Path embedded = tmp.resolve("c-clang-O2-with-v2-gsym");
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(embedded, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      w.write(java.lang.foreign.MemorySegment.ofArray(v2), ch);
    }
    Path store = tmp.resolve("store");
    try (Symbolizer s = Symbolizer.builder().store(store).build();
        GsymReader gcc = GsymReader.open(Fixtures.llvmGsym("c-gcc-O2"))) {
      for (long a : Fixtures.functionAddresses(gcc)) {
        Fixtures.assertSameAnswer(gcc, a, s.symbolize(ModuleRef.file(file), a), "");
        Fixtures.assertSameAnswer(gcc, a, s.symbolize(ModuleRef.file(embedded), a), "");
      }
    }
    Path kept = new GsymStore(store, Long.MAX_VALUE).gsym(ModuleKey.ofBuildId(Fixtures.buildId(Fixtures.bin("c-clang-O2"))));
    org.junit.jupiter.api.Assertions.assertArrayEquals(v2, Files.readAllBytes(kept));
  }

  @Test
  void anUnreadableStoreFileIsReplaced() throws Exception {
    Path store = tmp.resolve("store");
    Path bin = Fixtures.bin("c-gcc-O2");
    String id = Fixtures.buildId(bin);
    Path file = new GsymStore(store, Long.MAX_VALUE).gsym(ModuleKey.ofBuildId(id));
    Files.createDirectories(file.getParent());
    Files.writeString(file, "damaged by something else");
    try (Symbolizer s = Symbolizer.builder().store(store).build(); GsymReader llvm = GsymReader.open(Fixtures.llvmGsym("c-gcc-O2"))) {
      for (long a : Fixtures.functionAddresses(llvm)) Fixtures.assertSameAnswer(llvm, a, s.symbolize(ModuleRef.file(bin), a), "");
      assertEquals(1, s.stats().conversions());
    }
    try (GsymReader again = GsymReader.open(file)) {
      assertTrue(again.numFunctions() > 0, "replaced by a good file");
    }
  }

  @Test
  void batchKeepsOrderAndMixesAnswers() throws Exception {
    long c = Fixtures.functionAddressOf("c-gcc-O2");
    long r = Fixtures.functionAddressOf("rust-O2");
    List<Symbolizer.Request> reqs = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      reqs.add(new Symbolizer.Request(ModuleRef.file(Fixtures.bin(i % 2 == 0 ? "c-gcc-O2" : "rust-O2")), i % 2 == 0 ? c : r));
      if (i % 1000 == 0) reqs.add(new Symbolizer.Request(ModuleRef.buildId("ee00"), 1));
      if (i % 1500 == 0) reqs.add(new Symbolizer.Request(ModuleRef.file(Fixtures.bin("c-gcc-O2")), 0));
    }
    try (Symbolizer s = Symbolizer.builder().threads(3).build();
        GsymReader lc = GsymReader.open(Fixtures.llvmGsym("c-gcc-O2"));
        GsymReader lr = GsymReader.open(Fixtures.llvmGsym("rust-O2"))) {
      List<Symbolized> out = s.symbolize(reqs);
      assertEquals(reqs.size(), out.size());
      for (int i = 0; i < reqs.size(); i++) {
        Symbolizer.Request q = reqs.get(i);
        Symbolized a = out.get(i);
        assertEquals(q.module(), a.module());
        assertEquals(q.address(), a.address());
        if (q.module() instanceof ModuleRef.BuildId) {
          assertInstanceOf(Symbolized.ModuleNotFound.class, a);
        } else {
          GsymReader ref = q.module().toString().endsWith("rust-O2") ? lr : lc;
          Fixtures.assertSameAnswer(ref, q.address(), a, "" + i);
        }
      }
      assertEquals(2, s.stats().conversions());
      assertEquals(List.of(), s.symbolize(List.of()));
    }
  }

  @Test
  void relativeAddressesThatWrap() throws Exception {
    Path nopie = Fixtures.bin("symtab-gcc-O0-nopie"); // base 0x400000
    try (Symbolizer s = Symbolizer.builder().addressMode(AddressMode.RELATIVE).build()) {
      Symbolized.AddressNotCovered n = assertInstanceOf(Symbolized.AddressNotCovered.class, s.symbolize(ModuleRef.file(nopie), -16));
      assertTrue(n.message().contains("wraps"), n.message());
      Symbolized.Found f = assertInstanceOf(Symbolized.Found.class, s.symbolize(ModuleRef.file(nopie), 0x11e5));
      assertEquals(0x4011e5, f.fileAddress());
      assertEquals(0x400000, f.base());
      assertEquals("main", f.function().function());
    }
  }

  @Test
  void closedSymbolizerRefusesWork() throws Exception {
    Symbolizer s = Symbolizer.builder().build();
    s.close();
    assertThrows(IllegalStateException.class, () -> s.symbolize(ModuleRef.file(Fixtures.bin("c-gcc-O2")), 1));
    assertFalse(s.stats().openModules() > 0);
  }
}
