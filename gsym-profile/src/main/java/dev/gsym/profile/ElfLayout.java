package dev.gsym.profile;

import dev.gsym.elf.ElfFile;
import java.util.ArrayList;
import java.util.List;

/**
 * What pprof reads of an ELF file to turn a process address into an address of the file: its type,
 * its loadable segments and the address of {@code .text}; and pprof's rules for doing so
 * ({@code internal/elfexec.GetBase} and {@code binutils.elfMapping.findProgramHeader} of
 * github.com/google/pprof), for user-space mappings.
 *
 * @param type {@code e_type}: 1 relocatable, 2 executable, 3 shared object (PIE or library)
 * @param loads the {@code PT_LOAD} segments, in file order
 * @param textAddress the address of {@code .text}, or -1 without one
 */
record ElfLayout(int type, List<ElfFile.ProgramHeader> loads, long textAddress) {
  static final int ET_REL = 1;
  static final int ET_EXEC = 2;
  static final int ET_DYN = 3;
  private static final long PAGE = 4096;

  ElfLayout {
    loads = List.copyOf(loads);
  }

  /**
   * Whether the file offsets of the segments are those of the file a process maps: false for a
   * separate debug file ({@code objcopy --only-keep-debug}), whose executable segments hold no
   * file bytes and whose offsets are therefore meaningless (pprof skips such segments, and then
   * finds none for the mapping).
   */
  boolean hasFileOffsets() {
    boolean executable = false;
    for (ElfFile.ProgramHeader p : loads) {
      if ((p.flags() & ElfFile.PF_X) != 0) {
        if (p.filesz() > 0) return true;
        executable = true;
      }
    }
    return !executable;
  }

  static ElfLayout of(ElfFile f) {
    List<ElfFile.ProgramHeader> loads = new ArrayList<>();
    for (ElfFile.ProgramHeader p : f.programHeaders()) if (p.type() == ElfFile.PT_LOAD) loads.add(p);
    ElfFile.Section text = f.section(".text");
    return new ElfLayout(f.type(), loads, text == null ? -1 : text.addr());
  }

  /** Why a base cannot be computed. */
  static final class NoBase extends Exception {
    NoBase(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * pprof's base for a mapping of this file: the module address of a process address {@code x} is
   * {@code x - base}. The segment is chosen with {@code address}, the first address of the mapping
   * pprof symbolizes (it computes a mapping's base once).
   */
  long base(long start, long limit, long offset, long address) throws NoBase {
    if (start == 0 && offset == 0 && (limit == -1 || limit == 0)) return 0; // a fake mapping spanning everything
    ElfFile.ProgramHeader ph = programHeader(start, limit, offset, address);
    return switch (type) {
      case ET_EXEC -> {
        if (ph == null) yield 0;
        // a user-space executable: start in the lower half of the address space (signed: positive)
        if (start > 0) yield start - offset + ph.offset() - ph.vaddr();
        throw new NoBase("kernel mapping (start 0x" + Long.toHexString(start) + "): not supported");
      }
      case ET_REL -> {
        if (offset != 0) throw new NoBase("relocatable object mapped at file offset 0x" + Long.toHexString(offset));
        yield start;
      }
      case ET_DYN -> ph == null ? start - offset : start - offset + ph.offset() - ph.vaddr();
      default -> throw new NoBase("ELF type " + type + " is not an executable, shared object or relocatable object");
    };
  }

  /** pprof's {@code findProgramHeader}: the segment the mapping (and the address) comes from, or null. */
  private ElfFile.ProgramHeader programHeader(long start, long limit, long offset, long address) throws NoBase {
    if (Long.compareUnsigned(start, limit) >= 0 || Long.compareUnsigned(limit, 1L << 63) >= 0) return textHeader();
    if (loads.isEmpty()) return null;
    List<ElfFile.ProgramHeader> headers = forMapping(offset, limit - start);
    if (headers.isEmpty()) throw new NoBase("no program header matches the mapping (file offset 0x"
        + Long.toHexString(offset) + ", size 0x" + Long.toHexString(limit - start) + ")");
    if (headers.size() == 1) return headers.getFirst();
    long fileOffset = address - start + offset;
    ElfFile.ProgramHeader found = null;
    for (ElfFile.ProgramHeader h : headers) {
      if (Long.compareUnsigned(fileOffset, h.offset()) >= 0 && Long.compareUnsigned(fileOffset, h.offset() + h.memsz()) < 0) {
        if (found != null) throw new NoBase("two program headers match file offset 0x" + Long.toHexString(fileOffset));
        found = h;
      }
    }
    if (found == null) throw new NoBase("no program header matches file offset 0x" + Long.toHexString(fileOffset));
    return found;
  }

  /** pprof's {@code FindTextProgHeader}: the executable segment holding {@code .text}. */
  private ElfFile.ProgramHeader textHeader() {
    if (textAddress < 0) return null;
    for (ElfFile.ProgramHeader p : loads) {
      if ((p.flags() & ElfFile.PF_X) != 0 && Long.compareUnsigned(textAddress, p.vaddr()) >= 0
          && Long.compareUnsigned(textAddress, p.vaddr() + p.memsz()) < 0) {
        return p;
      }
    }
    return null;
  }

  /** pprof's {@code ProgramHeadersForMapping}: the segments a mapping of the file may come from. */
  List<ElfFile.ProgramHeader> forMapping(long mapOff, long mapSize) {
    long mapLimit = mapOff + mapSize;
    List<ElfFile.ProgramHeader> out = new ArrayList<>();
    for (ElfFile.ProgramHeader p : loads) {
      if (p.filesz() == 0) continue; // their offsets can be anything
      long segLimit = p.offset() + p.memsz();
      if (Long.compareUnsigned(mapOff, segLimit) < 0 && Long.compareUnsigned(p.offset(), mapLimit) < 0) {
        long aligned = 0;
        if (Long.compareUnsigned(p.offset(), p.vaddr() & (PAGE - 1)) > 0) aligned = p.offset() - (p.vaddr() & (PAGE - 1));
        if (Long.compareUnsigned(mapOff, aligned) < 0) continue; // a mapping of another segment
        if (Long.compareUnsigned(mapOff, p.offset()) > 0 && Long.compareUnsigned(segLimit, mapOff + PAGE) < 0
            && Long.compareUnsigned(mapLimit, segLimit + PAGE) >= 0) {
          continue; // less than a page of this segment, at least a page past it: another segment's
        }
        out.add(p);
      }
    }
    return out;
  }
}
