package dev.gsym.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.testing.Tools;
import org.junit.jupiter.api.Test;

/**
 * The public contract of {@link Demangler}: which schemes, in which order, what passes through
 * unchanged, bytes that are not UTF-8. The expected texts are llvm-cxxfilt-22's (the corpus tests
 * compare thousands more).
 */
class DemanglerTest {
  private final Demangler d = Demangler.llvm();

  private static String bytes(String latin1Escapes) {
    return ByteStrings.decode(latin1Escapes.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
  }

  @Test
  void itanium() {
    assertThat(d.demangle("_Z3foov")).isEqualTo("foo()");
    assertThat(d.demangle("_ZNSt6vectorIiSaIiEE9push_backERKi")).isEqualTo("std::vector<int, std::allocator<int>>::push_back(int const&)");
    assertThat(d.demangle("_ZZ4mainENKUlvE_clEv")).isEqualTo("main::'lambda'()::operator()() const");
    assertThat(d.demangle("_ZN12_GLOBAL__N_11fEv")).isEqualTo("(anonymous namespace)::f()");
    assertThat(d.demangle("_ZN1AB5cxx11C1Ev")).isEqualTo("A[abi:cxx11]::A()");
    assertThat(d.demangle("_ZTv0_n24_N1B1fEv")).isEqualTo("virtual thunk to B::f()");
    assertThat(d.demangle("_ZGVZ3foovE1x")).isEqualTo("guard variable for foo()::x");
    assertThat(d.demangle("_Z1fILd3ff8000000000000EEvv")).isEqualTo("void f<0x1.8p+0>()");
    assertThat(d.demangle("_Z1fIiEDTgtfp_fp_ET_")).isEqualTo("decltype((fp > fp)) f<int>(int)");
  }

  @Test
  void prefixesAndSuffixesAsLlvmTakesThem() {
    // A leading '.' is set aside and printed again; 1 to 4 underscores before Z.
    assertThat(d.demangle("._Z3foov")).isEqualTo(".foo()");
    assertThat(d.demangle("__Z3foov")).isEqualTo("foo()");
    assertThat(d.demangle("___Z10blocksNRVOv_block_invoke")).isEqualTo("invocation function for block in blocksNRVO()");
    assertThat(d.demangle("_Z3foov.cold.1")).isEqualTo("foo() (.cold.1)");
    String notABlock = "___Z3foov";
    assertThat(d.demangle(notABlock)).isSameAs(notABlock);
    String fiveUnderscores = "_____Z3foov";
    assertThat(d.demangle(fiveUnderscores)).isSameAs(fiveUnderscores);
  }

  @Test
  void rustLegacyNamesPrintAsItaniumNames() {
    assertThat(d.demangle("_ZN4core3fmt5write17h0123456789abcdefE")).isEqualTo("core::fmt::write::h0123456789abcdef");
    assertThat(d.demangle("_ZN71_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h0123456789abcdefE"))
        .isEqualTo("_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop::h0123456789abcdef");
  }

  @Test
  void rustV0() {
    assertThat(d.demangle("_RNvCs1234_7mycrate3foo")).isEqualTo("mycrate::foo");
    assertThat(d.demangle("_RNvC7mycrate3foo.llvm.1234")).isEqualTo("mycrate::foo (.llvm.1234)");
    assertThat(d.demangle("_RNvCs1zG5boeDNqh_7rust_v0u9gre_6ka8l")).isEqualTo("rust_v0::grüße");
    assertThat(d.demangle("_RINvC7mycrate3fooFG_RL0_hEuE")).isEqualTo("mycrate::foo::<for<'a> fn(&'a u8)>");
  }

  @Test
  void dlang() {
    assertThat(d.demangle("_D3foo3bari")).isEqualTo("foo.bar");
    assertThat(d.demangle("_Dmain")).isEqualTo("D main");
    assertThat(d.demangle("_D8demangle4test6__initZ")).isEqualTo("initializer for demangle.test");
    String typed = "_D3std5stdio7writelnFZv"; // function types: beyond what llvm 22 demangles
    assertThat(d.demangle(typed)).isSameAs(typed);
  }

  @Test
  void namesLeftAloneAreTheSameInstance() {
    assertThat(d.demangle("_Z3foo")).isEqualTo("foo"); // a variable
    for (String n : new String[] {"main", "_start", "_Z", "_Z3fo", "_ZN", "_R", "_D", "", "x", ".", "?foo@@YAXXZ",
        "$s4main3FooV", "_$s4main3FooV", "__imp__Z3foov", "_GLOBAL__sub_I_main.cpp", "_Z3foov@plt"}) {
      assertThat(d.demangle(n)).as(n).isSameAs(n);
    }
  }

  @Test
  void namesAreBytes() {
    // A source name's length counts bytes; bytes that are not UTF-8 survive.
    assertThat(d.demangle(bytes("_Z4caf\u00e9v"))).isEqualTo(bytes("caf\u00e9()"));
    assertThat(d.demangle(bytes("_Z5caf\u00c3\u00a9v"))).isEqualTo("café()");
    assertThat(d.demangle("_Z5cafév")).isEqualTo("café()");
    String invalidRust = bytes("_RNvC5caf\u00e93foo"); // v0 identifiers are [0-9A-Za-z_]
    assertThat(d.demangle(invalidRust)).isSameAs(invalidRust);
  }

  @Test
  void llvmIsNamed() {
    assertThat(d.isGnu()).isFalse();
    assertThat(d.toString()).contains("llvm");
  }

  @Test
  void gnuIsNamed() {
    var gnu = Demangler.gnu();
    Tools.check(gnu.isPresent(), "the GNU demangler (libstdc++.so.6 through FFM, with native access)");
    assertThat(gnu.get().isGnu()).isTrue();
    assertThat(gnu.get().toString()).contains("gnu");
  }
}
