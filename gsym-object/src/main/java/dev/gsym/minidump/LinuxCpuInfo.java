package dev.gsym.minidump;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code MD_LINUX_CPU_INFO}: the system's {@code /proc/cpuinfo}: blocks of {@code name : value}
 * lines separated by blank lines, one block per processor.
 */
public record LinuxCpuInfo(byte[] text, List<Map<String, String>> processors) {
  /** Copies the lists. */
  public LinuxCpuInfo {
    text = text.clone();
    List<Map<String, String>> copy = new ArrayList<>();
    for (Map<String, String> p : processors) copy.add(Collections.unmodifiableMap(new LinkedHashMap<>(p)));
    processors = List.copyOf(copy);
  }

  /** A copy of the stream's bytes. */
  @Override
  public byte[] text() {
    return text.clone();
  }

  /** Equal when the stream's bytes are (everything else is read from them). */
  @Override
  public boolean equals(Object o) {
    return o instanceof LinuxCpuInfo other && java.util.Arrays.equals(other.text, text);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(text);
  }

  static LinuxCpuInfo read(Minidump dump, DirectoryEntry e) {
    byte[] text = LinuxText.bytes(dump, e, "Linux cpuinfo stream");
    List<Map<String, String>> blocks = new ArrayList<>();
    Map<String, String> current = new LinkedHashMap<>();
    for (String line : LinuxText.split(text, (byte) '\n')) {
      if (line.isBlank()) {
        if (!current.isEmpty()) blocks.add(current);
        current = new LinkedHashMap<>();
        continue;
      }
      int i = line.indexOf(':');
      if (i >= 0) current.putIfAbsent(line.substring(0, i).strip(), line.substring(i + 1).strip());
    }
    if (!current.isEmpty()) blocks.add(current);
    return new LinuxCpuInfo(text, blocks);
  }
}
