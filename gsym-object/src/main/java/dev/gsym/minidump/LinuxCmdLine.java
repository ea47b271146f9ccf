package dev.gsym.minidump;

import java.util.List;

/**
 * {@code MD_LINUX_CMD_LINE}: the crashed process's {@code /proc/PID/cmdline}, its arguments each
 * followed by a NUL.
 */
public record LinuxCmdLine(byte[] text, List<String> arguments) {
  public LinuxCmdLine {
    arguments = List.copyOf(arguments);
  }

  static LinuxCmdLine read(Minidump dump, DirectoryEntry e) {
    byte[] text = LinuxText.bytes(dump, e, "Linux cmdline stream");
    return new LinuxCmdLine(text, LinuxText.split(text, (byte) 0));
  }
}
