package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.elf.ElfFile;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gsymutil symbolize} without llvm: its errors (one line, llvm's wording and exit status,
 * no stack trace), the answers it gives where GSYM lacks what llvm would print, its options and
 * input forms, and that stdin lines are answered as they come. The expected texts are what
 * llvm-symbolizer-22 prints for the same input over llvm-gsymutil-22's GSYM of the binary
 * (SymbolizeLlvmDifferentialTest compares with it live).
 */
@NeedsLlvm
class SymbolizeCliTest {
  private static final Path BIN = TestData.path("bin", "c-gcc-O2");
  private static final String F = BIN.toString();

  @TempDir
  Path tmp;

  private static CliRun run(String stdin, String... args) {
    return run(Map.of(), stdin, args);
  }

  private static CliRun run(Map<String, String> env, String stdin, String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "symbolize";
    System.arraycopy(args, 0, all, 1, args.length);
    return CliRun.withEnv(env, ByteStrings.encode(stdin), all);
  }

  private static final String AT_1200 = """
      leaf
      /gsym-test/src/c_main.c:16:0
      middle
      /gsym-test/src/c_main.c:21:0
      outer
      /gsym-test/src/c_main.c:28:0

      """;

  @Test
  void addressesAsArguments() {
    CliRun r = run("", "--obj=" + F, "0x1200", "4608");
    assertThat(r.status()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).isEqualTo(AT_1200 + AT_1200);
    // llvm's other spellings of --obj, grouped short flags
    assertThat(run("", "-e", F, "0x1200").out()).isEqualTo(AT_1200);
    assertThat(run("", "-e" + F, "0x1200").out()).isEqualTo(AT_1200);
    assertThat(run("", "--exe", F, "0x1200").out()).isEqualTo(AT_1200);
    assertThat(run("", "-Cie", F, "0x1200").out()).isEqualTo(AT_1200);
    assertThat(run("", "--obj", F, "-apf=short", "0x1200").out()).isEqualTo("""
        0x1200: leaf at /gsym-test/src/c_main.c:16:0
         (inlined by) middle at /gsym-test/src/c_main.c:21:0
         (inlined by) outer at /gsym-test/src/c_main.c:28:0

        """);
  }

  @Test
  void jsonListOfArguments() {
    CliRun r = run("", "--output-style=JSON", "--obj=" + F, "0x1000", "0x0");
    assertThat(r.out()).isEqualTo("[{\"Address\":\"0x1000\",\"ModuleName\":\"" + F + "\",\"Symbol\":[{\"Column\":0,"
        + "\"Discriminator\":0,\"FileName\":\"\",\"FunctionName\":\"_init\",\"Line\":0,\"StartAddress\":\"0x1000\","
        + "\"StartFileName\":\"\",\"StartLine\":0}]},{\"Address\":\"0x0\",\"ModuleName\":\"" + F + "\",\"Symbol\":"
        + "[{\"Column\":0,\"Discriminator\":0,\"FileName\":\"\",\"FunctionName\":\"\",\"Line\":0,\"StartAddress\":\"\","
        + "\"StartFileName\":\"\",\"StartLine\":0}]}]\n");
    CliRun pretty = run("", "--output-style=JSON", "-p", "--obj=" + F, "0x1000");
    assertThat(pretty.out()).isEqualTo("""
        [
          {
            "Address": "0x1000",
            "ModuleName": "%s",
            "Symbol": [
              {
                "Column": 0,
                "Discriminator": 0,
                "FileName": "",
                "FunctionName": "_init",
                "Line": 0,
                "StartAddress": "0x1000",
                "StartFileName": "",
                "StartLine": 0
              }
            ]
          }
        ]
        """.formatted(F));
  }

  @Test
  void unknownOptionIsOneLineAndExitOne() {
    CliRun r = run("", "--foo", "--obj=" + F, "0x1200");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("error: unknown argument '--foo'\n");
    assertThat(run("", "--inline").err()).isEqualTo("error: unknown argument '--inline', did you mean '--inlines'?\n");
    assertThat(run("", "-aix").err()).isEqualTo("error: unknown argument '-x'\n");
    assertThat(run("", "--demangle=false").err())
        .isEqualTo("error: unknown argument '--demangle=false', did you mean '-demangle=false'?\n");
    assertThat(run("", "--foo", "--obj").err()).isEqualTo("error: --obj: missing argument\nerror: unknown argument '--foo'\n");
    // "--" is no end-of-options marker for llvm-symbolizer
    assertThat(run("", "--").err()).isEqualTo("error: unknown argument '--'\n");
  }

  @Test
  void badOptionValues() {
    CliRun r = run("", "--build-id=zz", "0x10");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("--build-id=: expected a build ID, but got 'zz'\n");
    assertThat(run("", "--build-id", "zz").err()).isEqualTo("--build-id=: expected a build ID, but got 'zz'\n");
    assertThat(run("", "--adjust-vma=x").err()).isEqualTo("--adjust-vma=: expected a non-negative integer, but got 'x'\n");
    assertThat(run("", "--obj=a", "--build-id=ab").err()).isEqualTo("error: cannot specify both --build-id and --obj\n");
    assertThat(run("", "--threads=0").err()).isEqualTo("--threads=: expected a positive integer, but got '0'\n");
    assertThat(run("", "--filter-markup").err()).isEqualTo("error: --filter-markup is not supported by gsymutil symbolize\n");
    assertThat(run("", "--filter-markup").status()).isEqualTo(1);
  }

  @Test
  void missingObjectFileStopsWithLlvmsMessage() {
    CliRun r = run("", "--obj=/nonexistent/x", "0x10");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("gsymutil: error: '/nonexistent/x': No such file or directory\n");
    CliRun json = run("", "--output-style=JSON", "--obj=/nonexistent/x", "0x10");
    assertThat(json.status()).isEqualTo(1);
    assertThat(json.err()).isEmpty();
    assertThat(json.out()).isEqualTo("{\"Address\":\"0x0\",\"Error\":{\"Message\":\"No such file or directory\"},"
        + "\"ModuleName\":\"/nonexistent/x\"}\n");
    assertThat(run("", "--obj=" + tmp, "0x10").err()).isEqualTo("gsymutil: error: '" + tmp + "': Is a directory\n");
  }

  /**
   * An --obj that is an object file cut short (or a GSYM file cut short) cannot be opened: the run
   * stops with the error alone and exit status 1, as llvm-symbolizer-22 stops, with the addresses as
   * arguments or on stdin and in every style; no {@code ??} answer that a script could take for one.
   */
  @Test
  void truncatedObjectFileStopsTheRun() throws IOException {
    Path elf = Files.write(tmp.resolve("cut"), java.util.Arrays.copyOf(Files.readAllBytes(BIN), 3000));
    byte[] g = Files.readAllBytes(TestData.path("gsym", "c-gcc-O2.gsym"));
    // cut in its tables, and in its last FunctionInfo records (its tables whole)
    Path gsym = Files.write(tmp.resolve("cut.gsym"), java.util.Arrays.copyOf(g, 200));
    Path gsymTail = Files.write(tmp.resolve("tail.gsym"), java.util.Arrays.copyOf(g, g.length - 40));
    for (Path p : List.of(elf, gsym, gsymTail)) {
      for (String style : List.of("LLVM", "GNU", "JSON")) {
        for (boolean stdin : new boolean[] {false, true}) {
          CliRun r = stdin ? run("0x1200\n0x1210\n", "--obj=" + p, "--output-style=" + style)
              : run("", "--obj=" + p, "--output-style=" + style, "0x1200", "0x1210");
          String what = p.getFileName() + " " + style + (stdin ? " stdin" : " arguments");
          assertThat(r.status()).as("exit status, %s", what).isEqualTo(1);
          if (style.equals("JSON")) {
            // llvm's one error object, not in a list, at address 0
            assertThat(r.out()).as(what).startsWith("{\"Address\":\"0x0\",\"Error\":{\"Message\":\"offset 0x")
                .endsWith("\"},\"ModuleName\":\"" + p + "\"}\n").hasLineCount(1);
            assertThat(r.err()).as(what).isEmpty();
          } else {
            assertThat(r.out()).as(what).isEmpty();
            assertThat(r.err()).as(what).startsWith("gsymutil: error: '" + p + "': offset 0x").hasLineCount(1);
          }
        }
      }
    }
    assertThat(run("", "--obj=" + elf, "0x1200").err()).isEqualTo("gsymutil: error: '" + elf
        + "': offset 0x00000028: section headers past end of file\n");
    // the same file named on an input line is one request's error, as llvm: the run goes on
    CliRun line = run(elf + " 0x1200\n" + F + " 0x1200\n");
    assertThat(line.status()).isZero();
    assertThat(line.out()).isEqualTo("??\n??:0:0\n\n" + AT_1200);
  }

  /** {@link #truncatedObjectFileStopsTheRun} against llvm-symbolizer-22 itself: the same exit status and shape. */
  @Test
  void truncatedObjectFileStopsAsInLlvm() throws Exception {
    Path llvm = Tools.require(Llvm.symbolizer(), "llvm-symbolizer-22");
    Path elf = Files.write(tmp.resolve("cut"), java.util.Arrays.copyOf(Files.readAllBytes(BIN), 3000));
    for (List<String> args : List.of(List.of("--obj=" + elf, "0x1200", "0x1210"), List.of("--obj=" + elf),
        List.of("--obj=" + elf, "--output-style=JSON", "0x1200", "0x1210"), List.of("--obj=" + elf, "--output-style=GNU"))) {
      Process p = new ProcessBuilder(java.util.stream.Stream.concat(java.util.stream.Stream.of(llvm.toString()),
          args.stream()).toList()).redirectInput(Files.writeString(tmp.resolve("in"), "0x1200\n0x1210\n").toFile())
          .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      int status = p.waitFor();
      CliRun ours = run("0x1200\n0x1210\n", args.toArray(String[]::new));
      assertThat(ours.status()).as("exit status of %s (llvm: %s)", args, err).isEqualTo(status).isEqualTo(1);
      assertThat(ours.out().lines().count()).as("stdout lines of %s", args).isEqualTo(out.lines().count());
      assertThat(ours.err().lines().count()).as("stderr lines of %s", args).isEqualTo(err.lines().count());
      if (!out.isEmpty()) {
        assertThat(ours.out()).startsWith("{\"Address\":\"0x0\",\"Error\":");
        assertThat(out).startsWith("{\"Address\":\"0x0\",\"Error\":");
      }
    }
  }

  @Test
  void aBadLineNeverStopsTheBatch() throws IOException {
    Path text = Files.writeString(tmp.resolve("text"), "not an object\n");
    String stdin = String.join("\n", "/nonexistent/x 0x10", "/nonexistent/x 0x20", text + " 0x10", F + " 1zz",
        F, "BUILDID:abcd 0x10", "BUILDID:abcd 0x10", "BUILDID:xyz 0x10", F + " 0x1200") + "\n";
    CliRun r = run(stdin, "--debug-file-directory=" + tmp);
    assertThat(r.status()).isZero();
    String unknown = "??\n??:0:0\n\n";
    assertThat(r.out()).isEqualTo(unknown.repeat(8) + AT_1200);
    // a file is reported once, a build-id each time, an input that does not parse where it is
    assertThat(r.err()).isEqualTo("""
        gsymutil: error: '/nonexistent/x': No such file or directory
        gsymutil: error: '%1$s': The file was not recognized as a valid object file
        gsymutil: error: '%2$s 1zz': expected a number as module offset
        gsymutil: error: '%2$s': no module offset has been specified
        gsymutil: error: 'ABCD': could not find build ID
        gsymutil: error: 'ABCD': could not find build ID
        gsymutil: error: 'BUILDID:xyz 0x10': wrong format of build-id
        """.formatted(text, F));
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    CliRun json = run(stdin, "--debug-file-directory=" + tmp, "--output-style=JSON");
    List<String> lines = json.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("{\"Address\":\"0x10\",\"Error\":{\"Message\":\"No such file or directory\"},"
        + "\"ModuleName\":\"/nonexistent/x\"}");
    assertThat(lines.get(1)).isEqualTo("{\"Address\":\"0x20\",\"ModuleName\":\"/nonexistent/x\",\"Symbol\":[]}");
    assertThat(lines.get(3)).isEqualTo("{\"ModuleName\":\"" + F + "\",\"Symbol\":[{\"Column\":0,\"Discriminator\":0,"
        + "\"FileName\":\"\",\"FunctionName\":\"\",\"Line\":0,\"StartAddress\":\"\",\"StartFileName\":\"\",\"StartLine\":0}]}");
    assertThat(lines.get(5)).isEqualTo("{\"Address\":\"0x10\",\"Error\":{\"Message\":\"could not find build ID\"},"
        + "\"ModuleName\":\"ABCD\"}");
    assertThat(lines.get(6)).isEqualTo(lines.get(5));
    assertThat(lines).hasSize(9);
    assertThat(json.err()).isEqualTo("""
        gsymutil: error: '%1$s 1zz': expected a number as module offset
        gsymutil: error: '%1$s': no module offset has been specified
        gsymutil: error: 'BUILDID:xyz 0x10': wrong format of build-id
        """.formatted(F));
  }

  @Test
  void byBuildIdFromADebugDirectoryAndTheStore() throws IOException {
    String id;
    try (ElfFile elf = ElfFile.open(BIN)) {
      id = HexFormat.of().formatHex(elf.buildId());
    }
    Path debug = tmp.resolve("debug");
    Path file = TestData.addToDebugDirectory(debug, id, BIN);
    Path store = tmp.resolve("store");
    CliRun r = run("BUILDID:" + id + " 0x1200\n", "--debug-file-directory=" + debug, "--store=" + store);
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).isEqualTo(AT_1200);
    assertThat(store.resolve(id.substring(0, 2)).resolve(id.substring(2) + ".gsym")).isRegularFile();
    // later runs answer from the store alone
    Files.delete(file);
    CliRun again = run("", "--build-id=" + id.toUpperCase(java.util.Locale.ROOT), "--store", store.toString(),
        "--debug-file-directory=" + debug, "--output-style=GNU", "0x1200");
    assertThat(again.err()).isEmpty();
    assertThat(again.out()).isEqualTo("leaf\n/gsym-test/src/c_main.c:16\nmiddle\n/gsym-test/src/c_main.c:21\nouter\n"
        + "/gsym-test/src/c_main.c:28\n");
  }

  /**
   * A store entry with a damaged FunctionInfo record: the module is unreadable (an error naming the
   * store file and the offset), not an address without a function (an empty answer); with the debug
   * file at hand the entry is converted again and the address answers.
   */
  @Test
  void aCorruptStoreEntryIsAnUnreadableModule() throws IOException {
    String id;
    try (ElfFile elf = ElfFile.open(BIN)) {
      id = HexFormat.of().formatHex(elf.buildId());
    }
    Path debug = tmp.resolve("debug");
    TestData.addToDebugDirectory(debug, id, BIN);
    Path store = tmp.resolve("store");
    assertThat(run("BUILDID:" + id + " 0x1200\n", "--debug-file-directory=" + debug, "--store=" + store).out())
        .isEqualTo(AT_1200);
    Path entry = store.resolve(id.substring(0, 2)).resolve(id.substring(2) + ".gsym");
    byte[] bytes = Files.readAllBytes(entry);
    long record;
    try (dev.gsym.read.GsymReader r = dev.gsym.read.GsymReader.of(bytes, "entry")) {
      int i = r.indexForAddress(0x1200);
      record = r.functionInfoOffset(i);
      assertThat(record).as("not the last record, which opening checks").isLessThan(r.functionInfoOffset(r.numFunctions() - 1));
    }
    java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) record + 12, 0x7ffffff0);
    Files.write(entry, bytes);
    for (String style : List.of("LLVM", "JSON")) {
      Files.write(entry, bytes);
      CliRun r = run("BUILDID:" + id + " 0x1200\n", "--store=" + store, "--output-style=" + style);
      assertThat(r.status()).isZero();
      assertThat(r.out()).as(style).doesNotContain("\"FunctionName\":\"\"").doesNotContain("leaf");
      String problem = entry + ": offset 0x";
      if (style.equals("JSON")) {
        assertThat(r.out()).startsWith("{\"Address\":\"0x1200\",\"Error\":{\"Message\":\"").contains(problem)
            .contains("FunctionInfo data is truncated").hasLineCount(1);
      } else {
        assertThat(r.out()).isEqualTo("??\n??:0:0\n\n");
        assertThat(r.err()).startsWith("gsymutil: error: '" + id.toUpperCase(java.util.Locale.ROOT) + "': ").contains(problem)
            .contains("FunctionInfo data is truncated").hasLineCount(1);
      }
      assertThat(entry).doesNotExist();
    }
    Files.write(entry, bytes);
    CliRun repaired = run("BUILDID:" + id + " 0x1200\n", "--store=" + store, "--debug-file-directory=" + debug);
    assertThat(repaired.err()).isEmpty();
    assertThat(repaired.out()).isEqualTo(AT_1200);
    assertThat(Files.readAllBytes(entry)).isNotEqualTo(bytes);
  }

  /** A store path that is a regular file (or below one): one line naming the file in the way, status 1, no output. */
  @Test
  void aStoreThatIsAFileIsOneClearError() throws IOException {
    Path file = Files.writeString(tmp.resolve("file"), "");
    CliRun r = run("BUILDID:1d296d52c49352d44988045e45e7a2c66d5f77ea 0x1184\n", "--store=" + file);
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("error: cannot create the store directory " + file + ": it exists and is not a directory\n");
    r = run("BUILDID:1d296d52c49352d44988045e45e7a2c66d5f77ea 0x1184\n", "--store=" + file.resolve("sub"));
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("error: cannot create the store directory " + file.resolve("sub") + ": " + file
        + " exists and is not a directory\n");
  }

  @Test
  void gsymAndBreakpadModules() throws IOException {
    // a GSYM file given as the object (llvm-symbolizer refuses it: not an object file)
    assertThat(run("", "--obj=" + TestData.path("gsym", "c-gcc-O2.gsym"), "0x1200").out()).isEqualTo(AT_1200);
    // a Breakpad symbol store in the symbol-server layout, by the module's Breakpad identity
    Path store = tmp.resolve("symbols");
    Path sym = Files.createDirectories(store.resolve("my app").resolve("D3096ED481217FD4C16B29CD9BC208BA0"))
        .resolve("my app.sym");
    Files.copy(TestData.path("breakpad", "basic.sym"), sym);
    CliRun r = run("'BREAKPAD:my app/D3096ED481217FD4C16B29CD9BC208BA0' 0x1008\nBREAKPAD:nope/00 0x1\n",
        "--breakpad-symbols=" + store, "--output-style=GNU");
    assertThat(r.out()).isEqualTo("middle(int, char const*)\n/src/with space/util.h:31\nmain\n/src/main.c:20\n??\n??:0\n");
    assertThat(r.err()).startsWith("gsymutil: error: 'BREAKPAD:nope/00': Breakpad debug id must be 33 to 40 hex digits");
  }

  @Test
  void whatGsymDoesNotHold() {
    // llvm-symbolizer answers DATA from the ELF symbol table and FRAME from DWARF variables, which
    // GSYM does not keep: llvm's empty answers; a symbol lookup finds nothing, as llvm's over GSYM
    CliRun r = run("DATA " + F + " 0x1200\nFRAME " + F + " 0x1200\n" + F + " main\n", "-a");
    assertThat(r.out()).isEqualTo("0x1200\n??\n0 0\n??:?\n\n0x1200\n??\n\n??\n??:0:0\n\n");
    CliRun json = run("DATA " + F + " 0x1200\nFRAME " + F + " 0x1200\n" + F + " main+4\n", "--output-style=JSON");
    assertThat(json.out()).isEqualTo("""
        {"Address":"0x1200","Data":{"Name":"","Size":"0x0","Start":"0x0"},"ModuleName":"%1$s"}
        {"Address":"0x1200","Frame":[],"ModuleName":"%1$s"}
        {"Loc":[],"ModuleName":"%1$s","SymName":"main"}
        """.formatted(F));
  }

  @Test
  void noInlinesNamesTheContainingFunction() {
    // llvm-symbolizer-22 on DWARF: the symbol table's name, the deepest line (its GSYM reader
    // prints ?? here); GNU style: the deepest frame, as addr2line
    assertThat(run("", "--obj=" + F, "--no-inlines", "0x1200").out()).isEqualTo("outer\n/gsym-test/src/c_main.c:16:0\n\n");
    assertThat(run("", "--obj=" + F, "--no-inlines", "-f=short", "0x1200").out())
        .isEqualTo("leaf\n/gsym-test/src/c_main.c:16:0\n\n");
    assertThat(run("", "--obj=" + F, "--no-inlines", "--output-style=GNU", "0x1200").out())
        .isEqualTo("leaf\n/gsym-test/src/c_main.c:16\n");
    assertThat(run("", "--obj=" + F, "--inlining=false", "-s", "0x1000").out()).isEqualTo("_init\n??:0:0\n\n");
  }

  @Test
  void inputForms() {
    String stdin = String.join("\n", "\"" + F + "\" 0x1200", "'" + F + "' 0x1200", "FILE:" + F + " 0x1200",
        "CODE " + F + " 0x1200", "  " + F + "   0x1200  ignored words\r", "") + "\n";
    CliRun r = run(stdin);
    assertThat(r.err()).isEmpty();
    // the empty line: llvm's "unknown" answer, at once
    assertThat(r.out()).isEqualTo(AT_1200.repeat(5) + "??\n??:0:0\n\n");
    // with --obj, a line is just the address; --adjust-vma is subtracted before the lookup, the
    // address is printed as given
    CliRun obj = run("0x1210\n", "--obj=" + F, "--adjust-vma=0x10", "-a", "--output-style=GNU", "--no-inlines");
    assertThat(obj.out()).isEqualTo("0x1210\nleaf\n/gsym-test/src/c_main.c:16\n");
  }

  @Test
  void optionsFromEnvironmentAndResponseFiles() throws IOException {
    CliRun env = run(Map.of("LLVM_SYMBOLIZER_OPTS", "--output-style=GNU -e '" + F + "'"), "0x1200\n");
    assertThat(env.out()).isEqualTo("leaf\n/gsym-test/src/c_main.c:16\nmiddle\n/gsym-test/src/c_main.c:21\nouter\n"
        + "/gsym-test/src/c_main.c:28\n");
    Path rsp = Files.writeString(tmp.resolve("opts.rsp"), "--obj \"" + F + "\"\n--functions=none\n");
    assertThat(run("", "@" + rsp, "0x1200").out()).isEqualTo("/gsym-test/src/c_main.c:16:0\n/gsym-test/src/c_main.c:21:0\n"
        + "/gsym-test/src/c_main.c:28:0\n\n");
  }

  @Test
  void helpAndVersion() {
    CliRun help = run("", "--help");
    assertThat(help.status()).isZero();
    assertThat(help.out()).startsWith("OVERVIEW: gsymutil symbolize").contains("USAGE: gsymutil symbolize [options] addresses...")
        .contains("  --obj=<file>").contains("  -e <file>").contains("  --store=<dir>").contains("--output-style=style");
    assertThat(CliRun.run("help", "symbolize").out()).isEqualTo(help.out());
    assertThat(run("", "-h").out()).isEqualTo(help.out());
    assertThat(run("", "--version").out()).startsWith("gsymutil symbolize\ngsym-java version ");
    // the top-level help lists the command
    assertThat(CliRun.run("--help").out()).contains("symbolize");
  }

  @Test
  void stdinLinesAreAnsweredAsTheyCome() throws Exception {
    PipedOutputStream feed = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(feed, 1 << 16);
    Answers answers = new Answers();
    PrintStream out = new PrintStream(answers, false, ByteStrings.CHARSET);
    PrintStream err = new PrintStream(new ByteArrayOutputStream(), true, ByteStrings.CHARSET);
    Thread t = Thread.ofPlatform().start(() -> GsymUtil.run(new String[] {"symbolize", "--obj=" + F}, in, out, err,
        true, Map.of()));
    feed.write("0x1200\n".getBytes(StandardCharsets.US_ASCII));
    feed.flush();
    // answered while stdin stays open
    assertThat(answers.await(AT_1200, 20)).as("answer to the first line before more input").isTrue();
    feed.write("0x1000\n".getBytes(StandardCharsets.US_ASCII));
    feed.flush();
    assertThat(answers.await(AT_1200 + "_init\n??:0:0\n\n", 20)).isTrue();
    feed.close();
    t.join(TimeUnit.SECONDS.toMillis(60));
    assertThat(t.isAlive()).isFalse();
  }

  /** Collects what is written to stdout and lets a test wait for a given text. */
  private static final class Answers extends OutputStream {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      bytes.write(b);
      notifyAll();
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      bytes.write(b, off, len);
      notifyAll();
    }

    synchronized boolean await(String text, int seconds) throws InterruptedException {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (!bytes.toString(StandardCharsets.UTF_8).equals(text)) {
        long left = end - System.nanoTime();
        if (left <= 0) return false;
        wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
      return true;
    }
  }
}
