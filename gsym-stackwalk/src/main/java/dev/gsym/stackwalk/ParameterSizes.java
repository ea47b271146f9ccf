package dev.gsym.stackwalk;

import dev.gsym.GsymFormatException;
import dev.gsym.breakpad.BreakpadParser;
import dev.gsym.breakpad.BreakpadRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The parameter sizes of an x86 module's FUNC records, which the x86 walker reads as Windows frame
 * data where no {@code STACK WIN} record covers an address (Breakpad's {@code FindWindowsFrameInfo})
 * and a GSYM has no place for: the FUNC ranges Breakpad's function map keeps (empty and overlapping
 * ones refused, the first of overlapping ones kept), sorted, with their sizes. Kept beside the
 * module's GSYM as a small binary file: {@code "GSPS"}, u32 count, then count x (u64 start, u64
 * size, u32 parameter size), little-endian.
 */
final class ParameterSizes {
  private static final int MAGIC = 0x53505347; // "GSPS"
  /** Most entries a file may announce: as many as 2^24 FUNC records (hostile files cost no memory). */
  private static final int MAX_ENTRIES = 1 << 24;

  private final long[] starts;
  private final long[] sizes;
  private final int[] params;

  private ParameterSizes(long[] starts, long[] sizes, int[] params) {
    this.starts = starts;
    this.sizes = sizes;
    this.params = params;
  }

  /** The parameter size of the FUNC holding {@code offset}, or -1 when none does. */
  long at(long offset) {
    int lo = 0;
    int hi = starts.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(starts[mid], offset) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (found < 0 || Long.compareUnsigned(offset - starts[found], sizes[found]) >= 0) return -1;
    return Integer.toUnsignedLong(params[found]);
  }

  /**
   * The FUNC parameter sizes of the symbol file {@code sym} when its MODULE record names an x86
   * module, else null. Bad records are skipped (as the conversion skips them).
   */
  static ParameterSizes read(Path sym) throws IOException {
    RangeMap<Long> funcs = new RangeMap<>(RangeMap.Merge.EXCLUSIVE);
    try (BreakpadParser p = BreakpadParser.open(sym)) {
      boolean first = true;
      while (true) {
        BreakpadRecord r;
        try {
          r = p.next();
        } catch (GsymFormatException e) {
          continue;
        }
        if (r == null) break;
        if (first && !(r instanceof BreakpadRecord.Module m && m.arch().equals("x86"))) return null;
        first = false;
        if (r instanceof BreakpadRecord.Func f) funcs.store(f.address(), f.size(), f.parameterSize());
      }
    }
    if (funcs.size() == 0) return null;
    List<RangeMap.Range<Long>> ranges = funcs.ranges();
    long[] starts = new long[ranges.size()];
    long[] sizes = new long[ranges.size()];
    int[] params = new int[ranges.size()];
    for (int i = 0; i < starts.length; i++) {
      RangeMap.Range<Long> r = ranges.get(i);
      starts[i] = r.base();
      sizes[i] = r.size();
      params[i] = (int) (long) r.value();
    }
    return new ParameterSizes(starts, sizes, params);
  }

  byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(8 + starts.length * 20).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(MAGIC).putInt(starts.length);
    for (int i = 0; i < starts.length; i++) b.putLong(starts[i]).putLong(sizes[i]).putInt(params[i]);
    return b.array();
  }

  /** Reads a file {@link #encode()} wrote; null when it is not one (the cache entry is then made again). */
  static ParameterSizes load(Path file) throws IOException {
    long size = Files.size(file);
    if (size < 8 || size > 8 + (long) MAX_ENTRIES * 20) return null;
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    if (b.getInt() != MAGIC) return null;
    int n = b.getInt();
    if (n < 0 || b.remaining() != (long) n * 20) return null;
    long[] starts = new long[n];
    long[] sizes = new long[n];
    int[] params = new int[n];
    for (int i = 0; i < n; i++) {
      starts[i] = b.getLong();
      sizes[i] = b.getLong();
      params[i] = b.getInt();
      if (i > 0 && Long.compareUnsigned(starts[i], starts[i - 1]) <= 0) return null;
    }
    return new ParameterSizes(starts, sizes, params);
  }
}
