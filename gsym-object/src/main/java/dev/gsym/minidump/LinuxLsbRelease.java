package dev.gsym.minidump;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code MD_LINUX_LSB_RELEASE}: the system's {@code /etc/lsb-release} ({@code DISTRIB_ID=...}) or,
 * from newer writers, {@code /etc/os-release}.
 *
 * @param fields the {@code NAME=value} lines, in order (values as written, quotes kept)
 */
public record LinuxLsbRelease(byte[] text, Map<String, String> fields) {
  /** Copies the lists. */
  public LinuxLsbRelease {
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
    return o instanceof LinuxLsbRelease other && java.util.Arrays.equals(other.text, text);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(text);
  }

  static LinuxLsbRelease read(Minidump dump, DirectoryEntry e) {
    byte[] text = LinuxText.bytes(dump, e, "Linux lsb-release stream");
    return new LinuxLsbRelease(text, LinuxText.fields(text, '='));
  }
}
