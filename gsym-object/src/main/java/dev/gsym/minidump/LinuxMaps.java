package dev.gsym.minidump;

import dev.gsym.ByteStrings;
import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MD_LINUX_MAPS}: the process's {@code /proc/PID/maps} text, one mapping a line
 * ({@code start-end perms offset major:minor inode path}), parsed as Breakpad's {@code
 * ParseProcMaps}: lines end at {@code \n} or {@code \r} (empty ones skipped), the text must end
 * with one, each line must scan as that format (numbers as {@code sscanf}'s {@code %x}, {@code %d})
 * with permissions of {@code r/-, w/-, x/-, p/s/S}; the path is the rest of the line after the
 * blanks following the inode.
 */
public record LinuxMaps(byte[] text, List<Mapping> mappings) {
  /** Copies the lists. */
  public LinuxMaps {
    text = text.clone();
    mappings = List.copyOf(mappings);
  }

  /** A copy of the stream's bytes. */
  @Override
  public byte[] text() {
    return text.clone();
  }

  /** Equal when the stream's bytes are (everything else is read from them). */
  @Override
  public boolean equals(Object o) {
    return o instanceof LinuxMaps other && java.util.Arrays.equals(other.text, text);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(text);
  }

  /**
   * One mapping.
   *
   * @param permissions the four permission characters
   * @param line the whole line, as Breakpad keeps it
   */
  public record Mapping(long start, long end, String permissions, long offset, int majorDevice, int minorDevice, long inode,
      String path, String line) {
    /** True if the mapping is readable. */
    public boolean readable() {
      return permissions.charAt(0) == 'r';
    }

    /** True if the mapping is writable. */
    public boolean writable() {
      return permissions.charAt(1) == 'w';
    }

    /** True if the mapping is executable. */
    public boolean executable() {
      return permissions.charAt(2) == 'x';
    }

    /** True for a private (copy-on-write) mapping. */
    public boolean isPrivate() {
      return permissions.charAt(3) == 'p';
    }

    /** Whether {@code address} is in {@code [start, end)}. */
    public boolean contains(long address) {
      return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
    }
  }

  static LinuxMaps read(Minidump dump, DirectoryEntry e) {
    byte[] text = LinuxText.bytes(dump, e, "Linux maps stream");
    ByteView b = dump.file().slice(e.location().rva(), text.length);
    List<Mapping> out = new ArrayList<>();
    int lineStart = 0;
    for (int i = 0; i <= text.length; i++) {
      boolean end = i == text.length || text[i] == '\n' || text[i] == '\r';
      if (!end) continue;
      if (i > lineStart) {
        if (i == text.length) throw dump.error(b.fileOffset() + lineStart, "Linux maps: the text does not end with a newline");
        Mapping m = parse(text, lineStart, i);
        if (m == null) throw dump.error(b.fileOffset() + lineStart, "Linux maps: malformed line '" + cLine(text, lineStart, i) + "'");
        out.add(m);
      }
      lineStart = i + 1;
    }
    return new LinuxMaps(text, out);
  }

  /** The line as C sees it (up to a NUL). */
  private static String cLine(byte[] t, int from, int to) {
    int end = from;
    while (end < to && t[end] != 0) end++;
    return ByteStrings.decode(t, from, end - from);
  }

  /** Breakpad's sscanf of one line, or null when it fails. */
  private static Mapping parse(byte[] t, int from, int to) {
    int limit = from;
    while (limit < to && t[limit] != 0) limit++; // sscanf reads a C string
    Scanner s = new Scanner(t, from, limit);
    Long start = s.hex();
    if (start == null || !s.literal('-')) return null;
    Long end = s.hex();
    if (end == null) return null;
    s.blanks();
    String perms = s.chars(4);
    if (perms == null) return null;
    s.blanks();
    Long offset = s.hex();
    if (offset == null) return null;
    s.blanks();
    Long major = s.hex();
    if (major == null || !s.literal(':')) return null;
    Long minor = s.hex();
    if (minor == null) return null;
    s.blanks();
    Long inode = s.decimal();
    if (inode == null) return null;
    s.blanks();
    if ("r-".indexOf(perms.charAt(0)) < 0 || "w-".indexOf(perms.charAt(1)) < 0 || "x-".indexOf(perms.charAt(2)) < 0
        || "psS".indexOf(perms.charAt(3)) < 0) {
      return null;
    }
    return new Mapping(start, end, perms, offset, (int) (major & 0xff), (int) (minor & 0xff), inode,
        ByteStrings.decode(t, s.pos, limit - s.pos), ByteStrings.decode(t, from, limit - from));
  }

  /** The parts of C's {@code sscanf} the maps format uses. */
  private static final class Scanner {
    final byte[] t;
    int pos;
    final int limit;

    Scanner(byte[] t, int from, int limit) {
      this.t = t;
      this.pos = from;
      this.limit = limit;
    }

    void blanks() {
      while (pos < limit && isSpace(t[pos])) pos++;
    }

    static boolean isSpace(byte c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
    }

    boolean literal(char c) {
      if (pos < limit && t[pos] == c) {
        pos++;
        return true;
      }
      return false;
    }

    String chars(int n) {
      if (limit - pos < n) return null;
      String s = ByteStrings.decode(t, pos, n);
      pos += n;
      return s;
    }

    /** {@code %x}: blanks, an optional sign, an optional 0x, hex digits (wrapping modulo 2^64). */
    Long hex() {
      return number(16);
    }

    /** {@code %d} of a 64-bit integer. */
    Long decimal() {
      return number(10);
    }

    private Long number(int radix) {
      blanks();
      boolean negative = false;
      if (pos < limit && (t[pos] == '+' || t[pos] == '-')) negative = t[pos++] == '-';
      if (radix == 16 && pos + 1 < limit && t[pos] == '0' && (t[pos + 1] == 'x' || t[pos + 1] == 'X')
          && pos + 2 < limit && Character.digit(t[pos + 2], 16) >= 0) {
        pos += 2;
      }
      long v = 0;
      int digits = 0;
      int d;
      while (pos < limit && (d = Character.digit(t[pos], radix)) >= 0) {
        v = v * radix + d;
        pos++;
        digits++;
      }
      if (digits == 0) return null;
      return negative ? -v : v;
    }
  }

  /** The mapping holding {@code address}, or null. */
  public Mapping mappingAt(long address) {
    for (Mapping m : mappings) if (m.contains(address)) return m;
    return null;
  }
}
