package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MINIDUMP_UNLOADED_MODULE_LIST}: a header (u32 size_of_header, u32 size_of_entry, u32
 * number_of_entries; a longer header is skipped), then the entries ({@link UnloadedModule}, each
 * {@code size_of_entry} bytes). Checked as Breakpad checks it: the stream's size is the header's
 * plus the entries', at most {@link #MAX_MODULES} entries, no empty range or one past 2^64, every
 * name readable.
 */
public record UnloadedModuleList(List<UnloadedModule> modules) {
  /** Most entries Breakpad reads. */
  public static final int MAX_MODULES = 2048;

  /** Copies the lists. */
  public UnloadedModuleList {
    modules = List.copyOf(modules);
  }

  static UnloadedModuleList read(Minidump dump, DirectoryEntry e) {
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "unloaded module list");
    if (b.size() < 12) throw dump.error(b.fileOffset(), "unloaded module list of " + b.size() + " bytes has no header");
    long headerSize = b.u32(0);
    long entrySize = b.u32(4);
    long count = b.u32(8);
    if (headerSize < 12) throw dump.error(b.fileOffset(), "unloaded module list header of " + headerSize + " bytes, less than 12");
    if (entrySize < UnloadedModule.SIZE) {
      throw dump.error(b.fileOffset() + 4, "unloaded module entries of " + entrySize + " bytes, less than " + UnloadedModule.SIZE);
    }
    if (b.size() != headerSize + entrySize * count) {
      throw dump.error(b.fileOffset(), "unloaded module list: header " + headerSize + " + " + count + " entries of " + entrySize
          + " bytes is not the stream's size " + b.size());
    }
    if (count > MAX_MODULES) throw dump.error(b.fileOffset() + 8, "unloaded module list of " + count + " entries, more than " + MAX_MODULES);
    List<UnloadedModule> modules = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long at = headerSize + entrySize * i;
      long base = b.u64(at);
      long size = b.u32(at + 8);
      if (size == 0 || Long.compareUnsigned(size, -1L - base) > 0) {
        throw dump.error(b.fileOffset() + at, "unloaded module " + i + ": bad range 0x" + Long.toHexString(base) + "+0x"
            + Long.toHexString(size));
      }
      long nameRva = b.u32(at + 20);
      modules.add(new UnloadedModule(base, size, b.u32(at + 12), b.u32(at + 16), nameRva,
          dump.string(nameRva, b.fileOffset() + at + 20, "unloaded module " + i + " name")));
    }
    return new UnloadedModuleList(modules);
  }
}
