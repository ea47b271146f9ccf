package dev.gsym.read.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.format.AddressInfoTable;
import dev.gsym.format.AddressTable;
import dev.gsym.format.Header;
import dev.gsym.io.ByteView;
import dev.gsym.io.GsymWriter;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The address search over the copied array (with its bucket index) and over the mapping gives LLVM's
 * answer (lower_bound, one step back unless exact) for every entry size and byte order, with runs
 * of equal offsets, unsigned offsets above 2^63, clustered offsets and probes below, between, on and
 * above the entries; on an unsorted (corrupt) table both give the binary search's answer.
 */
class AddressSearchTest {
  @ParameterizedTest
  @CsvSource({"1, LE", "2, LE", "4, LE", "8, LE", "1, BE", "2, BE", "4, BE", "8, BE"})
  void bothSearchesAreLlvms(int size, String order) {
    ByteOrder o = order.equals("LE") ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    SplittableRandom rnd = new SplittableRandom(size * 31L + order.hashCode());
    long mask = size == 8 ? -1L : (1L << (8 * size)) - 1;
    int bucketed = 0;
    for (int round = 0; round < 150; round++) {
      int n = 1 + rnd.nextInt(round % 3 == 2 ? 3000 : 300);
      long[] offsets = new long[n];
      // spread over the whole range, or clustered: runs of close offsets far apart
      long base = rnd.nextLong() & mask;
      for (int i = 0; i < n; i++) {
        offsets[i] = switch (round % 3) {
          case 0 -> rnd.nextInt(4) == 0 && i > 0 ? offsets[i - 1] : rnd.nextLong() & mask;
          case 1 -> (base + (rnd.nextInt(8) == 0 ? rnd.nextLong() : rnd.nextInt(64))) & mask;
          default -> rnd.nextInt(16) == 0 ? rnd.nextLong() & mask : (base + rnd.nextInt(1 << 20)) & mask;
        };
      }
      Long[] boxed = Arrays.stream(offsets).boxed().sorted(Long::compareUnsigned).toArray(Long[]::new);
      for (int i = 0; i < n; i++) offsets[i] = boxed[i];
      for (int i = 1; i < n; i++) if (rnd.nextInt(4) == 0) offsets[i] = offsets[i - 1]; // runs of equal starts
      AddressTable table = table(offsets, size, o);
      AddressSearch copied = new AddressSearch(table, true);
      AddressSearch mapped = new AddressSearch(table, false);
      for (int k = 0; k < 400; k++) {
        long off = switch (k % 5) {
          case 0 -> offsets[rnd.nextInt(n)];
          case 1 -> offsets[rnd.nextInt(n)] + 1;
          case 2 -> offsets[rnd.nextInt(n)] - 1;
          case 3 -> offsets[0] + (long) (rnd.nextDouble() * (offsets[n - 1] - offsets[0]));
          default -> rnd.nextLong() & mask;
        };
        int expected = llvm(offsets, off);
        assertThat(copied.nearest(off)).as("offset %x", off).isEqualTo(expected);
        assertThat(mapped.nearest(off)).as("offset %x", off).isEqualTo(expected);
      }
      for (long off : new long[] {0, -1, mask, offsets[0], offsets[n - 1], offsets[n - 1] + 1}) {
        assertThat(copied.nearest(off)).as("offset %x", off).isEqualTo(llvm(offsets, off));
      }
      for (int i = 0; i < n; i++) {
        assertThat(copied.get(i)).isEqualTo(offsets[i]);
        assertThat(mapped.get(i)).isEqualTo(offsets[i]);
        boolean unique = (i == 0 || offsets[i - 1] != offsets[i]) && (i + 1 == n || offsets[i + 1] != offsets[i]);
        assertThat(copied.unique(i)).isEqualTo(unique);
        assertThat(mapped.unique(i)).isEqualTo(unique);
      }
      assertThat(copied.bucketed()).isEqualTo(n >= AddressSearch.MIN_BUCKETED);
      if (copied.bucketed()) bucketed++;
    }
    assertThat(bucketed).isGreaterThan(50);
  }

  /** On an unsorted table the copy searches without buckets, as the mapping does (and LLVM). */
  @ParameterizedTest
  @CsvSource({"2, LE", "4, BE", "8, LE"})
  void unsortedTablesAreSearchedAsTheMapping(int size, String order) {
    ByteOrder o = order.equals("LE") ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    SplittableRandom rnd = new SplittableRandom(size * 17L);
    long mask = size == 8 ? -1L : (1L << (8 * size)) - 1;
    for (int round = 0; round < 50; round++) {
      int n = AddressSearch.MIN_BUCKETED + rnd.nextInt(500);
      long[] offsets = new long[n];
      for (int i = 0; i < n; i++) offsets[i] = ((long) i * 0x100 + 0x1000) & mask;
      int swaps = 1 + rnd.nextInt(3);
      for (int s = 0; s < swaps; s++) { // a few entries out of order
        int i = rnd.nextInt(n);
        int j = rnd.nextInt(n);
        long t = offsets[i];
        offsets[i] = offsets[j];
        offsets[j] = t;
      }
      AddressTable table = table(offsets, size, o);
      AddressSearch copied = new AddressSearch(table, true);
      AddressSearch mapped = new AddressSearch(table, false);
      for (int k = 0; k < 400; k++) {
        long off = k % 2 == 0 ? offsets[rnd.nextInt(n)] + rnd.nextInt(3) - 1 : rnd.nextLong() & mask;
        assertThat(copied.nearest(off)).as("offset %x", off).isEqualTo(mapped.nearest(off));
      }
      boolean sorted = true;
      for (int i = 1; i < n; i++) sorted &= Long.compareUnsigned(offsets[i - 1], offsets[i]) <= 0;
      assertThat(copied.bucketed()).isEqualTo(sorted);
    }
  }

  private static AddressTable table(long[] offsets, int size, ByteOrder o) {
    GsymWriter w = new GsymWriter(o);
    new Header(1, size, 0x1000, offsets.length, 0, 0, null).encode(w);
    AddressTable.encode(w, offsets, size);
    AddressInfoTable.encode(w, new long[offsets.length]);
    ByteView v = ByteView.of(w.toByteArray(), o, "t");
    return AddressTable.decode(v, Header.decode(v));
  }

  /** LLVM's getAddressOffsetIndex before it backs up over equal offsets, by linear scan. */
  private static int llvm(long[] offsets, long off) {
    int lb = 0;
    while (lb < offsets.length && Long.compareUnsigned(offsets[lb], off) < 0) lb++;
    if (lb == offsets.length || Long.compareUnsigned(off, offsets[lb]) < 0) lb--;
    return lb;
  }
}
