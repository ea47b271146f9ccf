package dev.gsym.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** llvm's POSIX ERE as llvm-gsymutil-22's --merged-functions-filter matches it (outcomes checked with llvm-gsymutil-22). */
class PosixRegexTest {
  private static boolean matches(String ere, String name) {
    Pattern p = PosixRegex.compile(ere);
    return p != null && p.matcher(name).find();
  }

  @Test
  void posixExtendedRegex() {
    assertThat(matches("_b$", "twice_b")).isTrue();
    assertThat(matches("_b$", "twice_a")).isFalse();
    assertThat(matches("a|b", "twice_b")).isTrue();
    assertThat(matches("^.op$", "top")).isTrue();
    assertThat(matches("o{1}p", "top")).isTrue();
    assertThat(matches("[[:alpha:]]op", "top")).isTrue();
    assertThat(matches("\\w", "top")).isFalse(); // \w is a literal 'w' in POSIX
    assertThat(matches("\\w", "wat")).isTrue();
    assertThat(matches("a{x", "a{x")).isTrue();
    assertThat(matches("[]a]", "]")).isTrue();
    assertThat(matches("[a\\]", "\\")).isTrue();
    assertThat(matches("[a&&b]", "&")).isTrue();
    assertThat(matches("(o)\\1", "foo")).isTrue();
    // invalid in llvm: match nothing
    for (String bad : new String[] {"", "[", "*a", "a||b", "(", "a\\", "[[:nope:]]"}) {
      assertThat(PosixRegex.compile(bad)).as(bad).isNull();
    }
  }
}
