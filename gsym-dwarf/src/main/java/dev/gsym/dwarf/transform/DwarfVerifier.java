package dev.gsym.dwarf.transform;

import static dev.gsym.dwarf.read.DwarfConstants.*;

import dev.gsym.dwarf.read.AttributeValue;
import dev.gsym.dwarf.read.DebugLineOffset;
import dev.gsym.dwarf.read.Die;
import dev.gsym.dwarf.read.DwarfFile;
import dev.gsym.dwarf.read.DwarfUnit;
import dev.gsym.dwarf.read.LineTable;
import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.Hex;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLocation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * llvm's DwarfTransformer::verify: every address of every function in a GSYM file is looked up
 * and compared with the DWARF's inlining chain for that address (function name prefix, source
 * path, line, number of inline frames), with llvm's messages.
 */
public final class DwarfVerifier {
  private static final String BAD = "<invalid>";

  private final DwarfFile dwarf;
  /** Compile-unit address ranges, sorted by start: {start, end} and the unit. */
  private final List<long[]> cuRanges = new ArrayList<>();
  private final List<DwarfUnit> cuOfRange = new ArrayList<>();
  private final Map<DwarfUnit, TreeMap<Long, long[]>> dieMaps = new HashMap<>();
  private final Map<DwarfUnit, Object> lineTables = new HashMap<>();
  private final Map<DwarfUnit, DwarfUnit> splitUnits = new HashMap<>();

  public DwarfVerifier(DwarfFile dwarf) {
    this.dwarf = dwarf;
    List<Object[]> all = new ArrayList<>();
    for (DwarfUnit u : dwarf.units()) {
      if (u.unitType() != DwarfUnit.UT_COMPILE && u.unitType() != DwarfUnit.UT_PARTIAL && u.unitType() != DwarfUnit.UT_SKELETON) continue;
      for (AddressRange r : u.unitDie().addressRanges()) {
        if (Long.compareUnsigned(r.start(), r.end()) < 0) all.add(new Object[] {new long[] {r.start(), r.end()}, u});
      }
    }
    all.sort((a, b) -> Long.compareUnsigned(((long[]) a[0])[0], ((long[]) b[0])[0]));
    for (Object[] o : all) {
      cuRanges.add((long[]) o[0]);
      cuOfRange.add((DwarfUnit) o[1]);
    }
  }

  /** One frame of llvm's DIInliningInfo. */
  record Frame(String function, String file, long line) {}

  /**
   * Verifies {@code gsym}; appends llvm's header (naming {@code gsymPath}) and mismatch reports to
   * {@code out}; returns the number of mismatch reports.
   *
   * @throws dev.gsym.read.LookupException for an address of a function that {@code gsym} does not
   *     resolve (llvm's verify fails there, after the reports so far)
   */
  public int verify(GsymReader gsym, String gsymPath, StringBuilder out) {
    out.append("Verifying GSYM file \"").append(gsymPath).append("\":\n");
    int errors = 0;
    for (int i = 0, n = gsym.numFunctions(); i < n; i++) {
      long funcAddr = gsym.functionAddress(i);
      FunctionInfo fi = gsym.functionInfo(funcAddr);
      long end = funcAddr + fi.range().size();
      for (long addr = funcAddr; Long.compareUnsigned(addr, end) < 0; addr++) {
        LookupResult lr = gsym.lookup(addr);
        List<Frame> dwarfFrames = inliningInfo(addr);
        int nd = dwarfFrames.size();
        if (nd == 1 && dwarfFrames.getFirst().file().equals(BAD)) nd = 0;
        List<SourceLocation> locs = lr.locations();
        if (nd > 0 && nd != locs.size()) {
          errors++;
          out.append("error: address ");
          Hex.append(out, addr, 16).append(" has ").append(nd).append(" DWARF inline frames and GSYM has ")
              .append(locs.size()).append('\n');
          out.append("    ").append(nd).append(" DWARF frames:\n");
          for (int k = 0; k < nd; k++) {
            Frame f = dwarfFrames.get(k);
            out.append("    [").append(k).append("]: ").append(f.function()).append(" @ ").append(f.file()).append(':')
                .append(f.line()).append('\n');
          }
          out.append("    ").append(locs.size()).append(" GSYM frames:\n");
          for (int k = 0; k < locs.size(); k++) {
            SourceLocation l = locs.get(k);
            out.append("    [").append(k).append("]: ").append(l.name()).append(" @ ").append(l.dir()).append('/')
                .append(l.base()).append(':').append(Integer.toUnsignedLong(l.line())).append('\n');
          }
          gsym.dump(out, fi, 0);
          continue;
        }
        for (int k = 0; k < locs.size() && k < nd; k++) {
          SourceLocation g = locs.get(k);
          Frame d = dwarfFrames.get(k);
          String gPath = sourceFile(g);
          if (!d.function().startsWith(g.name())) {
            errors++;
            Hex.append(out.append("error: address "), addr, 16).append(" DWARF function \"").append(d.function())
                .append("\" doesn't match GSYM function \"").append(g.name()).append("\"\n");
          }
          if (!d.file().equals(gPath)) {
            errors++;
            Hex.append(out.append("error: address "), addr, 16).append(" DWARF path \"").append(d.file())
                .append("\" doesn't match GSYM path \"").append(gPath).append("\"\n");
          }
          if (d.line() != Integer.toUnsignedLong(g.line())) {
            errors++;
            Hex.append(out.append("error: address "), addr, 16).append(" DWARF line ").append(d.line())
                .append(" != GSYM line ").append(Integer.toUnsignedLong(g.line())).append('\n');
          }
        }
      }
    }
    return errors;
  }

  /** llvm's LookupResult::getSourceFile. */
  private static String sourceFile(SourceLocation l) {
    if (!l.dir().isEmpty()) {
      if (l.base().isEmpty()) return l.dir();
      return l.dir().endsWith("/") ? l.dir() + l.base() : l.dir() + "/" + l.base();
    }
    return l.base();
  }

  // ------------------------------------------------------------ DWARF side

  /** llvm's DWARFContext::getInliningInfoForAddress (linkage names, absolute paths). */
  List<Frame> inliningInfo(long addr) {
    DwarfUnit cu = unitFor(addr);
    List<Frame> frames = new ArrayList<>();
    if (cu == null) return frames;
    LineTable lt = lineTable(cu);
    String compDir = compDir(cu);
    List<Die> chain = inlinedChain(cu, addr);
    if (chain.isEmpty()) {
      if (lt != null) {
        int row = lt.lookupAddress(addr);
        if (row >= 0) {
          LineTable.Row r = lt.rows().get(row);
          String path = lt.filePath(r.file(), compDir);
          if (path != null) frames.add(new Frame(BAD, path, r.line()));
        }
      }
      return frames;
    }
    long callFile = 0, callLine = 0;
    for (int i = 0; i < chain.size(); i++) {
      Die d = chain.get(i);
      String name = d.linkageName();
      if (name == null) name = d.shortName();
      if (name == null) name = BAD;
      String file = BAD;
      long line = 0;
      if (i == 0) {
        if (lt != null) {
          int row = lt.lookupAddress(addr);
          if (row >= 0) {
            LineTable.Row r = lt.rows().get(row);
            String path = lt.filePath(r.file(), compDir);
            if (path != null) {
              file = path;
              line = r.line();
            }
          }
        }
      } else {
        if (lt != null) {
          String path = lt.filePath(callFile, compDir);
          if (path != null) file = path;
        }
        line = callLine;
      }
      if (i + 1 < chain.size()) {
        AttributeValue cf = d.find(AT_CALL_FILE);
        AttributeValue cl = d.find(AT_CALL_LINE);
        callFile = cf == null || cf.asUnsigned() == null ? 0 : cf.asUnsigned();
        callLine = cl == null || cl.asUnsigned() == null ? 0 : cl.asUnsigned() & 0xffffffffL;
      }
      frames.add(new Frame(name, file, line & 0xffffffffL));
    }
    return frames;
  }

  private DwarfUnit unitFor(long addr) {
    int lo = 0, hi = cuRanges.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(addr, cuRanges.get(mid)[0]) < 0) hi = mid;
      else lo = mid + 1;
    }
    for (int i = lo - 1; i >= 0; i--) {
      long[] r = cuRanges.get(i);
      if (Long.compareUnsigned(addr, r[1]) < 0) return cuOfRange.get(i);
    }
    return null;
  }

  private LineTable lineTable(DwarfUnit u) {
    Object v = lineTables.computeIfAbsent(u, k -> {
      DebugLineOffset off = k.stmtList();
      LineTable t = off == null ? null : dwarf.lineTable(off, k.addressSize());
      return t == null ? Boolean.FALSE : t;
    });
    return v instanceof LineTable t ? t : null;
  }

  private static String compDir(DwarfUnit u) {
    return u.unitDie().find(AT_COMP_DIR) instanceof AttributeValue.Str s ? s.value() : "";
  }

  /** llvm's getInlinedChainForAddress: deepest subroutine DIE first, up to its subprogram. */
  private List<Die> inlinedChain(DwarfUnit skeletonOrUnit, long addr) {
    DwarfUnit u = splitUnits.computeIfAbsent(skeletonOrUnit, k -> {
      DwarfUnit split = k.dwoId() != null ? dwarf.splitUnit(k) : null;
      return split != null ? split : k; // llvm: the split unit's subroutines when the .dwo loads
    });
    TreeMap<Long, long[]> map = dieMaps.computeIfAbsent(u, DwarfVerifier::addressDieMap);
    List<Die> chain = new ArrayList<>();
    Map.Entry<Long, long[]> e = map.floorEntry(addr);
    if (e == null || Long.compareUnsigned(addr, e.getValue()[0]) >= 0) return chain;
    int i = (int) e.getValue()[1];
    while (i >= 0) {
      int tag = u.tag(i);
      if (tag == TAG_SUBPROGRAM) {
        chain.add(new Die(u, i));
        break;
      }
      if (tag == TAG_INLINED_SUBROUTINE) chain.add(new Die(u, i));
      i = u.parent(i);
    }
    return chain;
  }

  /** llvm's updateAddressDieMap: start → {end, DIE index}; nested DIEs split their parents' ranges. */
  private static TreeMap<Long, long[]> addressDieMap(DwarfUnit u) {
    TreeMap<Long, long[]> map = new TreeMap<>(Long::compareUnsigned);
    for (int i = 0, n = u.dieCount(); i < n; i++) {
      int tag = u.tag(i);
      if (tag != TAG_SUBPROGRAM && tag != TAG_INLINED_SUBROUTINE) continue;
      List<AddressRange> ranges;
      try {
        ranges = new Die(u, i).addressRanges();
      } catch (RuntimeException ex) {
        continue;
      }
      for (AddressRange r : ranges) {
        long lo = r.start(), hi = r.end();
        if (lo == hi) continue;
        Map.Entry<Long, long[]> b = map.floorEntry(lo);
        if (b != null && Long.compareUnsigned(lo, b.getValue()[0]) < 0) {
          long[] bv = b.getValue();
          if (Long.compareUnsigned(hi, bv[0]) < 0) map.put(hi, new long[] {bv[0], bv[1]});
          if (Long.compareUnsigned(lo, b.getKey()) > 0) map.put(b.getKey(), new long[] {lo, bv[1]});
        }
        map.put(lo, new long[] {hi, i});
      }
    }
    return map;
  }
}
