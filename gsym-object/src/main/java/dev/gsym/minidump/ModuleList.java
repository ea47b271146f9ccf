package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MINIDUMP_MODULE_LIST}: a u32 count (optionally 4 bytes of padding), then that many
 * 108-byte {@link MinidumpModule}s. Checked as Breakpad checks it: the size matches the count, no
 * module has a size of 0 or a range past 2^64, every name reads. A CodeView or misc record that
 * cannot be read leaves its module without debug information rather than failing the list.
 * Overlapping modules are not refused here: how an address finds its module is the stack walker's
 * rule (Breakpad's depends on the system). Breakpad's stack walker reads at most {@link
 * #MAX_MODULES} modules (its minidump_dump any number).
 */
public record ModuleList(List<MinidumpModule> modules) {
  /** Most modules minidump_stackwalk reads. */
  public static final int MAX_MODULES = 2048;

  /** Copies the lists. */
  public ModuleList {
    modules = List.copyOf(modules);
  }

  static ModuleList read(Minidump dump, DirectoryEntry e) {
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "module list");
    long count = ThreadList.countedList(dump, b, MinidumpModule.SIZE, "module list");
    long first = b.size() - count * MinidumpModule.SIZE;
    SystemInfo system = dump.systemInfoOrNull();
    long platform = system == null ? -1 : system.platformId();
    List<MinidumpModule> modules = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long at = first + (long) i * MinidumpModule.SIZE;
      long abs = b.fileOffset() + at;
      long base = b.u64(at);
      long size = b.u32(at + 8);
      if (size == 0 || Long.compareUnsigned(size, -1L - base) > 0) {
        throw dump.error(abs, "module " + i + ": bad range 0x" + Long.toHexString(base) + "+0x" + Long.toHexString(size));
      }
      long nameRva = b.u32(at + 20);
      String name = dump.string(nameRva, abs + 20, "module " + i + " name");
      Location cv = new Location(b.u32(at + 76), b.u32(at + 80));
      Location misc = new Location(b.u32(at + 84), b.u32(at + 88));
      CodeViewRecord cvRecord = CodeViewRecord.read(dump, cv);
      MiscDebugRecord miscRecord = MiscDebugRecord.read(dump, misc);
      boolean debugInfo = (cv.dataSize() == 0 || cvRecord != null) && (misc.dataSize() == 0 || miscRecord != null);
      List<Long> reserved = List.of(b.u32(at + 92), b.u32(at + 96), b.u32(at + 100), b.u32(at + 104));
      modules.add(new MinidumpModule(abs, base, size, b.u32(at + 12), b.u32(at + 16), nameRva, VersionInfo.read(b, at + 24), cv,
          misc, reserved, name, cvRecord, miscRecord, debugInfo, platform));
    }
    return new ModuleList(modules);
  }

  /** The module whose range holds {@code address} (the first listed), or null. */
  public MinidumpModule moduleAt(long address) {
    for (MinidumpModule m : modules) if (m.contains(address)) return m;
    return null;
  }

  /** The main module: the first of the list. */
  public MinidumpModule main() {
    return modules.isEmpty() ? null : modules.getFirst();
  }
}
