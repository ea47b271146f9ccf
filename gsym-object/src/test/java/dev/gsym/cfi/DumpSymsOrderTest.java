package dev.gsym.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.elf.ElfFile;
import dev.gsym.testing.StartsProcesses;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our FDEs in ordinal order are the FDEs Breakpad's dump_syms writes as {@code STACK CFI INIT}
 * records, in its order ({@code .debug_frame} before {@code .eh_frame}; with a debug link the
 * binary's {@code .eh_frame} before the debug file's {@code .debug_frame}), once dump_syms's own
 * filters are applied to ours: it refuses CIEs whose augmentation is not "" or 'z' with L, P, R, S
 * only, and drops an FDE starting outside every {@code PT_LOAD} segment (docs/unwind.md). The
 * goldens are src-test-data/cfi/expected/NAME.dump_syms.txt (regenerate-cfi.sh); the live variant
 * runs dump_syms itself (the minidump npm package's, {@code -Dgsym.dump_syms=PATH} elsewhere).
 */
@StartsProcesses
class DumpSymsOrderTest {
  private static final String DUMP_SYMS = System.getProperty("gsym.dump_syms", "/work/peers/package/bin/linux-x64/dump_syms");

  @ParameterizedTest
  @ValueSource(strings = {"both-gcc-O2", "both-gcc-O2-gc", "cfi-ops-x86_64", "both-gcc-O2.stripped"})
  void orderEqualsDumpSymsGolden(String name) throws IOException {
    String golden = TestData.text(TestData.path("cfi", "expected", name + ".dump_syms.txt"));
    assertEquals(inits(golden), ours(name), name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"both-gcc-O2", "both-gcc-O2-gc", "cfi-ops-x86_64", "both-gcc-O2.stripped"})
  void orderEqualsLiveDumpSyms(String name) throws IOException, InterruptedException {
    Path tool = Tools.require(Path.of(DUMP_SYMS), "Breakpad's dump_syms (-Dgsym.dump_syms)");
    List<String> args = new ArrayList<>(List.of(tool.toString(), name));
    if (name.endsWith(".stripped")) args.add("."); // follow the debug link to both-gcc-O2.debug beside it
    Process p = new ProcessBuilder(args).directory(TestData.path("cfi", "bin").toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue());
    assertEquals(inits(out), ours(name), name);
  }

  /** "ADDRESS SIZE" of each STACK CFI INIT line, in order. */
  private static List<String> inits(String sym) {
    List<String> out = new ArrayList<>();
    for (String line : sym.split("\n")) {
      if (!line.startsWith("STACK CFI INIT ")) continue;
      String[] f = line.split(" ");
      out.add(f[3] + " " + f[4]);
    }
    return out;
  }

  /** Ours, with dump_syms's filters, as "ADDRESS SIZE" relative to the first PT_LOAD. */
  private static List<String> ours(String name) throws IOException {
    Path bin = TestData.path("cfi", "bin");
    boolean paired = name.endsWith(".stripped");
    try (ElfFile file = ElfFile.open(bin.resolve(name));
        ElfFile debug = paired ? ElfFile.open(bin.resolve(name.replace(".stripped", ".debug"))) : null) {
      CfiReader.Result r = paired ? CfiReader.read(debug, file) : CfiReader.read(file);
      long load = -1;
      for (ElfFile.ProgramHeader ph : file.programHeaders()) {
        if (ph.type() == ElfFile.PT_LOAD && load == -1) load = ph.vaddr();
      }
      List<String> out = new ArrayList<>();
      for (CfiReader.Entry e : r.entries()) {
        if (!breakpadAccepts(e.fde().cie().augmentation()) || !inLoadSegment(file, e.fde().pcBegin())) continue;
        out.add(Long.toHexString(e.fde().pcBegin() - load) + " " + Long.toHexString(e.fde().pcRange()));
      }
      return out;
    }
  }

  /** Breakpad's CallFrameInfo::ReadCIEFields: "" or 'z' followed by L, P, R, S. */
  static boolean breakpadAccepts(String augmentation) {
    return augmentation.isEmpty() || augmentation.matches("z[LPRS]*");
  }

  /** Breakpad's Module::AddressIsInModule over the PT_LOAD segments. */
  static boolean inLoadSegment(ElfFile file, long address) {
    for (ElfFile.ProgramHeader ph : file.programHeaders()) {
      if (ph.type() == ElfFile.PT_LOAD && Long.compareUnsigned(address - ph.vaddr(), ph.memsz()) < 0) return true;
    }
    return false;
  }
}
