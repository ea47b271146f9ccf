package dev.gsym.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gsym.io.ByteView;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link MinidumpMemory}: reads as the regions' bytes say, found by binary search, across adjacent regions only. */
class MinidumpMemoryTest {
  static java.util.stream.Stream<Path> dumps() {
    return MinidumpCorpusTest.breakpadDumps();
  }

  /** Every thread's stack, word by word through the memory reader, is the stack's bytes. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("dumps")
  void stacksReadThroughTheMemory(Path path) throws IOException {
    try (Minidump dump = Minidump.open(path)) {
      MinidumpMemory memory = dump.memory();
      int word = dump.systemInfo().pointerSize();
      for (MinidumpThread t : dump.threadList().threads()) {
        MemoryRegion stack = dump.stack(t);
        assertThat(stack).isNotNull();
        for (long off = 0; off + word <= stack.size(); off += word) {
          assertThat(memory.readable(stack.start() + off, word)).isTrue();
          assertThat(memory.read(stack.start() + off, word)).isEqualTo(stack.bytes().uN(off, word));
        }
        assertThat(memory.readable(stack.end() - 2, 4)).as("past the stack's end").isEqualTo(memory.regionAt(stack.end()) != null);
        // the stack pointer's word
        long sp = dump.context(t).sp();
        assertThat(memory.regionAt(sp)).isNotNull();
      }
    }
  }

  private static MemoryRegion region(long start, byte[] bytes, ByteOrder order) {
    return new MemoryRegion(start, bytes.length, 0, ByteView.of(bytes, order, "test"));
  }

  private static byte[] seq(int n, int from) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) b[i] = (byte) (from + i);
    return b;
  }

  @Test
  void readsSpanAdjacentRegionsButNotGaps() {
    MinidumpMemory m = new MinidumpMemory(List.of(region(0x2000, seq(8, 0x20), ByteOrder.LITTLE_ENDIAN),
        region(0x1000, seq(16, 0), ByteOrder.LITTLE_ENDIAN), region(0x1010, seq(16, 0x10), ByteOrder.LITTLE_ENDIAN)),
        ByteOrder.LITTLE_ENDIAN);
    assertThat(m.read(0x1000, 8)).isEqualTo(0x0706050403020100L);
    assertThat(m.read(0x100c, 8)).as("across 0x1010").isEqualTo(0x131211100f0e0d0cL);
    assertThat(m.read(0x101e, 2)).isEqualTo(0x1f1eL);
    assertThat(m.readable(0x101e, 4)).as("into the gap at 0x1020").isFalse();
    assertThat(m.readable(0xfff, 1)).isFalse();
    assertThat(m.readable(0x2007, 1)).isTrue();
    assertThat(m.readable(0x2007, 2)).isFalse();
    byte[] out = new byte[40];
    assertThat(m.copy(0x1008, out, 0, 40)).isEqualTo(24);
    assertThat(out[23]).isEqualTo((byte) 0x1f);
    assertThatThrownBy(() -> m.read(0x1020, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void bigEndianWords() {
    MinidumpMemory m = new MinidumpMemory(List.of(region(0x10, seq(8, 1), ByteOrder.BIG_ENDIAN), region(0x18, seq(8, 9), ByteOrder.BIG_ENDIAN)),
        ByteOrder.BIG_ENDIAN);
    assertThat(m.read(0x10, 4)).isEqualTo(0x01020304L);
    assertThat(m.read(0x16, 4)).isEqualTo(0x0708090aL);
  }

  @Test
  void overlappingRegionsAreRefused() {
    assertThatThrownBy(() -> new MinidumpMemory(List.of(region(0x1000, seq(16, 0), ByteOrder.LITTLE_ENDIAN),
        region(0x100f, seq(4, 0), ByteOrder.LITTLE_ENDIAN)), ByteOrder.LITTLE_ENDIAN)).isInstanceOf(IllegalArgumentException.class);
  }

  /** The binary search finds what a linear scan finds, for addresses in, between, before and after many regions. */
  @Test
  void binarySearchIsALinearScan() {
    Random random = new Random(36);
    List<MemoryRegion> regions = new ArrayList<>();
    long at = 0x7fff_0000_0000L;
    for (int i = 0; i < 500; i++) {
      at += random.nextInt(3) == 0 ? 0 : random.nextInt(64) + 1; // some adjacent, some with gaps
      int size = random.nextInt(40) + 1;
      regions.add(region(at, seq(size, i), ByteOrder.LITTLE_ENDIAN));
      at += size;
    }
    regions.add(region(-16L, seq(16, 0), ByteOrder.LITTLE_ENDIAN)); // ends at 2^64
    MinidumpMemory m = new MinidumpMemory(regions, ByteOrder.LITTLE_ENDIAN);
    for (int k = 0; k < 20000; k++) {
      long a = k < 100 ? -16L + random.nextInt(16) - 8 : 0x7fff_0000_0000L + random.nextLong(at - 0x7fff_0000_0000L + 100) - 50;
      MemoryRegion linear = null;
      for (MemoryRegion r : regions) if (r.contains(a)) linear = r;
      assertThat(m.regionAt(a)).as("0x%x", a).isSameAs(linear);
      int size = 1 + random.nextInt(8);
      boolean all = true;
      for (int i = 0; i < size; i++) {
        long b = a + i;
        if (i > 0 && b == 0) all = false; // no wrap past 2^64
        final long bb = b;
        if (regions.stream().noneMatch(r -> r.contains(bb))) all = false;
      }
      assertThat(m.readable(a, size)).as("%d bytes at 0x%x", size, a).isEqualTo(all);
    }
  }
}
