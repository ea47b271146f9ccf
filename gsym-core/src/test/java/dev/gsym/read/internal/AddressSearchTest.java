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
 * The address search over the copied array and over the mapping gives LLVM's answer (lower_bound,
 * one step back unless exact) for every entry size and byte order, with runs of equal offsets,
 * unsigned offsets above 2^63 and probes below, between, on and above the entries.
 */
class AddressSearchTest {
  @ParameterizedTest
  @CsvSource({"1, LE", "2, LE", "4, LE", "8, LE", "1, BE", "2, BE", "4, BE", "8, BE"})
  void bothSearchesAreLlvms(int size, String order) {
    ByteOrder o = order.equals("LE") ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    SplittableRandom rnd = new SplittableRandom(size * 31L + order.hashCode());
    long mask = size == 8 ? -1L : (1L << (8 * size)) - 1;
    for (int round = 0; round < 50; round++) {
      int n = 1 + rnd.nextInt(300);
      long[] offsets = new long[n];
      for (int i = 0; i < n; i++) offsets[i] = rnd.nextInt(4) == 0 && i > 0 ? offsets[i - 1] : rnd.nextLong() & mask;
      Long[] boxed = Arrays.stream(offsets).boxed().sorted(Long::compareUnsigned).toArray(Long[]::new);
      for (int i = 0; i < n; i++) offsets[i] = boxed[i];
      for (int i = 1; i < n; i++) if (rnd.nextInt(4) == 0) offsets[i] = offsets[i - 1]; // runs of equal starts
      GsymWriter w = new GsymWriter(o);
      new Header(1, size, 0x1000, n, 0, 0, null).encode(w);
      AddressTable.encode(w, offsets, size);
      AddressInfoTable.encode(w, new long[n]);
      ByteView v = ByteView.of(w.toByteArray(), o, "t");
      AddressTable table = AddressTable.decode(v, Header.decode(v));
      AddressSearch copied = new AddressSearch(table, true);
      AddressSearch mapped = new AddressSearch(table, false);
      for (int k = 0; k < 200; k++) {
        long off = switch (k % 4) {
          case 0 -> offsets[rnd.nextInt(n)];
          case 1 -> offsets[rnd.nextInt(n)] + 1;
          case 2 -> offsets[rnd.nextInt(n)] - 1;
          default -> rnd.nextLong() & mask;
        };
        int expected = llvm(offsets, off);
        assertThat(copied.nearest(off)).as("offset %x", off).isEqualTo(expected);
        assertThat(mapped.nearest(off)).as("offset %x", off).isEqualTo(expected);
      }
      for (int i = 0; i < n; i++) {
        assertThat(copied.get(i)).isEqualTo(offsets[i]);
        assertThat(mapped.get(i)).isEqualTo(offsets[i]);
        boolean unique = (i == 0 || offsets[i - 1] != offsets[i]) && (i + 1 == n || offsets[i + 1] != offsets[i]);
        assertThat(copied.unique(i)).isEqualTo(unique);
        assertThat(mapped.unique(i)).isEqualTo(unique);
      }
    }
  }

  /** LLVM's getAddressOffsetIndex before it backs up over equal offsets, by linear scan. */
  private static int llvm(long[] offsets, long off) {
    int lb = 0;
    while (lb < offsets.length && Long.compareUnsigned(offsets[lb], off) < 0) lb++;
    if (lb == offsets.length || Long.compareUnsigned(off, offsets[lb]) < 0) lb--;
    return lb;
  }
}
