package dev.gsym.dwarf;

import dev.gsym.io.ByteView;
import dev.gsym.io.GsymFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The DWARF of one object: its units (in .debug_info order), abbreviation and line-table caches,
 * and the split-DWARF ({@code .dwo}) files its skeleton units refer to, opened on demand and closed
 * with this file.
 */
public final class DwarfFile implements AutoCloseable {
  private final DwarfSections sections;
  /** The object file, for finding .dwo files beside it; null if unknown. */
  private final Path objectPath;
  /** .dwo files by path; an empty Optional for a path that could not be read. */
  private final Map<Path, Optional<DwarfFile>> dwoFiles = new ConcurrentHashMap<>();
  private final List<ElfFile> opened = new ArrayList<>();
  // concurrent: units are converted on several threads (--num-threads)
  private final Map<Long, AbbreviationSet> abbrevCache = new ConcurrentHashMap<>();
  private final Map<Long, LineTable> lineTables = new ConcurrentHashMap<>();
  private final List<DwarfUnit> units;

  public DwarfFile(DwarfSections sections) {
    this(sections, null);
  }

  /** @param objectPath the file the sections come from (split units are also looked for beside it) */
  public DwarfFile(DwarfSections sections, Path objectPath) {
    this(sections, objectPath, Map.of());
  }

  /**
   * As {@link #DwarfFile(DwarfSections, Path)}, with abbreviation sets already parsed from the same
   * .debug_abbrev bytes ({@link #parseAbbreviationsInBackground}), by offset.
   */
  DwarfFile(DwarfSections sections, Path objectPath, Map<Long, Map<Long, Abbreviation>> abbrevSets) {
    this(sections, objectPath, abbrevSets, Map.of());
  }

  /**
   * As {@link #DwarfFile(DwarfSections, Path, Map)}, with line tables already parsed from the same
   * .debug_line ({@link LineTablePreparser}), by offset; each is dropped when its unit is done, as
   * line tables parsed here are.
   */
  DwarfFile(DwarfSections sections, Path objectPath, Map<Long, Map<Long, Abbreviation>> abbrevSets,
      Map<Long, LineTable> lineTables) {
    this.sections = sections;
    this.objectPath = objectPath;
    abbrevSets.forEach((off, set) -> abbrevCache.put(off, AbbreviationSet.of(set)));
    this.lineTables.putAll(lineTables);
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

  /**
   * Starts parsing every abbreviation set of {@code elf}'s .debug_abbrev on another thread (it
   * inflates the section if nobody has yet), so that it overlaps the inflation of .debug_info;
   * null when there is nothing to overlap (one processor, no section).
   */
  static java.util.concurrent.FutureTask<Map<Long, Map<Long, Abbreviation>>> parseAbbreviationsInBackground(ElfFile elf) {
    ElfFile.Section s = elf.section(".debug_abbrev");
    if (s == null || Runtime.getRuntime().availableProcessors() < 2) return null;
    var task = new java.util.concurrent.FutureTask<Map<Long, Map<Long, Abbreviation>>>(() -> {
      try {
        return Abbreviation.parseAll(elf.data(s));
      } catch (RuntimeException | Error e) {
        return Map.of(); // parsed again, and reported, when a unit needs it
      }
    });
    Thread.ofPlatform().daemon().name("gsym-abbrev").start(task);
    return task;
  }

  /** The abbreviation table at {@code offset} of .debug_abbrev (parsed once, shared by units). */
  AbbreviationSet abbreviations(long offset) {
    return abbrevCache.computeIfAbsent(offset, o -> AbbreviationSet.of(Abbreviation.parseSet(sections.abbrev(), o)));
  }

  /** The NUL-terminated string at {@code offset} of a string section. */
  String string(ByteView sec, long offset) {
    if (offset < 0 || offset >= sec.size()) throw sec.error(Math.max(0, Math.min(offset, sec.size())), "string offset 0x" + Long.toHexString(offset) + " past end of section");
    return strings.get().get(sec, offset);
  }

  /**
   * Recently read strings, per thread: every unit's line table header names the same directories
   * and headers through the same .debug_line_str offsets, and names repeat across DIEs. A
   * direct-mapped table of {@value StringCache#SLOTS} entries keyed by section and offset.
   */
  private final ThreadLocal<StringCache> strings = ThreadLocal.withInitial(StringCache::new);

  private static final class StringCache {
    static final int SLOTS = 1 << 13;
    final ByteView[] secs = new ByteView[SLOTS];
    final long[] offsets = new long[SLOTS];
    final String[] values = new String[SLOTS];

    String get(ByteView sec, long offset) {
      int i = (int) ((offset * 0x9E3779B97F4A7C15L) >>> 51) & (SLOTS - 1);
      if (secs[i] == sec && offsets[i] == offset) return values[i];
      String v = sec.cString(offset);
      secs[i] = sec;
      offsets[i] = offset;
      values[i] = v;
      return v;
    }
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

  /**
   * The split unit of a skeleton unit, from the .dwo file its DW_AT_dwo_name (or
   * DW_AT_GNU_dwo_name) names: an absolute path, else relative to DW_AT_comp_dir, else the name (or
   * its last component) beside the object file; the unit with the skeleton's DWO id. Null if there
   * is no such file or unit (the caller warns as llvm does).
   */
  public DwarfUnit splitUnit(DwarfUnit skeleton) {
    Long id = skeleton.dwoId();
    if (id == null) return null;
    String name = dwoName(skeleton);
    if (name == null || name.isEmpty()) return null;
    String compDir = skeleton.unitDie().find(DwarfConstants.AT_COMP_DIR) instanceof AttributeValue.Str s ? s.value() : null;
    for (Path p : dwoCandidates(name, compDir)) {
      DwarfFile dwo = dwoFiles.computeIfAbsent(p.toAbsolutePath().normalize(), this::openDwo).orElse(null);
      if (dwo == null) continue;
      for (DwarfUnit u : dwo.units()) {
        if (u.unitType() != DwarfUnit.UT_TYPE && u.unitType() != DwarfUnit.UT_SPLIT_TYPE && id.equals(u.dwoId())) {
          u.attachSkeleton(skeleton);
          return u;
        }
      }
    }
    return null;
  }

  /** DW_AT_dwo_name or DW_AT_GNU_dwo_name of a skeleton unit, or null. */
  public static String dwoName(DwarfUnit skeleton) {
    Die cu = skeleton.unitDie();
    AttributeValue v = cu.find(DwarfConstants.AT_DWO_NAME);
    if (v == null) v = cu.find(DwarfConstants.AT_GNU_DWO_NAME);
    return v instanceof AttributeValue.Str s ? s.value() : null;
  }

  private List<Path> dwoCandidates(String name, String compDir) {
    List<Path> out = new ArrayList<>();
    try {
      Path n = Path.of(name);
      if (n.isAbsolute()) {
        out.add(n);
      } else {
        if (compDir != null && !compDir.isEmpty()) out.add(Path.of(compDir).resolve(n));
        else out.add(n);
      }
      Path dir = objectPath == null ? null : objectPath.toAbsolutePath().getParent();
      if (dir != null) {
        if (!n.isAbsolute()) out.add(dir.resolve(n));
        if (n.getFileName() != null) out.add(dir.resolve(n.getFileName()));
      }
    } catch (java.nio.file.InvalidPathException e) {
      // a name that is no path on this system: no candidates
    }
    return out;
  }

  private Optional<DwarfFile> openDwo(Path p) {
    if (!Files.isRegularFile(p)) return Optional.empty();
    ElfFile elf = null;
    try {
      elf = ElfFile.open(p);
      DwarfFile f = new DwarfFile(DwarfSections.ofDwo(elf, sections), p);
      synchronized (opened) {
        opened.add(elf);
      }
      return Optional.of(f);
    } catch (IOException | GsymFormatException e) {
      // unreadable or malformed: treated as missing (llvm warns and uses the skeleton)
      if (elf != null) elf.close();
      return Optional.empty();
    }
  }

  /** Closes the .dwo files this file opened. */
  @Override
  public void close() {
    synchronized (opened) {
      for (ElfFile e : opened) e.close();
      opened.clear();
    }
  }

  /** Forgets the parsed line table at {@code offset} (it is parsed again if asked for). */
  public void releaseLineTable(long offset) {
    lineTables.remove(offset);
  }
}
