package dev.gsym.dwarf.read;

import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** One abbreviation declaration from .debug_abbrev. */
public record Abbreviation(long code, int tag, boolean hasChildren, int[] attributes, int[] forms, long[] implicitConsts) {
  /** Upper bound on attributes per abbreviation (real producers use a few dozen). */
  static final int MAX_ATTRIBUTES = 4096;

  /** Parses the abbreviation set at {@code offset} of .debug_abbrev. */
  public static Map<Long, Abbreviation> parseSet(ByteView abbrev, DebugAbbrevOffset offset) {
    return parseSet(abbrev, offset.value(), null);
  }

  /**
   * Every abbreviation set of .debug_abbrev, by offset, read one after the other from offset 0 up
   * to the end or to the first set that does not parse (sets a unit names elsewhere, or after a
   * damaged one, are left to {@link #parseSet}, which reports the damage).
   */
  static Map<DebugAbbrevOffset, Map<Long, Abbreviation>> parseAll(ByteView abbrev) {
    Map<DebugAbbrevOffset, Map<Long, Abbreviation>> all = new HashMap<>();
    long[] end = new long[1];
    long off = 0;
    while (off < abbrev.size()) {
      try {
        all.put(new DebugAbbrevOffset(off), parseSet(abbrev, off, end));
      } catch (RuntimeException e) {
        break;
      }
      if (end[0] <= off) break;
      off = end[0];
    }
    return all;
  }

  private static Map<Long, Abbreviation> parseSet(ByteView abbrev, long offset, long[] endOut) {
    if (offset < 0 || offset >= abbrev.size()) throw abbrev.error(0, "abbreviation offset 0x" + Long.toHexString(offset) + " past end of .debug_abbrev");
    Cursor c = abbrev.cursor(offset);
    Map<Long, Abbreviation> set = new HashMap<>();
    // one abbreviation's attribute specifications, reused for the next (copied out exactly sized)
    int[] a = new int[16], f = new int[16];
    long[] k = new long[16];
    while (true) {
      long code = c.uleb();
      if (code == 0) break;
      long codeAt = c.position();
      long tag = c.uleb();
      boolean children = c.u8() != 0;
      int n = 0;
      while (true) {
        long at = c.uleb();
        long form = c.uleb();
        if (at == 0 && form == 0) break;
        long ic = form == Form.IMPLICIT_CONST.code ? c.sleb() : 0;
        if (n >= MAX_ATTRIBUTES) throw c.errorAt(codeAt, "too many attributes in abbreviation " + code);
        if (n == a.length) {
          a = Arrays.copyOf(a, 2 * n);
          f = Arrays.copyOf(f, 2 * n);
          k = Arrays.copyOf(k, 2 * n);
        }
        a[n] = (int) at;
        f[n] = (int) form;
        k[n] = ic;
        n++;
      }
      set.putIfAbsent(code, new Abbreviation(code, (int) tag, children, Arrays.copyOf(a, n), Arrays.copyOf(f, n), Arrays.copyOf(k, n)));
    }
    if (endOut != null) endOut[0] = c.position();
    return set;
  }
}
