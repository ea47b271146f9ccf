package dev.gsym.macho;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.unwind.Arch;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/**
 * Mach-O compact unwind information, the {@code __TEXT,__unwind_info} section of a linked image
 * (libunwind's {@code compact_unwind_encoding.h}): the section header, the common encodings, the
 * personality array, the first-level index with its sentinel, the LSDA index and the regular and
 * compressed second-level pages; and for each range of code the entries describe, its
 * {@link Plan}: rows of a call frame information table, the DWARF FDE the encoding points to, no
 * unwind information, or why libunwind could not use the entry.
 *
 * <p>A compact encoding describes the frame of a function's body (after its prolog, before its
 * epilogs). libunwind applies it at every address of the range, prolog and epilogs included, and so
 * does the one row {@link #plan} makes of it: the rows unwind as libunwind does, no better at a
 * prolog or epilog instruction (docs/unwind.md, "Mach-O compact unwind").
 *
 * <p>Structural damage (offsets or counts that leave the section, entries out of order, unknown page
 * kinds, encoding indexes past the tables) is a {@link GsymFormatException} with the absolute file
 * offset of the bad field; an entry libunwind would refuse (a missing LSDA, a personality past the
 * array, a register number it aborts on) only makes that entry's plan {@link Plan.Invalid}.
 */
public final class CompactUnwind {
  /** The {@code __unwind_info} section version read. */
  public static final int UNWIND_SECTION_VERSION = 1;
  /** Second-level page kind: regular (full encodings). */
  public static final int UNWIND_SECOND_LEVEL_REGULAR = 2;
  /** Second-level page kind: compressed (encoding indexes). */
  public static final int UNWIND_SECOND_LEVEL_COMPRESSED = 3;

  /** Encoding bit: the entry does not start a function. */
  public static final int UNWIND_IS_NOT_FUNCTION_START = 0x80000000;
  /** Encoding bit: the function has a language-specific data area. */
  public static final int UNWIND_HAS_LSDA = 0x40000000;
  /** Encoding bits: the personality function index. */
  public static final int UNWIND_PERSONALITY_MASK = 0x30000000;
  /** The mode bits, the same for every architecture. */
  public static final int UNWIND_MODE_MASK = 0x0F000000;

  /** x86 and x86-64 mode: a frame based on the frame pointer. */
  public static final int UNWIND_X86_MODE_EBP_FRAME = 0x01000000;
  /** x86 and x86-64 mode: frameless, immediate stack size. */
  public static final int UNWIND_X86_MODE_STACK_IMMD = 0x02000000;
  /** x86 and x86-64 mode: frameless, stack size read from the code. */
  public static final int UNWIND_X86_MODE_STACK_IND = 0x03000000;
  /** x86 and x86-64 mode: see the DWARF CFI. */
  public static final int UNWIND_X86_MODE_DWARF = 0x04000000;
  /** ARM64 mode: frameless. */
  public static final int UNWIND_ARM64_MODE_FRAMELESS = 0x02000000;
  /** ARM64 mode: see the DWARF CFI. */
  public static final int UNWIND_ARM64_MODE_DWARF = 0x03000000;
  /** ARM64 mode: a frame based on the frame pointer. */
  public static final int UNWIND_ARM64_MODE_FRAME = 0x04000000;
  /** arm64e: a frame whose return address was signed with {@code pacibsppc}. */
  public static final int UNWIND_ARM64_MODE_FRAME_PAUTH_LR = 0x05000000;

  /** The section header. */
  public record Header(long version, long commonEncodingsOffset, long commonEncodingsCount, long personalitiesOffset,
      long personalitiesCount, long indexOffset, long indexCount) {}

  /**
   * A first-level index entry; the last is the sentinel, whose function offset ends the last range
   * and whose page offset is 0.
   */
  public record IndexEntry(long functionOffset, long secondLevelPageOffset, long lsdaIndexOffset) {}

  /** An LSDA index entry: the function at image offset {@code functionOffset} has its LSDA at image offset {@code lsdaOffset}. */
  public record LsdaEntry(long functionOffset, long lsdaOffset) {}

  /**
   * A second-level page: {@code kind} {@link #UNWIND_SECOND_LEVEL_REGULAR} or {@link
   * #UNWIND_SECOND_LEVEL_COMPRESSED} (the only one with page encodings), for the functions from the
   * index entry's {@code baseFunctionOffset}.
   */
  public record Page(long sectionOffset, int kind, long baseFunctionOffset, List<Integer> pageEncodings, List<PageEntry> entries) {
    /** Copies the lists. */
    public Page {
      pageEncodings = List.copyOf(pageEncodings);
      entries = List.copyOf(entries);
    }
  }

  /**
   * A second-level entry: the image offset of the function it starts at and its encoding; in a
   * compressed page, the index it gives (into the common encodings, then the page's), -1 in a
   * regular page.
   */
  public record PageEntry(long functionOffset, int encodingIndex, int encoding) {}

  /**
   * The code from {@code start} (an address) for {@code length} bytes, up to the next entry, and how
   * to unwind it.
   *
   * @param ordinal the entry's position among all second-level entries, in section order
   * @param lsdaOffset the image offset of the LSDA when the encoding has one, else -1
   */
  public record Range(long ordinal, long start, long length, int encoding, long lsdaOffset, Plan plan) {}

  /** How to unwind a range of code: what its compact encoding says. */
  public sealed interface Plan {
    /** The rows of the frame the encoding describes (one row, for the whole range). */
    record Rows(CfiTable table) implements Plan {}

    /**
     * The encoding's DWARF mode: unwind with the FDE at {@code ehFrameOffset} in the image's
     * {@code __TEXT,__eh_frame} section.
     */
    record Dwarf(long ehFrameOffset) implements Plan {}

    /** Encoding 0: the linker had no unwind information for the range (libunwind stops there). */
    record NoInfo() implements Plan {}

    /** An encoding libunwind would not use, and why. */
    record Invalid(String reason) implements Plan {}
  }

  /** Reads the code of the image: the little-endian u32 at an address, or -1 when no section holds it. */
  @FunctionalInterface
  public interface CodeReader {
    /** The u32 at {@code address} in the image. */
    long u32(long address);
  }

  private final Header header;
  private final List<Integer> commonEncodings;
  private final List<Long> personalities;
  private final List<IndexEntry> index;
  private final List<LsdaEntry> lsdas;
  private final List<Page> pages;
  private final List<Range> ranges;

  private CompactUnwind(Header header, List<Integer> commonEncodings, List<Long> personalities, List<IndexEntry> index,
      List<LsdaEntry> lsdas, List<Page> pages, List<Range> ranges) {
    this.header = header;
    this.commonEncodings = Collections.unmodifiableList(commonEncodings);
    this.personalities = Collections.unmodifiableList(personalities);
    this.index = Collections.unmodifiableList(index);
    this.lsdas = Collections.unmodifiableList(lsdas);
    this.pages = Collections.unmodifiableList(pages);
    this.ranges = Collections.unmodifiableList(ranges);
  }

  /**
   * The compact unwind information of {@code file} (a thin file or one slice of a universal file), or
   * null when it has no {@code __TEXT,__unwind_info} section with contents (objects, whose compiler
   * output is {@code __LD,__compact_unwind}, and dSYM companions, whose sections are stripped).
   */
  public static CompactUnwind read(MachOFile file) {
    MachSection section = null;
    for (MachSection s : file.sections()) {
      if (s.name().equals("__unwind_info") && s.segment().equals("__TEXT")) section = s;
    }
    if (section == null || section.isStripped() || section.isBss() || section.fileOffset() < 0) return null;
    ByteView data = file.data(section);
    Long base = file.baseAddress();
    return parse(data, base == null ? 0 : base, arch(file.header().cpuType()), codeReader(file));
  }

  /**
   * Parses the bytes of an {@code __unwind_info} section of an image whose Mach header is at address
   * {@code imageBase}; {@code arch} (null when compact unwind of the CPU is not understood: every
   * plan is then {@link Plan.Invalid}) decides what the encodings mean, {@code code} supplies the
   * immediates {@code UNWIND_X86_MODE_STACK_IND} reads from the function.
   */
  public static CompactUnwind parse(ByteView section, long imageBase, Arch arch, CodeReader code) {
    return new Parser(section, imageBase, arch, code).parse();
  }

  /** The architecture of a Mach-O CPU type whose compact encodings this class understands, or null. */
  static Arch arch(int cpuType) {
    return switch (cpuType) {
      case MachOArch.CPU_TYPE_X86_64 -> Arch.X86_64;
      case MachOArch.CPU_TYPE_I386 -> Arch.X86;
      case MachOArch.CPU_TYPE_ARM64, MachOArch.CPU_TYPE_ARM64_32 -> Arch.AARCH64;
      default -> null;
    };
  }

  /** Reads u32s from the contents of the file's sections (not zero-fill, not stripped). */
  static CodeReader codeReader(MachOFile file) {
    ByteView bytes = file.bytes();
    List<MachSection> sections = file.sections();
    return address -> {
      for (MachSection s : sections) {
        if (s.isBss() || s.isStripped() || s.fileOffset() < 0) continue;
        long off = address - s.addr();
        if (Long.compareUnsigned(off, s.size()) >= 0 || s.size() - off < 4) continue;
        long at = s.fileOffset() + off;
        if (!bytes.has(at, 4)) return -1;
        return bytes.u32(at);
      }
      return -1;
    };
  }

  /** The section's header. */
  public Header header() {
    return header;
  }

  /** The encodings every page can refer to, by index. */
  public List<Integer> commonEncodings() {
    return commonEncodings;
  }

  /** The personality array: image offsets of the pointers (GOT entries) to the personality functions. */
  public List<Long> personalities() {
    return personalities;
  }

  /** The first-level index, sentinel included. */
  public List<IndexEntry> index() {
    return index;
  }

  /** The LSDA index: every entry from the first index entry's LSDA offset to the sentinel's. */
  public List<LsdaEntry> lsdas() {
    return lsdas;
  }

  /** The second-level pages, one per index entry before the sentinel. */
  public List<Page> pages() {
    return pages;
  }

  /** The ranges of code the second-level entries describe, in section order; entries that cover no bytes are left out. */
  public List<Range> ranges() {
    return ranges;
  }

  /** The call frame information tables of the ranges whose plan has rows, in section order. */
  public List<CfiTable> tables() {
    List<CfiTable> out = new ArrayList<>();
    for (Range r : ranges) if (r.plan() instanceof Plan.Rows rows) out.add(rows.table());
    return out;
  }

  private static final class Parser {
    private final ByteView data;
    private final long imageBase;
    private final Arch arch;
    private final CodeReader code;
    /** The section offset of the LSDA index (the first index entry's LSDA offset). */
    private long firstLsda;

    Parser(ByteView data, long imageBase, Arch arch, CodeReader code) {
      this.data = data;
      this.imageBase = imageBase;
      this.arch = arch;
      this.code = code;
    }

    private GsymFormatException error(long at, String detail) {
      return data.error(at, "__unwind_info: " + detail);
    }

    /** Checks that {@code count} items of {@code size} bytes at {@code offset} (from the field at {@code field}) lie in the section. */
    private void inSection(long field, long offset, long count, int size, String what) {
      if (!data.has(offset, count * size)) {
        throw error(field, what + " (" + count + " x " + size + " bytes at section offset 0x" + Long.toHexString(offset)
            + ") extends past the end of the section (0x" + Long.toHexString(data.size()) + " bytes)");
      }
    }

    CompactUnwind parse() {
      if (data.size() < 28) throw error(0, "the section header needs 28 bytes, the section has " + data.size());
      Header h = new Header(data.u32(0), data.u32(4), data.u32(8), data.u32(12), data.u32(16), data.u32(20), data.u32(24));
      if (h.version() != UNWIND_SECTION_VERSION) throw error(0, "unsupported version " + h.version());
      inSection(4, h.commonEncodingsOffset(), h.commonEncodingsCount(), 4, "the common encodings array");
      inSection(12, h.personalitiesOffset(), h.personalitiesCount(), 4, "the personality array");
      inSection(20, h.indexOffset(), h.indexCount(), 12, "the first-level index");
      List<Integer> common = new ArrayList<>();
      for (long i = 0; i < h.commonEncodingsCount(); i++) common.add(data.s32(h.commonEncodingsOffset() + 4 * i));
      List<Long> personalities = new ArrayList<>();
      for (long i = 0; i < h.personalitiesCount(); i++) personalities.add(data.u32(h.personalitiesOffset() + 4 * i));
      List<IndexEntry> index = new ArrayList<>();
      for (long i = 0; i < h.indexCount(); i++) {
        long at = h.indexOffset() + 12 * i;
        IndexEntry e = new IndexEntry(data.u32(at), data.u32(at + 4), data.u32(at + 8));
        if (!index.isEmpty() && e.functionOffset() < index.getLast().functionOffset()) {
          throw error(at, "first-level index entry " + i + " starts at function offset 0x" + Long.toHexString(e.functionOffset())
              + ", before entry " + (i - 1) + "'s 0x" + Long.toHexString(index.getLast().functionOffset()));
        }
        if (!index.isEmpty() && e.lsdaIndexOffset() < index.getLast().lsdaIndexOffset()) {
          throw error(at + 8, "first-level index entry " + i + "'s LSDA index offset 0x" + Long.toHexString(e.lsdaIndexOffset())
              + " is before entry " + (i - 1) + "'s");
        }
        boolean sentinel = i == h.indexCount() - 1;
        if (!sentinel && e.secondLevelPageOffset() == 0) {
          throw error(at + 4, "first-level index entry " + i + " has no second-level page but is not the last entry");
        }
        index.add(e);
      }
      List<LsdaEntry> lsdas = readLsdas(h, index);
      List<Page> pages = new ArrayList<>();
      List<Range> ranges = new ArrayList<>();
      long ordinal = 0;
      long previous = -1;
      long totalEntries = 0;
      for (int i = 0; i + 1 < index.size(); i++) {
        IndexEntry e = index.get(i);
        long pageEnd = index.get(i + 1).functionOffset();
        Page page = readPage(h, common, e, pageEnd, h.indexOffset() + 12L * i + 4);
        pages.add(page);
        // entries take 4 bytes or more: more than the section holds means pages share their bytes
        totalEntries += page.entries().size();
        if (totalEntries > data.size() / 4) {
          throw error(h.indexOffset() + 12L * i + 4, "second-level pages share their entries (" + totalEntries
              + " entries in a section of " + data.size() + " bytes)");
        }
        List<PageEntry> entries = page.entries();
        for (int k = 0; k < entries.size(); k++, ordinal++) {
          PageEntry pe = entries.get(k);
          long start = pe.functionOffset();
          long end = k + 1 < entries.size() ? entries.get(k + 1).functionOffset() : pageEnd;
          if (start < previous) throw error(page.sectionOffset(), "entries out of order at function offset 0x" + Long.toHexString(start));
          previous = start;
          if (end == start) continue;
          ranges.add(range(ordinal, e, index.get(i + 1), lsdas, personalities.size(), pe, start, end));
        }
      }
      return new CompactUnwind(h, common, personalities, index, lsdas, pages, ranges);
    }

    private List<LsdaEntry> readLsdas(Header h, List<IndexEntry> index) {
      List<LsdaEntry> out = new ArrayList<>();
      if (index.isEmpty()) return out;
      long first = index.getFirst().lsdaIndexOffset();
      long last = index.getLast().lsdaIndexOffset();
      long field = h.indexOffset() + 8;
      if ((last - first) % 8 != 0) {
        throw error(field, "the LSDA index (section offsets 0x" + Long.toHexString(first) + " to 0x" + Long.toHexString(last)
            + ") is not a whole number of 8-byte entries");
      }
      inSection(field, first, (last - first) / 8, 8, "the LSDA index");
      for (int i = 0; i < index.size(); i++) {
        if ((index.get(i).lsdaIndexOffset() - first) % 8 != 0) {
          throw error(h.indexOffset() + 12L * i + 8, "first-level index entry " + i + "'s LSDA index offset is not on an entry");
        }
      }
      firstLsda = first;
      for (long at = first; at < last; at += 8) {
        LsdaEntry e = new LsdaEntry(data.u32(at), data.u32(at + 4));
        if (!out.isEmpty() && e.functionOffset() < out.getLast().functionOffset()) {
          throw error(at, "LSDA index entries out of order at function offset 0x" + Long.toHexString(e.functionOffset()));
        }
        out.add(e);
      }
      return out;
    }

    private Page readPage(Header h, List<Integer> common, IndexEntry e, long pageEnd, long field) {
      long p = e.secondLevelPageOffset();
      inSection(field, p, 1, 8, "a second-level page header");
      int kind = data.s32(p);
      int entryOffset = data.u16(p + 4);
      int count = data.u16(p + 6);
      List<PageEntry> entries = new ArrayList<>(count);
      List<Integer> pageEncodings = new ArrayList<>();
      switch (kind) {
        case UNWIND_SECOND_LEVEL_REGULAR -> {
          inSection(p + 4, p + entryOffset, count, 8, "a regular page's entries");
          for (int k = 0; k < count; k++) {
            long at = p + entryOffset + 8L * k;
            long offset = data.u32(at);
            checkInPage(at, offset, e, pageEnd);
            entries.add(new PageEntry(offset, -1, data.s32(at + 4)));
          }
        }
        case UNWIND_SECOND_LEVEL_COMPRESSED -> {
          inSection(p, p, 1, 12, "a compressed page header");
          int encodingsOffset = data.u16(p + 8);
          int encodingsCount = data.u16(p + 10);
          inSection(p + 4, p + entryOffset, count, 4, "a compressed page's entries");
          inSection(p + 8, p + encodingsOffset, encodingsCount, 4, "a compressed page's encodings");
          for (int k = 0; k < encodingsCount; k++) pageEncodings.add(data.s32(p + encodingsOffset + 4L * k));
          for (int k = 0; k < count; k++) {
            long at = p + entryOffset + 4L * k;
            int word = data.s32(at);
            long offset = e.functionOffset() + (word & 0xFFFFFF);
            int idx = word >>> 24;
            int encoding;
            if (idx < common.size()) {
              encoding = common.get(idx);
            } else if (idx - common.size() < encodingsCount) {
              encoding = pageEncodings.get(idx - common.size());
            } else {
              throw error(at, "encoding index " + idx + " is past the " + common.size() + " common and " + encodingsCount
                  + " page encodings");
            }
            checkInPage(at, offset, e, pageEnd);
            entries.add(new PageEntry(offset, idx, encoding));
          }
        }
        default -> throw error(p, "unknown second-level page kind " + Integer.toUnsignedString(kind));
      }
      return new Page(p, kind, e.functionOffset(), pageEncodings, entries);
    }

    private void checkInPage(long at, long offset, IndexEntry e, long pageEnd) {
      if (offset < e.functionOffset() || offset > pageEnd) {
        throw error(at, "function offset 0x" + Long.toHexString(offset) + " outside its page's functions (0x"
            + Long.toHexString(e.functionOffset()) + " to 0x" + Long.toHexString(pageEnd) + ")");
      }
    }

    private Range range(long ordinal, IndexEntry page, IndexEntry nextPage, List<LsdaEntry> lsdas, int personalityCount,
        PageEntry pe, long start, long end) {
      int encoding = pe.encoding();
      long address = imageBase + start;
      long length = end - start;
      long lsda = -1;
      Plan plan = null;
      // libunwind checks the LSDA and the personality before it looks at the mode
      if ((encoding & UNWIND_HAS_LSDA) != 0) {
        lsda = findLsda(lsdas, page.lsdaIndexOffset(), nextPage.lsdaIndexOffset(), start);
        if (lsda < 0) plan = new Plan.Invalid("UNWIND_HAS_LSDA, but the LSDA index has no entry for function offset 0x" + Long.toHexString(start));
      }
      int personality = (encoding & UNWIND_PERSONALITY_MASK) >>> 28;
      if (plan == null && personality > personalityCount) {
        plan = new Plan.Invalid("personality " + personality + ", but the personality array has " + personalityCount);
      }
      if (plan == null) plan = plan(arch, encoding, ordinal, address, length, code);
      return new Range(ordinal, address, length, encoding, lsda, plan);
    }

    /** The LSDA of the function at image offset {@code function} in the page's part of the LSDA index, or -1. */
    private long findLsda(List<LsdaEntry> lsdas, long from, long to, long function) {
      int lo = (int) ((from - firstLsda) / 8);
      int hi = (int) ((to - firstLsda) / 8);
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        LsdaEntry e = lsdas.get(mid);
        if (e.functionOffset() == function) return e.lsdaOffset();
        if (e.functionOffset() < function) lo = mid + 1;
        else hi = mid;
      }
      return -1;
    }
  }

  /**
   * What {@code encoding} says about the code at {@code start} for {@code length} bytes on {@code
   * arch}: libunwind's reading of it, as one row ({@code ordinal} numbers the table). {@code code}
   * supplies {@code UNWIND_X86_MODE_STACK_IND}'s immediate, read at {@code start} plus the offset the
   * encoding gives. The personality and LSDA bits are not looked at.
   */
  public static Plan plan(Arch arch, int encoding, long ordinal, long start, long length, CodeReader code) {
    if (encoding == 0) return new Plan.NoInfo();
    if (arch == null) return new Plan.Invalid("compact unwind of this CPU type is not supported");
    int mode = encoding & UNWIND_MODE_MASK;
    return switch (arch) {
      case X86_64, X86 -> switch (mode) {
        case UNWIND_X86_MODE_EBP_FRAME -> x86Frame(arch, encoding, ordinal, start, length);
        case UNWIND_X86_MODE_STACK_IMMD, UNWIND_X86_MODE_STACK_IND -> x86Frameless(arch, encoding, ordinal, start, length, code);
        case UNWIND_X86_MODE_DWARF -> new Plan.Dwarf(encoding & 0x00FFFFFF);
        default -> new Plan.Invalid("mode 0x" + Integer.toHexString(mode >>> 24) + " is not a compact unwind mode of " + arch);
      };
      case AARCH64 -> switch (mode) {
        case UNWIND_ARM64_MODE_FRAME, UNWIND_ARM64_MODE_FRAME_PAUTH_LR -> arm64Frame(encoding, ordinal, start, length);
        case UNWIND_ARM64_MODE_FRAMELESS -> arm64Frameless(encoding, ordinal, start, length);
        case UNWIND_ARM64_MODE_DWARF -> new Plan.Dwarf(encoding & 0x00FFFFFF);
        default -> new Plan.Invalid("mode 0x" + Integer.toHexString(mode >>> 24) + " is not a compact unwind mode of " + arch);
      };
      default -> new Plan.Invalid("compact unwind of " + arch + " is not supported");
    };
  }

  /** DWARF numbers of the x86 registers compact unwind numbers 1-6 (EBX ECX EDX EDI ESI EBP). */
  private static final int[] X86_REGISTERS = {-1, 3, 1, 2, 7, 6, 5};
  /** DWARF numbers of the x86-64 registers compact unwind numbers 1-6 (RBX R12 R13 R14 R15 RBP). */
  private static final int[] X86_64_REGISTERS = {-1, 3, 12, 13, 14, 15, 6};

  private static int[] registers(Arch arch) {
    return arch == Arch.X86_64 ? X86_64_REGISTERS : X86_REGISTERS;
  }


  /**
   * EBP/RBP frame: the caller's frame pointer is at the frame pointer, the return address above it,
   * and the registers of the five 3-bit slots from {@code fp - offset * wordsize} upwards (libunwind
   * refuses EBP/RBP and 7 in a slot; i386 also takes ECX and EDX there).
   */
  private static Plan x86Frame(Arch arch, int encoding, long ordinal, long start, long length) {
    int w = arch.addressSize();
    int offset = (encoding >>> 16) & 0xFF;
    int slots = encoding & 0x7FFF;
    TreeMap<Integer, RegisterRule> rules = new TreeMap<>();
    for (int i = 0; i < 5; i++, slots >>>= 3) {
      int reg = slots & 7;
      if (reg == 0) continue;
      if (reg >= 6) {
        String name = reg == 7 ? "" : arch == Arch.X86_64 ? " (RBP)" : " (EBP)";
        return new Plan.Invalid("frame slot " + i + " holds register " + reg + name + ", which libunwind refuses");
      }
      // fp - w * offset + w * i, with the CFA at fp + 2w
      rules.put(registers(arch)[reg], new RegisterRule.Offset(-2L * w - (long) w * offset + (long) w * i));
    }
    rules.put(arch.framePointer(), new RegisterRule.Offset(-2L * w));
    rules.put(arch.returnAddress(), new RegisterRule.Offset(-w));
    return rows(arch, ordinal, start, length, new CfaRule.RegisterOffset(arch.framePointer(), 2L * w), rules);
  }

  /**
   * Frameless: the CFA is the stack pointer plus the stack size (in the encoding, or the immediate of
   * the {@code sub} at the offset the encoding gives plus the pushes), the return address just below
   * it and the permuted registers below that.
   */
  private static Plan x86Frameless(Arch arch, int encoding, long ordinal, long start, long length, CodeReader code) {
    int w = arch.addressSize();
    int sizeField = (encoding >>> 16) & 0xFF;
    int adjust = (encoding >>> 13) & 7;
    int count = (encoding >>> 10) & 7;
    int permutation = encoding & 0x3FF;
    long stackSize;
    if ((encoding & UNWIND_MODE_MASK) == UNWIND_X86_MODE_STACK_IND) {
      long sub = code == null ? -1 : code.u32(start + sizeField);
      if (sub < 0) {
        return new Plan.Invalid("UNWIND_X86_MODE_STACK_IND: no code at 0x" + Long.toHexString(start + sizeField)
            + " to read the stack size from");
      }
      stackSize = (sub + (long) w * adjust) & 0xFFFFFFFFL;
    } else {
      stackSize = (long) w * sizeField;
    }
    if (count > 6) return new Plan.Invalid("frameless with " + count + " saved registers (at most 6)");
    int[] saved = decodePermutation(count, permutation);
    if (saved == null) return new Plan.Invalid("register permutation " + permutation + " of " + count + " registers does not decode");
    TreeMap<Integer, RegisterRule> rules = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      rules.put(registers(arch)[saved[i]], new RegisterRule.Offset(-(long) w - (long) w * count + (long) w * i));
    }
    rules.put(arch.returnAddress(), new RegisterRule.Offset(-w));
    return rows(arch, ordinal, start, length, new CfaRule.RegisterOffset(arch.stackPointer(), stackSize), rules);
  }

  /**
   * libunwind's decoding of the frameless register permutation (a Lehmer code in a variable-base
   * number): the compact unwind numbers (1-6) of the saved registers, lowest address first, or null
   * when a digit names no register that is left.
   */
  static int[] decodePermutation(int count, int permutation) {
    int[] digits = new int[6];
    int p = permutation;
    switch (count) {
      case 6, 5 -> {
        digits[0] = p / 120;
        p -= digits[0] * 120;
        digits[1] = p / 24;
        p -= digits[1] * 24;
        digits[2] = p / 6;
        p -= digits[2] * 6;
        digits[3] = p / 2;
        p -= digits[3] * 2;
        digits[4] = p;
      }
      case 4 -> {
        digits[0] = p / 60;
        p -= digits[0] * 60;
        digits[1] = p / 12;
        p -= digits[1] * 12;
        digits[2] = p / 3;
        p -= digits[2] * 3;
        digits[3] = p;
      }
      case 3 -> {
        digits[0] = p / 20;
        p -= digits[0] * 20;
        digits[1] = p / 4;
        p -= digits[1] * 4;
        digits[2] = p;
      }
      case 2 -> {
        digits[0] = p / 5;
        p -= digits[0] * 5;
        digits[1] = p;
      }
      case 1 -> digits[0] = p;
      default -> { }
    }
    int[] saved = new int[count];
    boolean[] used = new boolean[7];
    for (int i = 0; i < count; i++) {
      int renumbered = 0;
      saved[i] = 0;
      for (int u = 1; u < 7; u++) {
        if (used[u]) continue;
        if (renumbered == digits[i]) {
          saved[i] = u;
          used[u] = true;
          break;
        }
        renumbered++;
      }
      if (saved[i] == 0) return null;
    }
    return saved;
  }

  /** The DWARF numbers of the pairs of an arm64 encoding's low 12 bits, in save order: x19/x20 ... x27/x28, d8/d9 ... d14/d15. */
  private static List<Integer> arm64Pairs(int encoding) {
    List<Integer> regs = new ArrayList<>();
    for (int k = 0; k < 5; k++) {
      if ((encoding & (1 << k)) != 0) {
        regs.add(19 + 2 * k);
        regs.add(20 + 2 * k);
      }
    }
    for (int k = 0; k < 4; k++) {
      if ((encoding & (0x100 << k)) != 0) {
        regs.add(64 + 8 + 2 * k); // DWARF v8-v15 are 72-79; the saves are the low 64 bits (d8-d15)
        regs.add(64 + 9 + 2 * k);
      }
    }
    return regs;
  }

  /**
   * arm64 frame: the CFA is fp + 16, the caller's fp and lr at CFA-16 and CFA-8, the pairs below them
   * (x19 at CFA-24, x20 at CFA-32, ...), as libunwind reads them. A {@code FRAME_PAUTH_LR} frame is the
   * same, with a signed return address (RA_SIGN_STATE 1).
   */
  private static Plan arm64Frame(int encoding, long ordinal, long start, long length) {
    TreeMap<Integer, RegisterRule> rules = new TreeMap<>();
    long at = -24;
    for (int reg : arm64Pairs(encoding)) {
      rules.put(reg, new RegisterRule.Offset(at));
      at -= 8;
    }
    rules.put(29, new RegisterRule.Offset(-16));
    rules.put(30, new RegisterRule.Offset(-8));
    if ((encoding & UNWIND_MODE_MASK) == UNWIND_ARM64_MODE_FRAME_PAUTH_LR) rules.put(Arch.AARCH64_RA_SIGN_STATE, new RegisterRule.Constant(1));
    return rows(Arch.AARCH64, ordinal, start, length, new CfaRule.RegisterOffset(29, 16), rules);
  }

  /**
   * arm64 frameless: the CFA is sp plus 16 times the encoded size, the return address stays in lr
   * (no rule), and the pairs the encoding names are at the top of the frame, x19 at CFA-8, x20 at
   * CFA-16, ..., as the encoding is documented and as MC emits it from the CFI. libunwind reads them
   * 8 bytes higher and moves sp 16 bytes per pair less (docs/unwind.md says why we do not follow it).
   */
  private static Plan arm64Frameless(int encoding, long ordinal, long start, long length) {
    TreeMap<Integer, RegisterRule> rules = new TreeMap<>();
    long at = -8;
    for (int reg : arm64Pairs(encoding)) {
      rules.put(reg, new RegisterRule.Offset(at));
      at -= 8;
    }
    long size = 16L * ((encoding >>> 12) & 0xFFF);
    return rows(Arch.AARCH64, ordinal, start, length, new CfaRule.RegisterOffset(31, size), rules);
  }

  private static Plan rows(Arch arch, long ordinal, long start, long length, CfaRule cfa, TreeMap<Integer, RegisterRule> rules) {
    UnwindRow row = new UnwindRow(start, cfa, rules);
    return new Plan.Rows(new CfiTable(UnwindSource.COMPACT_UNWIND, ordinal, start, length, arch.returnAddress(), List.of(row)));
  }
}
