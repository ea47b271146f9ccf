package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.unwind.MemoryReader;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Breakpad's postfix evaluator semantics ({@code postfix_evaluator-inl.h}), worked out by hand. */
class PostfixTest {
  /** Memory where the word at A is A + 0x100 (4 bytes) for A in [0x1000, 0x2000). */
  static final MemoryReader MEMORY = new MemoryReader() {
    @Override public boolean readable(long address, int size) {
      return address >= 0x1000 && address + size <= 0x2000;
    }
    @Override public long read(long address, int size) {
      return address + 0x100;
    }
  };

  static long value(String expr, Map<String, Long> dict, int word) {
    long[] out = new long[1];
    assertThat(new Postfix(dict, MEMORY, word).evaluateForValue(expr, out)).as(expr).isTrue();
    return out[0];
  }

  static boolean fails(String expr, Map<String, Long> dict, int word) {
    return !new Postfix(dict, MEMORY, word).evaluateForValue(expr, new long[1]);
  }

  @Test
  void arithmeticAndLiterals() {
    Map<String, Long> d = new HashMap<>(Map.of("$esp", 0x1000L, ".cfa", 0x1800L));
    assertThat(value("$esp 8 +", d, 4)).isEqualTo(0x1008);
    assertThat(value(".cfa -8 +", d, 8)).isEqualTo(0x17f8); // a negative literal wraps and adds
    assertThat(value("2 3 - ", d, 4)).isEqualTo(0xffff_ffffL); // 32-bit wrap
    assertThat(value("2 3 -", d, 8)).isEqualTo(-1L);
    assertThat(value("7 2 /", d, 4)).isEqualTo(3);
    assertThat(value("7 2 %", d, 4)).isEqualTo(1);
    assertThat(value("6 7 *", d, 4)).isEqualTo(42);
    assertThat(value("0x1234 16 @", Map.of("0x1234", 0x1234L), 4)).isEqualTo(0x1230); // align; 0x1234 is a name
    assertThat(value("4660 16 @", d, 4)).isEqualTo(0x1230);
    assertThat(value("$esp", d, 4)).isEqualTo(0x1000); // a lone name
    assertThat(value("  $esp\t 4\n+ ", d, 4)).isEqualTo(0x1004); // any white space separates
  }

  @Test
  void hexIsNotALiteralAndUnknownNamesFail() {
    Map<String, Long> d = new HashMap<>();
    assertThat(fails("0x10 4 +", d, 4)).isTrue(); // 0x10 is a name, and not in the dictionary
    assertThat(fails("$nope", d, 4)).isTrue();
    assertThat(fails("4294967296", d, 4)).isTrue(); // too large for a 32-bit value: a name
    assertThat(value("4294967296", d, 8)).isEqualTo(1L << 32);
    assertThat(fails("1 0 /", d, 4)).isTrue();
    assertThat(fails("1 2", d, 4)).isTrue(); // two values left
    assertThat(fails("+", d, 4)).isTrue();
  }

  @Test
  void dereference() {
    Map<String, Long> d = new HashMap<>(Map.of(".cfa", 0x1010L));
    assertThat(value(".cfa 4 - ^", d, 4)).isEqualTo(0x110c);
    assertThat(fails(".cfa 4096 + ^", d, 4)).isTrue(); // outside the memory
    assertThat(new Postfix(d, null, 4).evaluateForValue(".cfa ^", new long[1])).isFalse(); // no memory
  }

  @Test
  void programStringsAssign() {
    Map<String, Long> d = new HashMap<>(Map.of("$ebp", 0x1200L, "$esp", 0x1100L));
    Set<String> assigned = new HashSet<>();
    // MSVC 2010 glued the = to the next token
    assertThat(new Postfix(d, MEMORY, 4).evaluate("$T0 $ebp = $eip $T0 4 + ^ =$ebp $T0 ^ = $esp $T0 8 + =", assigned)).isTrue();
    assertThat(d).containsEntry("$T0", 0x1200L).containsEntry("$eip", 0x1304L).containsEntry("$ebp", 0x1300L)
        .containsEntry("$esp", 0x1208L);
    assertThat(assigned).containsExactlyInAnyOrder("$T0", "$eip", "$ebp", "$esp");
    assertThat(new Postfix(d, MEMORY, 4).evaluate("$eip 1 2 =", null)).isFalse(); // assigning to a literal
    assertThat(new Postfix(d, MEMORY, 4).evaluate("x 1 =", null)).isFalse(); // only $ names are variables
    assertThat(new Postfix(d, MEMORY, 4).evaluate("$a 1 = 2", null)).isFalse(); // a value left over
  }
}
