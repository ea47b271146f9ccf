package dev.gsym.dwarf.transform;

import static dev.gsym.dwarf.read.DwarfConstants.*;

import dev.gsym.Progress;
import dev.gsym.dwarf.read.AttributeValue;
import dev.gsym.dwarf.read.DebugLineOffset;
import dev.gsym.dwarf.read.Die;
import dev.gsym.dwarf.read.DwarfFile;
import dev.gsym.dwarf.read.DwarfUnit;
import dev.gsym.dwarf.read.Form;
import dev.gsym.format.AddressRange;
import dev.gsym.format.AddressRanges;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.internal.concurrent.OrderedPipeline;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns DWARF subprograms into FunctionInfos, unit by unit in .debug_info order and DIE order
 * (llvm-gsymutil's DwarfTransformer with one thread). Only calls insertString, insertFile and
 * addFunctionInfo on the creator, in the order LLVM does, so string and file tables match.
 */
public final class DwarfTransformer {
  /** Depth bound for inline trees and declaration-context walks. */
  static final int MAX_DEPTH = 256;

  private final DwarfFile dwarf;
  private final GsymCreator gsym;
  private final Diagnostics out;

  private final boolean quiet;
  private boolean dwarfCallSites;
  private Progress progress = Progress.NONE;

  public DwarfTransformer(DwarfFile dwarf, GsymCreator gsym, Diagnostics out) {
    this(dwarf, gsym, out, false);
  }

  /** As llvm's --dwarf-callsites: record the DW_TAG_call_site children of each subprogram (§5.4). */
  public DwarfTransformer dwarfCallSites(boolean on) {
    this.dwarfCallSites = on;
    return this;
  }

  /** Hears (units converted, units to convert) after each unit, on the calling thread. */
  public DwarfTransformer progress(Progress p) {
    this.progress = p;
    return this;
  }

  /** @param quiet as llvm's --quiet: no warning for ranges that start outside executable sections */
  public DwarfTransformer(DwarfFile dwarf, GsymCreator gsym, Diagnostics out, boolean quiet) {
    this.dwarf = dwarf;
    this.gsym = gsym;
    this.out = out;
    this.quiet = quiet;
  }

  /** Per-unit state: line table, compilation directory, language, DWARF→GSYM file cache. */
  private final class CuInfo {
    final dev.gsym.dwarf.read.LineTable lineTable;
    final String compDir;
    final long language;
    final int[] fileCache;
    /** Where the unit's line table starts, or null. */
    final DebugLineOffset lineOffset;

    CuInfo(DwarfUnit u) {
      Die cu = u.unitDie();
      lineOffset = u.stmtList();
      lineTable = lineOffset == null ? null : dwarf.lineTable(lineOffset, u.addressSize());
      compDir = cu.find(AT_COMP_DIR) instanceof AttributeValue.Str s ? s.value() : "";
      Long lang = cu.find(AT_LANGUAGE) == null ? null : cu.find(AT_LANGUAGE).asUnsigned();
      language = lang == null ? 0 : lang;
      fileCache = lineTable == null ? new int[0] : new int[lineTable.files().size() + 1];
      Arrays.fill(fileCache, -1);
    }

    /** GSYM file index for a DWARF file index, or -1 if invalid. */
    int fileIndex(long dwarfIdx) {
      if (lineTable == null || dwarfIdx < 0 || dwarfIdx >= fileCache.length) return -1;
      int i = (int) dwarfIdx;
      if (fileCache[i] >= 0) return fileCache[i];
      String path = lineTable.filePath(dwarfIdx, compDir);
      int g = path == null ? 0 : gsym.insertFile(path);
      fileCache[i] = g;
      return g;
    }
  }

  /** Converts every unit on this thread; returns the number of FunctionInfos added. */
  public int convert() {
    return convert(1, null);
  }

  /**
   * Converts every unit on {@code threads} threads: the calling thread and at most {@code threads -
   * 1} tasks on {@code executor}, through an {@link OrderedPipeline}. Units are handed to the
   * creator and the log in .debug_info order, so the output is the same as {@link #convert()}'s for
   * any thread count. The calling thread converts the next unit in order itself, straight into the
   * creator, unless a worker has taken it; a worker's unit goes into a scratch creator and log that
   * are merged when its turn comes. While the next unit is on a worker, the calling thread converts
   * a later one into a scratch creator rather than wait. At most four units per thread are in
   * flight; a unit's state is dropped once it is handed over. When this returns or throws, no unit
   * is being converted on the executor.
   */
  public int convert(int threads, java.util.concurrent.Executor executor) {
    List<DwarfUnit> units = units();
    int before = gsym.numFunctionInfos();
    int workers = threads <= 1 || units.size() <= 1 ? 0 : threads - 1;
    int[] done = {0};
    OrderedPipeline.Stage<DwarfUnit, Part> stage = new OrderedPipeline.Stage<>() {
      @Override
      public Part compute(DwarfUnit u) {
        GsymCreator part = gsym.scratch();
        StringBuilder log = new StringBuilder();
        Diagnostics d = out.isVerbose() ? new Diagnostics(log) : Diagnostics.silent();
        new DwarfTransformer(dwarf, part, d, quiet).dwarfCallSites(dwarfCallSites).convertUnit(u);
        return new Part(part, log, d);
      }

      @Override
      public void consume(DwarfUnit u, Part p) {
        if (!p.log().isEmpty()) out.log(p.log().toString());
        out.merge(p.diag());
        gsym.addAll(p.creator());
        progress.update(++done[0], units.size());
      }

      @Override
      public void computeAndConsume(DwarfUnit u) { // as the sequential loop would
        convertUnit(u);
        progress.update(++done[0], units.size());
      }
    };
    try (var pipeline = new OrderedPipeline<>(executor, workers, Math.max(1, threads * 4), stage)) {
      for (DwarfUnit u : units) pipeline.submit(u);
      pipeline.drain();
    }
    return gsym.numFunctionInfos() - before;
  }

  /** A unit converted into a scratch creator and log, for the in-order merge. */
  private record Part(GsymCreator creator, StringBuilder log, Diagnostics diag) {}

  private List<DwarfUnit> units() {
    List<DwarfUnit> list = new ArrayList<>();
    for (DwarfUnit u : dwarf.units()) {
      if (u.unitType() == DwarfUnit.UT_COMPILE || u.unitType() == DwarfUnit.UT_PARTIAL || u.unitType() == DwarfUnit.UT_SKELETON) list.add(u);
    }
    return list;
  }

  /**
   * Converts one unit, then drops its DIE tree and line table: memory follows the units in flight.
   * A skeleton unit's DIEs come from its split unit in the .dwo file when that can be loaded (llvm's
   * getNonSkeletonUnit); line table, compilation directory and language stay the skeleton's, as in
   * llvm's CUInfo.
   */
  private void convertUnit(DwarfUnit u) {
    CuInfo cui = null;
    DwarfUnit dies = u;
    try {
      if (u.dwoId() != null) {
        DwarfUnit split = dwarf.splitUnit(u);
        if (split != null) {
          dies = split;
        } else {
          String name = DwarfFile.dwoName(u);
          out.report("warning: Unable to retrieve DWO .debug_info section for some object files. (Remove the --quiet flag for full output)",
              sb -> sb.append("warning: Unable to retrieve DWO .debug_info section for ").append(name == null ? "" : name).append('\n'));
        }
      }
      cui = new CuInfo(u);
      computeInlineFlags(dies);
      // DIE indexes are in .debug_info order, which is the tree's pre-order: no recursion needed.
      for (int i = 0, n = dies.dieCount(); i < n; i++) {
        if (dies.tag(i) == TAG_SUBPROGRAM) handleSubprogram(cui, new Die(dies, i));
      }
    } finally {
      if (nameCacheUnit == dies) {
        nameCacheUnit = null;
        nameCache = null;
      }
      if (dies != u) dies.release();
      u.release();
      if (cui != null && cui.lineOffset != null) dwarf.releaseLineTable(cui.lineOffset);
    }
  }

  private void handleSubprogram(CuInfo cui, Die die) {
    List<AddressRange> ranges = die.addressRanges();
    if (ranges.isEmpty()) return;
    Integer name = qualifiedNameIndex(die, cui.language);
    if (name == null) {
      out.report("Function with no name", sb -> sb.append("error: function at 0x").append(Long.toHexString(die.offset())).append(" has no name\n"));
      return;
    }
    long tomb = die.unit().addressSize() == 4 ? 0xffffffffL : die.unit().addressSize() == 8 ? -1L : (1L << (8 * die.unit().addressSize())) - 1;
    AddressRanges all = new AddressRanges();
    for (AddressRange r : ranges) all.insert(r);
    for (AddressRange r : ranges) {
      if (Long.compareUnsigned(r.start(), r.end()) >= 0 || r.start() == tomb) break;
      if (!gsym.isValidTextAddress(r.start())) {
        if (r.start() != 0 && !quiet) {
          out.report("Address range start not in executable section", sb -> sb.append("warning: DIE has an address range whose start address is not in any executable sections (")
              .append(r).append(") and will not be processed:\n"));
        }
        break;
      }
      LineTable lt = cui.lineTable == null ? null : lineTable(cui, die, r);
      InlineInfo inline = null;
      if (hasInlineInfo(die, 0)) {
        AddressRanges top = new AddressRanges();
        top.insert(r);
        List<InlineInfo> children = new ArrayList<>();
        // [0]: no inline range belonged to another range of this subprogram; [1]: a non-empty inline range was seen.
        boolean[] warnIfEmpty = {true, false};
        for (Die c = die.firstChild(); c != null; c = c.nextSibling()) parseInlineInfo(cui, c, 1, top, children, all, warnIfEmpty);
        if (!children.isEmpty()) {
          inline = new InlineInfo(List.of(r), name, 0, 0, children);
        } else if (warnIfEmpty[0] && warnIfEmpty[1]) {
          out.report("DIE contains inline functions with no valid ranges", sb -> sb.append("warning: DIE contains inline function information that has no valid ranges, removing inline information:\n"));
        }
      }
      CallSiteInfoCollection calls = dwarfCallSites ? callSites(die, r) : null;
      gsym.addFunctionInfo(new FunctionInfo(r, name, lt, inline, null, calls));
    }
  }

  /**
   * LLVM's parseCallSiteInfoFromDwarf: every direct DW_TAG_call_site child whose DW_AT_call_return_pc
   * lies in {@code r}; the regex is the call origin's linkage name, else its short name; flags 0.
   */
  private CallSiteInfoCollection callSites(Die die, AddressRange r) {
    List<CallSiteInfo> list = new ArrayList<>();
    for (Die c : die.children()) {
      if (c.tag() != TAG_CALL_SITE) continue;
      if (!(c.findRecursively(AT_CALL_RETURN_PC) instanceof AttributeValue.Address pc) || !r.contains(pc.value())) continue;
      List<Integer> regex = new ArrayList<>(1);
      Die origin = c.ref(AT_CALL_ORIGIN);
      if (origin != null) {
        String linkage = origin.linkageName();
        String shortName = origin.shortName();
        if (linkage != null) regex.add(gsym.insertString(linkage));
        else if (shortName != null) regex.add(gsym.insertString(shortName));
      }
      list.add(new CallSiteInfo(pc.value() - r.start(), 0, regex));
    }
    return list.isEmpty() ? null : new CallSiteInfoCollection(list);
  }

  // LLVM's hasInlineInfo(Die, Depth), precomputed per unit in one backwards pass over the DIEs:
  // below[i] = some child subtree has an inlined subroutine (not looking into nested subprograms),
  // has[i] = the answer for depth > 0.
  private DwarfUnit flagsUnit;
  private boolean[] inlineBelow;
  private boolean[] inlineHas;

  private void computeInlineFlags(DwarfUnit u) {
    int n = u.dieCount();
    boolean[] below = new boolean[n];
    boolean[] has = new boolean[n];
    for (int i = n - 1; i >= 0; i--) {
      int t = u.tag(i);
      has[i] = t == TAG_INLINED_SUBROUTINE || (t != TAG_SUBPROGRAM && below[i]);
      int p = u.parent(i);
      if (has[i] && p >= 0) below[p] = true;
    }
    flagsUnit = u;
    inlineBelow = below;
    inlineHas = has;
  }

  private boolean hasInlineInfo(Die die, int depth) {
    if (die.unit() != flagsUnit) computeInlineFlags(die.unit());
    if (depth == 0) return die.tag() == TAG_INLINED_SUBROUTINE || inlineBelow[die.index()];
    return inlineHas[die.index()];
  }

  private void parseInlineInfo(CuInfo cui, Die die, int depth, AddressRanges parentRanges, List<InlineInfo> parentChildren,
      AddressRanges allParentRanges, boolean[] warnIfEmpty) {
    if (depth > MAX_DEPTH || !hasInlineInfo(die, depth)) return;
    int tag = die.tag();
    if (tag == TAG_INLINED_SUBROUTINE) {
      AddressRanges mine = new AddressRanges();
      AddressRanges allInline = new AddressRanges();
      for (AddressRange r : die.addressRanges()) {
        if (Long.compareUnsigned(r.start(), r.end()) < 0) {
          warnIfEmpty[1] = true;
          allInline.insert(r);
          if (parentRanges.contains(r)) {
            mine.insert(r);
          } else if (allParentRanges.contains(r)) {
            // In another range of the same subprogram: that range's FunctionInfo gets it; no warning.
            warnIfEmpty[0] = false;
          } else {
            out.report("Inlined function die range not in parent", sb -> sb.append("error: inlined function DIE at 0x").append(Long.toHexString(die.offset()))
                .append(" has a range [").append(r).append(") that isn't contained in any parent address ranges, this inline range will be removed.\n"));
          }
        }
      }
      if (mine.isEmpty()) return;
      Integer name = inlinedName(die, cui.language);
      AttributeValue cf = die.findRecursively(AT_CALL_FILE);
      long dwarfFile = cf == null || cf.asUnsigned() == null ? 0xffffffffL : cf.asUnsigned();
      int callFile = cui.fileIndex(dwarfFile);
      if (callFile < 0) {
        out.report("Inlined function die has invalid file index in DW_AT_call_file", sb -> sb.append("error: inlined function DIE at 0x").append(Long.toHexString(die.offset()))
            .append(" has an invalid file index ").append(dwarfFile).append(" in its DW_AT_call_file attribute, this inline entry and all children will be removed.\n"));
        return;
      }
      AttributeValue cl = die.find(AT_CALL_LINE);
      int callLine = cl == null || cl.asUnsigned() == null ? 0 : (int) (long) cl.asUnsigned();
      List<InlineInfo> children = new ArrayList<>();
      for (Die c = die.firstChild(); c != null; c = c.nextSibling()) parseInlineInfo(cui, c, depth + 1, mine, children, allInline, warnIfEmpty);
      parentChildren.add(new InlineInfo(mine.toList(), name == null ? 0 : name, callFile, callLine, children));
      return;
    }
    if (tag == TAG_SUBPROGRAM || tag == TAG_LEXICAL_BLOCK) {
      for (Die c = die.firstChild(); c != null; c = c.nextSibling()) {
        parseInlineInfo(cui, c, depth + 1, parentRanges, parentChildren, allParentRanges, warnIfEmpty);
      }
    }
  }

  /** The GSYM line table for one range of a subprogram (§9.5), or null. */
  private LineTable lineTable(CuInfo cui, Die die, AddressRange fr) {
    long start = fr.start();
    long end = fr.end();
    long stmtSeq = -1;
    if (die.find(AT_LLVM_STMT_SEQUENCE) instanceof AttributeValue.SecOffset so) stmtSeq = so.offset();
    int[] rows = cui.lineTable.lookupAddressRange(start, end - start, stmtSeq);
    if (rows == null) {
      Die.Found f = die.findRecursivelyWithDie(AT_DECL_FILE);
      String path = null;
      // llvm's DWARFDie::getDeclFile: a DW_FORM_implicit_const value carries no unit, so it names no
      // file (gcc's DWARF 5 abbreviations use it; seen whenever the line table has no rows for the
      // function, as in every relocatable object).
      if (f != null && f.value().asUnsigned() != null && f.value().form() != Form.IMPLICIT_CONST.code()) {
        CuInfo declCu = f.die().unit() == die.unit() ? cui : new CuInfo(f.die().unit());
        if (declCu.lineTable != null) path = declCu.lineTable.filePath(f.value().asUnsigned(), declCu.compDir);
      }
      if (path == null || path.isEmpty()) {
        if (f != null) {
          long idx = f.value().asUnsigned() == null ? 0xffffffffL : f.value().asUnsigned();
          out.report("Invalid file index in DW_AT_decl_file", sb -> sb.append("error: function DIE at 0x")
              .append(String.format("%08x", die.offset())).append(" has an invalid file index ").append(idx)
              .append(" in its DW_AT_decl_file attribute, unable to create a single line entry from the DW_AT_decl_file/DW_AT_decl_line attributes.\n"));
        }
        return null;
      }
      AttributeValue line = die.findRecursively(AT_DECL_LINE);
      if (line == null || line.asUnsigned() == null) return null;
      return new LineTable(List.of(new LineEntry(start, gsym.insertFile(path), (int) (long) line.asUnsigned())));
    }
    List<LineEntry> entries = new ArrayList<>();
    dev.gsym.dwarf.read.LineTable all = cui.lineTable;
    long prevAddr = 0;
    for (int ri : rows) {
      long rowAddr = all.rowAddress(ri);
      int rowLine = (int) all.rowLine(ri);
      int file = cui.fileIndex(all.rowFile(ri));
      if (file < 0) {
        out.report("Invalid file index in line table", sb -> sb.append("error: function DIE at 0x").append(Long.toHexString(die.offset()))
            .append(" has a line entry with invalid DWARF file index, this entry will be removed:\n"));
        continue;
      }
      long addr = rowAddr;
      if (Long.compareUnsigned(addr, start) < 0) {
        out.report("Start address lies between valid Row table entries", sb -> sb.append("error: start address lies between valid Row table entries\n"));
        addr = start;
      } else if (Long.compareUnsigned(addr, end) >= 0) {
        continue; // rows at or past the function end (end_sequence rows too) are skipped
      }
      if (ri != rows[0] && Long.compareUnsigned(rowAddr, prevAddr) < 0) {
        LineEntry first = entries.isEmpty() ? null : entries.getFirst();
        boolean dup = first != null && first.address() == addr && first.file() == file && first.line() == rowLine;
        out.report(dup ? "Duplicate line table detected" : "Non-monotonically increasing addresses",
            sb -> sb.append(dup ? "warning: duplicate line table detected for DIE:\n" : "error: line table has addresses that do not monotonically increase:\n"));
        break;
      }
      LineEntry last = entries.isEmpty() ? null : entries.getLast();
      if (last != null && last.file() == file && last.line() == rowLine) continue;
      if (all.rowEndsSequence(ri)) {
        prevAddr = 0;
      } else {
        entries.add(new LineEntry(addr, file, rowLine));
        prevAddr = rowAddr;
      }
    }
    return entries.isEmpty() ? null : new LineTable(entries);
  }

  // Names of inlined subroutines by the index of their abstract origin in the unit being converted:
  // a function inlined 500 times is named once. MIN_VALUE: not computed yet; -1: no name.
  private DwarfUnit nameCacheUnit;
  private int[] nameCache;

  /**
   * {@link #qualifiedNameIndex} for a DW_TAG_inlined_subroutine. One without name, linkage name or
   * specification of its own gets everything through its abstract origin, so every such DIE with
   * the same origin in this unit has the same name: it is computed once.
   */
  private Integer inlinedName(Die die, long language) {
    DwarfUnit u = die.unit();
    int i = die.index();
    if (u.has(i, AT_NAME) || u.has(i, AT_LINKAGE_NAME) || u.has(i, AT_MIPS_LINKAGE_NAME) || u.has(i, AT_SPECIFICATION)
        || !u.has(i, AT_ABSTRACT_ORIGIN)) {
      return qualifiedNameIndex(die, language);
    }
    Die origin = die.ref(AT_ABSTRACT_ORIGIN);
    if (origin == null || origin.unit() != u) return qualifiedNameIndex(die, language);
    if (nameCacheUnit != u) {
      nameCache = new int[u.dieCount()];
      java.util.Arrays.fill(nameCache, Integer.MIN_VALUE);
      nameCacheUnit = u;
    }
    int cached = nameCache[origin.index()];
    if (cached == Integer.MIN_VALUE) {
      Integer n = qualifiedNameIndex(die, language);
      cached = n == null ? -1 : n;
      nameCache[origin.index()] = cached;
    }
    return cached == -1 ? null : cached;
  }

  /** §9.4: linkage name, else short name qualified by its declaration contexts for C/C++. */
  private Integer qualifiedNameIndex(Die die, long language) {
    String linkage = die.linkageName();
    if (linkage != null && !linkage.isEmpty()) return gsym.insertString(linkage);
    String shortName = die.shortName();
    if (shortName == null || shortName.isEmpty()) return null;
    boolean qualify = language == LANG_C_PLUS_PLUS || language == LANG_C_PLUS_PLUS_03 || language == LANG_C_PLUS_PLUS_11
        || language == LANG_C_PLUS_PLUS_14 || language == LANG_OBJC_PLUS_PLUS || language == LANG_C;
    if (!qualify) return gsym.insertString(shortName);
    if (shortName.startsWith("_Z") && (shortName.contains(".isra.") || shortName.contains(".part."))) {
      return gsym.insertString(shortName);
    }
    Die ctx = parentDeclContext(die, 0);
    if (ctx != null) {
      String name = shortName;
      int guard = 0;
      while (ctx != null && guard++ < MAX_DEPTH) {
        String pn = ctx.shortName();
        if (pn != null && !pn.isEmpty()) {
          if (pn.startsWith("<") && pn.endsWith(">")) pn = "{" + pn.substring(1, pn.length() - 1) + "}";
          name = pn + "::" + name;
        }
        ctx = parentDeclContext(ctx, 0);
      }
      if (!name.isEmpty()) return gsym.insertString(name);
    }
    return gsym.insertString(shortName);
  }

  private static Die parentDeclContext(Die die, int depth) {
    return parentDeclContext(die, depth, new int[] {0});
  }

  /** LLVM's GetParentDeclContextDIE; {@code budget} bounds the total work on cyclic references. */
  private static Die parentDeclContext(Die die, int depth, int[] budget) {
    if (depth > MAX_DEPTH || ++budget[0] > 4 * MAX_DEPTH) return null;
    Die spec = die.ref(AT_SPECIFICATION);
    if (spec != null) {
      Die p = parentDeclContext(spec, depth + 1, budget);
      if (p != null) return p;
    }
    Die abs = die.ref(AT_ABSTRACT_ORIGIN);
    if (abs != null) {
      Die p = parentDeclContext(abs, depth + 1, budget);
      if (p != null) return p;
    }
    if (die.tag() == TAG_INLINED_SUBROUTINE) return null;
    Die parent = die.parent();
    if (parent == null) return null;
    return switch (parent.tag()) {
      case TAG_NAMESPACE, TAG_STRUCTURE_TYPE, TAG_UNION_TYPE, TAG_CLASS_TYPE, TAG_SUBPROGRAM -> parent;
      case TAG_LEXICAL_BLOCK -> parentDeclContext(parent, depth + 1, budget);
      default -> null;
    };
  }
}
