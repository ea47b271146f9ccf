package dev.gsym.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Makes a dSYM larger than 4 GB out of a small one, cheaply: a sparse copy of a 64-bit
 * little-endian Mach-O whose {@code __DWARF} segment (the last thing in a dsymutil file) is moved to
 * file offset {@code at}, its sections' 32-bit {@code offset} fields truncated as dsymutil
 * {@code --allow-section-header-offset-overflow} writes them. Only the headers and the segment's
 * bytes are written (a few KB); the hole before the segment costs no disk space.
 */
public final class LargeDsym {
  private static final int LC_SEGMENT_64 = 0x19;

  private LargeDsym() {}

  /** Where the {@code __DWARF} segment of {@code macho} starts and what it holds, as stored. */
  public record Segment(long commandOffset, long fileoff, long filesize, int nsects, long[] sectionOffsets, long[] sectionSizes) {
    /** The stored file offset of the section header {@code i} (its {@code section_64}). */
    public long sectionHeader(int i) {
      return commandOffset + 72 + 80L * i;
    }
  }

  /** The {@code __DWARF} segment of a 64-bit little-endian Mach-O. */
  public static Segment dwarfSegment(byte[] macho) {
    ByteBuffer b = ByteBuffer.wrap(macho).order(ByteOrder.LITTLE_ENDIAN);
    if (b.getInt(0) != 0xfeedfacf) throw new IllegalArgumentException("not a 64-bit little-endian Mach-O");
    int ncmds = b.getInt(16);
    int at = 32;
    for (int i = 0; i < ncmds; i++) {
      int cmd = b.getInt(at), size = b.getInt(at + 4);
      if (cmd == LC_SEGMENT_64 && new String(macho, at + 8, 7, java.nio.charset.StandardCharsets.ISO_8859_1).equals("__DWARF")) {
        int nsects = b.getInt(at + 64);
        long[] offsets = new long[nsects], sizes = new long[nsects];
        for (int j = 0; j < nsects; j++) {
          int s = at + 72 + 80 * j;
          sizes[j] = b.getLong(s + 40);
          offsets[j] = Integer.toUnsignedLong(b.getInt(s + 48));
        }
        return new Segment(at, b.getLong(at + 40), b.getLong(at + 48), nsects, offsets, sizes);
      }
      at += size;
    }
    throw new IllegalArgumentException("no __DWARF segment");
  }

  /**
   * Writes {@code out}: {@code macho} with its {@code __DWARF} segment at {@code at} (sparse before
   * it) and section offsets stored modulo 2^32; then swaps the headers of sections {@code swap[0]}
   * and {@code swap[1]} if given (offsets no longer in file order). Returns {@code out}.
   */
  public static Path write(byte[] macho, long at, Path out, int... swap) throws IOException {
    Segment seg = dwarfSegment(macho);
    if (seg.fileoff() + seg.filesize() != macho.length) throw new IllegalArgumentException("__DWARF is not last in the file");
    byte[] head = Arrays.copyOf(macho, (int) seg.fileoff());
    ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
    h.putLong((int) seg.commandOffset() + 40, at);
    for (int j = 0; j < seg.nsects(); j++) {
      h.putInt((int) seg.sectionHeader(j) + 48, (int) (at + seg.sectionOffsets()[j] - seg.fileoff()));
    }
    if (swap.length == 2) {
      int a = (int) seg.sectionHeader(swap[0]), b = (int) seg.sectionHeader(swap[1]);
      byte[] t = Arrays.copyOfRange(head, a, a + 80);
      System.arraycopy(head, b, head, a, 80);
      System.arraycopy(t, 0, head, b, 80);
    }
    Files.deleteIfExists(out);
    try (RandomAccessFile f = new RandomAccessFile(out.toFile(), "rw")) {
      f.write(head);
      f.seek(at);
      f.write(macho, (int) seg.fileoff(), (int) seg.filesize());
    }
    return out;
  }
}
