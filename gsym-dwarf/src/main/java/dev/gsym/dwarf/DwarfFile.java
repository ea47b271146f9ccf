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
  private final Map<Long, Map<Long, Abbreviation>> abbrevCache = new ConcurrentHashMap<>();
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

  Map<Long, Abbreviation> abbreviations(long offset) {
    return abbrevCache.computeIfAbsent(offset, o -> Abbreviation.parseSet(sections.abbrev(), o));
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
}
