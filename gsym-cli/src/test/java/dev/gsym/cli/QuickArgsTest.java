package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.cli.gsymutil.CommandModel;
import dev.gsym.cli.gsymutil.GsymUtilCommand;
import dev.gsym.cli.gsymutil.QuickArgs;
import dev.gsym.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@link QuickArgs} against picocli: every command line it accepts must give the values picocli
 * gives ({@link Args}) and the same stdout, stderr and exit status; everything else must be left to
 * picocli.
 */
class QuickArgsTest {
  private static final String F = TestData.path("gsym", "c-clang-O2.gsym").toString();
  private static final String ICF = TestData.path("gsym", "icf-clang-O2-gold.merged.gsym").toString();
  private static final String BIN = TestData.path("bin", "c-clang-O2").toString();
  private static final String SYM = TestData.path("breakpad", "basic.sym").toString();
  private static final String OUT = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "quickargs-test.gsym").toString();
  private static final String STDIN = "0x1179 " + F + "\n0x11a1 " + F + "\nzzz " + F + "\n";

  /** Command lines QuickArgs parses itself. */
  private static final List<List<String>> ACCEPTED = List.of(
      List.of(F),
      List.of(F, F),
      List.of("--dump", F),
      List.of("--dump"),
      List.of(),
      List.of("--lookup", "0x1179", F),
      List.of("--address", "0x1179", "--lookup", "0x11a1", F, "--address=4096", "--lookup=0b1"),
      List.of("--lookup", "0x1179", F, ICF, "--verbose"),
      List.of("--lookup", "0x1179"),
      List.of("--lookup", "--verbose", F),
      List.of("--lookup", "12z", F),
      List.of("--lookup=0x1179=2", F),
      List.of("--lookup", "0x1179", "--dump", F),
      List.of("--lookup", "0x1179", "/nonexistent/x.gsym"),
      List.of("/nonexistent/x.gsym"),
      List.of("--merged-functions", "--lookup", "0x1130", ICF),
      List.of("--merged-functions", "--merged-functions-filter", "twice_.*", "--lookup", "0x1130", ICF),
      List.of("--merged-functions-filter=[", "--merged-functions", "--lookup", "0x1130", ICF),
      List.of("--merged-functions-filter", "x", "--lookup", "0x1130", ICF),
      List.of("--merged-functions-filter", "x", F),
      List.of("--addresses-from-stdin"),
      List.of("--addresses-from-stdin", "--verbose"),
      List.of("--addresses-from-stdin", F),
      List.of("--addresses-from-stdin", "--dump"),
      List.of("--addresses-from-stdin", "--lookup", "1"),
      List.of("--dwarf", BIN, "-o", OUT),
      List.of("--quiet", "--dwarf", BIN, "-o", OUT, "--num-threads", "2"),
      List.of("--convert=" + BIN, "--out-file=" + OUT, "--num-threads=1", "--quiet"),
      List.of("--convert", BIN, "--out-file", OUT),
      List.of("--breakpad", SYM, "-o", OUT),
      List.of("--dwarf", "x"),
      List.of("--dwarf", BIN, "-o", OUT, "--num-threads", "many"),
      List.of("--lookup", "1", "-o", "x", F),
      List.of("--to-breakpad", F, "-o", OUT + ".sym", "--module-os", "Linux", "--module-arch=arm64", "--module-name", "m"),
      List.of("--breakpad", SYM, "-o", OUT, "--lenient", "--load-address", "0x1000", "--segment-size", "100000"),
      List.of("--dwarf", BIN, "-o", OUT, "--verify", "--dwarf-callsites", "--json-summary-file=" + OUT + ".json"),
      List.of("--dwarf", BIN, "-o", OUT, "--callsites-yaml-file", "/nonexistent/cs.yaml"),
      List.of("--dwarf", BIN, "-o", OUT, "--arch", "x86_64", "--arch=arm64"),
      List.of("--arch", "x86_64", F),
      List.of("--verify", F),
      List.of("--dwarf", "x", "--verify"),
      List.of("--dwarf", "x", "--segment-size", "100"),
      List.of("--dwarf", BIN, "--embed", "-o", OUT),
      List.of("--dwarf", "x", "--embed", "--in-place"),
      List.of("--load-address", "1", F),
      List.of("--dwarf", BIN, F),
      List.of("--quiet", F),
      List.of("--statistics", F),
      List.of("--statistics=json", F, F),
      List.of("--statistics=pretty-json", F),
      List.of("--statistics=bad", F),
      List.of("--statistics", "--lookup", "1", F),
      List.of("--dwarf", BIN, "-o", OUT, "--output-version", "2"),
      List.of("--dwarf", BIN, "-o", OUT, "--output-version=7"),
      List.of("--output-version", "2", F),
      List.of("--dwarf", BIN, "-o", OUT, "--symtab-file", "/nonexistent/symtab"),
      List.of("--dwarf", BIN, "-o", OUT, "--llvm-compat", "22"),
      List.of("--dwarf", BIN, "-o", OUT, "--unwind"),
      List.of("--breakpad", SYM, "-o", OUT, "--unwind"),
      List.of("--to-breakpad", BIN, "-o", OUT + ".sym", "--no-cfi"),
      List.of("--to-breakpad", BIN, "-o", OUT + ".sym", "--debug-file-directory", "/nonexistent"));

  /** Command lines QuickArgs must hand to picocli. */
  private static final List<List<String>> REFUSED = List.of(
      List.of("-h"), List.of("--help"), List.of("-v"), List.of("--version"), List.of("-"),
      List.of("--", F), List.of("@" + F), List.of(""), List.of("--lookup"), List.of("--lookup", ""),
      List.of("--lookup="), List.of("--lookup", "-1", F), List.of("--lookup", "@x", F),
      List.of("--lookup", "dump", F), List.of("dump", F), List.of(F, "lookup"),
      List.of("lookup", "-f", F, "0x1179"), List.of("--verbose", "--verbose", F),
      List.of("--verbose=true", F), List.of("--dump", "--dump", F), List.of("--dwarf", "x", "--convert", "y"),
      List.of("-o", "x", "--out-file", "y"), List.of("-ox", "--dwarf", "y"), List.of("-o=x", "--dwarf", "y"),
      List.of("--dwarf"), List.of("--dwarf", "-o", "x"), List.of("-o"), List.of("--quiet", "--quiet", F),
      List.of("--quiet=true", F), List.of("--num-threads", "1", "--num-threads", "2"),
      List.of("--look", "1", F), List.of("--unknown", F),
      List.of("-lookup", "1", F), List.of("--merged-functions-filter"), List.of("convert", "--dwarf", "x"),
      List.of("help"), List.of("help", "lookup"), List.of("lookup", F, "0x1179"), List.of("--dwarf", BIN, "-o", "-"),
      List.of("--dwarf", BIN, "--breakpad", SYM, "-o", OUT), List.of("--dwarf", BIN, "--to-breakpad", F),
      List.of("--threads", "2", "--lookup", "1", F), List.of("--threads=2", F), List.of("--verify", "--verify", F),
      List.of("--to-breakpad", "x", "--to-breakpad", "y"), List.of("--segment-size", "1", "--segment-size", "2"),
      List.of("--callsites-yaml-file=", "--dwarf", BIN), List.of("--statistics", "--statistics", F));

  private static String[] arr(List<String> args) {
    return args.toArray(String[]::new);
  }

  private static CliRun run(List<String> args, boolean quick) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = GsymUtil.run(arr(args), new ByteArrayInputStream(STDIN.getBytes(StandardCharsets.UTF_8)),
          o, e, quick);
    }
    return new CliRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static Session session() {
    return new Session(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream(),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
  }

  @Test
  void acceptedCommandLinesGetPicocliValues() {
    for (List<String> args : ACCEPTED) {
      GsymUtilCommand quick = QuickArgs.parse(arr(args), session());
      assertThat(quick).as("QuickArgs accepts %s", args).isNotNull();
      CommandLine cl = GsymUtil.commandLine(session());
      cl.parseArgs(arr(args));
      CommandModel.collect(cl);
      GsymUtilCommand pico = cl.getCommand();
      assertThat(pico.args().has(Opt.HELP) || pico.args().has(Opt.VERSION)).isFalse();
      assertThat(quick.args()).as("values of %s", args).isEqualTo(pico.args());
    }
  }

  /** Every entry of the top-level command is either parsed by QuickArgs or left to picocli on purpose. */
  @Test
  void everyTopLevelOptionIsCovered() {
    for (Opt o : Opt.TOP) {
      if (o.kind == Opt.Kind.POSITIONAL) continue;
      String name = o.names.getLast();
      boolean accepted = ACCEPTED.stream().anyMatch(a -> a.stream().anyMatch(x -> x.equals(name) || x.startsWith(name + "=")));
      boolean refused = REFUSED.stream().anyMatch(a -> a.contains(name) || a.stream().anyMatch(x -> x.startsWith(name + "=")));
      assertThat(accepted || refused).as("%s appears in ACCEPTED or REFUSED", name).isTrue();
      if (o.kind == Opt.Kind.USAGE_HELP || o.kind == Opt.Kind.VERSION_HELP || o.kind == Opt.Kind.INT) {
        assertThat(accepted).as("%s is left to picocli", name).isFalse();
      }
    }
  }

  @Test
  void acceptedCommandLinesPrintWhatPicocliPathPrints() {
    for (List<String> args : ACCEPTED) {
      CliRun quick = run(args, true);
      CliRun pico = run(args, false);
      assertThat(quick.out()).as("stdout of %s", args).isEqualTo(pico.out());
      assertThat(quick.err()).as("stderr of %s", args).isEqualTo(pico.err());
      assertThat(quick.status()).as("status of %s", args).isEqualTo(pico.status());
    }
    assertThat(run(List.of("--lookup", "0x1179", F), true).out())
        .contains("0x0000000000001179: leaf + 5 @ /gsym-test/src/c_main.c:16 [inlined]");
  }

  @Test
  void everythingElseIsLeftToPicocli() {
    for (List<String> args : REFUSED) {
      assertThat(QuickArgs.parse(arr(args), session())).as("QuickArgs refuses %s", args).isNull();
    }
  }
}
