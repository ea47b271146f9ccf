package dev.gsym.minidump;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code MD_LINUX_PROC_STATUS}: the crashed process's {@code /proc/PID/status} ({@code Name:},
 * {@code Pid:}, {@code PPid:}, {@code VmRSS:}, ...).
 *
 * @param text the stream's bytes
 * @param fields the {@code name: value} lines, in order
 */
public record LinuxProcStatus(byte[] text, Map<String, String> fields) {
  /** Copies the lists. */
  public LinuxProcStatus {
    text = text.clone();
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  /** A copy of the stream's bytes. */
  @Override
  public byte[] text() {
    return text.clone();
  }

  /** Equal when the stream's bytes are (everything else is read from them). */
  @Override
  public boolean equals(Object o) {
    return o instanceof LinuxProcStatus other && java.util.Arrays.equals(other.text, text);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(text);
  }

  static LinuxProcStatus read(Minidump dump, DirectoryEntry e) {
    byte[] text = LinuxText.bytes(dump, e, "Linux proc status stream");
    return new LinuxProcStatus(text, LinuxText.fields(text, ':'));
  }

  /** The process id ({@code Pid:}), or -1. */
  public long pid() {
    try {
      return Long.parseLong(fields.getOrDefault("Pid", "-1"));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
