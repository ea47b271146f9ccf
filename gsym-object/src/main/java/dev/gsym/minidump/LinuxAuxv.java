package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MD_LINUX_AUXV}: the crashed process's {@code /proc/PID/auxv}, the auxiliary vector the
 * kernel gave it: (type, value) pairs of the process's word size (4 or 8 bytes, from the system
 * info's CPU), ending with {@code AT_NULL}. The stream must hold whole pairs.
 */
public record LinuxAuxv(int wordSize, List<Entry> entries) {
  public static final int AT_NULL = 0;
  public static final int AT_PHDR = 3;
  public static final int AT_PHNUM = 5;
  public static final int AT_PAGESZ = 6;
  public static final int AT_BASE = 7;
  public static final int AT_ENTRY = 9;
  public static final int AT_SYSINFO_EHDR = 33;

  /** Copies the lists. */
  public LinuxAuxv {
    entries = List.copyOf(entries);
  }

  /** One entry: its type ({@code AT_*}) and value. */
  public record Entry(long type, long value) {}

  static LinuxAuxv read(Minidump dump, DirectoryEntry e) {
    SystemInfo system = dump.systemInfoOrNull();
    int word = system == null ? 0 : system.pointerSize();
    if (word == 0) throw dump.error(e.offset(), "Linux auxv stream: the word size is unknown without a system info of a known CPU");
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "Linux auxv stream");
    if (b.size() % (2L * word) != 0) {
      throw dump.error(b.fileOffset(), "Linux auxv stream of " + b.size() + " bytes does not hold whole " + 2 * word + "-byte entries");
    }
    List<Entry> entries = new ArrayList<>();
    for (long at = 0; at < b.size(); at += 2L * word) entries.add(new Entry(b.uN(at, word), b.uN(at + word, word)));
    return new LinuxAuxv(word, entries);
  }

  /** The value of the first entry of {@code type}, or -1 when there is none. */
  public long get(long type) {
    for (Entry e : entries) if (e.type() == type) return e.value();
    return -1;
  }
}
