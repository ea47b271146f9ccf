package dev.gsym.write;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.io.GsymWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;

/**
 * Builds the string table as LLVM does: offset 0 is "", each distinct string is appended once in
 * order of first insertion (no suffix sharing). Not thread-safe; {@link GsymCreator} locks.
 *
 * <p>An <em>indexed</em> table (a scratch creator's, never written) hands out 1 + the string's
 * position instead of a byte offset, so that merging can translate with an array lookup.
 */
final class StringTableBuilder {
  private final boolean indexed;
  private final HashMap<String, Integer> offsets = new HashMap<>();
  /** The strings in table order, their bytes and their offsets (increasing). */
  private final List<String> list = new ArrayList<>();
  private final List<byte[]> strings = new ArrayList<>();
  private int[] offs = new int[64];
  private long size = 1;

  StringTableBuilder() {
    this(false);
  }

  StringTableBuilder(boolean indexed) {
    this.indexed = indexed;
  }

  /**
   * The offset of {@code s} (1 + its position if indexed), appending it if new. Strings are
   * compared as the bytes {@link ByteStrings#encode} gives.
   */
  int add(String s) {
    if (s.isEmpty()) return 0;
    Integer off = offsets.get(s);
    if (off != null) return off;
    String canonical = ByteStrings.canonical(s);
    if (canonical != s) return add(canonical); // equal bytes are stored once, as LLVM does
    if (indexed) {
      list.add(s);
      offsets.put(s, list.size());
      return list.size();
    }
    byte[] b = ByteStrings.encode(s);
    if (size + b.length + 1 > 0xffffffffL) {
      throw new GsymFormatException("string table", -1, "string table exceeds 4 GiB");
    }
    int o = (int) size;
    offsets.put(s, o);
    if (list.size() == offs.length) offs = Arrays.copyOf(offs, offs.length * 2);
    offs[list.size()] = o;
    list.add(s);
    strings.add(b);
    size += b.length + 1;
    return o;
  }

  /** The string at an offset returned by {@link #add}. */
  String get(int offset) {
    if (offset == 0) return "";
    int i = indexOf(offset);
    if (i < 0) throw new IllegalArgumentException("not a string offset of this table: " + offset);
    return list.get(i);
  }

  /** The position of offset {@code offset} in table order, or a negative number if none starts there. */
  int indexOf(int offset) {
    if (indexed) return offset >= 1 && offset <= list.size() ? offset - 1 : -1;
    return Arrays.binarySearch(offs, 0, list.size(), offset);
  }

  /** Number of strings (the empty string at offset 0 excluded). */
  int count() {
    return list.size();
  }

  /** The {@code i}th string in table order. */
  String string(int i) {
    return list.get(i);
  }

  /** Each string with its offset, in table order. */
  void forEach(java.util.function.ObjIntConsumer<String> f) {
    if (indexed) throw new IllegalStateException("an indexed string table has no offsets");
    for (int i = 0; i < list.size(); i++) f.accept(list.get(i), offs[i]);
  }

  long size() {
    return size;
  }

  void encode(GsymWriter w) {
    if (indexed) throw new IllegalStateException("an indexed string table is not written");
    w.u8(0);
    for (byte[] b : strings) {
      w.bytes(b);
      w.u8(0);
    }
  }
}
