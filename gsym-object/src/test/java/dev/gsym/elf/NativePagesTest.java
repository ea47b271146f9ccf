package dev.gsym.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gsym.io.ByteView;
import dev.gsym.testing.Slow;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Decompression buffers from anonymous mmap with huge pages: zero, writable to the last byte,
 * unmapped with their arena; and sections that inflate to more than {@link NativePages#MIN} give
 * the bytes java.util.zip gives, on both the libdeflate and the streaming path.
 */
@Slow
class NativePagesTest {
  @Test
  void mappedOnLinuxWithNativeAccess() {
    assumeTrue(System.getProperty("os.name").equals("Linux"), "not Linux: the arena allocates");
    assertTrue(NativePages.mapped(), "the test JVM enables native access (pom.xml argLine): mmap must be linked");
  }

  @Test
  void largeBuffersAreZeroWritableAndUnmappedWithTheirArena() {
    long size = NativePages.MIN + 12_345;
    MemorySegment seg;
    try (Arena a = Arena.ofShared()) {
      seg = NativePages.allocate(size, a);
      assertEquals(size, seg.byteSize());
      assertTrue(seg.isNative());
      assertEquals(0, seg.address() % 16);
      try (Arena z = Arena.ofConfined()) {
        assertEquals(-1, seg.mismatch(z.allocate(size)), "zero-filled");
      }
      seg.set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
      seg.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 2);
      assertEquals(2, seg.get(ValueLayout.JAVA_BYTE, size - 1));
    }
    assertFalse(seg.scope().isAlive());
    MemorySegment closed = seg;
    assertThrows(IllegalStateException.class, () -> closed.get(ValueLayout.JAVA_BYTE, 0));
  }

  @Test
  void smallBuffersComeFromTheArena() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment seg = NativePages.allocate(100, a);
      assertEquals(100, seg.byteSize());
      assertEquals(-1, seg.mismatch(a.allocate(100)));
    }
  }

  @Test
  void largeSectionsInflateAsJavaUtilZipDoes() {
    int size = (int) NativePages.MIN + 777;
    // DWARF-like data (libdeflate's path when installed), and data so repetitive that its ratio is
    // above LIBDEFLATE_MAX_RATIO (the streaming inflater's path, growing its buffer past MIN)
    byte[] words = LibdeflateTest.sample(new Random(11), size);
    byte[] sparse = new byte[size];
    Random r = new Random(12);
    for (int i = 0; i < size; i += 4096) sparse[i] = (byte) r.nextInt(256);
    byte[] z = LibdeflateTest.zlib(sparse);
    assertTrue((long) z.length * SectionDecompressor.LIBDEFLATE_MAX_RATIO < size, "the streaming path: " + z.length);
    for (byte[] data : new byte[][] {words, sparse}) {
      try (Arena a = Arena.ofShared()) {
        ByteView in = new ByteView(a.allocateFrom(ValueLayout.JAVA_BYTE, LibdeflateTest.zlib(data)), 0, ByteOrder.LITTLE_ENDIAN, "test");
        MemorySegment out = SectionDecompressor.decompress(SectionDecompressor.Kind.ZLIB, in, data.length, a, "test", ".debug_info", 0);
        assertArrayEquals(data, out.toArray(ValueLayout.JAVA_BYTE));
      }
    }
  }
}
