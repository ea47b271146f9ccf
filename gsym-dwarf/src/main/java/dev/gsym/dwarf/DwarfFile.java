package dev.gsym.dwarf;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The DWARF of one object: its units (in .debug_info order), abbreviation and line-table caches. */
public final class DwarfFile {
  private final DwarfSections sections;
  // concurrent: units are converted on several threads (--num-threads)
  private final Map<Long, AbbreviationSet> abbrevCache = new ConcurrentHashMap<>();
  private final Map<Long, LineTable> lineTables = new ConcurrentHashMap<>();
  private final List<DwarfUnit> units;

  public DwarfFile(DwarfSections sections) {
    this.sections = sections;
    List<DwarfUnit> us = new ArrayList<>();
    ByteView info = sections.info();
    long off = 0;
    while (off < info.size()) {
      DwarfUnit u = new DwarfUnit(this, off);
      us.add(u);
      off = u.endOffset();
    }
    this.units = Collections.unmodifiableList(us);
  }

  public DwarfSections sections() {
    return sections;
  }

  public List<DwarfUnit> units() {
    return units;
  }

  /**
   * An abbreviation table by code; {@code byCode} indexes it densely when the codes are small (they
   * are 1..n in practice: no boxing per DIE), else it is empty and {@code map} is used.
   */
  record AbbreviationSet(Map<Long, Abbreviation> map, Abbreviation[] byCode) {
    static AbbreviationSet of(Map<Long, Abbreviation> m) {
      long max = 0;
      for (long code : m.keySet()) max = Math.max(max, code);
      if (max > 4L * m.size() + 64) return new AbbreviationSet(m, new Abbreviation[0]);
      Abbreviation[] a = new Abbreviation[(int) max + 1];
      for (Map.Entry<Long, Abbreviation> e : m.entrySet()) a[(int) (long) e.getKey()] = e.getValue();
      return new AbbreviationSet(m, a);
    }
  }

  /** The abbreviation table at {@code offset} of .debug_abbrev (parsed once, shared by units). */
  AbbreviationSet abbreviations(long offset) {
    return abbrevCache.computeIfAbsent(offset, o -> AbbreviationSet.of(Abbreviation.parseSet(sections.abbrev(), o)));
  }

  /** The NUL-terminated string at {@code offset} of a string section. */
  String string(ByteView sec, long offset) {
    if (offset < 0 || offset >= sec.size()) throw sec.error(Math.max(0, Math.min(offset, sec.size())), "string offset 0x" + Long.toHexString(offset) + " past end of section");
    return sec.cString(offset);
  }

  /** The DIE at an absolute .debug_info offset, or null. */
  public Die dieAt(long offset) {
    int lo = 0, hi = units.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      DwarfUnit u = units.get(mid);
      if (offset < u.offset()) hi = mid - 1;
      else if (offset >= u.endOffset()) lo = mid + 1;
      else return u.dieAt(offset);
    }
    return null;
  }

  /** The line table at {@code offset} of .debug_line (parsed once). */
  public LineTable lineTable(long offset, int addressSize) {
    return lineTables.computeIfAbsent(offset, o -> LineTable.parse(this, o, addressSize));
  }

  /** Forgets the parsed line table at {@code offset} (it is parsed again if asked for). */
  public void releaseLineTable(long offset) {
    lineTables.remove(offset);
  }
}
