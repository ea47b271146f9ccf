package dev.gsym.dwarf;

import dev.gsym.dwarf.read.DwarfFile;
import dev.gsym.dwarf.transform.DwarfTransformer;
import dev.gsym.dwarf.transform.DwarfVerifier;
import dev.gsym.dwarf.transform.ObjectFileTransformer;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.ObjectFiles;
import dev.gsym.elf.ElfFile;
import dev.gsym.internal.concurrent.ScopedPool;
import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Library entry point for {@code llvm-gsymutil --convert} of an ELF or Mach-O file with DWARF (single-threaded
 * order, so the output is byte-identical to {@code --num-threads=1} for any thread count).
 */
public final class DwarfConverter {
  private DwarfConverter() {}

  /**
   * Hears about a conversion as it goes; every method is called on the thread that called {@code
   * convert}, and what it throws ends the conversion and propagates.
   */
  public interface Listener {
    /** Hears nothing. */
    Listener NONE = new Listener() {};

    /** {@code done} of {@code total} compile units are converted (after each one, in unit order). */
    default void unitsConverted(int done, int total) {}

    /**
     * Every function is in the creator (DWARF, then the symbol table) and it is about to be
     * finalized: where llvm-gsymutil loads {@code --callsites-yaml-file} (see {@link
     * GsymCreator#loadCallSites}).
     */
    default void beforeFinish(GsymCreator creator) {}
  }

  /**
   * Conversion options (immutable; {@link #builder()}): llvm's {@code --quiet}, {@code
   * --merged-functions}, {@code --dwarf-callsites} and {@code --num-threads}, a {@link Listener},
   * and the executor that runs the conversion's parallel work.
   */
  public static final class Options {
    private static final Options DEFAULTS = builder().build();

    private final boolean quiet;
    private final boolean mergedFunctions;
    private final boolean dwarfCallSites;
    private final int threads;
    private final Listener listener;
    private final Executor executor;
    private final ObjectFile symbolFile;
    private final String symbolFileName;
    private final boolean miniDebugInfo;
    private final boolean dynamicSymbols;
    private final Unwind unwind;
    private final ObjectFile unwindBinary;

    private Options(Builder b) {
      unwind = b.unwind;
      unwindBinary = b.unwindBinary;
      symbolFile = b.symbolFile;
      symbolFileName = b.symbolFileName;
      miniDebugInfo = b.miniDebugInfo;
      dynamicSymbols = b.dynamicSymbols;
      quiet = b.quiet;
      mergedFunctions = b.mergedFunctions;
      dwarfCallSites = b.dwarfCallSites;
      threads = b.threads;
      listener = b.listener;
      executor = b.executor;
    }

    /** A builder with the defaults: not quiet, no merged functions, no call sites, one thread per core. */
    public static Builder builder() {
      return new Builder();
    }

    /** The defaults ({@code builder().build()}). */
    public static Options defaults() {
      return DEFAULTS;
    }

    /** As llvm's --quiet: no warning for ranges that start outside executable sections. */
    public boolean quiet() {
      return quiet;
    }

    /** As llvm's --merged-functions. */
    public boolean mergedFunctions() {
      return mergedFunctions;
    }

    /** As llvm's --dwarf-callsites. */
    public boolean dwarfCallSites() {
      return dwarfCallSites;
    }

    /** Threads converting units, the calling one included; 0 for one per processor. */
    public int threads() {
      return threads;
    }

    public Listener listener() {
      return listener;
    }

    /** The executor for the parallel work, or null: a pool of the conversion's own. */
    public Executor executor() {
      return executor;
    }

    /** The file the symbol table and UUID come from (llvm main's --symtab-file), or null: the input. */
    public ObjectFile symbolFile() {
      return symbolFile;
    }

    /**
     * True (the default, as llvm main) to add the functions of {@code .gnu_debugdata}
     * (MiniDebugInfo); false to ignore the section as llvm-gsymutil-22 does.
     */
    public boolean miniDebugInfo() {
      return miniDebugInfo;
    }

    /**
     * True to name the functions of an ELF file with neither DWARF functions nor a {@code .symtab}
     * (a stripped library, the kernel's vDSO) from its {@code .dynsym}, as Breakpad's dump_syms
     * makes PUBLIC records of them: each defined function symbol covers its address up to the next
     * one's (the last, its own size), so that every address of the file's code has a name, as
     * Breakpad's resolver answers and a stack walker checks. Default false: llvm-gsymutil never
     * reads {@code .dynsym}.
     */
    public boolean dynamicSymbols() {
      return dynamicSymbols;
    }

    /** Which unwind information to attach ({@link Unwind#NONE}: none, the default, llvm's output). */
    public Unwind unwind() {
      return unwind;
    }

    /**
     * The binary a debug file was separated from, whose {@code .eh_frame} the debug file lacks (its
     * {@code SHT_NOBITS} copy), for {@link #unwind()}; null: the symbol file, else none.
     */
    public ObjectFile unwindBinary() {
      return unwindBinary;
    }

    /** Collects options; {@link #build} may be called more than once. */
    public static final class Builder {
      private boolean quiet;
      private boolean mergedFunctions;
      private boolean dwarfCallSites;
      private int threads;
      private Listener listener = Listener.NONE;
      private Executor executor;
      private ObjectFile symbolFile;
      private String symbolFileName;
      private boolean miniDebugInfo = true;
      private boolean dynamicSymbols;
      private Unwind unwind = Unwind.NONE;
      private ObjectFile unwindBinary;

      private Builder() {}

      /** See {@link Options#unwindBinary()}. */
      public Builder unwindBinary(ObjectFile binary) {
        unwindBinary = binary;
        return this;
      }

      /** See {@link Unwind}. */
      public Builder unwind(Unwind u) {
        unwind = Objects.requireNonNull(u, "unwind");
        return this;
      }

      /**
       * Takes the symbol table and the UUID from {@code file} (named {@code name} in the log),
       * not from the input: llvm main's {@code --symtab-file}, for a stripped binary whose
       * companion still has its symbols. The caller checks that it is for the same architecture and
       * closes it after the conversion.
       */
      public Builder symbolFile(ObjectFile file, String name) {
        symbolFile = file;
        symbolFileName = name;
        return this;
      }

      /** See {@link Options#dynamicSymbols()}. */
      public Builder dynamicSymbols(boolean on) {
        dynamicSymbols = on;
        return this;
      }

      /** See {@link Options#miniDebugInfo()}. */
      public Builder miniDebugInfo(boolean on) {
        miniDebugInfo = on;
        return this;
      }

      public Builder quiet(boolean on) {
        quiet = on;
        return this;
      }

      public Builder mergedFunctions(boolean on) {
        mergedFunctions = on;
        return this;
      }

      public Builder dwarfCallSites(boolean on) {
        dwarfCallSites = on;
        return this;
      }

      /**
       * Threads converting units, the calling one included (0, the default: one per processor). The
       * output does not depend on it.
       *
       * @throws IllegalArgumentException if negative
       */
      public Builder threads(int n) {
        if (n < 0) throw new IllegalArgumentException("threads must not be negative: " + n);
        threads = n;
        return this;
      }

      public Builder listener(Listener l) {
        listener = Objects.requireNonNull(l, "listener");
        return this;
      }

      /**
       * Runs the conversion's parallel work on {@code e} (the caller's pool): units converted off the
       * calling thread ({@code threads - 1} at a time at most) and the inflation and pre-parsing that
       * overlap it. None of that work is running any more when {@code convert} returns or throws;
       * the executor is not shut down. Default (null): a pool the conversion creates and whose
       * threads have all ended before {@code convert} returns.
       */
      public Builder executor(Executor e) {
        executor = e;
        return this;
      }

      public Options build() {
        return new Options(this);
      }
    }
  }

  /**
   * Which call frame information a conversion attaches to the GSYM (InfoType UnwindInfo,
   * docs/unwind.md): none (llvm-gsymutil's output, byte for byte), every table the file's CFI
   * describes in its loaded segments, or the tables Breakpad's dump_syms writes as STACK CFI records
   * (it drops FDEs whose CIE augmentation it cannot read: AArch64's {@code B} and {@code G}).
   */
  public enum Unwind { NONE, ALL, BREAKPAD }

  /**
   * What a conversion did.
   *
   * @param unwindTables CFI tables attached (0 without {@link Unwind})
   * @param unwindProblems entries of the file's CFI that could not be read (skipped)
   */
  public record Summary(int dwarfFunctions, int symbolFunctions, ByteOrder byteOrder, String arch, int unwindTables,
      List<dev.gsym.GsymFormatException> unwindProblems) {
    public Summary {
      unwindProblems = List.copyOf(unwindProblems);
    }
  }

  /**
   * Reads {@code in}, fills {@code out} (base address, text ranges, DWARF functions, UUID, symbols)
   * and finalizes it. Messages go through {@code diag} as llvm prints them.
   *
   * @throws dev.gsym.GsymFormatException for malformed input (naming the section and offset)
   */
  public static Summary convert(Path in, GsymCreator out, Diagnostics diag, Options options) throws IOException {
    try (ObjectFile file = ObjectFiles.open(in)) {
      return convert(file, out, diag, options);
    }
  }

  /** As {@link #convert(Path, GsymCreator, Diagnostics, Options)} for an object file already open. */
  public static Summary convert(ObjectFile file, GsymCreator out, Diagnostics diag, Options options) {
    int threads = options.threads() > 0 ? options.threads() : Runtime.getRuntime().availableProcessors();
    // Own pool: the unit workers, or at the start the three overlapping jobs (other sections'
    // inflation, abbreviation and line-table pre-parsing), whichever is more.
    try (ScopedPool own = options.executor() == null ? new ScopedPool(Math.max(threads - 1, 3), "gsym-dwarf") : null) {
      Executor executor = own != null ? own : options.executor();
      Long base = file.baseAddress();
      if (base != null) out.setBaseAddress(base);
      // Like llvm-gsymutil: without executable sections every address counts as text.
      if (!file.textRanges().isEmpty()) out.setValidTextRanges(file.textRanges());
      int nd;
      try (DwarfFile dwarf = DwarfFile.load(file, executor)) {
        for (String w : file.relocationWarnings()) diag.log("warning: " + w + "\n");
        nd = new DwarfTransformer(dwarf, out, diag, options.quiet()).dwarfCallSites(options.dwarfCallSites())
            .progress((done, total) -> options.listener().unitsConverted((int) done, (int) total)).convert(threads, executor);
      }
      diag.log("Loaded " + nd + " functions from DWARF.\n");
      if (options.mergedFunctions()) out.prepareMergedFunctions(diag);
      ObjectFile symbols = file;
      if (options.symbolFile() != null) {
        symbols = options.symbolFile();
        diag.log("Using symbol table file: " + options.symbolFileName + "\n");
      }
      int ns = ObjectFileTransformer.convert(symbols, out, diag);
      diag.log("Loaded " + ns + " functions from symbol table.\n");
      if (options.miniDebugInfo() && symbols instanceof ElfFile elfSymbols) {
        ns += ObjectFileTransformer.convertMiniDebugInfo(elfSymbols, out, diag);
      }
      if (options.dynamicSymbols() && out.numFunctionInfos() == 0 && symbols instanceof ElfFile elfSymbols) {
        int nd2 = addDynamicSymbols(elfSymbols, out);
        diag.log("Loaded " + nd2 + " functions from the dynamic symbol table.\n");
      }
      options.listener().beforeFinish(out);
      out.finish(diag);
      UnwindEntries u = unwindEntries(file, options.unwindBinary() != null ? options.unwindBinary() : options.symbolFile(),
          options.unwind(), diag);
      if (u != null) out.attachUnwind(u.arch(), u.entries());
      return new Summary(nd, ns, file.byteOrder(), file.archName(), u == null ? 0 : u.entries().size(),
          u == null ? List.of() : u.problems());
    }
  }

  /** The defined functions of {@code elf}'s {@code .dynsym}, each up to the next ({@link Options#dynamicSymbols()}). */
  private static int addDynamicSymbols(ElfFile elf, GsymCreator out) {
    dev.gsym.elf.SymbolTable dyn = dev.gsym.elf.SymbolTable.dynamic(elf);
    if (dyn == null || !dyn.readable()) return 0;
    java.util.TreeMap<Long, List<long[]>> byStart = new java.util.TreeMap<>(Long::compareUnsigned);
    for (long i = 0; i < dyn.count(); i++) {
      if (dyn.type(i) != dev.gsym.elf.SymbolTable.STT_FUNC || dyn.sectionIndex(i) == dev.gsym.elf.SymbolTable.SHN_UNDEF
          || dyn.nameError(i) != null || dyn.name(i).isEmpty()) continue;
      byStart.computeIfAbsent(dyn.value(i), k -> new java.util.ArrayList<>()).add(new long[] {i, dyn.size(i)});
    }
    int n = 0;
    for (var e : byStart.entrySet()) {
      long start = e.getKey();
      Long next = byStart.higherKey(start);
      for (long[] sym : e.getValue()) {
        long end = next != null ? next : start + Math.max(1, sym[1]);
        out.addFunctionInfo(new dev.gsym.format.FunctionInfo(new dev.gsym.format.AddressRange(start, end),
            out.insertString(dyn.name(sym[0]))));
        n++;
      }
    }
    return n;
  }

  /**
   * Unwind entries of an object file as a conversion attaches them (see {@link Unwind}), with the
   * architecture to attach them for and the entries of the file's CFI that could not be read.
   */
  public record UnwindEntries(dev.gsym.unwind.Arch arch, List<dev.gsym.unwind.UnwindEntry> entries,
      List<dev.gsym.GsymFormatException> problems) {
    public UnwindEntries {
      entries = List.copyOf(entries);
      problems = List.copyOf(problems);
    }
  }

  /**
   * Reads the unwind entries {@code which} selects from {@code file} (a debug file takes the
   * sections it lacks from {@code binary}, which may be null), logging what was loaded to {@code
   * diag}; null for {@link Unwind#NONE} or an architecture without unwind support (logged).
   */
  public static UnwindEntries unwindEntries(ObjectFile file, ObjectFile binary, Unwind which, Diagnostics diag) {
    if (which == Unwind.NONE) return null;
    dev.gsym.unwind.Arch arch = dev.gsym.unwind.Arch.ofName(file.archName());
    if (arch == null) {
      diag.log("warning: no unwind information: architecture " + file.archName() + " is not supported\n");
      return null;
    }
    dev.gsym.cfi.CfiReader.Result cfi = binary != null
        ? dev.gsym.cfi.CfiReader.read(file, binary) : dev.gsym.cfi.CfiReader.read(file);
    List<dev.gsym.unwind.UnwindEntry> entries = new ArrayList<>();
    for (dev.gsym.cfi.CfiReader.Entry e : cfi.entries()) {
      if (e.table() == null || !loaded(file, e.table().start())) continue;
      if (which == Unwind.BREAKPAD && !breakpadReads(e.fde().cie().augmentation())) continue;
      entries.add(e.table());
    }
    List<dev.gsym.GsymFormatException> problems = new ArrayList<>(cfi.problems());
    if (which == Unwind.ALL) {
      // the formats' own unwind information (dump_syms reads DWARF CFI only): numbered after the CFI
      long next = 0;
      for (dev.gsym.unwind.UnwindEntry e : entries) next = Math.max(next, e.ordinal() + 1);
      List<dev.gsym.unwind.CfiTable> native_ = List.of();
      try {
        if (file instanceof dev.gsym.macho.MachOFile m) {
          dev.gsym.macho.CompactUnwind cu = dev.gsym.macho.CompactUnwind.read(m);
          if (cu != null) native_ = cu.tables();
        } else if (file instanceof dev.gsym.coff.CoffFile c) {
          dev.gsym.coff.PeUnwind pe = dev.gsym.coff.PeUnwind.read(c);
          if (pe != null) native_ = pe.tables();
        }
      } catch (dev.gsym.GsymFormatException e) {
        problems.add(e); // the section is unreadable: its tables are left out
      }
      for (dev.gsym.unwind.CfiTable t : native_) {
        if (!loaded(file, t.start())) continue;
        entries.add(new dev.gsym.unwind.CfiTable(t.source(), next + t.ordinal(), t.start(), t.length(),
            t.returnAddressRegister(), t.rows()));
      }
    }
    diag.log("Loaded " + entries.size() + " unwind tables from call frame information"
        + (problems.isEmpty() ? "" : " (" + problems.size() + " entries skipped: " + problems.getFirst().getMessage() + ")")
        + ".\n");
    return new UnwindEntries(arch, entries, problems);
  }

  /**
   * Whether {@code address} is in a loaded segment of {@code file} (an ELF file's PT_LOAD segments;
   * other formats: always): CFI for code outside them (an FDE of a function the linker removed)
   * describes nothing that can run.
   */
  private static boolean loaded(ObjectFile file, long address) {
    if (!(file instanceof ElfFile elf)) return true;
    boolean any = false;
    for (ElfFile.ProgramHeader ph : elf.programHeaders()) {
      if (ph.type() != ElfFile.PT_LOAD) continue;
      any = true;
      if (Long.compareUnsigned(address - ph.vaddr(), ph.memsz()) < 0) return true;
    }
    return !any; // relocatable objects: no segments
  }

  /** Breakpad's CFI reader takes a CIE augmentation of "" or 'z' followed by L, P, R and S only. */
  private static boolean breakpadReads(String augmentation) {
    if (augmentation.isEmpty()) return true;
    if (augmentation.charAt(0) != 'z') return false;
    for (int i = 1; i < augmentation.length(); i++) if ("LPRS".indexOf(augmentation.charAt(i)) < 0) return false;
    return true;
  }

  /**
   * llvm-gsymutil's {@code --verify} after a conversion of {@code file}: every address of every
   * function in {@code gsym} is looked up and compared with the DWARF's inlining chain (split units
   * found as the conversion finds them); llvm's messages are appended to {@code out}, naming the
   * GSYM file {@code gsymPath}.
   *
   * @return the number of mismatches
   * @throws dev.gsym.read.LookupException at the first address the GSYM does not resolve (llvm
   *     stops there too)
   */
  public static int verify(ObjectFile file, GsymReader gsym, String gsymPath, StringBuilder out) {
    try (DwarfFile dwarf = DwarfFile.load(file, null)) {
      return new DwarfVerifier(dwarf).verify(gsym, gsymPath, out);
    }
  }

  /** llvm's architecture name for the "Output file (ARCH): …" message ({@link ObjectFile#archName()}). */
  public static String arch(ObjectFile file) {
    return file.archName();
  }

}
