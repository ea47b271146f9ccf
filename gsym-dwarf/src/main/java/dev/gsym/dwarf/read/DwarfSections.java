package dev.gsym.dwarf.read;

import dev.gsym.elf.ElfFile;
import dev.gsym.object.ObjectFile;
import dev.gsym.internal.concurrent.Forked;
import dev.gsym.io.ByteView;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.function.LongToIntFunction;

/**
 * The DWARF sections of one object, as views (absent sections are empty views).
 * {@code lineRelocationSection} maps a .debug_line offset to the section index of the symbol a
 * relocation there resolved against, or -1 (llvm's SectionedAddress section of DW_LNE_set_address).
 */
public record DwarfSections(ByteView info, ByteView abbrev, ByteView str, ByteView lineStr, ByteView line,
    ByteView addr, ByteView strOffsets, ByteView ranges, ByteView rnglists, LongToIntFunction lineRelocationSection) {

  /** Sections without relocations. */
  public DwarfSections(ByteView info, ByteView abbrev, ByteView str, ByteView lineStr, ByteView line,
      ByteView addr, ByteView strOffsets, ByteView ranges, ByteView rnglists) {
    this(info, abbrev, str, lineStr, line, addr, strOffsets, ranges, rnglists, offset -> -1);
  }

  /** The DWARF sections of an object file, by their standard names (compressed ones inflated on this thread). */
  public static DwarfSections of(ObjectFile file) {
    return of(file, null);
  }

  /**
   * As {@link #of(ObjectFile)}; compressed sections other than .debug_info (usually most of the bytes)
   * inflate on {@code executor} meanwhile (null: on this thread). Nothing runs on the executor
   * for this call once it returns or throws.
   */
  static DwarfSections of(ObjectFile file, java.util.concurrent.Executor executor) {
    ByteOrder o = file.byteOrder();
    Forked<Void> others = executor == null ? null : inflateInBackground(file, java.util.List.of(".debug_abbrev", ".debug_str",
        ".debug_line_str", ".debug_line", ".debug_addr", ".debug_str_offsets", ".debug_ranges", ".debug_rnglists"), executor);
    try {
      // In a relocatable object, the sections llvm keeps relocations for are relocated (llvm has none
      // for .debug_abbrev, .debug_str and .debug_line_str).
      return new DwarfSections(rel(file, ".debug_info", o), get(file, ".debug_abbrev", o), get(file, ".debug_str", o),
          get(file, ".debug_line_str", o), rel(file, ".debug_line", o), rel(file, ".debug_addr", o),
          rel(file, ".debug_str_offsets", o), rel(file, ".debug_ranges", o), rel(file, ".debug_rnglists", o),
          file.relocatesDwarf() ? file::lineRelocationSection : offset -> -1);
    } finally {
      if (others != null) others.cancelOrAwait();
    }
  }

  /**
   * Inflates the compressed sections among {@code names} on {@code executor} while the caller goes
   * on (the caller's own section reads then wait for a section in progress or inflate it
   * themselves); returns the task to await, or null when there is nothing to overlap. A section
   * that does not inflate is left for the caller's own read to report.
   */
  private static Forked<Void> inflateInBackground(ObjectFile file, java.util.List<String> names, java.util.concurrent.Executor executor) {
    if (Runtime.getRuntime().availableProcessors() < 2) return null;
    java.util.List<String> todo = new java.util.ArrayList<>();
    for (String n : names) if (file.compressedDwarfSection(n)) todo.add(n);
    if (todo.isEmpty()) return null;
    return Forked.fork(executor, () -> {
      for (String n : todo) {
        try {
          file.dwarfSection(n);
        } catch (RuntimeException | Error e) {
          // reported by the caller's own read of this section (no stack trace from here)
        }
      }
      return null;
    });
  }

  /**
   * The sections a line table reads (.debug_line, .debug_line_str, .debug_str), with an empty
   * .debug_info: enough to parse line tables while .debug_info is still inflating. Not for
   * relocatable objects (their .debug_line is relocated with .debug_info's help).
   */
  static DwarfSections forLineTables(ObjectFile file) {
    ByteOrder o = file.byteOrder();
    ByteView none = new ByteView(MemorySegment.NULL, 0, o, ".debug_info");
    return new DwarfSections(none, none, get(file, ".debug_str", o), get(file, ".debug_line_str", o),
        get(file, ".debug_line", o), none, none, none, none);
  }

  /**
   * The sections of a split-DWARF object ({@code .dwo}): its own {@code *.dwo} sections, plus the
   * skeleton object's {@code .debug_addr} (and {@code .debug_ranges}, for GNU DWARF 4) that its
   * units index into.
   */
  public static DwarfSections ofDwo(ElfFile dwo, DwarfSections skeleton) {
    return split(dwo, skeleton, "");
  }

  /**
   * The sections of a DWARF package ({@code .dwp}): as {@link #ofDwo}, the {@code *.dwo} sections
   * that hold every unit's contribution (found through the package's unit index), named
   * "PACKAGE (.debug_info.dwo)" in errors.
   */
  public static DwarfSections ofPackage(ElfFile dwp, DwarfSections skeleton, String packageName) {
    return split(dwp, skeleton, packageName);
  }

  private static DwarfSections split(ElfFile f, DwarfSections skeleton, String file) {
    ByteOrder o = f.byteOrder();
    return new DwarfSections(get(f, ".debug_info.dwo", o, file), get(f, ".debug_abbrev.dwo", o, file),
        get(f, ".debug_str.dwo", o, file), skeleton.lineStr(), get(f, ".debug_line.dwo", o, file), skeleton.addr(),
        get(f, ".debug_str_offsets.dwo", o, file), skeleton.ranges(), get(f, ".debug_rnglists.dwo", o, file));
  }

  private static ByteView rel(ObjectFile file, String name, ByteOrder o) {
    ByteView v = file.relocatedDwarfSection(name);
    return new ByteView(v == null ? MemorySegment.NULL : v.segment(), 0, o, name);
  }

  private static ByteView get(ObjectFile file, String name, ByteOrder o) {
    ByteView v = file.dwarfSection(name);
    return new ByteView(v == null ? MemorySegment.NULL : v.segment(), 0, o, name);
  }

  /** A section of a split-DWARF file as a view named {@code name}, or "FILE (name)" when {@code file} is not empty. */
  private static ByteView get(ElfFile elf, String name, ByteOrder o, String file) {
    ElfFile.Section s = elf.section(name);
    String source = file.isEmpty() ? name : file + " (" + name + ")";
    // GNU .zdebug_* sections are ignored, as llvm 22 does (it dropped reading them); ElfFile.data can
    // still inflate them. SHF_COMPRESSED sections are inflated by ElfFile.data.
    if (s == null) return new ByteView(MemorySegment.NULL, 0, o, source);
    ByteView v = elf.data(s);
    return new ByteView(v.segment(), 0, o, source);
  }
}
