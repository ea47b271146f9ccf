package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MD_LINUX_DSO_DEBUG}: the dynamic linker's {@code r_debug} (its list of loaded objects,
 * {@code MDRawDebug32/64}), followed by the executable's dynamic section, as Breakpad's Linux
 * writer copies them. The layout follows the process's word size (from the system info's CPU):
 *
 * <pre>
 * 64-bit: u32 version, u32 map (RVA of the link maps), u32 dso_count, u32 padding,
 *         u64 brk, u64 ldbase, u64 dynamic                                   (40 bytes)
 *         link map: u64 addr, u32 name (MINIDUMP_STRING RVA), u32 padding, u64 ld   (24 bytes)
 * 32-bit: u32 version, map, dso_count, brk, ldbase, dynamic                   (24 bytes)
 *         link map: u32 addr, u32 name, u32 ld                               (12 bytes)
 * then:   the dynamic section, (tag, value) words up to and including DT_NULL
 * </pre>
 */
public record LinuxDsoDebug(int wordSize, long version, long map, long dsoCount, long brk, long ldbase, long dynamic,
    List<LinkMap> linkMaps, List<DynamicEntry> dynamicSection) {
  /** Copies the lists. */
  public LinuxDsoDebug {
    linkMaps = List.copyOf(linkMaps);
    dynamicSection = List.copyOf(dynamicSection);
  }

  /** One loaded object: its load bias ({@code l_addr}), path and dynamic section address ({@code l_ld}). */
  public record LinkMap(long addr, long nameRva, String name, long ld) {}

  /** One entry of the dynamic section. */
  public record DynamicEntry(long tag, long value) {}

  static LinuxDsoDebug read(Minidump dump, DirectoryEntry e) {
    SystemInfo system = dump.systemInfoOrNull();
    int word = system == null ? 0 : system.pointerSize();
    if (word == 0) throw dump.error(e.offset(), "Linux DSO debug stream: the word size is unknown without a system info of a known CPU");
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "Linux DSO debug stream");
    int header = word == 8 ? 40 : 24;
    if (b.size() < header || (b.size() - header) % (2L * word) != 0) {
      throw dump.error(b.fileOffset(), "Linux DSO debug stream of " + b.size() + " bytes is not a " + header
          + "-byte header and whole dynamic entries");
    }
    long version = b.u32(0);
    long map = b.u32(4);
    long count = b.u32(8);
    long brk = word == 8 ? b.u64(16) : b.u32(12);
    long ldbase = word == 8 ? b.u64(24) : b.u32(16);
    long dynamic = word == 8 ? b.u64(32) : b.u32(20);
    List<LinkMap> maps = new ArrayList<>();
    if (count > 0) {
      int entry = word == 8 ? 24 : 12;
      ByteView file = dump.file();
      if (!file.has(map, count * entry)) {
        throw dump.error(b.fileOffset() + 4, "Linux DSO debug: " + count + " link maps at 0x" + Long.toHexString(map)
            + " extend past the end of the file");
      }
      for (int i = 0; i < count; i++) {
        long at = map + (long) i * entry;
        long addr = file.uN(at, word);
        long name = file.u32(at + word);
        long ld = word == 8 ? file.u64(at + 16) : file.u32(at + 8);
        maps.add(new LinkMap(addr, name, dump.string(name, at + word, "Linux DSO debug link map " + i + " name"), ld));
      }
    }
    List<DynamicEntry> dyn = new ArrayList<>();
    for (long at = header; at < b.size(); at += 2L * word) dyn.add(new DynamicEntry(b.uN(at, word), b.uN(at + word, word)));
    return new LinuxDsoDebug(word, version, map, count, brk, ldbase, dynamic, maps, dyn);
  }
}
