package dev.gsym.minidump;

import java.util.List;

/**
 * {@code MD_LINUX_CMD_LINE}: the crashed process's {@code /proc/PID/cmdline}, its arguments each
 * followed by a NUL.
 */
public record LinuxCmdLine(byte[] text, List<String> arguments) {
  /** Copies the lists. */
  public LinuxCmdLine {
    text = text.clone();
    arguments = List.copyOf(arguments);
  }

  /** A copy of the stream's bytes. */
  @Override
  public byte[] text() {
    return text.clone();
  }

  /** Equal when the stream's bytes are (everything else is read from them). */
  @Override
  public boolean equals(Object o) {
    return o instanceof LinuxCmdLine other && java.util.Arrays.equals(other.text, text);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(text);
  }

  static LinuxCmdLine read(Minidump dump, DirectoryEntry e) {
    byte[] text = LinuxText.bytes(dump, e, "Linux cmdline stream");
    return new LinuxCmdLine(text, LinuxText.split(text, (byte) 0));
  }
}
