package dev.gsym.dwarf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.Tools;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --num-threads on a program of 60 compile units (shared headers with inline functions, so units
 * share strings and files): 1, 2, 3 and 8 threads give the same bytes and log, equal to
 * llvm-gsymutil-22 --num-threads=1. Which thread converts which unit (the merging thread directly, a
 * worker into a scratch creator, or the merging thread ahead of a busy worker) depends on timing,
 * so the parallel counts run several times. A reported skip without gcc or llvm-gsymutil-22 (a
 * failure under -Dgsym.requireTools=true).
 */
@NeedsLlvm
class ThreadedConvertTest {
  @TempDir Path tmp;

  /** The program of 60 units, built with gcc -g -O2. */
  private Path build() throws Exception {
    Files.writeString(tmp.resolve("common.h"), """
        static inline int sq(int x) { return x * x; }
        static inline int tw(int x) { return sq(x) + sq(x + 1); }
        """);
    List<String> cmd = new ArrayList<>(List.of(Tools.require("gcc").toString(), "-g", "-O2", "-o", "many"));
    StringBuilder main = new StringBuilder("#include \"common.h\"\n");
    for (int i = 0; i < 59; i++) {
      Files.writeString(tmp.resolve("u" + i + ".c"), "#include \"common.h\"\nint f" + i + "(int x) { return tw(x) + "
          + i + "; }\nint g" + i + "(int x) { return f" + i + "(x) * sq(x); }\n");
      cmd.add("u" + i + ".c");
      main.append("int g").append(i).append("(int);\n");
    }
    main.append("int main(int argc, char **argv) { int s = 0;\n");
    for (int i = 0; i < 59; i++) main.append("  s += g").append(i).append("(argc);\n");
    main.append("  return s + tw(argc); }\n");
    Files.writeString(tmp.resolve("main.c"), main);
    cmd.add("main.c");
    assertEquals(true, LlvmConvertDifferentialTest.run(tmp, cmd), "gcc builds the program");
    return tmp.resolve("many");
  }

  private static byte[] convert(Path bin, int threads, StringBuilder log) throws Exception {
    Diagnostics d = new Diagnostics(log);
    GsymCreator c = new GsymCreator();
    DwarfConverter.Summary s = DwarfConverter.convert(bin, c, d, DwarfConverter.Options.builder().mergedFunctions(true)
        .dwarfCallSites(true).threads(threads).build());
    log.append(d.summary());
    assertEquals(true, s.dwarfFunctions() >= 100, "functions: " + s.dwarfFunctions());
    return c.encode(s.byteOrder());
  }

  @Test
  void manyUnitsSameOutputForAnyThreadCount() throws Exception {
    Path bin = build();
    byte[] first = null;
    String firstLog = null;
    for (int threads : new int[] {1, 2, 3, 8, 2, 3, 2, 4, 2, 3, 2, 2}) {
      StringBuilder log = new StringBuilder();
      byte[] bytes = convert(bin, threads, log);
      String all = log.toString();
      if (first == null) {
        first = bytes;
        firstLog = all;
      }
      assertArrayEquals(first, bytes, "threads=" + threads);
      assertEquals(firstLog, all, "threads=" + threads);
    }
  }

  @Test
  void sameBytesAsLlvm() throws Exception {
    Path gsymutil = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    Path bin = build();
    Path ref = tmp.resolve("many.llvm.gsym");
    assertEquals(true, LlvmConvertDifferentialTest.run(tmp, List.of(gsymutil.toString(), "--convert", bin.toString(), "--out-file",
        ref.toString(), "--num-threads=1", "--merged-functions", "--dwarf-callsites")), "llvm-gsymutil-22 --convert");
    assertArrayEquals(Files.readAllBytes(ref), convert(bin, 1, new StringBuilder()), "llvm-gsymutil-22 --num-threads=1");
  }
}
