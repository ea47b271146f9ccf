package dev.gsym.read.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The guessed start and the galloping search, with offsets of 2^63 and more (damaged files). */
class SortedKeysTest {
  private static int linear(long[] k, long target) {
    int i = -1;
    while (i + 1 < k.length && Long.compareUnsigned(k[i + 1], target) <= 0) i++;
    return i;
  }

  @Test
  void guessStaysInTheArrayForAnyUnsignedOffsets() {
    long[] values = {0, 1, 5, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, -32, -1};
    for (int n : new int[] {1, 2, 3, 1000}) {
      for (long last : values) {
        for (long off : values) {
          int g = SortedKeys.guess(n, last, off);
          assertTrue(g >= 0 && g < n, "n " + n + " last " + Long.toUnsignedString(last) + " off " + Long.toUnsignedString(off) + ": " + g);
        }
      }
    }
  }

  @Test
  void findsWhatALinearScanFinds() {
    Random r = new Random(3);
    for (int round = 0; round < 2_000; round++) {
      int n = 1 + r.nextInt(20);
      long[] k = new long[n];
      for (int i = 0; i < n; i++) k[i] = r.nextInt(4) == 0 ? r.nextLong() : r.nextInt(100);
      // sorted as unsigned numbers
      k = Arrays.stream(k).boxed().sorted(Long::compareUnsigned).mapToLong(Long::longValue).toArray();
      long last = k[n - 1];
      for (int t = 0; t < 10; t++) {
        long target = r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(120);
        assertEquals(linear(k, target), SortedKeys.lastAtOrBelow(k, target, SortedKeys.guess(n, last, target)),
            Arrays.toString(k) + " target " + Long.toUnsignedString(target));
      }
    }
  }
}
