package dev.gsym.write;

import dev.gsym.io.GsymFormatException;
import dev.gsym.io.GsymWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Builds the string table as LLVM does: offset 0 is "", each distinct string is appended once in
 * order of first insertion (no suffix sharing). Not thread-safe; {@link GsymCreator} locks.
 */
final class StringTableBuilder {
  private final HashMap<String, Integer> offsets = new HashMap<>();
  private final List<byte[]> strings = new ArrayList<>();
  private final HashMap<Integer, String> byOffset = new HashMap<>();
  private long size = 1;

  /** The offset of {@code s}, appending it if new. */
  int add(String s) {
    if (s.isEmpty()) return 0;
    Integer off = offsets.get(s);
    if (off != null) return off;
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    if (size + b.length + 1 > 0xffffffffL) {
      throw new GsymFormatException("string table", -1, "string table exceeds 4 GiB");
    }
    int o = (int) size;
    offsets.put(s, o);
    byOffset.put(o, s);
    strings.add(b);
    size += b.length + 1;
    return o;
  }

  /** The string at an offset returned by {@link #add}. */
  String get(int offset) {
    if (offset == 0) return "";
    String s = byOffset.get(offset);
    if (s == null) throw new IllegalArgumentException("not a string offset of this table: " + offset);
    return s;
  }

  /** Each string with its offset, in table order. */
  void forEach(java.util.function.ObjIntConsumer<String> f) {
    long o = 1;
    for (byte[] b : strings) {
      f.accept(byOffset.get((int) o), (int) o);
      o += b.length + 1;
    }
  }

  long size() {
    return size;
  }

  void encode(GsymWriter w) {
    w.u8(0);
    for (byte[] b : strings) {
      w.bytes(b);
      w.u8(0);
    }
  }
}
