package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MINIDUMP_MEMORY64_LIST}, the memory of full-memory dumps: the ranges' bytes follow one
 * another in the file from one base RVA.
 *
 * <pre>
 *   0  u64 number_of_memory_ranges
 *   8  u64 base_rva
 *  16  MINIDUMP_MEMORY_DESCRIPTOR64 memory_ranges[]: u64 start_of_memory_range, u64 data_size
 * </pre>
 *
 * Checked: the stream's size matches the count, no range past 2^64, all bytes in the file, no
 * overlaps. Breakpad's processor does not read this stream.
 *
 * @param descriptors the ranges, each with the file offset its bytes start at
 */
public record Memory64List(long baseRva, List<MemoryDescriptor> descriptors, List<MemoryRegion> regions) {
  /** Copies the lists. */
  public Memory64List {
    descriptors = List.copyOf(descriptors);
    regions = List.copyOf(regions);
  }

  static Memory64List read(Minidump dump, DirectoryEntry e) {
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "memory64 list");
    if (b.size() < 16) throw dump.error(b.fileOffset(), "memory64 list of " + b.size() + " bytes has no header");
    long count = b.u64(0);
    long base = b.u64(8);
    if (Long.compareUnsigned(count, (b.size() - 16) / 16) > 0 || b.size() != 16 + count * 16) {
      throw dump.error(b.fileOffset(), "memory64 list of " + Long.toUnsignedString(count) + " ranges does not fit its " + b.size()
          + "-byte stream");
    }
    List<MemoryDescriptor> descriptors = new ArrayList<>((int) count);
    List<MemoryRegion> regions = new ArrayList<>((int) count);
    long rva = base;
    for (int i = 0; i < count; i++) {
      long at = 16 + 16L * i;
      long start = b.u64(at);
      long size = b.u64(at + 8);
      MemoryDescriptor d = new MemoryDescriptor(start, new Location(size, rva));
      if (size == 0 || d.overflows()) {
        throw dump.error(b.fileOffset() + at, "memory64 range " + i + ": bad range 0x" + Long.toHexString(start) + "+0x"
            + Long.toHexString(size));
      }
      if (Long.compareUnsigned(rva, dump.size()) > 0 || Long.compareUnsigned(size, dump.size() - rva) > 0) {
        throw dump.error(b.fileOffset() + at + 8, "memory64 range " + i + ": " + Long.toUnsignedString(size) + " bytes at 0x"
            + Long.toHexString(rva) + " extend past the end of the file (" + dump.size() + " bytes)");
      }
      descriptors.add(d);
      regions.add(new MemoryRegion(start, size, rva, dump.file().slice(rva, size)));
      rva += size;
    }
    MinidumpMemory.checkDisjoint(dump, regions, b.fileOffset(), "memory64 list");
    return new Memory64List(base, descriptors, regions);
  }
}
