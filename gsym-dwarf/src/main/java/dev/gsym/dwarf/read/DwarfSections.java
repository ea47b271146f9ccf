package dev.gsym.dwarf.read;

import dev.gsym.elf.ElfFile;
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

  /** The sections of an ELF file, by their standard names (compressed ones inflated on this thread). */
  public static DwarfSections of(ElfFile elf) {
    return of(elf, null);
  }

  /**
   * As {@link #of(ElfFile)}; compressed sections other than .debug_info (usually most of the bytes)
   * inflate on {@code executor} meanwhile (null: on this thread). Nothing runs on the executor
   * for this call once it returns or throws.
   */
  static DwarfSections of(ElfFile elf, java.util.concurrent.Executor executor) {
    ByteOrder o = elf.byteOrder();
    Forked<Void> others = executor == null ? null : inflateInBackground(elf, java.util.List.of(".debug_abbrev", ".debug_str",
        ".debug_line_str", ".debug_line", ".debug_addr", ".debug_str_offsets", ".debug_ranges", ".debug_rnglists"), executor);
    try {
      // In a relocatable object, the sections llvm keeps relocations for are relocated (llvm has none
      // for .debug_abbrev, .debug_str and .debug_line_str).
      return new DwarfSections(rel(elf, ".debug_info", o), get(elf, ".debug_abbrev", o), get(elf, ".debug_str", o),
          get(elf, ".debug_line_str", o), rel(elf, ".debug_line", o), rel(elf, ".debug_addr", o),
          rel(elf, ".debug_str_offsets", o), rel(elf, ".debug_ranges", o), rel(elf, ".debug_rnglists", o),
          lineRelocations(elf));
    } finally {
      if (others != null) others.cancelOrAwait();
    }
  }

  /**
   * Inflates the compressed sections among {@code names} on {@code executor} while the caller goes
   * on (the caller's own {@link ElfFile#data} calls then wait for a section in progress or inflate
   * it themselves); returns the task to await, or null when there is nothing to overlap. A section
   * that does not inflate is left for the caller's own {@code data} call to report.
   */
  private static Forked<Void> inflateInBackground(ElfFile elf, java.util.List<String> names, java.util.concurrent.Executor executor) {
    if (Runtime.getRuntime().availableProcessors() < 2) return null;
    java.util.List<ElfFile.Section> todo = new java.util.ArrayList<>();
    for (String n : names) {
      ElfFile.Section s = elf.section(n);
      if (s != null && (s.flags() & ElfFile.SHF_COMPRESSED) != 0) todo.add(s);
    }
    if (todo.isEmpty()) return null;
    return Forked.fork(executor, () -> {
      for (ElfFile.Section s : todo) {
        try {
          elf.data(s);
        } catch (RuntimeException | Error e) {
          // reported by the caller's own data() call for this section (no stack trace from here)
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
  static DwarfSections forLineTables(ElfFile elf) {
    ByteOrder o = elf.byteOrder();
    ByteView none = new ByteView(MemorySegment.NULL, 0, o, ".debug_info");
    return new DwarfSections(none, none, get(elf, ".debug_str", o), get(elf, ".debug_line_str", o),
        get(elf, ".debug_line", o), none, none, none, none);
  }

  private static LongToIntFunction lineRelocations(ElfFile elf) {
    ElfFile.Section line = elf.section(".debug_line");
    if (line == null || elf.type() != ElfFile.ET_REL) return offset -> -1;
    return offset -> elf.relocationSection(line, offset);
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

  private static ByteView rel(ElfFile elf, String name, ByteOrder o) {
    ElfFile.Section s = elf.section(name);
    if (s == null) return new ByteView(MemorySegment.NULL, 0, o, name);
    return new ByteView(elf.relocatedData(s).segment(), 0, o, name);
  }

  private static ByteView get(ElfFile elf, String name, ByteOrder o) {
    return get(elf, name, o, "");
  }

  /** A section as a view named {@code name}, or "FILE (name)" when {@code file} is not empty. */
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
