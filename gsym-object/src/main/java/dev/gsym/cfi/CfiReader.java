package dev.gsym.cfi;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.io.ByteView;
import dev.gsym.object.ObjectFile;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The DWARF call frame information of an object file (ELF, Mach-O, PE/COFF): every FDE of its
 * {@code .debug_frame} and {@code .eh_frame} ({@code __eh_frame} in Mach-O) as a {@link CfiTable},
 * in the order Breakpad's dump_syms writes them: {@code .debug_frame} entries, then {@code
 * .eh_frame} entries, each in section order; {@link CfiTable#ordinal()} numbers the FDEs in that
 * order (an FDE whose rows cannot be made keeps its number, so numbers may be missing).
 *
 * <p>A separate debug file (made by {@code objcopy --only-keep-debug}, or a dSYM) has {@code
 * .eh_frame} as {@code SHT_NOBITS}: {@link #read(ObjectFile, ObjectFile)} takes each section from
 * the debug file when it holds its contents and from the binary otherwise, the pairing {@code
 * --symtab-file} makes, and numbers the binary's entries first, as dump_syms does when it follows a
 * debug link (it reads the binary's CFI before the debug file's).
 *
 * <p>Bad CFI never fails the whole file: what cannot be read is skipped and reported as a {@link
 * GsymFormatException} in {@link Result#problems()} (the rules are {@link CallFrameInfo}'s; a bad
 * {@code .eh_frame_hdr} is reported, never used). docs/unwind.md, "Reading CFI", lists where this
 * differs from llvm-dwarfdump and from dump_syms.
 */
public final class CfiReader {
  private CfiReader() {}

  /**
   * One FDE: its header, and its table or why there is none.
   *
   * @param ordinal the FDE's position among all FDEs read (from 0)
   * @param table null when the FDE's instructions could not be made into rows
   * @param error why {@code table} is null, or null
   */
  public record Entry(Fde fde, long ordinal, CfiTable table, GsymFormatException error) {}

  /**
   * Everything read from a file.
   *
   * @param entries every FDE whose header could be read, in ordinal order
   * @param problems everything skipped or wrong, in the order found
   */
  public record Result(List<Entry> entries, List<GsymFormatException> problems) {
    /** Copies the lists. */
    public Result {
      entries = List.copyOf(entries);
      problems = List.copyOf(problems);
    }

    /** The tables of the entries that have one, in ordinal order. */
    public List<CfiTable> tables() {
      List<CfiTable> out = new ArrayList<>(entries.size());
      for (Entry e : entries) if (e.table() != null) out.add(e.table());
      return out;
    }
  }

  /** Receives entries as they are read (a reading need not hold every table at once). */
  public interface Listener {
    /** One FDE, read into a table or with its problem. */
    void entry(Entry entry);

    /** An entry of the section that could not be read (skipped). */
    default void problem(GsymFormatException problem) {}
  }

  /** One section to read, and the file it came from (whose {@code .eh_frame_hdr} describes it). */
  public record Input(CfiSection section, ObjectFile file) {}

  /** The CFI sections of {@code file}: {@code .debug_frame}, then {@code .eh_frame}, those it has with contents. */
  public static List<Input> inputs(ObjectFile file) {
    List<Input> out = new ArrayList<>(2);
    for (UnwindSource kind : new UnwindSource[] {UnwindSource.DEBUG_FRAME, UnwindSource.EH_FRAME}) {
      CfiSection s = CfiSection.of(file, kind);
      if (s != null) out.add(new Input(s, file));
    }
    return out;
  }

  /**
   * The CFI sections of a debug file and its binary: each section from {@code debugFile} when it has
   * contents there, from {@code binary} otherwise; the binary's first, each file's {@code
   * .debug_frame} before its {@code .eh_frame}.
   */
  public static List<Input> inputs(ObjectFile debugFile, ObjectFile binary) {
    if (binary == null || binary == debugFile) return inputs(debugFile);
    List<Input> fromDebug = inputs(debugFile);
    List<Input> out = new ArrayList<>(2);
    for (Input i : inputs(binary)) {
      boolean inDebug = false;
      for (Input d : fromDebug) inDebug |= d.section().kind() == i.section().kind();
      if (!inDebug) out.add(i);
    }
    out.addAll(fromDebug);
    return out;
  }

  /** Reads every FDE of {@code file}. */
  public static Result read(ObjectFile file) {
    return collect(inputs(file));
  }

  /** Reads every FDE of a debug file and its binary ({@link #inputs(ObjectFile, ObjectFile)}). */
  public static Result read(ObjectFile debugFile, ObjectFile binary) {
    return collect(inputs(debugFile, binary));
  }

  private static Result collect(List<Input> inputs) {
    List<Entry> entries = new ArrayList<>();
    List<GsymFormatException> problems = new ArrayList<>();
    read(inputs, new Listener() {
      @Override
      public void entry(Entry entry) {
        entries.add(entry);
      }

      @Override
      public void problem(GsymFormatException problem) {
        problems.add(problem);
      }
    });
    return new Result(entries, problems);
  }

  /**
   * Reads {@code inputs} in order, numbering their FDEs from 0 across all of them, and checks each
   * {@code .eh_frame} against its file's {@code .eh_frame_hdr} (ELF) when there is one.
   */
  public static void read(List<Input> inputs, Listener listener) {
    long[] ordinal = {0};
    for (Input input : inputs) {
      CfiSection section = input.section();
      CallFrameInfo cfi = CallFrameInfo.of(section);
      Map<Long, Long> fdes = new HashMap<>();
      cfi.parse(new CallFrameInfo.EntryVisitor() {
        @Override
        public boolean fde(Fde fde) {
          fdes.put(fde.offset(), fde.pcBegin());
          long n = ordinal[0]++;
          CfiTable table = null;
          GsymFormatException error = null;
          try {
            List<UnwindRow> rows = cfi.rows(fde);
            table = new CfiTable(section.kind(), n, fde.pcBegin(), fde.pcRange(), fde.cie().returnAddressRegister(), rows);
          } catch (GsymFormatException e) {
            error = e;
            listener.problem(e);
          }
          listener.entry(new Entry(fde, n, table, error));
          return true;
        }

        @Override
        public boolean problem(GsymFormatException problem) {
          listener.problem(problem);
          return true;
        }
      });
      if (section.isEh()) {
        EhFrameHdr hdr;
        try {
          hdr = ehFrameHdr(input.file());
        } catch (GsymFormatException e) {
          listener.problem(e);
          continue;
        }
        if (hdr != null) for (GsymFormatException p : hdr.check(section.address(), fdes)) listener.problem(p);
      }
    }
  }

  /** The {@code .eh_frame_hdr} of an ELF file, or null (none, or not ELF). */
  public static EhFrameHdr ehFrameHdr(ObjectFile file) {
    if (!(file instanceof ElfFile elf)) return null;
    ElfFile.Section s = elf.section(".eh_frame_hdr");
    if (s == null || s.type() == ElfFile.SHT_NOBITS || s.size() == 0) return null;
    ByteView data = elf.rawData(s);
    return EhFrameHdr.parse(data, s.addr(), elf.is64() ? 8 : 4);
  }

  /**
   * The table of the {@code .eh_frame} FDE covering {@code pc}, found as a runtime unwinder finds it
   * (through {@code .eh_frame_hdr}'s binary search when the file has one, else by walking {@code
   * .eh_frame}), or null when no FDE covers it. Its ordinal is -1 (not known without a full read).
   * Errors in the FDE found are GsymFormatExceptions.
   */
  public static CfiTable lookup(ObjectFile file, long pc) {
    CfiSection section = CfiSection.of(file, UnwindSource.EH_FRAME);
    if (section == null) return null;
    CallFrameInfo cfi = CallFrameInfo.of(section);
    EhFrameHdr hdr = ehFrameHdr(file);
    Fde found = null;
    if (hdr != null && hdr.fdeCount() >= 0) {
      long address = hdr.find(pc);
      if (address != -1) found = cfi.fdeAt(address - section.address());
    } else {
      Fde[] hit = {null};
      cfi.parse(fde -> {
        if (Long.compareUnsigned(pc - fde.pcBegin(), fde.pcRange()) < 0) {
          hit[0] = fde;
          return false;
        }
        return true;
      });
      found = hit[0];
    }
    if (found == null || Long.compareUnsigned(pc - found.pcBegin(), found.pcRange()) >= 0) return null;
    return new CfiTable(section.kind(), -1, found.pcBegin(), found.pcRange(), found.cie().returnAddressRegister(), cfi.rows(found));
  }
}
