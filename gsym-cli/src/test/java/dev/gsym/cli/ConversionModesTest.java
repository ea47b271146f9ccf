package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conversion modes as picocli's exclusive argument group ({@link dev.gsym.cli.gsymutil.CommandModel}): at most one,
 * llvm's last-one-wins for a repeated mode option, and the messages and their order as before the
 * group existed (through picocli, not {@link dev.gsym.cli.gsymutil.QuickArgs}, which leaves these lines to picocli).
 */
@NeedsLlvm
class ConversionModesTest {
  private static final String BIN = TestData.path("bin", "c-clang-O2").toString();
  private static final String SYM = TestData.path("breakpad", "basic.sym").toString();
  private static final String F = TestData.path("gsym", "c-clang-O2.gsym").toString();
  private static final String ONE_MODE =
      "gsymutil: only one of --dwarf/--convert, --breakpad and --to-breakpad can be used at a time\n";

  @Test
  void aRepeatedModeOptionKeepsTheLastValueAsLlvm(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("a.gsym");
    CliRun r = CliRun.run("--dwarf", "/nonexistent/first", "--convert", BIN, "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("Input file: " + BIN + "\n");
    assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(TestData.path("gsym", "c-clang-O2.gsym")));
    Path sym = tmp.resolve("b.gsym");
    CliRun c = CliRun.run("convert", "--breakpad", "/nonexistent/a.sym", "--breakpad", SYM, "-o", sym.toString());
    assertThat(c.status()).as(c.err()).isZero();
    assertThat(c.out()).startsWith("Input file: " + SYM + "\n");
  }

  @Test
  void twoModesAreOneError() {
    for (String[] args : new String[][] {{"--dwarf", "a", "--breakpad", "b"}, {"--breakpad", "b", "--to-breakpad", "c"},
        {"convert", "--dwarf", "a", "--to-breakpad", "c", "-o", "x"}, {"--dwarf", "a", "--to-breakpad", "c", "--breakpad", "b"}}) {
      CliRun r = CliRun.run(args);
      assertThat(r.status()).isEqualTo(1);
      assertThat(r.out()).isEmpty();
      assertThat(r.err()).isEqualTo(ONE_MODE);
    }
  }

  @Test
  void lookupArgumentErrorsComeBeforeTheModeConflict() {
    CliRun addr = CliRun.run("--dwarf", "a", "--breakpad", "b", "--lookup", "zz");
    assertThat(addr.err()).isEqualTo("gsymutil: for the --address option: 'zz' value invalid for uint argument!\n");
    CliRun filter = CliRun.run("--dwarf", "a", "--breakpad", "b", "--merged-functions-filter", "x");
    assertThat(filter.err()).isEqualTo("gsymutil: --merged-functions-filter can only be used with"
        + " --address/--addresses-from-stdin\n");
    CliRun combined = CliRun.run("--dwarf", "a", "--breakpad", "b", F);
    assertThat(combined.err()).isEqualTo("gsymutil: conversion options cannot be combined with dump or lookup arguments\n");
    assertThat(addr.status() + filter.status() + combined.status()).isEqualTo(3);
    // unknown options and bad values are still found first, while parsing
    assertThat(CliRun.run("--dwarf", "a", "--breakpad", "b", "--bogus").err()).startsWith("unknown argument '--bogus'\n");
    assertThat(CliRun.run("--dwarf", "a", "--breakpad", "b", "--threads", "z").err())
        .isEqualTo("gsymutil: Invalid value for option '--threads': 'z' is not an int\n");
  }

  @Test
  void aModeWithoutItsValueIsLlvmsMissingArgument() {
    for (String mode : new String[] {"--dwarf", "--convert", "--breakpad", "--to-breakpad"}) {
      CliRun r = CliRun.run(mode);
      assertThat(r.status()).isEqualTo(1);
      assertThat(r.err()).isEqualTo((mode.equals("--dwarf") ? "--convert" : mode) + ": missing argument\n");
      assertThat(CliRun.run("convert", mode).err()).isEqualTo(r.err());
    }
  }

  @Test
  void noModeIsNoInput() {
    for (String[] args : new String[][] {{"convert"}, {"convert", "-o", "x"}, {"-o", "x"}, {"--quiet"}}) {
      CliRun r = CliRun.run(args);
      assertThat(r.status()).isEqualTo(1);
      assertThat(r.err()).isEqualTo("gsymutil: no input: use --dwarf FILE, --breakpad SYM or --to-breakpad GSYM\n");
    }
  }

  /**
   * The argument after an option that takes a value is its value, also when it looks like grouped
   * short options ({@code -xyz}), for every such option ({@link Opt#takesValue}), as llvm parses.
   */
  @Test
  void aValueThatLooksLikeShortOptionsIsTheValue(@TempDir Path tmp) throws Exception {
    CliRun ours = CliRun.run("--convert", "-xyz");
    assertThat(ours.status()).isEqualTo(1);
    assertThat(ours.out()).isEqualTo("Input file: -xyz\n");
    assertThat(ours.err()).isEqualTo("-xyz: No such file or directory\n");
    CliRun yaml = CliRun.run("--dwarf", BIN, "-o", tmp.resolve("o.gsym").toString(), "--callsites-yaml-file", "-cy");
    assertThat(yaml.status()).isEqualTo(1);
    assertThat(yaml.err()).isEqualTo("DWARF conversion failed: : No such file or directory\n");
  }

  @Test
  void aValueThatLooksLikeShortOptionsIsTheValueAsForLlvm(@TempDir Path tmp) throws Exception {
    Path llvm = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    CliRun ours = CliRun.run("--convert", "-xyz");
    Process p = new ProcessBuilder(llvm.toString(), "--convert", "-xyz").directory(tmp.toFile())
        .redirectOutput(tmp.resolve("l.out").toFile()).redirectError(tmp.resolve("l.err").toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(ours.status()).isEqualTo(p.exitValue());
    assertThat(ours.out()).isEqualTo(Files.readString(tmp.resolve("l.out")));
    assertThat(ours.err()).isEqualTo(Files.readString(tmp.resolve("l.err")));
  }

  @Test
  void dumpNeedsAFile() {
    CliRun r = CliRun.run("dump");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("gsymutil: Missing required parameter: 'FILE'\n");
  }
}
