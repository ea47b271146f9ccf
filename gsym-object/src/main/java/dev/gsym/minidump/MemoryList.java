package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MINIDUMP_MEMORY_LIST}: a u32 count (optionally 4 bytes of padding), then that many
 * {@link MemoryDescriptor}s. Checked as Breakpad checks it: the size matches the count, at most
 * {@link #MAX_REGIONS} regions, none empty or past 2^64, none overlapping another. A region whose
 * bytes are not in the file stays in the list without bytes (Breakpad fails only reads of it).
 */
public record MemoryList(List<MemoryDescriptor> descriptors, List<MemoryRegion> regions) {
  /** Most regions Breakpad reads. */
  public static final int MAX_REGIONS = 4096;

  /** Copies the lists. */
  public MemoryList {
    descriptors = List.copyOf(descriptors);
    regions = List.copyOf(regions);
  }

  static MemoryList read(Minidump dump, DirectoryEntry e) {
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "memory list");
    long count = ThreadList.countedList(dump, b, MemoryDescriptor.SIZE, "memory list");
    if (count > MAX_REGIONS) throw dump.error(b.fileOffset(), "memory list of " + count + " regions, more than " + MAX_REGIONS);
    long first = b.size() - count * MemoryDescriptor.SIZE;
    List<MemoryDescriptor> descriptors = new ArrayList<>((int) count);
    List<MemoryRegion> regions = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long at = first + (long) i * MemoryDescriptor.SIZE;
      MemoryDescriptor d = new MemoryDescriptor(b.u64(at), new Location(b.u32(at + 8), b.u32(at + 12)));
      if (d.size() == 0 || d.overflows()) {
        throw dump.error(b.fileOffset() + at, "memory list region " + i + ": bad range 0x" + Long.toHexString(d.start()) + "+0x"
            + Long.toHexString(d.size()));
      }
      descriptors.add(d);
      regions.add(MemoryRegion.lenient(dump, d));
    }
    MinidumpMemory.checkDisjoint(dump, regions, b.fileOffset(), "memory list");
    return new MemoryList(descriptors, regions);
  }
}
