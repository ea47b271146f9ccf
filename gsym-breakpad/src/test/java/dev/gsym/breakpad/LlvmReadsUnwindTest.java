package dev.gsym.breakpad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindEntry;
import dev.gsym.unwind.UnwindState;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What llvm-gsymutil-22 does with a GSYM that carries unwind information (InfoType 0x10000), on
 * llvm's own conversion of c-gcc-O2 with the CFI Breakpad's dump_syms wrote for the same binary
 * attached: its lookups answer every address exactly as on the file without it (they skip the
 * InfoType), and its dump prints, for each function that carries it, llvm's one error line
 * "FunctionInfo:0x...: unsupported InfoType 65536" in place of the function (exit status 0). Our
 * reader answers unwind lookups from the same file.
 */
@NeedsLlvm
class LlvmReadsUnwindTest {
  @TempDir
  Path dir;

  private Path withUnwind() throws IOException {
    List<UnwindEntry> entries = new ArrayList<>();
    StackRecords.Reader r = new StackRecords.Reader(Arch.X86_64);
    for (String l : Files.readAllLines(TestData.path("breakpad", "dump_syms", "c-gcc-O2.sym"))) {
      if (!l.startsWith("STACK ")) continue;
      String[] kt = l.substring(6).split(" ", 2);
      r.accept(kt[0], kt[1]);
    }
    entries.addAll(r.entries());
    try (GsymReader llvm = GsymReader.open(TestData.path("gsym", "c-gcc-O2.gsym"))) {
      GsymCreator c = GsymCreator.from(llvm);
      c.finish(Diagnostics.silent());
      assertThat(c.attachUnwind(Arch.X86_64, entries)).isPositive();
      Path out = dir.resolve("unwind.gsym");
      c.save(out);
      return out;
    }
  }

  @Test
  void ourReaderAnswersUnwindLookups() throws IOException {
    Path gsym = withUnwind();
    StackRecords.Reader r = new StackRecords.Reader(Arch.X86_64);
    for (String l : Files.readAllLines(TestData.path("breakpad", "dump_syms", "c-gcc-O2.sym"))) {
      if (l.startsWith("STACK ")) r.accept(l.substring(6).split(" ", 2)[0], l.substring(6).split(" ", 2)[1]);
    }
    try (GsymReader g = GsymReader.open(gsym)) {
      UnwindState s = new UnwindState();
      int checked = 0;
      for (UnwindEntry e : r.entries()) {
        CfiTable t = (CfiTable) e;
        for (long a = t.start(); a < t.start() + t.length(); a++) {
          assertThat(g.unwindRow(a, s)).as("0x%x", a).isTrue();
          // several tables may cover one address only if dump_syms wrote overlapping FDEs; it did not here
          assertThat(s.toRow()).as("0x%x", a).isEqualTo(t.rowAt(a));
          checked++;
        }
      }
      assertThat(checked).isGreaterThan(500);
    }
  }

  @Test
  void llvmLookupsAreUnchangedAndItsDumpRefusesTheRecords() throws Exception {
    Path tool = Tools.require(Llvm.gsymutil(), "llvm-gsymutil-22");
    Path plain = TestData.path("gsym", "c-gcc-O2.gsym");
    Path gsym = withUnwind();
    List<String> addrs = new ArrayList<>();
    try (GsymReader g = GsymReader.open(plain)) {
      for (int i = 0; i < g.numFunctions(); i++) {
        long start = g.functionAddress(i);
        long size = g.functionInfoAtIndex(i).range().size();
        for (long a = start - 1; a <= start + size; a++) addrs.add("--address=0x" + Long.toHexString(a));
      }
    }
    String before = run(tool, addrs, plain);
    String after = run(tool, addrs, gsym);
    assertThat(after.replace(gsym.toString(), "X")).isEqualTo(before.replace(plain.toString(), "X"));
    assertThat(before).contains(" @ ");

    String dump = run(tool, List.of(), gsym);
    long refused = dump.lines().filter(l -> l.matches("FunctionInfo @ 0x[0-9a-f]{8}: FunctionInfo:0x[0-9a-f]{8}: unsupported InfoType 65536")).count();
    try (GsymReader g = GsymReader.open(gsym)) {
      long carrying = 0;
      for (int i = 0; i < g.numFunctions(); i++) if (g.functionInfoAtIndex(i).unwind() != null) carrying++;
      assertThat(refused).isEqualTo(carrying).isPositive();
    }
  }

  private String run(Path tool, List<String> args, Path gsym) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(tool.toString()));
    cmd.addAll(args);
    cmd.add(gsym.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = ByteStrings.decode(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
    return out;
  }
}
