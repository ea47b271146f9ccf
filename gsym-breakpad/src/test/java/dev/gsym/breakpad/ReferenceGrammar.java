package dev.gsym.breakpad;

import dev.gsym.GsymFormatException;
import dev.gsym.format.AddressRange;
import java.util.ArrayList;
import java.util.List;

/**
 * The grammar of a Breakpad symbol file's line written the plain way, over a String split at its
 * spaces: the reference {@link BreakpadParser}'s byte scanner is checked against, record for record
 * and message for message (BreakpadParserTest). Errors name line 0 of "t.sym".
 */
final class ReferenceGrammar {
  private ReferenceGrammar() {}

  private static GsymFormatException error(String detail) {
    return new GsymFormatException("t.sym:0", -1, detail);
  }

  /** Splits on single spaces, at most {@code max} fields; the last field keeps the rest. */
  private static List<String> split(String s, int from, int max) {
    List<String> out = new ArrayList<>(Math.min(max, 8));
    int i = from;
    while (out.size() < max - 1) {
      int sp = s.indexOf(' ', i);
      if (sp < 0) break;
      out.add(s.substring(i, sp));
      i = sp + 1;
    }
    out.add(s.substring(i));
    return out;
  }

  static BreakpadRecord parse(String s) {
    int sp = s.indexOf(' ');
    String kw = sp < 0 ? s : s.substring(0, sp);
    int rest = sp < 0 ? s.length() : sp + 1;
    return switch (kw) {
      case "MODULE" -> module(s, rest);
      case "INFO" -> info(s, rest);
      case "FILE" -> file(s, rest);
      case "INLINE_ORIGIN" -> origin(s, rest);
      case "FUNC" -> func(s, rest);
      case "INLINE" -> inline(s, rest);
      case "PUBLIC" -> pub(s, rest);
      case "STACK" -> stack(s, rest);
      default -> lineRecord(s, kw);
    };
  }

  private static BreakpadRecord module(String s, int from) {
    List<String> f = split(s, from, 4);
    if (f.size() < 4 || f.get(0).isEmpty() || f.get(1).isEmpty() || f.get(2).isEmpty()) {
      throw error("MODULE record needs 'MODULE os arch id name'");
    }
    return new BreakpadRecord.Module(f.get(0), f.get(1), f.get(2), f.get(3));
  }

  private static BreakpadRecord info(String s, int from) {
    List<String> f = split(s, from, 2);
    if (f.get(0).isEmpty()) throw error("INFO record without a type");
    return new BreakpadRecord.Info(f.get(0), f.size() > 1 ? f.get(1) : "");
  }

  private static BreakpadRecord file(String s, int from) {
    List<String> f = split(s, from, 2);
    if (f.size() < 2) throw error("FILE record needs 'FILE number name'");
    long n = decimal(f.get(0), "FILE number");
    if (f.get(1).isEmpty()) throw error("FILE " + n + " has an empty name");
    return new BreakpadRecord.File(n, f.get(1));
  }

  private static BreakpadRecord origin(String s, int from) {
    List<String> f = split(s, from, 2);
    if (f.size() < 2) throw error("INLINE_ORIGIN record needs 'INLINE_ORIGIN number name'");
    long n = decimal(f.get(0), "INLINE_ORIGIN number");
    String name = f.get(1);
    if (isOriginFileField(name)) {
      // the older form, INLINE_ORIGIN number file name: Breakpad's processor ignores the file
      List<String> g = split(name, 0, 2);
      if (g.size() < 2 || g.get(1).isEmpty()) {
        throw error("INLINE_ORIGIN " + n + " has a file number but no name ('INLINE_ORIGIN number [file] name')");
      }
      if (!g.get(0).equals("-1")) decimal(g.get(0), "INLINE_ORIGIN file number");
      name = g.get(1);
    }
    if (name.isEmpty()) throw error("INLINE_ORIGIN " + n + " has an empty name");
    return new BreakpadRecord.InlineOrigin(n, name);
  }

  /** As {@link #originHasFileField(int)} on a String: the first word is digits (or '-' digits). */
  private static boolean isOriginFileField(String t) {
    if (t.isEmpty()) return false;
    for (int i = 0; i < t.length() && t.charAt(i) != ' '; i++) {
      char c = t.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c == '-' && i == 0)) return false;
    }
    return true;
  }

  private static BreakpadRecord func(String s, int from) {
    boolean m = s.startsWith("m ", from);
    if (m) from += 2;
    List<String> f = split(s, from, 4);
    if (f.size() < 4) throw error("FUNC record needs 'FUNC [m] address size parameter_size name'");
    long addr = hex(f.get(0), "FUNC address");
    long size = hex(f.get(1), "FUNC size");
    long param = hex(f.get(2), "FUNC parameter_size");
    if (f.get(3).isEmpty()) throw error("FUNC has an empty name");
    if (Long.compareUnsigned(size, 0xFFFF_FFFFL) > 0) {
      throw error("FUNC size 0x" + Long.toHexString(size) + " does not fit GSYM's 32-bit function size");
    }
    checkRange(addr, size, "FUNC");
    return new BreakpadRecord.Func(m, addr, size, param, f.get(3));
  }

  private static BreakpadRecord pub(String s, int from) {
    boolean m = s.startsWith("m ", from);
    if (m) from += 2;
    List<String> f = split(s, from, 3);
    if (f.size() < 3) throw error("PUBLIC record needs 'PUBLIC [m] address parameter_size name'");
    long addr = hex(f.get(0), "PUBLIC address");
    long param = hex(f.get(1), "PUBLIC parameter_size");
    if (f.get(2).isEmpty()) throw error("PUBLIC has an empty name");
    return new BreakpadRecord.Public(m, addr, param, f.get(2));
  }

  private static BreakpadRecord inline(String s, int from) {
    List<String> f = split(s, from, Integer.MAX_VALUE);
    // the older form has no call file; as in Breakpad's parser, the parity of the count tells
    boolean hasCallFile = f.size() % 2 == 0;
    int first = hasCallFile ? 4 : 3;
    if (f.size() < 5 || (f.size() - first) % 2 != 0) {
      throw error("INLINE record needs 'INLINE nest_level call_line [call_file] origin [address size]+'");
    }
    long level = decimal(f.get(0), "INLINE nest level");
    // the top node (the FUNC) is depth 0, so level L is decoded at depth L + 1
    long maxLevel = dev.gsym.format.InlineInfo.MAX_DEPTH - 1;
    if (level > maxLevel) throw error("INLINE nest level " + level + " is deeper than " + maxLevel);
    long callLine = decimal(f.get(1), "INLINE call line");
    if (callLine > 0xFFFF_FFFFL) throw error("INLINE call line " + callLine + " does not fit in 32 bits");
    long callFile = BreakpadRecord.Inline.NO_CALL_FILE;
    if (hasCallFile && !f.get(2).equals("-1")) callFile = decimal(f.get(2), "INLINE call file");
    long origin = decimal(f.get(first - 1), "INLINE origin");
    List<AddressRange> ranges = new ArrayList<>((f.size() - first) / 2);
    for (int i = first; i < f.size(); i += 2) {
      long a = hex(f.get(i), "INLINE address");
      long z = hex(f.get(i + 1), "INLINE size");
      checkRange(a, z, "INLINE");
      ranges.add(new AddressRange(a, a + z));
    }
    return new BreakpadRecord.Inline((int) level, callLine, callFile, origin, ranges);
  }

  private static BreakpadRecord stack(String s, int from) {
    List<String> f = split(s, from, 2);
    return new BreakpadRecord.Stack(f.get(0), f.size() > 1 ? f.get(1) : "");
  }

  private static BreakpadRecord lineRecord(String s, String kw) {
    if (!kw.isEmpty() && isUpperWord(kw)) {
      return new BreakpadRecord.Other(kw, s.length() > kw.length() ? s.substring(kw.length() + 1) : "");
    }
    List<String> f = split(s, 0, 5);
    if (f.size() != 4) throw error("invalid line record (expected 'address size line filenum')");
    long addr = hex(f.get(0), "line record address");
    long size = hex(f.get(1), "line record size");
    long line = decimal(f.get(2), "line number");
    if (line > 0xFFFF_FFFFL) throw error("line number " + line + " does not fit in 32 bits");
    long file = decimal(f.get(3), "line record file number");
    checkRange(addr, size, "line record");
    return new BreakpadRecord.Line(addr, size, line, file);
  }

  private static boolean isUpperWord(String s) {
    boolean letter = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 'G' && c <= 'Z') letter = true; // not a hex digit
      else if (!(c >= 'A' && c <= 'Z') && c != '_' && !(c >= '0' && c <= '9')) return false;
    }
    return letter;
  }

  private static void checkRange(long addr, long size, String what) {
    if (Long.compareUnsigned(addr + size, addr) < 0) {
      throw error(what + " range 0x" + Long.toHexString(addr) + " + 0x" + Long.toHexString(size)
          + " wraps past the end of the 64-bit address space");
    }
  }

  /** An unsigned hex number of 1 to 16 digits without 0x (either case). */
  static long hex(String t, String what) {
    if (t.isEmpty() || t.length() > 16) throw error("invalid " + what + " '" + clip(t) + "'");
    long v = 0;
    for (int i = 0; i < t.length(); i++) {
      int d = Character.digit(t.charAt(i), 16);
      if (d < 0 || t.charAt(i) > 'f') throw error("invalid " + what + " '" + clip(t) + "'");
      v = (v << 4) | d;
    }
    return v;
  }

  /** A non-negative decimal that fits in a signed 64-bit value. */
  static long decimal(String t, String what) {
    if (t.isEmpty() || t.length() > 18) throw error("invalid " + what + " '" + clip(t) + "'");
    long v = 0;
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c < '0' || c > '9') throw error("invalid " + what + " '" + clip(t) + "'");
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static String clip(String t) {
    return t.length() <= 40 ? t : t.substring(0, 40) + "...";
  }

}
