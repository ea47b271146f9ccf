package dev.gsym.demangle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gsym.format.StringTable;
import dev.gsym.read.GsymReader;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every name of real binaries demangled by us and by the live {@code llvm-cxxfilt-22}: identical for
 * at least 99.9% of each corpus, and every difference in a category docs/symbolize.md explains.
 * Each corpus is skipped, with the reason printed, when its input or tool is missing; CI has
 * libstdc++, libLLVM (llvm-22) and the test binaries, and checks the rest through the checked-in
 * corpus ({@link CorpusTest}).
 */
class LlvmCxxfiltDifferentialTest {
  private static LlvmCxxfilt cxxfilt;
  private static Path nm;

  @BeforeAll
  static void tools() {
    cxxfilt = LlvmCxxfilt.find();
    nm = LlvmCxxfilt.onPath("llvm-nm-22");
  }

  private static void require(boolean ok, String corpus, String why) {
    if (!ok) System.out.println("LlvmCxxfiltDifferentialTest " + corpus + " skipped: " + why);
    assumeTrue(ok, why);
  }

  private static void requireCxxfilt(String corpus) {
    require(cxxfilt != null, corpus, LlvmCxxfilt.NAME + " (and xargs) not on PATH");
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
    requireCxxfilt(corpus);
    require(nm != null, corpus, "llvm-nm-22 not on PATH");
    Path lib = Path.of("/usr/lib/x86_64-linux-gnu/libstdc++.so.6");
    require(Files.isRegularFile(lib), corpus, lib + " not found");
    compare(corpus, symbols(lib, true));
  }

  @Test
  void libjvmGsym() throws Exception {
    String corpus = "libjvm.gsym";
    requireCxxfilt(corpus);
    Path gsym = Path.of(System.getProperty("gsym.demangle.libjvm", "/tmp/jvmdbg/libjvm.gsym"));
    require(Files.isRegularFile(gsym), corpus, gsym + " not found (llvm-gsymutil-22's GSYM of OpenJDK's libjvm)");
    compare(corpus, gsymStrings(gsym));
  }

  @Test
  void testBinaries() throws Exception {
    String corpus = "src-test-data/gsym";
    requireCxxfilt(corpus);
    List<byte[]> names = new ArrayList<>();
    try (Stream<Path> s = Files.list(TestData.path("gsym"))) {
      for (Path g : s.filter(p -> p.toString().endsWith(".gsym")).sorted().toList()) names.addAll(gsymStrings(g));
    }
    if (nm != null) {
      for (String bin : TestData.binaries()) {
        if (bin.startsWith("cpp-") || bin.startsWith("rust-") || bin.startsWith("symtab-") || bin.startsWith("latin1-")) {
          names.addAll(symbols(TestData.path("bin", bin), false));
        }
      }
    }
    compare(corpus, names);
  }

  @Test
  void rustV0BuiltLive(@TempDir Path tmp) throws Exception {
    String corpus = "rust_v0 (rustc -C symbol-mangling-version=v0)";
    requireCxxfilt(corpus);
    require(nm != null, corpus, "llvm-nm-22 not on PATH");
    Path rustc = LlvmCxxfilt.onPath("rustc");
    require(rustc != null, corpus, "rustc not on PATH");
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
    requireCxxfilt(corpus);
    require(nm != null, corpus, "llvm-nm-22 not on PATH");
    Path lib = Path.of("/usr/lib/x86_64-linux-gnu/libLLVM.so.22.1");
    require(Files.isRegularFile(lib), corpus, lib + " not found (Debian's libllvm22)");
    compare(corpus, symbols(lib, true));
  }

  @Test
  void rustcDriver() throws Exception {
    String corpus = "librustc_driver (Rust v0)";
    requireCxxfilt(corpus);
    require(nm != null, corpus, "llvm-nm-22 not on PATH");
    Path rustc = LlvmCxxfilt.onPath("rustc");
    require(rustc != null, corpus, "rustc not on PATH");
    Process p = new ProcessBuilder(rustc.toString(), "--print", "sysroot").start();
    Path sysroot = Path.of(new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim());
    p.waitFor();
    Path driver;
    try (Stream<Path> s = Files.list(sysroot.resolve("lib"))) {
      driver = s.filter(f -> f.getFileName().toString().startsWith("librustc_driver-")).findFirst().orElse(null);
    } catch (IOException e) {
      driver = null;
    }
    require(driver != null, corpus, "no librustc_driver-*.so under " + sysroot + "/lib");
    compare(corpus, symbols(driver, true));
  }
}
