package dev.gsym.elf;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import io.airlift.compress.v3.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.tukaani.xz.XZInputStream;

/**
 * Inflates compressed ELF sections (SHF_COMPRESSED zlib/zstd, GNU {@code .zdebug_*}, xz
 * {@code .gnu_debugdata}) into off-heap memory owned by an {@link Arena}. This is the only place
 * section bytes are copied. Output grows as the stream really inflates (never more than twice what
 * was produced), so a hostile declared size cannot force a huge allocation; the final size must
 * equal the declared one.
 */
final class SectionDecompressor {
  static final int ELFCOMPRESS_ZLIB = 1;
  static final int ELFCOMPRESS_ZSTD = 2;
  /**
   * Largest declared/compressed ratio for which the whole declared size is allocated up front for
   * libdeflate (DWARF inflates 2-8 times; the streaming path's first allocation has the same bound);
   * above it only the streaming inflater's gradual growth is trusted with a hostile size.
   */
  static final long LIBDEFLATE_MAX_RATIO = 16;
  /** Largest first allocation before any byte has been produced. */
  private static final long FIRST_CHUNK_MAX = 1L << 20;

  private SectionDecompressor() {}

  /** The kinds of compressed payloads. */
  enum Kind {
    ZLIB, ZSTD, XZ
  }

  /**
   * Decompresses {@code in} (a slice of the file) into a new segment of {@code arena}.
   *
   * @param declared the size the header promises, or -1 if unknown (xz)
   * @param what section name for messages
   * @param where file offset of the section for messages
   */
  static MemorySegment decompress(Kind kind, ByteView in, long declared, Arena arena, String source, String what, long where) {
    try {
      if (declared < -1) throw new GsymFormatException(source, where, "compressed section " + what + ": bad uncompressed size " + declared);
      if (kind == Kind.ZLIB) return inflate(in, declared, arena, source, what, where);
      InputStream s = kind == Kind.ZSTD ? new ZstdInputStream(new SegmentInputStream(in.segment()))
          : Xz.open(new SegmentInputStream(in.segment()));
      return drain(s, in.size(), declared, arena, source, what, where);
    } catch (GsymFormatException e) {
      throw e;
    } catch (IOException | DataFormatException | RuntimeException | OutOfMemoryError e) {
      throw new GsymFormatException(source, where, "compressed section " + what + ": corrupt " + kind.name().toLowerCase()
          + " data (" + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
    }
  }

  private static long firstChunk(long declared, long compressed) {
    long guess = declared >= 0 ? declared : compressed * 4;
    return Math.max(1, Math.min(guess, Math.max(FIRST_CHUNK_MAX, compressed * 16)));
  }

  /** Grows {@code seg} (content {@code used} bytes) to at least {@code need}, copying. */
  private static MemorySegment grow(MemorySegment seg, long used, long need, long declared, Arena arena) {
    long n = Math.max(need, seg.byteSize() * 2);
    if (declared >= 0) n = Math.min(n, Math.max(declared, need));
    MemorySegment bigger = NativePages.allocate(n, arena);
    MemorySegment.copy(seg, 0, bigger, 0, used);
    return bigger;
  }

  private static MemorySegment inflate(ByteView in, long declared, Arena arena, String source, String what, long where)
      throws DataFormatException {
    if (declared > 0 && declared <= in.size() * LIBDEFLATE_MAX_RATIO && Libdeflate.available()) {
      MemorySegment out = NativePages.allocate(declared, arena);
      if (Libdeflate.zlibDecompress(in.segment(), out)) return out;
      // not a valid stream of exactly that size: the streaming inflater below says what is wrong
    }
    Inflater inf = new Inflater();
    try {
      MemorySegment inSeg = in.segment();
      long inPos = 0;
      MemorySegment out = NativePages.allocate(firstChunk(declared, in.size()), arena);
      long used = 0;
      while (!inf.finished()) {
        if (inf.needsInput()) {
          if (inPos >= inSeg.byteSize()) {
            throw new GsymFormatException(source, where, "compressed section " + what + ": truncated zlib data");
          }
          long n = Math.min(inSeg.byteSize() - inPos, 1 << 30);
          inf.setInput(inSeg.asSlice(inPos, n).asByteBuffer());
          inPos += n;
        }
        if (used == out.byteSize()) {
          if (declared >= 0 && used >= declared) {
            throw new GsymFormatException(source, where, "compressed section " + what + ": inflates to more than the declared " + declared + " bytes");
          }
          out = grow(out, used, used + 1, declared, arena);
        }
        long room = Math.min(out.byteSize() - used, 1 << 30);
        int got = inf.inflate(out.asSlice(used, room).asByteBuffer());
        used += got;
        if (got == 0 && inf.needsDictionary()) {
          throw new GsymFormatException(source, where, "compressed section " + what + ": zlib data needs a preset dictionary");
        }
      }
      return finish(out, used, declared, source, what, where);
    } finally {
      inf.end();
    }
  }

  private static MemorySegment drain(InputStream s, long compressed, long declared, Arena arena, String source, String what, long where)
      throws IOException {
    try (s) {
      MemorySegment out = NativePages.allocate(firstChunk(declared, compressed), arena);
      long used = 0;
      byte[] buf = new byte[1 << 16];
      int n;
      // Without a declared size (xz), stop at a generous multiple of the input.
      long limit = declared >= 0 ? declared : Math.max(64L << 20, compressed * 1024);
      while ((n = s.read(buf)) > 0) {
        if (declared < 0 && used + n > limit) {
          throw new GsymFormatException(source, where, "compressed section " + what + ": inflates to more than " + limit + " bytes");
        }
        if (declared >= 0 && used + n > declared) {
          throw new GsymFormatException(source, where, "compressed section " + what + ": inflates to more than the declared " + declared + " bytes");
        }
        if (used + n > out.byteSize()) out = grow(out, used, used + n, declared, arena);
        MemorySegment.copy(buf, 0, out, ValueLayout.JAVA_BYTE, used, n);
        used += n;
      }
      return finish(out, used, declared, source, what, where);
    }
  }

  private static MemorySegment finish(MemorySegment out, long used, long declared, String source, String what, long where) {
    if (declared >= 0 && used != declared) {
      throw new GsymFormatException(source, where, "compressed section " + what + ": inflates to " + used + " bytes, header says " + declared);
    }
    return out.asSlice(0, used);
  }

  /**
   * Opens xz streams. A class of its own so that verifying {@link SectionDecompressor} does not load
   * xz's classes: the xz jar is sealed, and a JDK 25 AOT cache holding classes of a sealed package
   * fails to load ("sealing violation"), so only runs that really meet xz data load them.
   */
  private static final class Xz {
    static InputStream open(InputStream in) throws IOException {
      return new XZInputStream(in);
    }
  }

  /** An InputStream over a memory segment (no copy of the whole segment). */
  static final class SegmentInputStream extends InputStream {
    private final MemorySegment seg;
    private long pos;

    SegmentInputStream(MemorySegment seg) {
      this.seg = seg;
    }

    @Override
    public int read() {
      return pos < seg.byteSize() ? seg.get(ValueLayout.JAVA_BYTE, pos++) & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) return 0;
      long left = seg.byteSize() - pos;
      if (left <= 0) return -1;
      int n = (int) Math.min(len, left);
      MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, seg.byteSize() - pos);
    }
  }

}
