package dev.gsym.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Demangler#gnu()}: libstdc++'s {@code __cxa_demangle} through FFM. A reported skip (a
 * failure under -Dgsym.requireTools=true) where libstdc++ cannot be loaded or native access is
 * disabled (surefire enables it, as the launcher does).
 */
class GnuDemanglerTest {
  private static Demangler gnu;

  @BeforeAll
  static void load() {
    gnu = Demangler.gnu().orElse(null);
  }

  @BeforeEach
  void requireGnu() {
    Tools.check(gnu != null, "the GNU demangler (libstdc++.so.6 through FFM, with native access)");
  }

  @Test
  void gnuText() {
    assertThat(gnu.demangle("_ZNSt6vectorIiSaIiEE9push_backERKi")).isEqualTo("std::vector<int, std::allocator<int> >::push_back(int const&)");
    assertThat(gnu.demangle("_Z3foov.cold")).isEqualTo("foo() [clone .cold]");
    assertThat(gnu.demangle("_ZZ4mainENKUlvE_clEv")).isEqualTo("main::{lambda()#1}::operator()() const");
    assertThat(gnu.demangle("_Z1fDn")).isEqualTo("f(decltype(nullptr))");
    assertThat(gnu.demangle("._Z3foov")).isEqualTo(".foo()");
  }

  @Test
  void llvmTextWhereGnuRejectsAName() {
    assertThat(gnu.demangle("__Z3foov")).isEqualTo("foo()");
    assertThat(gnu.demangle("___Z10blocksNRVOv_block_invoke")).isEqualTo("invocation function for block in blocksNRVO()");
  }

  @Test
  void onlyNamesLlvmAcceptsReachTheNativeCode() {
    // GCC's transaction clones: GNU demangles them, llvm does not, so they stay mangled.
    String tm = "_ZGTtNKSt11logic_error4whatEv";
    assertThat(gnu.demangle(tm)).isSameAs(tm);
    // Embedded NUL: not a C string.
    String nul = "_Z3foov\0x";
    assertThat(gnu.demangle(nul)).isSameAs(nul);
  }

  @Test
  void rustAndDAsLlvm() {
    assertThat(gnu.demangle("_RNvCs1234_7mycrate3foo")).isEqualTo("mycrate::foo");
    assertThat(gnu.demangle("_D3foo3bari")).isEqualTo("foo.bar");
  }

  @Test
  void bytesSurvive() {
    String latin1 = ByteStrings.decode(new byte[] {'_', 'Z', '4', 'c', 'a', 'f', (byte) 0xE9, 'v'});
    assertThat(gnu.demangle(latin1)).isEqualTo(ByteStrings.decode(new byte[] {'c', 'a', 'f', (byte) 0xE9, '(', ')'}));
  }

  @Test
  void agreesWithLlvmUpToSpelling() throws Exception {
    // Over the corpus, GNU's text differs from llvm's in spelling ("> >", clone suffixes, lambdas,
    // nullptr_t): after that normalization most names agree, which they could not if the binding
    // returned wrong or truncated bytes.
    List<byte[]> names = LlvmCxxfilt.lines(Files.readAllBytes(TestData.path("demangle", "names.txt")));
    int itanium = 0;
    int agree = 0;
    for (byte[] b : names) {
      String n = ByteStrings.decode(b);
      String l = Demangler.llvm().demangle(n);
      String g = gnu.demangle(n);
      if (l == n) {
        assertThat(g).isSameAs(n);
        continue;
      }
      if (!n.startsWith("_Z")) continue;
      itanium++;
      String norm = g;
      while (norm.contains("> >")) norm = norm.replace("> >", ">>");
      norm = norm.replace("std::nullptr_t", "decltype(nullptr)");
      if (norm.equals(l.replace("std::nullptr_t", "decltype(nullptr)"))) agree++;
    }
    assertThat(itanium).isGreaterThan(2000);
    assertThat((double) agree / itanium).isGreaterThan(0.9);
  }
}
