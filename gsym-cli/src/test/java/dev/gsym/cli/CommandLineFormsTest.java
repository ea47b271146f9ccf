package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Command lines beyond llvm-gsymutil's: positional {@code lookup} forms, object files handed to a
 * dump or lookup, and {@code --verify} combined with a dump or lookup (as llvm-gsymutil-22 takes it).
 */
@NeedsLlvm
class CommandLineFormsTest {
  private static final String F = TestData.path("gsym", "c-clang-O2.gsym").toString();
  private static final String G = TestData.path("gsym", "c-gcc-O2.gsym").toString();
  private static final String BIN = TestData.path("bin", "c-clang-O2").toString();

  @TempDir
  Path tmp;

  private static CliRun ok(String... args) {
    CliRun r = CliRun.run(args);
    assertThat(r.status()).as("status of %s: %s", List.of(args), r.err()).isZero();
    assertThat(r.err()).isEmpty();
    return r;
  }

  @Test
  void lookupTakesAddressesAndFilesInAnyOrder() {
    String expected = ok("--address", "0x1179", "--address", "0x11a1", "--address", "4096", F).out();
    assertThat(expected).contains("0x0000000000001179: leaf + 5");
    assertThat(ok("lookup", "0x1179", "0x11a1", "4096", F).out()).isEqualTo(expected);
    assertThat(ok("lookup", F, "0x1179", "0x11a1", "4096").out()).isEqualTo(expected);
    assertThat(ok("lookup", "0x1179", F, "0x11a1", "010000").out()).isEqualTo(expected);
    assertThat(ok("lookup", "-f", F, "0x1179", "0x11a1", "0b1000000000000").out()).isEqualTo(expected);
    // several files: in the order given, -f files first
    String two = ok("--address", "0x1179", G, F).out();
    assertThat(ok("lookup", G, "0x1179", F).out()).isEqualTo(two);
    assertThat(ok("lookup", "-f", G, "0x1179", F).out()).isEqualTo(two);
    assertThat(ok("lookup", "--verbose", F, "0x1179").out()).isEqualTo(ok("--verbose", "--address", "0x1179", F).out());
  }

  @Test
  void lookupNamesWhatIsMissing() throws IOException {
    CliRun noFile = CliRun.run("lookup", "0x1179", "12");
    assertThat(noFile.status()).isEqualTo(1);
    assertThat(noFile.err()).isEqualTo("gsymutil lookup: no GSYM file given; usage: gsymutil lookup FILE... ADDR..."
        + " (see 'gsymutil lookup --help')\n");
    CliRun noAddress = CliRun.run("lookup", F);
    assertThat(noAddress.status()).isEqualTo(1);
    assertThat(noAddress.err()).startsWith("gsymutil lookup: no address given; ");
    // an argument that does not parse as an address is a file, even if it looks like a bad address;
    // when no such file exists (or no address is given), the message says the address is invalid
    CliRun bad = CliRun.run("lookup", F, "0x12g");
    assertThat(bad.err()).isEqualTo("gsymutil lookup: '0x12g' is not a valid address (0x/0X hex, 0b binary, leading 0"
        + " octal, otherwise decimal; at most 64 bits); a file named so is given as ./0x12g or with -f\n");
    // a file named like an address: ./NAME
    Path numbered = Files.copy(Path.of(F), tmp.resolve("4096"));
    String expected = ok("--address", "0x1179", numbered.toString()).out();
    assertThat(ok("lookup", "0x1179", numbered.toString()).out()).isEqualTo(expected);
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < b.length; i++) b[i] = (byte) values[i];
    return b;
  }

  private Path file(String name, byte[] head) throws IOException {
    byte[] b = new byte[256];
    System.arraycopy(head, 0, b, 0, head.length);
    return Files.write(tmp.resolve(name), b);
  }

  @Test
  void objectFilesAreNamedWithTheCommandThatConvertsThem() throws IOException {
    String elf = BIN + " is an ELF object file, not a GSYM file; convert it first: gsymutil --dwarf " + BIN
        + " -o " + BIN + ".gsym (or embed the GSYM in a copy of it: gsymutil --dwarf " + BIN + " --embed -o " + BIN
        + ".embedded, or gsymutil embed)\n";
    for (List<String> args : List.of(List.of(BIN), List.of("--dump", BIN), List.of("dump", BIN),
        List.of("--address", "0x1179", BIN), List.of("lookup", BIN, "0x1179"))) {
      CliRun r = CliRun.run(args.toArray(String[]::new));
      assertThat(r.status()).as("status of %s", args).isEqualTo(1);
      assertThat(r.err()).as("stderr of %s", args).isEqualTo(elf);
    }
    CliRun stdin = CliRun.stdin(new String(Files.readAllBytes(Path.of(BIN)), StandardCharsets.ISO_8859_1), "-");
    assertThat(stdin.err()).startsWith("standard input is an ELF object file, not a GSYM file;");

    String llvm = " (gsymutil converts the DWARF of ELF files only)\n";
    for (int[] magic : new int[][] {{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe},
        {0xcf, 0xfa, 0xed, 0xfe}}) {
      Path macho = file("macho", bytes(magic));
      assertThat(CliRun.run(macho.toString()).err()).isEqualTo(macho + " is a Mach-O object file, not a GSYM"
          + " file; convert it first with llvm-gsymutil --convert " + macho + " -o " + macho + ".gsym" + llvm);
    }
    for (int[] magic : new int[][] {{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2}, {0xca, 0xfe, 0xba, 0xbf, 0, 0, 0, 2}}) {
      Path fat = file("fat", bytes(magic));
      assertThat(CliRun.run("--address", "0x1000", fat.toString()).err()).isEqualTo(fat + " is a Mach-O universal"
          + " binary, not a GSYM file; convert it first with llvm-gsymutil --convert " + fat + " -o " + fat
          + ".gsym" + llvm);
    }
    // a Java class file shares 0xcafebabe; its major version (65 here) tells it apart
    Path cls = file("Main.class", bytes(0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 65));
    assertThat(CliRun.run(cls.toString()).err()).isEqualTo(cls + ": not a GSYM file\n");

    ByteBuffer pe = ByteBuffer.allocate(0x90).order(ByteOrder.LITTLE_ENDIAN);
    pe.put(0, (byte) 'M').put(1, (byte) 'Z').putInt(0x3c, 0x80).put(0x80, (byte) 'P').put(0x81, (byte) 'E');
    Path exe = Files.write(tmp.resolve("app.exe"), pe.array());
    assertThat(CliRun.run(exe.toString()).err()).isEqualTo(exe + " is a PE/COFF executable, not a GSYM file;"
        + " write its symbols as a Breakpad symbol file (for instance with dump_syms) and convert that:"
        + " gsymutil --breakpad FILE.sym -o " + exe + ".gsym\n");
    pe.put(0x81, (byte) 'X'); // MZ without a PE signature: not recognised
    Files.write(exe, pe.array());
    assertThat(CliRun.run(exe.toString()).err()).isEqualTo(exe + ": not a GSYM file\n");

    Path sym = Files.copy(TestData.path("breakpad", "basic.sym"), tmp.resolve("my app.sym"));
    assertThat(CliRun.run(sym.toString()).err()).isEqualTo(sym + " is a Breakpad symbol file, not a GSYM file;"
        + " convert it first: gsymutil --breakpad '" + sym + "' -o '" + tmp.resolve("my app.gsym") + "'\n");
  }

  @Test
  void verifyIsIgnoredByDumpsAndLookupsAsInLlvm() {
    assertThat(ok("--verify", F).out()).isEqualTo(ok(F).out());
    assertThat(ok("--verify", "--verbose", F).out()).isEqualTo(ok("--verbose", F).out());
    assertThat(ok("--verify", F, "--address", "0x1179").out()).isEqualTo(ok("--address", "0x1179", F).out());
    assertThat(ok("--verify", "--verbose", "--address", "0x1179", F).out())
        .isEqualTo(ok("--verbose", "--address", "0x1179", F).out());
    assertThat(CliRun.stdin("0x1179 " + F + "\n", "--verify", "--addresses-from-stdin").out())
        .isEqualTo(CliRun.stdin("0x1179 " + F + "\n", "--addresses-from-stdin").out());
    assertThat(ok("--verify")).isEqualTo(new CliRun(0, "", ""));
    // with a conversion it still verifies, and other conversion options are still refused with files
    CliRun mixed = CliRun.run("--verify", "-o", "x.gsym", F);
    assertThat(mixed.status()).isEqualTo(1);
    assertThat(mixed.err()).isEqualTo("gsymutil: conversion options cannot be combined with dump or lookup arguments\n");
  }

  /** The same command lines give llvm-gsymutil-22's stdout, stderr and exit status. */
  @Test
  void verifyWithDumpOrLookupMatchesLlvm() throws Exception {
    Path llvm = Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL);
    for (List<String> args : List.of(List.of("--verify", F), List.of("--verify", "--verbose", F),
        List.of("--verify", F, "--address", "0x1179"), List.of("--verify", "--verbose", F, "--address", "0x1179"),
        List.of("--verify", "--address", "0x1179", "--merged-functions", F), List.of("--verify"))) {
      List<String> cmd = new ArrayList<>();
      cmd.add(llvm.toString());
      cmd.addAll(args);
      Path out = tmp.resolve("out.txt");
      Path err = tmp.resolve("err.txt");
      Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      int status = p.waitFor();
      CliRun ours = CliRun.run(args.toArray(String[]::new));
      assertThat(ours.out()).as("stdout of %s", args).isEqualTo(Files.readString(out));
      assertThat(ours.err()).as("stderr of %s", args).isEqualTo(Files.readString(err));
      assertThat(ours.status()).as("status of %s", args).isEqualTo(status);
    }
  }
}
