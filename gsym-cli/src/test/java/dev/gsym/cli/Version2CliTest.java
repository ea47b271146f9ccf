package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GSYM version 2 end to end: written by every conversion with --output-version=2, rewritten by
 * convert --output-version N, and read by every reader path (lookups plain, verbose and merged,
 * --to-breakpad, symbolize, --statistics) with the same answers as the version 1 file.
 */
class Version2CliTest {
  @TempDir Path tmp;

  private static List<String> addresses(String golden) throws Exception {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(TestData.path("expected", "gsym", golden + ".addrs"))) {
      if (!line.isEmpty()) out.add(line);
    }
    return out;
  }

  private static String[] lookupArgs(List<String> flags, List<String> addrs, String file) {
    List<String> a = new ArrayList<>(flags);
    for (String addr : addrs) a.add("--address=" + addr);
    a.add(file);
    return a.toArray(String[]::new);
  }

  /** --dwarf with --output-version=2, then back to version 1: llvm-gsymutil-22's file, byte for byte. */
  @Test
  void dwarfToVersion2AndBackIsLlvmsFile() throws Exception {
    Path v2 = tmp.resolve("c.v2.gsym");
    CliRun conv = CliRun.run("--dwarf", TestData.path("bin", "c-clang-O2").toString(), "--output-version=2",
        "-o", v2.toString());
    assertThat(conv.status()).as(conv.err()).isZero();
    try (GsymReader r = GsymReader.open(v2)) {
      assertThat(r.version()).isEqualTo(2);
    }
    Path v1 = tmp.resolve("c.v1.gsym");
    CliRun back = CliRun.run("convert", "--output-version", "1", v2.toString(), "-o", v1.toString());
    assertThat(back.status()).as(back.err()).isZero();
    assertThat(back.out()).isEqualTo("Input file: " + v2 + " (GSYM version 2)\nOutput file: " + v1
        + " (GSYM version 1)\nRewrote 15 function infos.\n".replace("15", String.valueOf(count(v2))));
    assertThat(Files.readAllBytes(v1)).isEqualTo(Files.readAllBytes(TestData.path("gsym", "c-clang-O2.gsym")));
  }

  private static int count(Path gsym) throws Exception {
    try (GsymReader r = GsymReader.open(gsym)) {
      return r.numFunctions();
    }
  }

  /** Every lookup mode prints the same on the version 2 rewrite of a golden as on the golden. */
  @Test
  void lookupsOnVersion2MatchVersion1() throws Exception {
    for (String golden : List.of("icf-clang-O2-gold.merged-callsites.gsym", "cpp-clang-O2.gsym", "c-gcc-O2.gsym")) {
      Path v1 = TestData.path("gsym", golden);
      Path v2 = tmp.resolve(golden);
      assertThat(CliRun.run("convert", "--output-version=2", v1.toString(), "-o", v2.toString()).status()).isZero();
      List<String> addrs = addresses(golden);
      for (List<String> flags : List.of(List.<String>of(), List.of("--verbose"), List.of("--merged-functions"))) {
        CliRun a = CliRun.run(lookupArgs(flags, addrs, v1.toString()));
        CliRun b = CliRun.run(lookupArgs(flags, addrs, v2.toString()));
        assertThat(b.status()).isEqualTo(a.status());
        assertThat(b.out().replace(v2.toString(), "F")).as("%s %s", golden, flags)
            .isEqualTo(a.out().replace(v1.toString(), "F"));
      }
      // stdin batches and the symbolizer read it too
      StringBuilder lines = new StringBuilder();
      for (String addr : addrs) lines.append(addr).append(' ').append(v2).append('\n');
      StringBuilder lines1 = new StringBuilder();
      for (String addr : addrs) lines1.append(addr).append(' ').append(v1).append('\n');
      assertThat(CliRun.stdin(lines.toString(), "--addresses-from-stdin").out())
          .isEqualTo(CliRun.stdin(lines1.toString(), "--addresses-from-stdin").out());
      String[] sym2 = new String[addrs.size() + 3];
      String[] sym1 = new String[addrs.size() + 3];
      sym2[0] = sym1[0] = "symbolize";
      sym2[1] = sym1[1] = "--no-debuginfod";
      sym2[2] = "--obj=" + v2;
      sym1[2] = "--obj=" + v1;
      for (int i = 0; i < addrs.size(); i++) sym2[i + 3] = sym1[i + 3] = addrs.get(i);
      CliRun s2 = CliRun.run(sym2);
      assertThat(s2.status()).as(s2.err()).isZero();
      assertThat(s2.out()).isEqualTo(CliRun.run(sym1).out()).isNotEmpty();
    }
  }

  @Test
  void toBreakpadFromVersion2IsTheSame() throws Exception {
    Path v1 = TestData.path("gsym", "cpp-gcc-O2.gsym");
    Path v2 = tmp.resolve("cpp.gsym");
    assertThat(CliRun.run("convert", "--output-version=2", v1.toString(), "-o", v2.toString()).status()).isZero();
    Path s1 = tmp.resolve("1.sym");
    Path s2 = tmp.resolve("2.sym");
    assertThat(CliRun.run("--to-breakpad", v1.toString(), "-o", s1.toString(), "--module-name", "m").status()).isZero();
    assertThat(CliRun.run("--to-breakpad", v2.toString(), "-o", s2.toString(), "--module-name", "m").status()).isZero();
    assertThat(Files.readString(s2)).isEqualTo(Files.readString(s1));
  }

  @Test
  void breakpadToVersion2() throws Exception {
    Path sym = tmp.resolve("a.sym");
    Files.writeString(sym, "MODULE Linux x86_64 000000000000000000000000000000000 a\nFILE 0 a.c\nFUNC 1000 20 0 f\n1000 20 7 0\n");
    Path out = tmp.resolve("a.gsym");
    CliRun r = CliRun.run("--breakpad", sym.toString(), "--output-version", "2", "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    try (GsymReader g = GsymReader.open(out)) {
      assertThat(g.version()).isEqualTo(2);
      assertThat(g.lookup(0x1004).toString()).isEqualTo("0x0000000000001004: f + 4 @ a.c:7\n");
    }
  }

  /** --segment-size with --output-version=2: every segment is a version 2 file answering as the whole. */
  @Test
  void version2Segments() throws Exception {
    Path base = tmp.resolve("seg.gsym");
    CliRun r = CliRun.run("--dwarf", TestData.path("bin", "c-clang-O2").toString(), "--output-version=2",
        "--segment-size", "700", "-o", base.toString());
    assertThat(r.status()).as(r.err()).isZero();
    List<Path> segments;
    try (var files = Files.list(tmp)) {
      segments = files.filter(p -> p.getFileName().toString().startsWith("seg.gsym-0x")).sorted().toList();
    }
    assertThat(segments).hasSizeGreaterThan(1);
    int functions = 0;
    try (GsymReader whole = GsymReader.open(TestData.path("gsym", "c-clang-O2.gsym"))) {
      for (Path seg : segments) {
        try (GsymReader g = GsymReader.open(seg)) {
          assertThat(g.version()).isEqualTo(2);
          assertThat(g.size()).isLessThan(700 + 400); // about the segment size (one function may overshoot)
          for (int i = 0; i < g.numFunctions(); i++) {
            long a = g.functionAddress(i);
            assertThat(g.lookup(a).toString()).isEqualTo(whole.lookup(a).toString());
          }
          functions += g.numFunctions();
        }
      }
      assertThat(functions).isEqualTo(whole.numFunctions());
    }
  }

  @Test
  void badOutputVersionIsLlvmsError() {
    CliRun r = CliRun.run("--dwarf", TestData.path("bin", "c-clang-O2").toString(), "--output-version=3",
        "-o", tmp.resolve("x").toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("gsymutil: for the --output-version option: '3' is invalid. Use '1' or '2'.\n");
    assertThat(r.out()).isEmpty();
    assertThat(tmp.resolve("x")).doesNotExist();
    CliRun t = CliRun.run("convert", TestData.path("gsym", "c-clang-O2.gsym").toString(), "-o", tmp.resolve("y").toString());
    assertThat(t.err()).isEqualTo("gsymutil: convert of a GSYM file needs --output-version N\n");
  }

  @Test
  void statistics() throws Exception {
    Path v1 = TestData.path("gsym", "c-clang-O2.gsym");
    CliRun text = CliRun.run("--statistics", v1.toString());
    assertThat(text.status()).as(text.err()).isZero();
    assertThat(text.out()).startsWith("path: " + v1 + "\nuuid: ").contains("\nbyte-sizes {\n  file_size: "
        + Files.size(v1) + "\n  header: 48\n  global_data_directory: 0\n");
    CliRun json = CliRun.run("--statistics=json", v1.toString());
    assertThat(json.out()).startsWith("{\"path\":").endsWith("}}}}\n").doesNotContain("\n{");
    CliRun pretty = CliRun.run("--statistics=pretty-json", v1.toString(), v1.toString());
    assertThat(pretty.out().split("\n\\{\n", -1)).hasSize(2); // one report per file
    CliRun bad = CliRun.run("--statistics=yaml", v1.toString());
    assertThat(bad.status()).isEqualTo(1);
    assertThat(bad.err()).isEqualTo("gsymutil: for the --statistics option: 'yaml' is invalid. Use 'text', 'json'"
        + " or 'pretty-json'.\n");
    // the fast parser and picocli agree (--threads sends the line to picocli)
    assertThat(CliRun.run("--threads", "2", "--statistics", v1.toString()).out()).isEqualTo(text.out());
    assertThat(CliRun.run("--threads", "2", "--statistics=json", v1.toString()).out()).isEqualTo(json.out());
  }
}
