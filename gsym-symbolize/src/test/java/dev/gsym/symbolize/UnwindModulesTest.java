package dev.gsym.symbolize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.cfi.CfiReader;
import dev.gsym.elf.ElfFile;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Symbolizer.Builder#unwind}: the GSYMs {@link Symbolizer#openModule} opens carry the
 * module's call frame information, as a stack walker needs. A binary stripped of its DWARF, whose
 * debug file (objcopy {@code --only-keep-debug}: no {@code .eh_frame} bytes) is found in a debug
 * directory, gets the binary's CFI: at the start of every FDE the row is the one {@link CfiReader}
 * reads from the unstripped binary (itself checked against llvm-dwarfdump elsewhere); without
 * {@code unwind} there is none. A Breakpad symbol file's STACK CFI records are attached too, and
 * the GSYMs with unwind information live in the store's {@code unwind} part.
 */
class UnwindModulesTest {
  static final String NAME = "c-gcc-O2";

  @TempDir Path tmp;

  @Test
  void debugFileGetsTheBinarysCfi() throws Exception {
    Path objcopy = Fixtures.tool("objcopy");
    Path work = Files.createDirectories(tmp.resolve("work"));
    Files.copy(Fixtures.bin(NAME), work.resolve("app"));
    Fixtures.run(work, objcopy.toString(), "--only-keep-debug", "app", "app.debug");
    Fixtures.run(work, objcopy.toString(), "--strip-debug", "app", "app.stripped");
    String buildId = Fixtures.buildId(Fixtures.bin(NAME));
    Path debugDir = tmp.resolve("debug");
    Path link = TestData.buildIdPath(debugDir, buildId);
    Files.createDirectories(link.getParent());
    Files.copy(work.resolve("app.debug"), link);

    List<CfiTable> tables;
    try (ElfFile elf = ElfFile.open(Fixtures.bin(NAME))) {
      tables = new ArrayList<>(CfiReader.read(elf).tables());
    }
    assertTrue(tables.size() > 5, "the binary has FDEs");
    Path store = tmp.resolve("store");
    ModuleRef ref = ModuleRef.file(work.resolve("app.stripped"));
    try (Symbolizer s = Symbolizer.builder().store(store).unwind(true).addSource(Source.DebugDirectories.of(debugDir)).build();
        Symbolizer.OpenModule m = s.openModule(ref)) {
      assertTrue(m.found(), m.problem());
      assertEquals("debug-dir", m.source());
      GsymReader r = m.reader();
      UnwindState got = new UnwindState();
      for (CfiTable t : tables) {
        assertTrue(r.unwindRow(t.start(), got), "a row at 0x" + Long.toHexString(t.start()));
        assertEquals(t.start(), got.tableStart());
        assertEquals(t.length(), got.tableLength());
        assertEquals(t.returnAddressRegister(), got.returnAddressRegister());
      }
      // and the DWARF's functions, from the debug file
      org.junit.jupiter.api.Assertions.assertInstanceOf(Symbolized.Found.class, s.symbolize(ref, Fixtures.functionAddressOf(NAME)));
    }
    assertTrue(Files.isDirectory(store.resolve(Symbolizer.UNWIND_STORE)), "kept apart from plain GSYMs");
    try (Symbolizer s = Symbolizer.builder().store(store).addSource(Source.DebugDirectories.of(debugDir)).build();
        Symbolizer.OpenModule m = s.openModule(ref)) {
      assertTrue(m.found(), m.problem());
      assertFalse(m.reader().unwindRow(tables.getFirst().start(), new UnwindState()), "no unwind information by default");
    }
  }

  @Test
  void breakpadStackRecords() throws Exception {
    Path root = tmp.resolve("symbols");
    Path sym = TestData.path("breakpad", "basic.sym");
    String[] module = Files.readAllLines(sym).getFirst().split(" ", 5);
    String name = module[4];
    Path dir = Files.createDirectories(root.resolve(name).resolve(module[3]));
    Files.copy(sym, dir.resolve(name + ".sym"));
    long cfiStart = -1;
    for (String line : Files.readAllLines(sym)) {
      if (line.startsWith("STACK CFI INIT ")) {
        cfiStart = Long.parseUnsignedLong(line.split(" ")[3], 16);
        break;
      }
    }
    assertTrue(cfiStart >= 0);
    ModuleRef ref = ModuleRef.breakpad(name, module[3]);
    for (boolean unwind : new boolean[] {true, false}) {
      try (Symbolizer s = Symbolizer.builder().unwind(unwind).addSource(Source.BreakpadSymbols.directory(root)).build();
          Symbolizer.OpenModule m = s.openModule(ref)) {
        assertTrue(m.found(), m.problem());
        assertEquals(unwind, m.reader().unwindRow(cfiStart, new UnwindState()), "unwind " + unwind);
      }
    }
  }

  @Test
  void missingModuleSaysWhy() {
    try (Symbolizer s = Symbolizer.builder().unwind(true).addSource(Source.DebugDirectories.of(tmp)).build();
        Symbolizer.OpenModule m = s.openModule(ModuleRef.buildId("00112233445566778899aabbccddeeff00112233"))) {
      assertFalse(m.found());
      assertNull(m.reader());
      assertNotNull(m.problem());
      assertTrue(m.problem().contains("00112233445566778899aabbccddeeff00112233"), m.problem());
    }
  }
}
