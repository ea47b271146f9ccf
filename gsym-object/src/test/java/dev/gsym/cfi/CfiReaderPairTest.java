package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gsym.elf.ElfFile;
import dev.gsym.testing.TestData;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A separate debug file and its binary ({@code objcopy --only-keep-debug} / {@code --strip-debug}
 * of both-gcc-O2, src-test-data/regenerate-cfi.sh): the debug file's {@code .eh_frame} is
 * {@code SHT_NOBITS}, so the pair reads it from the binary, and the pair gives the tables of the
 * unstripped file (in dump_syms's debug-link order: the binary's first).
 */
class CfiReaderPairTest {
  private static final Path BIN = TestData.path("cfi", "bin");

  private static List<String> describe(List<CfiTable> tables) {
    return tables.stream().map(t -> t.source() + " " + Long.toHexString(t.start()) + " " + t.length() + " " + t.rows()).toList();
  }

  @Test
  void debugFileTakesEhFrameFromTheBinary() throws IOException {
    try (ElfFile full = ElfFile.open(BIN.resolve("both-gcc-O2"));
        ElfFile debug = ElfFile.open(BIN.resolve("both-gcc-O2.debug"));
        ElfFile stripped = ElfFile.open(BIN.resolve("both-gcc-O2.stripped"))) {
      assertEquals(ElfFile.SHT_NOBITS, debug.section(".eh_frame").type());
      List<CfiTable> all = CfiReader.read(full).tables();
      List<CfiTable> debugFrame = all.stream().filter(t -> t.source() == UnwindSource.DEBUG_FRAME).toList();
      List<CfiTable> ehFrame = all.stream().filter(t -> t.source() == UnwindSource.EH_FRAME).toList();
      assertEquals(8, debugFrame.size());
      assertEquals(3, ehFrame.size());
      // alone, each file has one of the sections
      assertEquals(describe(debugFrame), describe(CfiReader.read(debug).tables()));
      assertEquals(describe(ehFrame), describe(CfiReader.read(stripped).tables()));
      // together: the binary's .eh_frame, then the debug file's .debug_frame, numbered in that order
      CfiReader.Result pair = CfiReader.read(debug, stripped);
      assertEquals(List.of(), pair.problems());
      List<CfiTable> tables = pair.tables();
      assertEquals(describe(java.util.stream.Stream.concat(ehFrame.stream(), debugFrame.stream()).toList()), describe(tables));
      for (int i = 0; i < tables.size(); i++) assertEquals(i, tables.get(i).ordinal());
      // a file paired with itself is read once
      assertEquals(describe(all), describe(CfiReader.read(full, full).tables()));
    }
  }
}
