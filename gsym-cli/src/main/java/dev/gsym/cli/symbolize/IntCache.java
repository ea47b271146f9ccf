package dev.gsym.cli.symbolize;

import java.util.Arrays;

/**
 * A bounded map from {@code int} keys (string-table offsets, file indexes, symbol indexes) to
 * values, without boxing: open addressing, linear probing. When it holds {@code max} entries it
 * starts over empty (a bound, not an LRU: what it holds is cheap to make again). Not thread-safe.
 *
 * @param <V> the values (never null)
 */
final class IntCache<V> {
  private final int max;
  private int[] keys = new int[64];
  private Object[] values = new Object[64];
  private int size;

  /** @param max entries kept before the cache starts over (at least 1) */
  IntCache(int max) {
    if (max < 1) throw new IllegalArgumentException("max < 1");
    this.max = max;
  }

  /** The value of {@code key}, or null. */
  @SuppressWarnings("unchecked")
  V get(int key) {
    int mask = keys.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      Object v = values[i];
      if (v == null) return null;
      if (keys[i] == key) return (V) v;
    }
  }

  /** Sets the value of {@code key}. */
  void put(int key, V value) {
    if (value == null) throw new NullPointerException("value");
    if (size >= max) clear();
    if (2 * (size + 1) > keys.length) grow();
    if (insert(keys, values, key, value)) size++;
  }

  /** Entries held. */
  int size() {
    return size;
  }

  private void clear() {
    Arrays.fill(values, null);
    size = 0;
  }

  private void grow() {
    int[] k = new int[keys.length * 2];
    Object[] v = new Object[values.length * 2];
    for (int i = 0; i < keys.length; i++) {
      if (values[i] != null) insert(k, v, keys[i], values[i]);
    }
    keys = k;
    values = v;
  }

  /** True if {@code key} was not there. */
  private static boolean insert(int[] keys, Object[] values, int key, Object value) {
    int mask = keys.length - 1;
    int i = mix(key) & mask;
    while (values[i] != null && keys[i] != key) i = (i + 1) & mask;
    boolean added = values[i] == null;
    keys[i] = key;
    values[i] = value;
    return added;
  }

  private static int mix(int key) {
    int h = key * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
