package dev.gsym.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AddressRangesTest {
  private static AddressRange r(long s, long e) {
    return new AddressRange(s, e);
  }

  @Test
  void normalizeMatchesIncrementalInsert() {
    Random rnd = new Random(11);
    for (int iter = 0; iter < 5000; iter++) {
      List<AddressRange> in = new ArrayList<>();
      int n = rnd.nextInt(12);
      for (int i = 0; i < n; i++) {
        long s = rnd.nextInt(60) - (rnd.nextInt(10) == 0 ? 30 : 0); // some "negative" = huge unsigned
        in.add(r(s, s + rnd.nextInt(8)));
      }
      AddressRanges set = new AddressRanges();
      for (AddressRange x : in) set.insert(x);
      assertThat(AddressRanges.normalize(in)).as(in.toString()).isEqualTo(set.toList());
    }
  }

  @Test
  void normalizedInputIsKeptAndTheResultIsImmutable() {
    List<AddressRange> in = new ArrayList<>(List.of(r(1, 2), r(3, 5), r(-8, -4)));
    List<AddressRange> out = AddressRanges.normalize(in);
    assertThat(out).isEqualTo(in);
    in.clear(); // a copy, not a view
    assertThat(out).containsExactly(r(1, 2), r(3, 5), r(-8, -4));
    assertThat(AddressRanges.normalize(out)).isSameAs(out);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> out.add(r(9, 10)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(AddressRanges.normalize(List.of(r(1, 2), r(2, 3)))).containsExactly(r(1, 3)); // touching
    assertThat(AddressRanges.normalize(List.of(r(5, 5)))).isEmpty();
  }

  @Test
  void insertMergesAdjacentAndOverlapping() {
    AddressRanges set = new AddressRanges();
    set.insert(r(10, 20));
    set.insert(r(30, 40));
    set.insert(r(20, 30));
    set.insert(r(5, 5));
    assertThat(set.toList()).containsExactly(r(10, 40));
    set.insert(r(0, 2));
    set.insert(r(-16, -1));
    assertThat(set.toList()).containsExactly(r(0, 2), r(10, 40), r(-16, -1));
    assertThat(set.contains(39)).isTrue();
    assertThat(set.contains(40)).isFalse();
    assertThat(set.contains(r(12, 40))).isTrue();
    assertThat(set.contains(r(2, 12))).isFalse();
    assertThat(set.rangeContaining(-2)).isEqualTo(r(-16, -1));
  }

  @Test
  void rangeBasics() {
    assertThat(r(5, 5).isEmpty()).isTrue();
    assertThat(r(6, 5).isEmpty()).isTrue();
    assertThat(r(0, 10).intersects(r(9, 20))).isTrue();
    assertThat(r(0, 10).intersects(r(10, 20))).isFalse();
    assertThat(r(0, 10).intersects(r(5, 5))).isTrue(); // LLVM: Start < R.End && R.Start < End
    assertThat(r(5, 5).intersects(r(5, 10))).isFalse();
    assertThat(r(0, -1).contains(-2)).isTrue();
    assertThat(r(1, 2).compareTo(r(-1, 0))).isNegative();
    assertThat(r(0x10, 0x20).toString()).isEqualTo("[0x0000000000000010 - 0x0000000000000020)");
  }
}
