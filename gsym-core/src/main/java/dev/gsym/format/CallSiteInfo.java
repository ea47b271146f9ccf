package dev.gsym.format;

import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * One call site of a function: its return address (relative to the function start), flags and
 * regular expressions naming the functions it may call.
 *
 * <pre>
 * ENCODING
 *   u64 ReturnOffset   u8 Flags (bit0 InternalCall, bit1 ExternalCall)
 *   u32 NumRegex, NumRegex x u32 strp
 * </pre>
 *
 * @param matchRegex string-table offsets of the regular expressions
 */
public record CallSiteInfo(long returnOffset, int flags, List<Integer> matchRegex) {
  public static final int INTERNAL_CALL = 1;
  public static final int EXTERNAL_CALL = 2;

  /** Copies the regular expression offsets. */
  public CallSiteInfo {
    matchRegex = List.copyOf(matchRegex);
  }

  /** Reads one call site at {@code c}. */
  public static CallSiteInfo decode(Cursor c) {
    if (!c.has(8)) throw c.errorHere("missing ReturnOffset");
    long returnOffset = c.u64();
    if (!c.has(1)) throw c.errorHere("missing Flags");
    int flags = c.u8();
    if (!c.has(4)) throw c.errorHere("missing MatchRegex count");
    long n = c.u32();
    List<Integer> regex = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      if (!c.has(c.strpSize())) throw c.errorHere("missing MatchRegex entry");
      regex.add(c.strp());
    }
    return new CallSiteInfo(returnOffset, flags, regex);
  }

  /** Writes this call site to {@code w}. */
  public void encode(GsymWriter w) {
    encode(w, IndexMap.IDENTITY);
  }

  /** As {@link #encode(GsymWriter)} with regex string offsets translated by {@code m}. */
  public void encode(GsymWriter w, IndexMap m) {
    w.u64(returnOffset);
    w.u8(flags);
    w.u32(matchRegex.size());
    for (int r : matchRegex) w.strp(Integer.toUnsignedLong(m.string(r)));
  }

  /** One call-site line of llvm-gsymutil's dump (without indentation or newline). */
  public void dump(StringBuilder sb, GsymTables t) {
    Hex.append(sb, returnOffset, 4).append(" Flags[").append(flagsText()).append(']');
    if (!matchRegex.isEmpty()) {
      sb.append(" MatchRegex[");
      for (int i = 0; i < matchRegex.size(); i++) {
        if (i > 0) sb.append(';');
        sb.append(t.string(matchRegex.get(i)));
      }
      sb.append(']');
    }
  }

  /**
   * "InternalCall | ExternalCall", "None" for 0, and "" when only unknown bits are set (as
   * llvm-gsymutil-22's dump).
   */
  public String flagsText() {
    if (flags == 0) return "None";
    List<String> parts = new ArrayList<>(2);
    if ((flags & INTERNAL_CALL) != 0) parts.add("InternalCall");
    if ((flags & EXTERNAL_CALL) != 0) parts.add("ExternalCall");
    return String.join(" | ", parts);
  }

  /** LLVM's raw {@code operator<<}: {@code "  Return=0x…  Flags=0x..  RegEx=12,18"}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("  Return=").append(Hex.hex64(returnOffset)).append("  Flags=")
        .append(Hex.hex8(flags)).append("  RegEx=");
    for (int i = 0; i < matchRegex.size(); i++) {
      if (i > 0) sb.append(',');
      sb.append(Integer.toUnsignedLong(matchRegex.get(i)));
    }
    return sb.toString();
  }
}
