package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DWARF conversion through the command line: the GSYM bytes equal llvm-gsymutil-22's
 * ({@code --num-threads=1}, checked in under src-test-data/gsym) and stdout equals llvm's recorded
 * conversion log, for every golden binary; llvm's error texts and exit codes; no partial output.
 */
class DwarfConvertCliTest {

  static List<String> binaries() throws IOException {
    return TestData.binaries();
  }

  @ParameterizedTest
  @MethodSource("binaries")
  void sameBytesAndMessagesAsLlvm(String name, @TempDir Path tmp) throws Exception {
    Path bin = TestData.path("bin", name);
    Path out = tmp.resolve(name + ".gsym");
    CliRun r = CliRun.run("--dwarf", bin.toString(), "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(Files.readAllBytes(out)).as(name).isEqualTo(Files.readAllBytes(TestData.path("gsym", name + ".gsym")));
    String llvmLog = Files.readString(TestData.path("expected", "convert", name + ".gsym.log.txt"))
        // run from src-test-data/ (bin/NAME, gsym/NAME.gsym) or, for split DWARF, from bin/ (NAME, ../gsym/NAME.gsym)
        .replaceFirst("Input file: (bin/)?" + Pattern.quote(name) + "\n", Matcher.quoteReplacement("Input file: " + bin + "\n"))
        .replaceFirst("\\): (\\.\\./)?gsym/" + Pattern.quote(name + ".gsym") + "\n", Matcher.quoteReplacement("): " + out + "\n"));
    if (name.startsWith("icf")) {
      // llvm adds llvm-dwarfdump listings under two of its error lines (docs/dwarf-differences.md)
      assertThat(r.out()).startsWith(llvmLog.substring(0, llvmLog.indexOf("error:")));
      assertThat(r.out()).endsWith(llvmLog.substring(llvmLog.lastIndexOf("Pruned ")));
    } else {
      assertThat(r.out()).isEqualTo(llvmLog);
    }
  }

  @Test
  void mergedFunctionsAndDwarfCallSites(@TempDir Path tmp) throws Exception {
    Path bin = TestData.path("bin", "icf-clang-O2-gold");
    byte[] merged = Files.readAllBytes(TestData.path("gsym", "icf-clang-O2-gold.merged.gsym"));
    byte[] callSites = Files.readAllBytes(TestData.path("gsym", "icf-clang-O2-gold.merged-callsites.gsym"));

    CliRun a = CliRun.run("--convert", bin.toString(), "--merged-functions", "--out-file", tmp.resolve("a.gsym").toString());
    assertThat(a.status()).as(a.err()).isZero();
    assertThat(a.out()).contains("Loaded 4 functions from DWARF.\nHave 1 merged functions as children of other functions\n"
        + "Loaded 11 functions from symbol table.\n");
    assertThat(Files.readAllBytes(tmp.resolve("a.gsym"))).isEqualTo(merged);

    CliRun b = CliRun.run("convert", "--dwarf", bin.toString(), "--merged-functions", "--dwarf-callsites",
        "-o", tmp.resolve("b.gsym").toString());
    assertThat(b.status()).as(b.err()).isZero();
    assertThat(Files.readAllBytes(tmp.resolve("b.gsym"))).isEqualTo(callSites);

    // the lookup side of the same flag still works on the result
    CliRun c = CliRun.run("--merged-functions", "--address", "0x6c0", tmp.resolve("b.gsym").toString());
    assertThat(c.status()).isZero();
    assertThat(c.out()).contains("Found 2 functions at address 0x00000000000006c0:");

    CliRun d = CliRun.run("--breakpad", "x.sym", "--dwarf-callsites");
    assertThat(d.status()).isEqualTo(1);
    assertThat(d.err()).contains("only apply to --dwarf");
  }

  @Test
  void verify(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("ok.gsym");
    CliRun a = CliRun.run("--convert", TestData.path("bin", "c-gcc-O2").toString(), "--verify", "--out-file", out.toString());
    assertThat(a.status()).as(a.err()).isZero();
    assertThat(a.out()).endsWith("Pruned 8 functions, ended with 15 total\nVerifying GSYM file \"" + out + "\":\n");
    assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(TestData.path("gsym", "c-gcc-O2.gsym")));

    // llvm-gsymutil-22 --verify reports 28 mismatches of its own on this file (and still exits 0)
    Path bad = tmp.resolve("cpp.gsym");
    CliRun b = CliRun.run("--dwarf", TestData.path("bin", "cpp-gcc-O2").toString(), "--verify", "-o", bad.toString());
    assertThat(b.status()).isEqualTo(1);
    assertThat(b.out()).contains("Verifying GSYM file \"" + bad + "\":\nerror: address 0x000000000000128f DWARF function"
        + " \"operator()\" doesn't match GSYM function \"app::run::operator()\"\n");

    CliRun c = CliRun.run("--dwarf", TestData.path("bin", "c-gcc-O2").toString(), "--verify", "--segment-size", "1000",
        "-o", tmp.resolve("s.gsym").toString());
    assertThat(c.status()).isEqualTo(1);
    assertThat(c.err()).contains("--verify cannot be used with --segment-size");
  }

  @Test
  void numThreads(@TempDir Path tmp) throws Exception {
    Path bin = TestData.path("bin", "cpp-clang-O2");
    for (String n : List.of("1", "4", "0")) {
      Path out = tmp.resolve("t" + n + ".gsym");
      CliRun r = CliRun.run("--convert", bin.toString(), "--num-threads=" + n, "--out-file", out.toString());
      assertThat(r.status()).as(r.err()).isZero();
      assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(TestData.path("gsym", "cpp-clang-O2.gsym")));
    }
    CliRun bad = CliRun.run("--convert", bin.toString(), "--num-threads=abc");
    assertThat(bad.status()).isEqualTo(1);
    assertThat(bad.err()).isEqualTo("gsymutil: for the --num-threads option: 'abc' value invalid for uint argument!\n");
  }

  /** The files llvm-gsymutil-22 --json-summary-file writes for these inputs. */
  @Test
  void jsonSummaryFile(@TempDir Path tmp) throws Exception {
    Path json = tmp.resolve("s.json");
    CliRun a = CliRun.run("--convert", TestData.path("bin", "icf-clang-O2-gold").toString(), "-o", tmp.resolve("a.gsym").toString(),
        "--json-summary-file=" + json);
    assertThat(a.status()).as(a.err()).isZero();
    assertThat(Files.readString(json)).isEqualTo("{\"error-categories\":{\"Duplicate address ranges with different debug"
        + " info.\":{\"count\":1},\"Non-monotonically increasing addresses\":{\"count\":2}},\"error-count\":3}");

    CliRun b = CliRun.run("--convert", TestData.path("bin", "c-gcc-O2").toString(), "-o", tmp.resolve("b.gsym").toString(),
        "--json-summary-file", json.toString(), "--num-threads=2");
    assertThat(b.status()).as(b.err()).isZero();
    assertThat(Files.readString(json)).isEqualTo("{\"error-categories\":{},\"error-count\":0}");

    // llvm converts, writes the GSYM and then reports the JSON file; we report it before converting
    Path bad = tmp.resolve("no/such/dir.json");
    CliRun c = CliRun.run("--convert", TestData.path("bin", "c-gcc-O2").toString(), "-o", tmp.resolve("c.gsym").toString(),
        "--json-summary-file=" + bad);
    assertThat(c.status()).isEqualTo(1);
    assertThat(c.out()).isEmpty();
    assertThat(c.err()).isEqualTo("error opening aggregate error json file '" + bad + "' for writing: No such file or"
        + " directory\n");
    assertThat(tmp.resolve("c.gsym")).doesNotExist();

    CliRun d = CliRun.run("--breakpad", "x.sym", "--json-summary-file=" + json);
    assertThat(d.status()).isEqualTo(1);
    assertThat(d.err()).contains("only apply to --dwarf");
  }

  @Test
  void llvmSpellingAndSubcommandAndDefaultOutput(@TempDir Path tmp) throws Exception {
    Path bin = Files.copy(TestData.path("bin", "c-gcc-O2"), tmp.resolve("prog"));
    byte[] expected = Files.readAllBytes(TestData.path("gsym", "c-gcc-O2.gsym"));

    CliRun a = CliRun.run("--convert", bin.toString(), "--out-file", tmp.resolve("a.gsym").toString());
    assertThat(a.status()).isZero();
    assertThat(Files.readAllBytes(tmp.resolve("a.gsym"))).isEqualTo(expected);

    CliRun b = CliRun.run("convert", "--dwarf", bin.toString(), "-o", tmp.resolve("b.gsym").toString());
    assertThat(b.status()).isZero();
    assertThat(Files.readAllBytes(tmp.resolve("b.gsym"))).isEqualTo(expected);

    CliRun c = CliRun.run("--dwarf", bin.toString());
    assertThat(c.status()).isZero();
    assertThat(c.out()).contains("Output file (x86_64): " + bin + ".gsym\n");
    assertThat(Files.readAllBytes(tmp.resolve("prog.gsym"))).isEqualTo(expected);

    // and the result answers lookups
    CliRun d = CliRun.run("--lookup", "0x0", tmp.resolve("prog.gsym").toString());
    assertThat(d.status()).isZero();
    assertThat(d.out()).startsWith("Looking up addresses in \"" + tmp.resolve("prog.gsym") + "\":\n");
  }

  @Test
  void errorsAsLlvmAndNoOutputFile(@TempDir Path tmp) throws Exception {
    Path text = Files.writeString(tmp.resolve("notes.txt"), "no object file here\n".repeat(10));
    Path out = tmp.resolve("out.gsym");
    CliRun r = CliRun.run("--dwarf", text.toString(), "-o", out.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEqualTo("Input file: " + text + "\n");
    assertThat(r.err()).isEqualTo(text + ": The file was not recognized as a valid object file\n");
    assertThat(out).doesNotExist();

    CliRun missing = CliRun.run("--dwarf", tmp.resolve("nope").toString(), "-o", out.toString());
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err()).isEqualTo(tmp.resolve("nope") + ": No such file or directory\n");

    // an ELF without DWARF or symbols: llvm's message (llvm also leaves an empty file; we do not),
    // then why and what has the symbols
    Path stripped = Files.write(tmp.resolve("stripped"), strippedElf());
    CliRun none = CliRun.run("--dwarf", stripped.toString(), "-o", out.toString());
    assertThat(none.status()).isEqualTo(1);
    assertThat(none.out()).endsWith("Loaded 0 functions from DWARF.\nLoaded 0 functions from symbol table.\n"
        + "Pruned 0 functions, ended with 0 total\n");
    assertThat(none.err()).isEqualTo("DWARF conversion failed: : no functions to encode\ngsymutil: no functions in the"
        + " debug info or the symbol table of " + stripped + " (stripped?): convert the unstripped binary or its separate"
        + " debug file, or take the symbols of the unstripped binary with --symtab-file FILE\n");
    assertThat(out).doesNotExist();
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList()).isEmpty();
    }

    CliRun both = CliRun.run("--dwarf", stripped.toString(), "--breakpad", "x.sym");
    assertThat(both.status()).isEqualTo(1);
    assertThat(both.err()).contains("only one of --dwarf/--convert, --breakpad and --to-breakpad");
  }

  /** A minimal ELF64 header with no sections: a valid object with nothing to convert. */
  private static byte[] strippedElf() {
    byte[] b = new byte[64];
    b[0] = 0x7f;
    b[1] = 'E';
    b[2] = 'L';
    b[3] = 'F';
    b[4] = 2; // ELFCLASS64
    b[5] = 1; // little endian
    b[6] = 1; // EV_CURRENT
    b[16] = 2; // ET_EXEC
    b[18] = 62; // EM_X86_64
    b[20] = 1; // e_version
    b[52] = 64; // e_ehsize
    b[54] = 56; // e_phentsize
    b[58] = 64; // e_shentsize
    return b;
  }
}
