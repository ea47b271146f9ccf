package dev.gsym.breakpad;

import dev.gsym.ByteStrings;
import dev.gsym.format.FileTable;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.SourceLocation;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Breakpad's own resolver as the oracle for {@code .sym} lookups: the answers of
 * {@code src-test-data/breakpad/oracle/resolve.cc} (Breakpad's {@code BasicSourceLineResolver}),
 * committed as {@code X.resolver.txt} by {@code src-test-data/regenerate-breakpad-oracle.sh} or run
 * live ({@link dev.gsym.testing.Breakpad#resolver}), compared with the lookups of the GSYM we convert. The comparison allows only the
 * differences docs/breakpad.md lists, each counted by kind so that tests assert how many there are.
 */
final class ResolverOracle {
  private ResolverOracle() {}

  /** One frame as Breakpad's StackFrame has it; file "" and line 0 when it has none. */
  record Frame(String name, long base, String file, long line) {
    @Override
    public String toString() {
      return name + " base 0x" + Long.toHexString(base) + (file.isEmpty() ? "" : " @ " + file) + ":" + line;
    }
  }

  /** Kinds of documented difference (docs/breakpad.md, "How lookups answer"). */
  enum Difference {
    /**
     * The bytes after a FUNC named by a PUBLIC inside it: Breakpad's frame base is the PUBLIC's
     * address, GSYM's offset counts from the FUNC's end (where the FunctionInfo starts).
     */
    PUBLIC_TAIL_BASE,
    /**
     * An inlined frame whose INLINE record names no call file (the older form, or -1): Breakpad
     * takes the file of the line record at the address, GSYM the one at the start of the range.
     */
    CALL_FILE_OF_INLINE_WITHOUT_ONE,
    /**
     * An inlined frame from an INLINE range that starts before its FUNC: Breakpad's frame base is
     * the range's start, GSYM's node is clipped to the function (its offset counts from there).
     */
    INLINE_RANGE_BEFORE_FUNC,
    /**
     * An inlined frame in a later range of an INLINE record with several ranges under one parent:
     * Breakpad's frame base is the start of the range holding the address, GSYM's offset counts from
     * the node's first range (as llvm's own GSYM files do).
     */
    INLINE_OFFSET_FROM_FIRST_RANGE,
  }

  /** The answers of a resolver output, by address in file order; an empty list: no answer. */
  static Map<Long, List<Frame>> parse(String text) {
    Map<Long, List<Frame>> out = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.isEmpty()) continue;
      String[] f = line.split("\t", -1);
      long addr = Long.parseUnsignedLong(f[0].substring(2), 16);
      List<Frame> frames = out.computeIfAbsent(addr, a -> new ArrayList<>());
      if (f[1].equals("-")) continue;
      if (Integer.parseInt(f[1]) != frames.size() || f.length != 6) throw new IllegalArgumentException(line);
      frames.add(new Frame(f[2], Long.parseUnsignedLong(f[3].substring(2), 16), f[4], Long.parseLong(f[5])));
    }
    return out;
  }

  /** The committed answers for {@code src-test-data/breakpad/NAME.sym}. */
  static Map<Long, List<Frame>> committed(String name) {
    return parse(TestData.text(TestData.path("breakpad", name + ".resolver.txt")));
  }

  /** Our answer for {@code addr}, in the resolver's terms. */
  static List<Frame> ours(GsymReader r, long addr) {
    List<Frame> out = new ArrayList<>();
    List<SourceLocation> locs;
    try {
      locs = r.lookup(addr).locations();
    } catch (LookupException | dev.gsym.GsymFormatException e) {
      return out;
    }
    for (SourceLocation l : locs) {
      String file = "";
      if (l.hasFile()) {
        StringBuilder sb = new StringBuilder();
        FileTable.appendPath(sb, l.dir(), l.base());
        file = sb.toString();
      }
      out.add(new Frame(l.name(), addr - l.offset(), file, l.hasFile() ? Integer.toUnsignedLong(l.line()) : 0));
    }
    return out;
  }

  /**
   * Compares our lookups in {@code r} with the resolver's {@code answers}: returns the count of
   * each documented difference; every other difference is added to {@code mismatches}.
   */
  static Map<Difference, Integer> compare(GsymReader r, Map<Long, List<Frame>> answers, List<String> mismatches) {
    Map<Difference, Integer> counts = new TreeMap<>();
    for (Map.Entry<Long, List<Frame>> e : answers.entrySet()) {
      long addr = e.getKey();
      List<Frame> want = e.getValue();
      List<Frame> got = ours(r, addr);
      if (got.equals(want)) continue;
      Difference d = classify(want, got);
      if (d != null) {
        counts.merge(d, 1, Integer::sum);
      } else {
        mismatches.add("0x" + Long.toHexString(addr) + ": resolver " + want + ", ours " + got);
      }
    }
    return counts;
  }

  private static Difference classify(List<Frame> want, List<Frame> got) {
    if (want.size() != got.size()) return null;
    if (want.size() == 1) {
      Frame w = want.getFirst();
      Frame g = got.getFirst();
      if (w.name().equals(g.name()) && w.file().isEmpty() && g.file().isEmpty() && w.line() == 0 && g.line() == 0
          && Long.compareUnsigned(w.base(), g.base()) < 0) {
        return Difference.PUBLIC_TAIL_BASE;
      }
      return null;
    }
    // only the bases of inlined frames below the function's start differ: ours is the function's
    long funcBase = want.getLast().base();
    boolean clipped = want.getLast().equals(got.getLast());
    for (int i = 0; i < want.size() - 1 && clipped; i++) {
      Frame w = want.get(i);
      Frame g = got.get(i);
      clipped = w.name().equals(g.name()) && w.file().equals(g.file()) && w.line() == g.line()
          && (w.base() == g.base() || (Long.compareUnsigned(w.base(), funcBase) < 0 && g.base() == funcBase));
    }
    if (clipped) return Difference.INLINE_RANGE_BEFORE_FUNC;
    boolean earlier = want.getLast().equals(got.getLast());
    for (int i = 0; i < want.size() - 1 && earlier; i++) {
      Frame w = want.get(i);
      Frame g = got.get(i);
      earlier = w.name().equals(g.name()) && w.file().equals(g.file()) && w.line() == g.line()
          && Long.compareUnsigned(g.base(), w.base()) <= 0 && Long.compareUnsigned(g.base(), funcBase) >= 0;
    }
    if (earlier) return Difference.INLINE_OFFSET_FROM_FIRST_RANGE;
    // only the files of caller frames (whose file:line is a call site) differ
    for (int i = 0; i < want.size(); i++) {
      Frame w = want.get(i);
      Frame g = got.get(i);
      if (!w.name().equals(g.name()) || w.base() != g.base() || w.line() != g.line()) return null;
      if (i == 0 && !w.file().equals(g.file())) return null;
    }
    return Difference.CALL_FILE_OF_INLINE_WITHOUT_ONE;
  }

  /** Asserts-friendly text of a comparison: the mismatches, one a line (empty if none). */
  static String report(List<String> mismatches) {
    return String.join("\n", mismatches.subList(0, Math.min(40, mismatches.size())));
  }


  /** The live resolver's answers for every interesting address of {@code sym}. */
  static Map<Long, List<Frame>> run(Path resolver, Path sym) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(resolver.toString(), "--addresses", sym.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (p.waitFor() != 0) throw new IOException(resolver + " failed on " + sym);
    return parse(ByteStrings.decode(out));
  }
}
