package dev.gsym.read.internal;

import dev.gsym.format.StringTable;

/**
 * Decoded strings of one string table by offset, direct-mapped: repeated lookups in the same
 * functions reuse their names and paths instead of decoding them again. Entries are immutable, so
 * unsynchronized sharing between threads is safe (a racing thread at worst decodes a string again).
 */
public final class StringCache {
  private static final int BITS = 13;

  private record Entry(int strp, String value) {}

  private final StringTable strings;
  private final Entry[] slots = new Entry[1 << BITS];

  public StringCache(StringTable strings) {
    this.strings = strings;
  }

  /** The string at {@code strp}, as {@link StringTable#get} decodes it. */
  public String get(int strp) {
    int slot = Integer.hashCode(strp * 0x9E3779B9) >>> (32 - BITS);
    Entry e = slots[slot];
    if (e != null && e.strp == strp) return e.value;
    String v = strings.get(strp);
    slots[slot] = new Entry(strp, v);
    return v;
  }
}
