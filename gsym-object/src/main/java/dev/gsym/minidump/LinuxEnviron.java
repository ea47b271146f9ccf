package dev.gsym.minidump;

import java.util.List;

/**
 * {@code MD_LINUX_ENVIRON}: the crashed process's {@code /proc/PID/environ}, {@code NAME=value}
 * entries each followed by a NUL.
 */
public record LinuxEnviron(byte[] text, List<String> entries) {
  /** Copies the lists. */
  public LinuxEnviron {
    text = text.clone();
    entries = List.copyOf(entries);
  }

  /** A copy of the stream's bytes. */
  @Override
  public byte[] text() {
    return text.clone();
  }

  /** Equal when the stream's bytes are (everything else is read from them). */
  @Override
  public boolean equals(Object o) {
    return o instanceof LinuxEnviron other && java.util.Arrays.equals(other.text, text);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(text);
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
