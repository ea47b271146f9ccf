package dev.gsym.minidump;

import java.util.List;

/**
 * {@code MD_LINUX_ENVIRON}: the crashed process's {@code /proc/PID/environ}, {@code NAME=value}
 * entries each followed by a NUL.
 */
public record LinuxEnviron(byte[] text, List<String> entries) {
  public LinuxEnviron {
    entries = List.copyOf(entries);
  }

  static LinuxEnviron read(Minidump dump, DirectoryEntry e) {
    byte[] text = LinuxText.bytes(dump, e, "Linux environ stream");
    return new LinuxEnviron(text, LinuxText.split(text, (byte) 0));
  }

  /** The value of the first {@code name=} entry, or null. */
  public String get(String name) {
    for (String s : entries) if (s.startsWith(name + "=")) return s.substring(name.length() + 1);
    return null;
  }
}
