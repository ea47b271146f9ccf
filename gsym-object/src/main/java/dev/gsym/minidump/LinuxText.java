package dev.gsym.minidump;

import dev.gsym.ByteStrings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The splitting the Linux text streams share. */
final class LinuxText {
  private LinuxText() {}

  /** The stream's bytes (every byte of it; the text streams are copies of small /proc files). */
  static byte[] bytes(Minidump dump, DirectoryEntry e, String what) {
    var b = dump.bytes(e.location(), e.offset() + 4, what);
    if (b.size() > Integer.MAX_VALUE - 16) throw dump.error(e.offset() + 4, what + " of " + b.size() + " bytes is too large");
    return b.bytes(0, (int) b.size());
  }

  /** The pieces between {@code separator} bytes; a trailing separator ends the last piece. */
  static List<String> split(byte[] text, byte separator) {
    List<String> out = new ArrayList<>();
    int from = 0;
    for (int i = 0; i < text.length; i++) {
      if (text[i] == separator) {
        out.add(ByteStrings.decode(text, from, i - from));
        from = i + 1;
      }
    }
    if (from < text.length) out.add(ByteStrings.decode(text, from, text.length - from));
    return out;
  }

  /**
   * {@code name SEP value} lines: the name before the first {@code separator}, the value after it,
   * both without surrounding blanks; lines without the separator are skipped; the first of a name
   * counts.
   */
  static Map<String, String> fields(byte[] text, char separator) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : split(text, (byte) '\n')) {
      int i = line.indexOf(separator);
      if (i < 0) continue;
      out.putIfAbsent(line.substring(0, i).strip(), line.substring(i + 1).strip());
    }
    return out;
  }
}
