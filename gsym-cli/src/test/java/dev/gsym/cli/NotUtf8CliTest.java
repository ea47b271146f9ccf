package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.demangle.Demangler;
import dev.gsym.testing.Llvm;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Names and paths that are not UTF-8 (src-test-data/regenerate-latin1.sh: Latin-1 paths, names with
 * malformed UTF-8) through the command line, compared as raw bytes with what llvm-gsymutil-22
 * wrote and printed: conversion, dump, lookups, and GSYM → Breakpad → GSYM.
 */
@NeedsLlvm
class NotUtf8CliTest {
  @TempDir Path dir;

  /** One in-process run with the streams {@link GsymUtil#main} makes; stdout and stderr as bytes. */
  record Raw(int status, byte[] out, byte[] err) {}

  static Raw run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, false, ByteStrings.CHARSET);
        PrintStream e = new PrintStream(err, true, ByteStrings.CHARSET)) {
      status = GsymUtil.run(args, new ByteArrayInputStream(new byte[0]), o, e);
    }
    return new Raw(status, out.toByteArray(), err.toByteArray());
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int k = 0; k < needle.length; k++) if (hay[i + k] != needle[k]) continue outer;
      return true;
    }
    return false;
  }

  /** Asserts byte equality, showing the texts (non-UTF-8 bytes as escapes) if they differ. */
  private static void assertSameBytes(byte[] ours, byte[] llvms, String what) {
    if (!Arrays.equals(ours, llvms)) {
      assertThat(ByteStrings.decode(ours)).as(what).isEqualTo(ByteStrings.decode(llvms));
      assertThat(ours).as(what).isEqualTo(llvms);
    }
  }

  /** llvm's lookup output for {@code name}, with the header naming {@code path} instead. */
  private static byte[] llvmLookups(String kind, String name, Path path) throws IOException {
    byte[] golden = Files.readAllBytes(TestData.path("expected", "gsym", name + "." + kind + ".txt"));
    byte[] header = ascii("Looking up addresses in \"" + name + "\":\n");
    assertThat(Arrays.copyOf(golden, header.length)).isEqualTo(header);
    return concat(ascii("Looking up addresses in \"" + path + "\":\n"),
        Arrays.copyOfRange(golden, header.length, golden.length));
  }

  private static List<String> addressArgs(String addrsFile, String... head) throws IOException {
    List<String> args = new ArrayList<>(List.of(head));
    for (String a : Files.readAllLines(TestData.path("expected", "gsym", addrsFile))) {
      if (a.isBlank()) continue;
      args.add("--address");
      args.add(a);
    }
    return args;
  }

  @ParameterizedTest
  @ValueSource(strings = {"latin1-gcc-O2", "latin1-clang-O2"})
  void conversionDumpAndLookupsAreLlvmsBytes(String bin) throws IOException {
    Path gsym = dir.resolve(bin + ".gsym");
    Raw c = run("--dwarf", TestData.path("bin", bin).toString(), "-o", gsym.toString(), "--quiet");
    assertThat(c.status()).as(ByteStrings.decode(c.err())).isZero();
    byte[] llvmGsym = Files.readAllBytes(TestData.path("gsym", bin + ".gsym"));
    assertSameBytes(Files.readAllBytes(gsym), llvmGsym, "conversion of " + bin);
    // the paths hold byte 0xE9, not U+FFFD
    assertThat(contains(llvmGsym, new byte[] {'/', 'c', 'a', 'f', (byte) 0xE9, 0})).isTrue();

    Path llvmFile = TestData.path("gsym", bin + ".gsym");
    Raw dump = run(llvmFile.toString());
    assertThat(dump.status()).isZero();
    assertSameBytes(dump.out(), Files.readAllBytes(TestData.path("expected", "gsym", bin + ".gsym.dump.txt")),
        "dump of " + bin);

    List<String> args = addressArgs(bin + ".gsym.addrs");
    args.add(llvmFile.toString());
    Raw lookups = run(args.toArray(String[]::new));
    assertSameBytes(lookups.out(), llvmLookups("lookup", bin + ".gsym", llvmFile), "lookups in " + bin);

    args = addressArgs(bin + ".gsym.verbose.addrs", "--verbose");
    args.add(llvmFile.toString());
    Raw verbose = run(args.toArray(String[]::new));
    assertSameBytes(verbose.out(), llvmLookups("verbose", bin + ".gsym", llvmFile), "--verbose lookups in " + bin);
  }

  @ParameterizedTest
  @ValueSource(strings = {"latin1-gcc-O2", "latin1-clang-O2"})
  void toBreakpadAndBackKeepsTheBytes(String bin) throws IOException {
    Path llvmFile = TestData.path("gsym", bin + ".gsym");
    Path sym = dir.resolve(bin + ".sym");
    assertThat(run("--to-breakpad", llvmFile.toString(), "-o", sym.toString()).status()).isZero();
    byte[] text = Files.readAllBytes(sym);
    String shown = ByteStrings.decode(text);
    assertThat(contains(text, bytes("FILE 0 /gsym-test/caf\u00e9/caf\u00e9.cpp\n"))).as(shown).isTrue();
    assertThat(contains(text, bytes("/gsym-test/caf\u00e9/d\u00e9j\u00e0/inl\u00e9.h\n"))).as(shown).isTrue();
    assertThat(contains(text, bytes(" inl\u00e9\n"))).as(shown).isTrue();
    assertThat(contains(text, bytes(" trunc\u00c3\n"))).as(shown).isTrue();
    assertThat(contains(text, bytes(" sans_d\u00e9bug\n"))).as(shown).isTrue();
    assertThat(contains(text, new byte[] {'e', (byte) 0xEF, (byte) 0xBF, (byte) 0xBD})).as(shown).isFalse();

    Path back = dir.resolve(bin + ".gsym");
    assertThat(run("--breakpad", sym.toString(), "-o", back.toString()).status()).isZero();
    List<String> args = addressArgs(bin + ".gsym.addrs");
    args.add(back.toString());
    // the .sym holds names demangled (as dump_syms writes them): llvm's lookups with its names so
    byte[] want = ByteStrings.encode(demangleNames(ByteStrings.decode(llvmLookups("lookup", bin + ".gsym", back))));
    assertSameBytes(run(args.toArray(String[]::new)).out(), want, "lookups after GSYM -> Breakpad -> GSYM of " + bin);
    assertThat(contains(text, ByteStrings.encode(" " + Demangler.llvm().demangle(MANGLED.get(bin)) + "\n")))
        .as(shown).isTrue();
  }

  /** A mangled name with a byte that is not UTF-8 in each binary (its Itanium length counts bytes). */
  private static final java.util.Map<String, String> MANGLED = java.util.Map.of(
      "latin1-gcc-O2", ByteStrings.decode(bytes("_Z5caf\u00c3\u00a9i")),
      "latin1-clang-O2", ByteStrings.decode(bytes("_Z5caf\u00c3\u00a9i")));

  /** Every Itanium name ({@code _Z...} up to a space or line end) of llvm's lookup text, demangled. */
  private static String demangleNames(String lookups) {
    return java.util.regex.Pattern.compile("_Z[^ \n]*").matcher(lookups)
        .replaceAll(m -> java.util.regex.Matcher.quoteReplacement(Demangler.llvm().demangle(m.group())));
  }

  /** The ISO-8859-1 bytes of {@code s} (each char below U+0100 is one byte). */
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * A hand-written .sym with Latin-1 names and paths, malformed and valid UTF-8: converted, it
   * answers with the original bytes (src-test-data/breakpad/latin1.expected.txt, llvm-gsymutil-22's
   * lookups in this conversion).
   */
  @Test
  void latin1SymConvertsAndLooksUpWithTheOriginalBytes() throws Exception {
    latin1Lookups(null);
  }

  /** llvm-gsymutil-22 prints the same for our conversion of latin1.sym. */
  @Test
  void llvmReadsTheLatin1ConversionAlike() throws Exception {
    latin1Lookups(Tools.require(Llvm.gsymutil(), Llvm.GSYMUTIL));
  }

  /** Converts latin1.sym and checks our lookups in it, then {@code llvm}'s if not null. */
  private void latin1Lookups(Path llvm) throws Exception {
    Path gsym = dir.resolve("latin1.gsym");
    Raw c = run("--breakpad", TestData.path("breakpad", "latin1.sym").toString(), "-o", gsym.toString());
    assertThat(c.status()).isZero();
    assertThat(c.err()).isEmpty();
    byte[] expected = Files.readAllBytes(TestData.path("breakpad", "latin1.expected.txt"));
    List<String> args = new ArrayList<>();
    for (String line : new String(expected, StandardCharsets.ISO_8859_1).split("\n")) {
      if (!line.startsWith("0x")) continue;
      args.add("--address");
      args.add(line.substring(0, 18));
    }
    args.add(gsym.toString());
    byte[] header = ascii("Looking up addresses in \"" + gsym + "\":\n");
    assertSameBytes(run(args.toArray(String[]::new)).out(), concat(header, expected), "lookups");

    if (llvm == null) return;
    args.addFirst(llvm.toString());
    Process p = new ProcessBuilder(args).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] llvmOut = p.getInputStream().readAllBytes();
    assertThat(p.waitFor()).isZero();
    assertSameBytes(llvmOut, concat(header, expected), "llvm-gsymutil-22's lookups in our conversion");
  }

  @Test
  void errorMessagesQuoteTheOriginalBytes() throws IOException {
    Path sym = Files.write(dir.resolve("bad.sym"), bytes("MODULE Linux x86_64 0 m\nFUNC zz\u00e9 10 0 name\n"));
    Raw r = run("--breakpad", sym.toString(), "-o", dir.resolve("bad.gsym").toString());
    assertThat(r.status()).isOne();
    assertThat(r.err()).as(HexFormat.of().formatHex(r.err()))
        .isEqualTo(bytes(sym + ":2: invalid FUNC address 'zz\u00e9'\n"));
  }
}
