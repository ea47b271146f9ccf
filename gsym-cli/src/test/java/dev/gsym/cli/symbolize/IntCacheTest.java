package dev.gsym.cli.symbolize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link IntCache}: a map by int key (string offsets, file and symbol indexes), bounded. */
class IntCacheTest {
  /** Random keys of every sign, many colliding in the low bits: each reads back its own value, others none. */
  @Test
  void holdsEveryKeyItWasGiven() {
    IntCache<String> c = new IntCache<>(1 << 20);
    Map<Integer, String> expected = new HashMap<>();
    Random r = new Random(38);
    for (int i = 0; i < 50_000; i++) {
      int key = switch (i % 3) {
        case 0 -> r.nextInt();
        case 1 -> (r.nextInt(1000) << 16); // equal low bits
        default -> i - 25_000; // 0 and negative keys
      };
      String value = "v" + key;
      if (!expected.containsKey(key)) assertThat(c.get(key)).as("absent %s", key).isNull();
      c.put(key, value);
      expected.put(key, value);
    }
    assertThat(c.size()).isEqualTo(expected.size());
    for (Map.Entry<Integer, String> e : expected.entrySet()) assertThat(c.get(e.getKey())).isEqualTo(e.getValue());
    for (int i = 0; i < 1000; i++) {
      int key = r.nextInt();
      if (!expected.containsKey(key)) assertThat(c.get(key)).isNull();
    }
  }

  @Test
  void aKeyGivenAgainIsReplacedNotAdded() {
    IntCache<String> c = new IntCache<>(10);
    c.put(7, "a");
    c.put(7, "b");
    assertThat(c.get(7)).isEqualTo("b");
    assertThat(c.size()).isEqualTo(1);
  }

  /** At its bound it starts over: the next key is held alone. */
  @Test
  void startsOverWhenFull() {
    IntCache<Integer> c = new IntCache<>(100);
    for (int i = 0; i < 100; i++) c.put(i, i);
    assertThat(c.size()).isEqualTo(100);
    assertThat(c.get(99)).isEqualTo(99);
    c.put(1000, 1000);
    assertThat(c.size()).isEqualTo(1);
    assertThat(c.get(1000)).isEqualTo(1000);
    assertThat(c.get(5)).isNull();
  }

  @Test
  void nullValuesAndBoundsAreRefused() {
    assertThatThrownBy(() -> new IntCache<String>(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new IntCache<String>(4).put(1, null)).isInstanceOf(NullPointerException.class);
  }
}
