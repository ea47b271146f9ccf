package dev.gsym.dwarf.read;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.object.ObjectFile;
import dev.gsym.internal.concurrent.Forked;
import dev.gsym.io.ByteView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The DWARF of one object: its units (in .debug_info order), abbreviation and line-table caches,
 * and the split-DWARF files its skeleton units refer to (a {@code .dwp} package beside the object,
 * else {@code .dwo} files), opened on demand and closed with this file. A package's units are
 * located through its {@code .debug_cu_index} (and, for DWARF 5, {@code .debug_tu_index}).
 */
public final class DwarfFile implements AutoCloseable {
  private final DwarfSections sections;
  /** The object file, for finding .dwo files beside it; null if unknown. */
  private final Path objectPath;
  /** .dwo files by path; an empty Optional for a path that could not be read. */
  private final Map<Path, Optional<DwarfFile>> dwoFiles = new ConcurrentHashMap<>();
  private final List<ElfFile> opened = new ArrayList<>();
  // concurrent: units are converted on several threads (--num-threads)
  private final Map<DebugAbbrevOffset, AbbreviationSet> abbrevCache = new ConcurrentHashMap<>();
  private final Map<DebugLineOffset, LineTable> lineTables = new ConcurrentHashMap<>();
  private final List<DwarfUnit> units;
  /** For a DWARF package with a (non-empty) .debug_cu_index: that index, which maps DWO ids to units. */
  private final UnitIndex cuIndex;
  /** The package {@code <object>.dwp} once looked for: empty if there is none (then .dwo files are used). */
  private volatile Optional<DwarfFile> dwp;

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
  DwarfFile(DwarfSections sections, Path objectPath, Map<DebugAbbrevOffset, Map<Long, Abbreviation>> abbrevSets) {
    this(sections, objectPath, abbrevSets, Map.of());
  }

  /**
   * As {@link #DwarfFile(DwarfSections, Path, Map)}, with line tables already parsed from the same
   * .debug_line ({@link LineTablePreparser}), by offset; each is dropped when its unit is done, as
   * line tables parsed here are.
   */
  DwarfFile(DwarfSections sections, Path objectPath, Map<DebugAbbrevOffset, Map<Long, Abbreviation>> abbrevSets,
      Map<DebugLineOffset, LineTable> lineTables) {
    this(sections, objectPath, abbrevSets, lineTables, null, null);
  }

  private DwarfFile(DwarfSections sections, Path objectPath, Map<DebugAbbrevOffset, Map<Long, Abbreviation>> abbrevSets,
      Map<DebugLineOffset, LineTable> lineTables, UnitIndex cuIndex, UnitIndex tuIndex) {
    this.sections = sections;
    this.objectPath = objectPath;
    abbrevSets.forEach((off, set) -> abbrevCache.put(off, AbbreviationSet.of(set)));
    this.lineTables.putAll(lineTables);
    this.cuIndex = cuIndex;
    this.units = Collections.unmodifiableList(cuIndex == null ? scanUnits() : indexedUnits(cuIndex, tuIndex));
  }

  /**
   * The DWARF of {@code elf} (an ELF or Mach-O file): its sections (compressed ones inflated), with the abbreviation sets
   * and line tables parsed ahead on {@code executor} while .debug_info inflates on this thread
   * (null: everything on this thread, nothing ahead). Split units are looked for beside the file
   * {@code elf} came from. None of this call's work runs on the executor once it returns or throws.
   */
  public static DwarfFile load(ObjectFile elf, java.util.concurrent.Executor executor) {
    Forked<Map<DebugAbbrevOffset, Map<Long, Abbreviation>>> abbrevs = executor == null ? null : parseAbbreviationsInBackground(elf, executor);
    LineTablePreparser lines = null;
    try {
      lines = executor == null ? null : LineTablePreparser.start(elf, executor);
      DwarfSections sections = DwarfSections.of(elf, executor);
      Map<DebugAbbrevOffset, Map<Long, Abbreviation>> parsed = abbrevs == null ? Map.of() : abbrevs.join();
      return new DwarfFile(sections, elf.path(), parsed, lines == null ? Map.of() : lines.finish());
    } finally {
      if (lines != null) lines.finish();
      if (abbrevs != null) abbrevs.cancelOrAwait();
    }
  }

  /** The units of .debug_info one after the other. */
  private List<DwarfUnit> scanUnits() {
    List<DwarfUnit> us = new ArrayList<>();
    ByteView info = sections.info();
    long off = 0;
    while (off < info.size()) {
      DwarfUnit u = new DwarfUnit(this, off);
      us.add(u);
      off = u.endOffset();
    }
    return us;
  }

  /**
   * A package's units, in .debug_info.dwo order: one per entry of the CU index and, for DWARF 5
   * (whose type units share .debug_info.dwo), of the TU index; each with its index entry. Their
   * contributions must lie inside .debug_info.dwo and not overlap.
   */
  private List<DwarfUnit> indexedUnits(UnitIndex cu, UnitIndex tu) {
    ByteView info = sections.info();
    List<UnitIndex.Entry> all = new ArrayList<>(cu.entries());
    if (tu != null && tu.version() == 5) all.addAll(tu.entries());
    for (UnitIndex.Entry e : all) {
      UnitIndex.Contribution c = e.info();
      if (c.offset() + c.length() > info.size()) {
        throw info.error(Math.min(c.offset(), info.size()), e.describe() + ": unit contribution [0x" + Long.toHexString(c.offset())
            + ", 0x" + Long.toHexString(c.offset() + c.length()) + ") is past the end of .debug_info.dwo (0x" + Long.toHexString(info.size()) + ")");
      }
    }
    all.sort(java.util.Comparator.comparingLong(e -> e.info().offset()));
    List<DwarfUnit> us = new ArrayList<>();
    long end = 0;
    for (UnitIndex.Entry e : all) {
      UnitIndex.Contribution c = e.info();
      if (!us.isEmpty() && c.offset() < end) {
        throw info.error(c.offset(), e.describe() + ": unit contribution at 0x" + Long.toHexString(c.offset())
            + " overlaps the unit at 0x" + Long.toHexString(us.getLast().offset()));
      }
      DwarfUnit u = new DwarfUnit(this, c.offset(), e);
      us.add(u);
      end = u.endOffset();
    }
    return us;
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
   * Starts parsing every abbreviation set of {@code elf}'s .debug_abbrev on {@code executor} (it
   * inflates the section if nobody has yet), so that it overlaps the inflation of .debug_info;
   * null when there is nothing to overlap (one processor, no section). A set that does not parse is
   * left out, to be parsed again, and reported, when a unit needs it.
   */
  static Forked<Map<DebugAbbrevOffset, Map<Long, Abbreviation>>> parseAbbreviationsInBackground(ObjectFile elf, java.util.concurrent.Executor executor) {
    if (!elf.hasDwarfSection(".debug_abbrev") || Runtime.getRuntime().availableProcessors() < 2) return null;
    return Forked.fork(executor, () -> {
      try {
        return Abbreviation.parseAll(elf.dwarfSection(".debug_abbrev"));
      } catch (RuntimeException | Error e) {
        return Map.of();
      }
    });
  }

  /** The abbreviation table at {@code offset} of .debug_abbrev (parsed once, shared by units). */
  AbbreviationSet abbreviations(DebugAbbrevOffset offset) {
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
  public LineTable lineTable(DebugLineOffset offset, int addressSize) {
    return lineTables.computeIfAbsent(offset, o -> LineTable.parse(this, o, addressSize));
  }

  /**
   * The split unit of a skeleton unit, found as llvm's DWARFUnit::parseDWO and
   * DWARFContext::getDWOContext find it. The skeleton needs a DWO id and a DWO name
   * (DW_AT_dwo_name in DWARF 5, DW_AT_GNU_dwo_name before). If the object's path + {@code .dwp}
   * opens as an ELF, that package answers for every skeleton: the unit its CU index gives the DWO
   * id (no index: the unit with that DWO id), and .dwo files are never looked at. Otherwise the
   * {@code .dwo} the name gives (an absolute path, else relative to DW_AT_comp_dir; then, our
   * extension, the name or its last component beside the object file): the unit with the
   * skeleton's DWO id. Null if there is no such file or unit (the caller warns as llvm does).
   */
  public DwarfUnit splitUnit(DwarfUnit skeleton) {
    Long id = skeleton.dwoId();
    if (id == null) return null;
    AttributeValue nameAttr = skeleton.unitDie().find(skeleton.version() >= 5 ? DwarfConstants.AT_DWO_NAME : DwarfConstants.AT_GNU_DWO_NAME);
    if (!(nameAttr instanceof AttributeValue.Str nameStr)) return null;
    DwarfFile pkg = packageFile();
    if (pkg != null) return attach(pkg.compileUnitFor(id), skeleton);
    String name = nameStr.value();
    if (name.isEmpty()) return null;
    String compDir = skeleton.unitDie().find(DwarfConstants.AT_COMP_DIR) instanceof AttributeValue.Str s ? s.value() : null;
    for (Path p : dwoCandidates(name, compDir)) {
      DwarfFile dwo = dwoFiles.computeIfAbsent(p.toAbsolutePath().normalize(), this::openDwo).orElse(null);
      if (dwo == null) continue;
      DwarfUnit u = dwo.compileUnitFor(id);
      if (u != null) return attach(u, skeleton);
    }
    return null;
  }

  private static DwarfUnit attach(DwarfUnit split, DwarfUnit skeleton) {
    if (split != null) split.attachSkeleton(skeleton);
    return split;
  }

  /**
   * The compile unit of this split file (.dwo or .dwp) for a DWO id: through the CU index if there
   * is one (as llvm, the unit at the entry's info offset, without comparing its own DWO id; null if
   * it is a type unit), else the first non-type unit whose DWO id matches.
   */
  DwarfUnit compileUnitFor(long id) {
    if (cuIndex != null) {
      UnitIndex.Entry e = cuIndex.find(id);
      if (e == null) return null;
      DwarfUnit u = unitAt(e.info().offset());
      return u == null || u.isTypeUnit() ? null : u;
    }
    for (DwarfUnit u : units) {
      if (!u.isTypeUnit() && Long.valueOf(id).equals(u.dwoId())) return u;
    }
    return null;
  }

  /** The unit that starts at {@code offset} of .debug_info, or null. */
  private DwarfUnit unitAt(long offset) {
    int lo = 0, hi = units.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long o = units.get(mid).offset();
      if (o < offset) lo = mid + 1;
      else if (o > offset) hi = mid - 1;
      else return units.get(mid);
    }
    return null;
  }

  /**
   * The package {@code <object path>.dwp}, opened on first use, or null if it does not open as an
   * ELF file (llvm then falls back to .dwo files for good). Malformed contents of a package that
   * opens are errors.
   */
  private DwarfFile packageFile() {
    Optional<DwarfFile> p = dwp;
    if (p == null) {
      synchronized (this) {
        p = dwp;
        if (p == null) {
          p = Optional.ofNullable(openPackage());
          dwp = p;
        }
      }
    }
    return p.orElse(null);
  }

  private DwarfFile openPackage() {
    if (objectPath == null) return null;
    Path path;
    try {
      path = Path.of(objectPath + ".dwp");
    } catch (java.nio.file.InvalidPathException e) {
      return null;
    }
    if (!Files.isRegularFile(path)) return null;
    ElfFile elf;
    try {
      elf = ElfFile.open(path);
    } catch (IOException | GsymFormatException e) {
      return null; // not an object file for llvm either: .dwo files are used
    }
    try {
      String what = "DWARF package " + path;
      UnitIndex cu = index(elf, ".debug_cu_index", what, false);
      UnitIndex tu = index(elf, ".debug_tu_index", what, true);
      DwarfFile f = new DwarfFile(DwarfSections.ofPackage(elf, sections, path.toString()), path, Map.of(), Map.of(),
          cu == null || cu.isEmpty() ? null : cu, tu);
      synchronized (opened) {
        opened.add(elf);
      }
      return f;
    } catch (RuntimeException | Error e) {
      elf.close();
      throw e;
    }
  }

  /** A package's unit index section, or null if it has none (or it is empty). */
  private static UnitIndex index(ElfFile elf, String name, String what, boolean typeUnits) {
    ElfFile.Section s = elf.section(name);
    if (s == null || s.size() == 0 || s.type() == ElfFile.SHT_NOBITS) return null;
    return UnitIndex.parse(elf.data(s), what + ": " + name, typeUnits);
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
  public void releaseLineTable(DebugLineOffset offset) {
    lineTables.remove(offset);
  }
}
