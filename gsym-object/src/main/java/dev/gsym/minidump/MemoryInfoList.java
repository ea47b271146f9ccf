package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code MINIDUMP_MEMORY_INFO_LIST}: a header (u32 size_of_header = 16, u32 size_of_entry = 48,
 * u64 number_of_entries), then the {@link MemoryInfo} entries. Checked as Breakpad checks it: both
 * sizes exactly, the stream's size matches the count, no region empty or past 2^64, none
 * overlapping another.
 */
public record MemoryInfoList(List<MemoryInfo> infos) {
  /** Bytes in the header. */
  public static final int HEADER_SIZE = 16;

  /** Copies the lists. */
  public MemoryInfoList {
    infos = List.copyOf(infos);
  }

  static MemoryInfoList read(Minidump dump, DirectoryEntry e) {
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "memory info list");
    if (b.size() < HEADER_SIZE) throw dump.error(b.fileOffset(), "memory info list of " + b.size() + " bytes has no header");
    long headerSize = b.u32(0);
    long entrySize = b.u32(4);
    long count = b.u64(8);
    if (headerSize != HEADER_SIZE) throw dump.error(b.fileOffset(), "memory info list header size " + headerSize + ", not 16");
    if (entrySize != MemoryInfo.SIZE) throw dump.error(b.fileOffset() + 4, "memory info list entry size " + entrySize + ", not 48");
    if (Long.compareUnsigned(count, (b.size() - HEADER_SIZE) / MemoryInfo.SIZE) > 0
        || b.size() != HEADER_SIZE + count * MemoryInfo.SIZE) {
      throw dump.error(b.fileOffset() + 8, "memory info list of " + Long.toUnsignedString(count) + " entries does not fit its "
          + b.size() + "-byte stream");
    }
    List<MemoryInfo> infos = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long at = HEADER_SIZE + (long) i * MemoryInfo.SIZE;
      MemoryInfo m = new MemoryInfo(b.u64(at), b.u64(at + 8), b.u32(at + 16), b.u64(at + 24), b.u32(at + 32), b.u32(at + 36),
          b.u32(at + 40));
      if (m.regionSize() == 0 || Long.compareUnsigned(m.regionSize(), -1L - m.baseAddress()) > 0) {
        throw dump.error(b.fileOffset() + at, "memory info " + i + ": bad range 0x" + Long.toHexString(m.baseAddress()) + "+0x"
            + Long.toHexString(m.regionSize()));
      }
      infos.add(m);
    }
    List<MemoryInfo> sorted = new ArrayList<>(infos);
    sorted.sort(Comparator.comparing(MemoryInfo::baseAddress, Long::compareUnsigned));
    for (int i = 1; i < sorted.size(); i++) {
      MemoryInfo a = sorted.get(i - 1);
      if (Long.compareUnsigned(sorted.get(i).baseAddress() - a.baseAddress(), a.regionSize()) < 0) {
        throw dump.error(b.fileOffset(), "memory info list: regions at 0x" + Long.toHexString(a.baseAddress()) + " and 0x"
            + Long.toHexString(sorted.get(i).baseAddress()) + " overlap");
      }
    }
    return new MemoryInfoList(infos);
  }

  /** The entry whose region holds {@code address}, or null. */
  public MemoryInfo infoAt(long address) {
    for (MemoryInfo m : infos) {
      if (Long.compareUnsigned(address - m.baseAddress(), m.regionSize()) < 0) return m;
    }
    return null;
  }
}
