package dev.gsym.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.StringTable;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.NeedsLlvm;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every name of real binaries demangled by us and by the live {@code llvm-cxxfilt-22}: identical for
 * at least 99.9% of each corpus, and every difference in a category docs/symbolize.md explains.
 * Each corpus is a reported skip when its tool (llvm-cxxfilt-22, llvm-nm-22, rustc) or library is
 * missing, and a failure then under -Dgsym.requireTools=true: CI has them all. Only the libjvm
 * corpus, a GSYM a developer makes locally, stays a skip in CI; the checked-in corpus
 * ({@link CorpusTest}) covers names without any tool.
 */
@NeedsLlvm
class LlvmCxxfiltDifferentialTest {
  private static LlvmCxxfilt cxxfilt;
  private static Path nm;

  private static void requireCxxfilt() {
    cxxfilt = LlvmCxxfilt.require();
  }

  private static void requireNm() {
    nm = Tools.require("llvm-nm-22");
  }

  private static void compare(String corpus, Iterable<byte[]> source) throws Exception {
    Set<String> seen = new LinkedHashSet<>();
    List<byte[]> names = new ArrayList<>();
    int skipped = 0;
    for (byte[] n : source) {
      if (n.length == 0) continue; // a string table's first string
      // llvm-cxxfilt takes a name starting with '-' as an option, and lines cannot hold '\n'
      if (n[0] == '-' || indexOf(n, (byte) '\n') >= 0 || indexOf(n, (byte) 0) >= 0) {
        skipped++;
        continue;
      }
      if (seen.add(new String(n, java.nio.charset.StandardCharsets.ISO_8859_1))) names.add(n);
    }
    Comparison c = Comparison.of(corpus, names, cxxfilt.demangle(names));
    System.out.print(c.summary() + (skipped > 0 ? "  (" + skipped + " names llvm-cxxfilt cannot take skipped)\n" : ""));
    assertThat(names).isNotEmpty();
    assertThat(c.unexplained()).as("differences no category explains").isEmpty();
    assertThat(c.identicalRatio()).isGreaterThanOrEqualTo(0.999);
  }

  private static int indexOf(byte[] b, byte v) {
    for (int i = 0; i < b.length; i++) if (b[i] == v) return i;
    return -1;
  }

  /** The defined (dynamic) symbol names of an ELF file, without version suffixes. */
  private static List<byte[]> symbols(Path elf, boolean dynamic) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(nm.toString(), "--defined-only", "--format=just-symbols"));
    if (dynamic) cmd.add("-D");
    cmd.add(elf.toString());
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor()).as(String.join(" ", cmd)).isZero();
    List<byte[]> r = new ArrayList<>();
    for (byte[] line : LlvmCxxfilt.lines(out)) {
      int at = indexOf(line, (byte) '@');
      r.add(at < 0 ? line : java.util.Arrays.copyOf(line, at));
    }
    return r;
  }

  /** Every string of a GSYM file's string table: function, inline and file names. */
  private static List<byte[]> gsymStrings(Path gsym) throws IOException {
    try (GsymReader r = GsymReader.open(gsym)) {
      StringTable st = r.stringTable();
      List<byte[]> names = new ArrayList<>();
      for (long off = 0; off < st.size(); off = st.next(off)) names.add(st.bytes((int) off));
      return names;
    }
  }

  @Test
  void libstdcxx() throws Exception {
    String corpus = "libstdc++.so.6";
    requireCxxfilt();
    requireNm();
    Path lib = Path.of("/usr/lib/x86_64-linux-gnu/libstdc++.so.6");
    Tools.check(Files.isRegularFile(lib), lib.toString());
    compare(corpus, symbols(lib, true));
  }

  @Test
  void libjvmGsym() throws Exception {
    String corpus = "libjvm.gsym";
    Path gsym = Path.of(System.getProperty("gsym.demangle.libjvm", "/tmp/jvmdbg/libjvm.gsym"));
    Tools.optional(Files.isRegularFile(gsym), gsym + " (llvm-gsymutil-22's GSYM of OpenJDK's libjvm)");
    requireCxxfilt();
    compare(corpus, gsymStrings(gsym));
  }

  @Test
  void testBinaries() throws Exception {
    String corpus = "src-test-data/gsym";
    requireCxxfilt();
    requireNm();
    List<byte[]> names = new ArrayList<>();
    try (Stream<Path> s = Files.list(TestData.path("gsym"))) {
      for (Path g : s.filter(p -> p.toString().endsWith(".gsym")).sorted().toList()) names.addAll(gsymStrings(g));
    }
    for (String bin : TestData.binaries()) {
      if (bin.startsWith("cpp-") || bin.startsWith("rust-") || bin.startsWith("symtab-") || bin.startsWith("latin1-")) {
        names.addAll(symbols(TestData.path("bin", bin), false));
      }
    }
    compare(corpus, names);
  }

  @Test
  void rustV0BuiltLive(@TempDir Path tmp) throws Exception {
    String corpus = "rust_v0 (rustc -C symbol-mangling-version=v0)";
    requireCxxfilt();
    requireNm();
    Path rustc = Tools.require("rustc");
    Path exe = tmp.resolve("rust_v0");
    Process p = new ProcessBuilder(rustc.toString(), "--edition", "2021", "-C", "symbol-mangling-version=v0", "-C", "opt-level=0",
        "-C", "debuginfo=0", TestData.path("src", "rust_v0.rs").toString(), "-o", exe.toString())
        .redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("rustc: " + log).isZero();
    List<byte[]> names = symbols(exe, false);
    long v0 = names.stream().filter(n -> n.length > 2 && n[0] == '_' && n[1] == 'R').count();
    assertThat(v0).as("v0 names in the program").isGreaterThan(100);
    compare(corpus, names);
  }

  @Test
  void libLlvm() throws Exception {
    String corpus = "libLLVM.so.22.1 (clang-built C++)";
    requireCxxfilt();
    requireNm();
    Path lib = Path.of("/usr/lib/x86_64-linux-gnu/libLLVM.so.22.1");
    Tools.check(Files.isRegularFile(lib), lib + " (Debian's libllvm22)");
    compare(corpus, symbols(lib, true));
  }

  @Test
  void rustcDriver() throws Exception {
    String corpus = "librustc_driver (Rust v0)";
    requireCxxfilt();
    requireNm();
    Path rustc = Tools.require("rustc");
    Process p = new ProcessBuilder(rustc.toString(), "--print", "sysroot").start();
    Path sysroot = Path.of(new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim());
    p.waitFor();
    Path driver;
    try (Stream<Path> s = Files.list(sysroot.resolve("lib"))) {
      driver = s.filter(f -> f.getFileName().toString().startsWith("librustc_driver-")).findFirst().orElse(null);
    } catch (IOException e) {
      driver = null;
    }
    Tools.check(driver != null, "librustc_driver-*.so under " + sysroot + "/lib");
    compare(corpus, symbols(driver, true));
  }
}
