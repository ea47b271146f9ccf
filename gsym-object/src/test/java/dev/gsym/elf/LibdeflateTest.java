package dev.gsym.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gsym.GsymFormatException;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The libdeflate fast path of zlib sections: same bytes as java.util.zip, and every stream it does
 * not take exactly (wrong size, corrupt data or checksum, heap memory) is refused so that the
 * streaming inflater reports the error. Skipped where libdeflate.so.0 is not installed.
 */
class LibdeflateTest {
  static byte[] zlib(byte[] data) {
    Deflater d = new Deflater(6);
    d.setInput(data);
    d.finish();
    byte[] buf = new byte[data.length + 1024];
    int n = d.deflate(buf);
    assertTrue(d.finished());
    d.end();
    return Arrays.copyOf(buf, n);
  }

  /** Words from a small alphabet: compresses like DWARF, several times. */
  static byte[] sample(Random r, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) b[i] = (byte) (r.nextInt(8) == 0 ? r.nextInt(256) : 'a' + r.nextInt(6));
    return b;
  }

  @Test
  void inflatesExactlyWhatJavaUtilZipDoes() {
    Tools.check(Libdeflate.available(), "libdeflate.so.0 (Debian package libdeflate0)");
    Random r = new Random(7);
    for (int size : new int[] {1, 2, 100, 65_536, 65_537, 3_000_000}) {
      byte[] data = sample(r, size);
      byte[] z = zlib(data);
      try (Arena a = Arena.ofConfined()) {
        MemorySegment in = a.allocateFrom(ValueLayout.JAVA_BYTE, z);
        MemorySegment out = a.allocate(size);
        assertTrue(Libdeflate.zlibDecompress(in, out), "size " + size);
        assertArrayEquals(data, out.toArray(ValueLayout.JAVA_BYTE), "size " + size);
        // one byte of room too few or too many: refused (the declared size must be exact)
        assertFalse(Libdeflate.zlibDecompress(in, a.allocate(size - 1)), "short " + size);
        assertFalse(Libdeflate.zlibDecompress(in, a.allocate(size + 1)), "long " + size);
      }
    }
  }

  @Test
  void refusesCorruptStreamsAndHeapMemory() {
    Tools.check(Libdeflate.available(), "libdeflate.so.0 (Debian package libdeflate0)");
    byte[] data = sample(new Random(8), 50_000);
    byte[] z = zlib(data);
    try (Arena a = Arena.ofConfined()) {
      for (int at : new int[] {0, 1, z.length / 2, z.length - 1}) { // header, data, Adler-32
        byte[] bad = z.clone();
        bad[at] ^= 0x5a;
        assertFalse(Libdeflate.zlibDecompress(a.allocateFrom(ValueLayout.JAVA_BYTE, bad), a.allocate(data.length)), "flip at " + at);
      }
      byte[] cut = Arrays.copyOf(z, z.length - 5);
      assertFalse(Libdeflate.zlibDecompress(a.allocateFrom(ValueLayout.JAVA_BYTE, cut), a.allocate(data.length)), "truncated");
      assertFalse(Libdeflate.zlibDecompress(MemorySegment.ofArray(z), a.allocate(data.length)), "heap input");
      assertFalse(Libdeflate.zlibDecompress(a.allocateFrom(ValueLayout.JAVA_BYTE, z), MemorySegment.ofArray(new byte[data.length])), "heap output");
    }
  }

  /**
   * SectionDecompressor on native memory: a stream within the up-front ratio (libdeflate when
   * installed) and one far above it (zeros, ~1000:1: the streaming inflater, whose buffer grows with
   * the real output) both inflate to the data.
   */
  @Test
  void bothSidesOfTheRatioGateInflate() {
    byte[] dwarfLike = sample(new Random(9), 400_000);
    byte[] zeros = new byte[2_000_000];
    for (byte[] data : new byte[][] {dwarfLike, zeros}) {
      byte[] z = zlib(data);
      boolean within = data.length <= z.length * SectionDecompressor.LIBDEFLATE_MAX_RATIO;
      assertEquals(data == dwarfLike, within, "ratio " + data.length / z.length);
      try (Arena a = Arena.ofConfined()) {
        dev.gsym.io.ByteView in = new dev.gsym.io.ByteView(a.allocateFrom(ValueLayout.JAVA_BYTE, z), 0,
            java.nio.ByteOrder.LITTLE_ENDIAN, "test");
        MemorySegment out = SectionDecompressor.decompress(SectionDecompressor.Kind.ZLIB, in, data.length, a, "test", ".debug_info", 0);
        assertArrayEquals(data, out.toArray(ValueLayout.JAVA_BYTE));
      }
    }
  }

  /** A mapped golden (native memory: libdeflate) and the same bytes on the heap (java.util.zip). */
  @Test
  void mappedAndHeapInputsInflateAlike() throws IOException {
    for (String name : new String[] {"c-clang-O2-gz-zlib", "c-gcc-O2-zdebug"}) {
      byte[] bytes = java.nio.file.Files.readAllBytes(dev.gsym.testing.TestData.path("bin", name));
      try (ElfFile mapped = ElfFile.open(dev.gsym.testing.TestData.path("bin", name))) {
        ElfFile heap = ElfFile.of(bytes, name);
        int n = 0;
        for (ElfFile.Section s : heap.sections()) {
          boolean compressed = (s.flags() & ElfFile.SHF_COMPRESSED) != 0 || s.name().startsWith(".zdebug");
          if (!compressed) continue;
          assertArrayEquals(bytesOf(heap.data(s)), bytesOf(mapped.data(mapped.section(s.name()))),
              name + " " + s.name());
          n++;
        }
        assertTrue(n >= 4, name + ": compressed sections " + n);
      }
    }
  }

  /** Corrupt data in a mapped file: libdeflate refuses it and the message is java.util.zip's, as on the heap. */
  @Test
  void corruptMappedSectionGivesTheStreamingError(@TempDir Path dir) throws IOException {
    byte[] bytes = java.nio.file.Files.readAllBytes(dev.gsym.testing.TestData.path("bin", "c-clang-O2-gz-zlib"));
    ElfFile.Section info = ElfFile.of(bytes, "x").section(".debug_info");
    int mid = (int) (info.offset() + 24 + (info.size() - 24) / 2);
    bytes[mid] ^= (byte) 0xff;
    bytes[mid + 1] ^= (byte) 0x55;
    Path p = dir.resolve("bad");
    Files.write(p, bytes);
    GsymFormatException heap = assertThrows(GsymFormatException.class, () -> ElfFile.of(bytes, p.toString()).data(".debug_info"));
    try (ElfFile mapped = ElfFile.open(p)) {
      GsymFormatException fromMapped = assertThrows(GsymFormatException.class, () -> mapped.data(".debug_info"));
      assertEquals(heap.getMessage(), fromMapped.getMessage());
    }
  }

  private static byte[] bytesOf(dev.gsym.io.ByteView v) {
    return v.bytes(0, (int) v.size());
  }
}
