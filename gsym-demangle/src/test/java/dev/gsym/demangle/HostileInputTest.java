package dev.gsym.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Names built to hurt: deep nesting, back references whose expansion doubles at each level,
 * truncations of real names, random bytes. Each must come back (demangled or unchanged) without an
 * exception, a stack overflow, a large allocation or a long run. The package-private
 * {@code demangle(byte[])} is called directly, so an exception would not be hidden by the public
 * method's guard, and everything runs on a thread with a small (512 KiB) stack.
 */
class HostileInputTest {
  private static final long STACK = 512 * 1024;
  /** Per name: generous for a loaded CI machine, far below what an unbounded demangling takes. */
  private static final long MAX_NANOS = 2_000_000_000L;
  private static final long MAX_ALLOCATED = 64L << 20;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private record Outcome(byte[] result, long nanos, long allocated) {}

  /** Demangles each name on a small-stack thread, checking time and allocation per name. */
  private static List<Outcome> run(Demangler d, List<byte[]> names) throws Exception {
    List<Outcome> out = new ArrayList<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread t = new Thread(null, () -> {
      try {
        for (byte[] n : names) {
          long a0 = THREADS.getCurrentThreadAllocatedBytes();
          long t0 = System.nanoTime();
          byte[] r = d.demangle(n);
          long t1 = System.nanoTime();
          long a1 = THREADS.getCurrentThreadAllocatedBytes();
          out.add(new Outcome(r, t1 - t0, a1 - a0));
        }
      } catch (Throwable e) {
        failure.set(e);
      }
    }, "hostile", STACK);
    t.start();
    t.join();
    if (failure.get() != null) throw new AssertionError("demangling threw", failure.get());
    for (int i = 0; i < out.size(); i++) {
      Outcome o = out.get(i);
      String what = describe(names.get(i));
      assertThat(o.nanos).as("time for " + what).isLessThan(MAX_NANOS);
      assertThat(o.allocated).as("bytes allocated for " + what).isLessThan(MAX_ALLOCATED);
    }
    return out;
  }

  private static String describe(byte[] n) {
    String s = new String(n, StandardCharsets.ISO_8859_1);
    return s.length() > 60 ? s.substring(0, 60) + "... (" + n.length + " bytes)" : s;
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String rep(String s, int n) {
    return s.repeat(n);
  }

  /** Base-62 number as Rust v0 writes it ("_" is 0, "0_" is 1, ...). */
  private static String base62(long v) {
    if (v == 0) return "_";
    v -= 1;
    String digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    StringBuilder sb = new StringBuilder();
    do {
      sb.append(digits.charAt((int) (v % 62)));
      v /= 62;
    } while (v > 0);
    return sb.reverse() + "_";
  }

  @Test
  void deepNestingIsRefusedNotOverflowed() throws Exception {
    int n = 100_000;
    List<byte[]> names = List.of(
        b("_Z1f" + rep("P", n) + "i"),
        b("_Z1f" + rep("PK", n) + "i"),
        b("_Z1fI" + rep("1AI", n) + "i" + rep("E", n) + "Evv"),
        b("_Z1fIX" + rep("plLi1E", n) + "Li1EEEvv"),
        b("_Z1f" + rep("FPv", n) + rep("E", n)),
        b("_Z1f" + rep("Dp", n) + "i"),
        b("_Z1f" + rep("U3foo", n) + "i"),
        b("_Z1f" + rep("M1A", n) + "i"),
        b("_Z1f" + rep("ZN1a1bEv", 1)),
        b("_Z" + rep("ZN1aEvE", n / 4) + "1xv"),
        b("_Z1fIiEDT" + rep("cl", n) + "fp_" + rep("E", n) + "T_"),
        b("_Z1fIiEvT_Q" + rep("ntnt", n) + "Lb1E"),
        b("_Z1fIJ" + rep("J", n) + rep("E", n) + "EEvv"),
        b("_Z1fTp" + rep("Tp", n) + "Ty"),
        b("_ZZZZ" + rep("Z1fvE", n / 8)),
        b("_RINvC1a1fA" + rep("A", n) + "hj1_E"),
        b("_RNvC1a" + rep("Nv", n) + "1f"),
        b("_RINvC1a1fT" + rep("T", n) + rep("E", n) + "E"),
        b("_D1a" + rep("Q", 1) + rep("1a", n / 4) + "i"));
    List<Outcome> out = run(Demangler.llvm(), names);
    // Too deep for the bounds: left unchanged (llvm, on an 8 MiB native stack, may print them).
    assertThat(out.get(0).result).isNull();
    assertThat(out.get(2).result).isNull();
    assertThat(out.get(15).result).isNull();
  }

  @Test
  void nestingOfRealDepthStillDemangles() throws Exception {
    // 60 levels of templates and 150 pointers: deeper than names real programs have.
    List<byte[]> names = List.of(
        b("_Z1fI" + rep("1AI", 60) + "i" + rep("E", 60) + "Evv"),
        b("_Z1f" + rep("P", 150) + "i"),
        b("_RINvC1a1f" + rep("A", 100) + "h" + rep("j1_", 100) + "E"));
    List<Outcome> out = run(Demangler.llvm(), names);
    assertThat(new String(out.get(0).result, StandardCharsets.ISO_8859_1))
        .isEqualTo("void f<" + rep("A<", 60) + "int" + rep(">", 60) + ">()");
    assertThat(new String(out.get(1).result, StandardCharsets.ISO_8859_1)).isEqualTo("f(int" + rep("*", 150) + ")");
    assertThat(new String(out.get(2).result, StandardCharsets.ISO_8859_1))
        .isEqualTo("a::f::<" + rep("[", 100) + "u8" + rep("; 1]", 100) + ">");
  }

  @Test
  void exponentialBackReferencesHitTheOutputBound() throws Exception {
    List<byte[]> names = new ArrayList<>();
    // Itanium: parameter k is A<S(k-1), S(k-1)>, so its text doubles with k.
    for (int levels : new int[] {8, 40, 200}) {
      StringBuilder sb = new StringBuilder("_Z1f1AIiiE");
      for (int k = 0; k < levels; k++) {
        String prev = k == 0 ? "S0_" : "S" + Integer.toString(k, 36).toUpperCase() + "_";
        sb.append("S_I").append(prev).append(prev).append("E");
      }
      names.add(b(sb.toString()));
    }
    // Rust v0: generic argument k is the tuple (t(k-1), t(k-1)) by back references.
    for (int levels : new int[] {8, 60, 400}) {
      StringBuilder sb = new StringBuilder("INvC1a1fh");
      int prev = sb.length() - 1;
      for (int k = 0; k < levels; k++) {
        int start = sb.length();
        sb.append("TB").append(base62(prev)).append("B").append(base62(prev)).append("E");
        prev = start;
      }
      sb.append("E");
      names.add(b("_R" + sb));
    }
    // Itanium: a pack expanded inside a pack expansion, again and again.
    names.add(b("_Z1fIJ" + rep("iiii", 64) + "EEv" + rep("DpT_", 2000)));
    List<Outcome> out = run(Demangler.llvm(), names);
    assertThat(out.get(0).result).as("8 doublings fit").isNotNull();
    assertThat(out.get(1).result).as("2^40 does not").isNull();
    assertThat(out.get(2).result).isNull();
    assertThat(out.get(3).result).isNotNull();
    assertThat(out.get(4).result).isNull();
    assertThat(out.get(5).result).isNull();
  }

  @Test
  void truncationsOfRealNames() throws Exception {
    List<byte[]> corpus = LlvmCxxfilt.lines(Files.readAllBytes(TestData.path("demangle", "names.txt")));
    List<byte[]> names = new ArrayList<>();
    for (byte[] n : corpus) {
      if (n.length < 40 || !(n[0] == '_')) continue;
      for (int cut = 1; cut < n.length; cut += Math.max(1, n.length / 25)) names.add(java.util.Arrays.copyOf(n, cut));
      if (names.size() > 40_000) break;
    }
    run(Demangler.llvm(), names);
  }

  @Test
  void randomBytes() throws Exception {
    Random rnd = new Random(20260425);
    String[] prefixes = {"_Z", "__Z", "___Z", "._Z", "_R", "_D", "_ZN", "_ZZ", "_RIN", "_Z1fI"};
    byte[] alphabet = b("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.$");
    List<byte[]> names = new ArrayList<>();
    for (int i = 0; i < 40_000; i++) {
      byte[] p = b(prefixes[i % prefixes.length]);
      byte[] n = java.util.Arrays.copyOf(p, p.length + 1 + rnd.nextInt(i % 100 == 0 ? 4000 : 60));
      boolean anyByte = i % 3 == 0;
      for (int k = p.length; k < n.length; k++) n[k] = anyByte ? (byte) rnd.nextInt(256) : alphabet[rnd.nextInt(alphabet.length)];
      names.add(n);
    }
    run(Demangler.llvm(), names);
  }

  @Test
  void longNamesAreLeftAloneCheaply() throws Exception {
    String big = "_Z" + (Demangler.MAX_NAME_BYTES) + "a".repeat(Demangler.MAX_NAME_BYTES) + "v";
    assertThat(Demangler.llvm().demangle(big)).isSameAs(big);
    String fits = "_Z5" + "a".repeat(5) + "v";
    assertThat(Demangler.llvm().demangle(fits)).isEqualTo("aaaaa()");
  }

  @Test
  void theGnuEngineSurvivesTheSameNames() throws Exception {
    var gnu = Demangler.gnu();
    Tools.check(gnu.isPresent(), "the GNU demangler (libstdc++.so.6 through FFM, with native access)");
    // libiberty's work is unbounded (the 2^40 name below runs for minutes in it): only names the
    // bounded port accepts reach it.
    List<byte[]> names = new ArrayList<>();
    names.add(b("_Z1f" + rep("P", 50_000) + "i"));
    names.add(b("_Z1fI" + rep("1AI", 20_000) + "i" + rep("E", 20_000) + "Evv"));
    StringBuilder sb = new StringBuilder("_Z1f1AIiiE");
    for (int k = 0; k < 40; k++) sb.append("S_I").append(k == 0 ? "S0_" : "S" + Integer.toString(k, 36).toUpperCase() + "_").append(k == 0 ? "S0_" : "S" + Integer.toString(k, 36).toUpperCase() + "_").append("E");
    names.add(b(sb.toString()));
    Random rnd = new Random(7);
    for (int i = 0; i < 5_000; i++) {
      byte[] n = new byte[2 + rnd.nextInt(80)];
      n[0] = '_';
      n[1] = 'Z';
      for (int k = 2; k < n.length; k++) n[k] = (byte) (1 + rnd.nextInt(255));
      names.add(n);
    }
    for (byte[] n : names) {
      long t0 = System.nanoTime();
      String s = new String(n, StandardCharsets.ISO_8859_1);
      if (s.length() <= Demangler.MAX_NAME_BYTES) gnu.get().demangle(dev.gsym.ByteStrings.decode(n));
      assertThat(System.nanoTime() - t0).as(describe(n)).isLessThan(MAX_NANOS);
    }
  }
}
