package dev.gsym.convert;

import dev.gsym.GsymFormatException;
import dev.gsym.breakpad.BreakpadParser;
import dev.gsym.breakpad.BreakpadTransformer;
import dev.gsym.convert.internal.CallSiteYaml;
import dev.gsym.convert.internal.SymtabFile;
import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.elf.EmbeddedGsym;
import dev.gsym.macho.FatArch;
import dev.gsym.macho.MachOFile;
import dev.gsym.macho.MachOUniversal;
import dev.gsym.object.FileKind;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.ObjectFiles;
import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.FunctionCallSites;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one conversion front door: an {@link Input} to GSYM under {@link ConvertOptions}, messages
 * through a {@link Diagnostics} as llvm-gsymutil prints them. {@link #convert} hands each GSYM
 * (one per object: a universal file's chosen slices, a {@code .dSYM} bundle's DWARF files) to a
 * {@link Sink} while its object is open; {@link #write} writes the one GSYM of an input to a
 * channel, as a GSYM store keeps it.
 */
public final class Converter {
  private Converter() {}

  /**
   * Hears about a conversion as it goes; every method is called on the thread that called {@code
   * convert}, and what it throws ends the conversion and propagates.
   */
  public interface Listener {
    /** Hears nothing. */
    Listener NONE = new Listener() {};

    /** {@code unit}'s object is open and about to be converted (llvm-gsymutil's "Output file (ARCH)"). */
    default void objectStarted(Unit unit) {}

    /** {@code done} of {@code total}: compile units of an object file, bytes of a Breakpad file. */
    default void progress(long done, long total) {}

    /**
     * A Breakpad input is read: its functions are in {@code creator}, which is not finished yet
     * (the DWARF converter finishes its creator itself), and {@code result} says what was read.
     */
    default void breakpadRead(BreakpadTransformer.Result result, GsymCreator creator) {}
  }

  /**
   * One object a conversion reads.
   *
   * @param source the file, or null for a stream or an object already open
   * @param arch the architecture's name as llvm-gsymutil shows it (a universal file's slice name; a
   *     thin file's as {@link ConvertOptions#llvmCompat()} says), or null for Breakpad and GSYM input
   * @param oneOfSeveral true for a slice of a universal file of which several are converted (whose
   *     outputs llvm-gsymutil names {@code OUT.ARCH})
   * @param object the open object file (valid until the sink returns), or null for Breakpad and GSYM
   *     input
   */
  public record Unit(Path source, String arch, boolean oneOfSeveral, ObjectFile object) {}

  /**
   * One finished GSYM, to be saved ({@code creator().save(..., byteOrder())}) before the sink
   * returns: the creator is closed after.
   *
   * @param unit what was converted
   * @param creator the finished GSYM
   * @param byteOrder the byte order to write it in (the input's)
   * @param summary what the DWARF conversion did, or null for Breakpad and GSYM input
   * @param breakpad what the Breakpad conversion read, or null for other input
   */
  public record Converted(Unit unit, GsymCreator creator, ByteOrder byteOrder, DwarfConverter.Summary summary,
      BreakpadTransformer.Result breakpad) {}

  /** Takes each GSYM of a conversion. */
  @FunctionalInterface
  public interface Sink {
    /** Saves (or otherwise uses) {@code gsym}. */
    void accept(Converted gsym) throws IOException;
  }

  /**
   * Writing a GSYM to its output failed (a full disk, a quota, an I/O error of the output's file
   * system): a fault of where the GSYM goes, not of the input. The cause is the I/O error.
   */
  public static final class OutputFailed extends IOException {
    /** Wraps {@code cause}. */
    public OutputFailed(IOException cause) {
      super("cannot write its GSYM: " + (cause.getMessage() == null || cause.getMessage().isEmpty()
          ? cause.getClass().getSimpleName() : cause.getMessage()), cause);
    }
  }

  /**
   * Converts {@code input}: each object to GSYM as {@code llvm-gsymutil --convert} does, a
   * Breakpad file as {@code gsymutil --breakpad}, a GSYM file rewritten in {@link
   * ConvertOptions#outputVersion()}; each result goes to {@code sink}.
   *
   * @throws GsymFormatException for malformed input (naming the file, section and offset), a
   *     universal file without a chosen architecture, or a Breakpad file without any function
   * @throws ConvertException when the {@code --symtab-file} or the call-site YAML file ends it
   */
  public static void convert(Input input, ConvertOptions options, Diagnostics diag, Sink sink) throws IOException {
    switch (input) {
      case Input.ObjectFile f -> convertFile(f.path(), f.archs(), options, diag, sink);
      case Input.DsymBundle b -> {
        for (Input.ObjectFile f : b.members()) convertFile(f.path(), f.archs(), options, diag, sink);
      }
      case Input.OpenObject o -> convertObject(new Unit(null, o.object().archName(), false, o.object()), null, options,
          diag, sink);
      case Input.BreakpadFile b -> convertBreakpad(b.path(), null, b.path().toString(), options, diag, sink);
      case Input.BreakpadStream b -> convertBreakpad(null, b.in(), b.name(), options, diag, sink);
      case Input.GsymFile g -> {
        try (GsymReader r = openGsym(g.path())) {
          rewrite(new Unit(g.path(), null, false, null), r, options, sink);
        }
      }
      case Input.OpenGsym g -> rewrite(new Unit(null, null, false, null), g.reader(), options, sink);
    }
  }

  /**
   * Writes the GSYM of {@code input} (an object file of one architecture, or with one chosen, or a
   * Breakpad file) to {@code out} (empty, positioned at 0), the bytes a GSYM store keeps: the GSYM an ELF file
   * carries, checked and copied, with {@link ConvertOptions#embeddedGsym()}; else the conversion.
   *
   * @throws GsymFormatException for malformed input, input without any function, or several
   *     architectures (nothing is written then)
   * @throws OutputFailed if {@code out} cannot be written
   */
  public static void write(Input input, ConvertOptions options, Diagnostics diag, FileChannel out) throws IOException {
    if (input instanceof Input.ObjectFile f && options.embeddedGsym()) {
      Optional<EmbeddedGsym.Location> embedded = EmbeddedGsym.find(f.path());
      if (embedded.isPresent()) {
        copyEmbedded(f.path(), embedded.get(), out);
        return;
      }
    }
    boolean[] written = {false};
    convert(input, options, diag, gsym -> {
      String in = gsym.unit().source() != null ? gsym.unit().source().toString() : name(input);
      if (written[0] || gsym.unit().oneOfSeveral()) {
        throw new GsymFormatException(in, -1, "holds several architectures: choose one");
      }
      if (gsym.creator().numFunctionInfos() == 0) {
        throw new GsymFormatException(in, -1, gsym.breakpad() != null ? "no FUNC or PUBLIC records"
            : "no functions in its DWARF or symbol table");
      }
      try {
        gsym.creator().save(out, gsym.byteOrder());
      } catch (IOException e) {
        throw new OutputFailed(e);
      }
      written[0] = true;
    });
  }

  /** How messages name {@code input}. */
  private static String name(Input input) {
    return switch (input) {
      case Input.ObjectFile f -> f.path().toString();
      case Input.DsymBundle b -> b.path().toString();
      case Input.OpenObject o -> o.name();
      case Input.BreakpadFile b -> b.path().toString();
      case Input.BreakpadStream b -> b.name();
      case Input.GsymFile g -> g.path().toString();
      case Input.OpenGsym g -> g.name();
    };
  }

  /** The GSYM of a binary's {@code .gsym} section, checked by opening it, then copied to {@code out}. */
  private static void copyEmbedded(Path in, EmbeddedGsym.Location at, FileChannel out) throws IOException {
    try (FileChannel ch = FileChannel.open(in, StandardOpenOption.READ)) {
      GsymReader.open(ch, at.offset(), at.size(), at.source(in.toString())).close();
      for (long done = 0; done < at.size(); ) {
        long n = ch.transferTo(at.offset() + done, at.size() - done, out);
        if (n <= 0) throw new IOException(in + ": could not copy its " + EmbeddedGsym.SECTION + " section");
        done += n;
      }
    }
  }

  /**
   * llvm-gsymutil's handleFileConversionToGSYM and handleBuffer: an ELF, Mach-O or PE file; a
   * universal file's slices that {@code archs} selects (all without it), every slice read before
   * any is converted (a bad one fails the whole file). The --symtab-file is opened after the input
   * is read and before it is parsed, and each object takes the symbols of its own architecture from
   * it (llvm main).
   */
  private static void convertFile(Path in, List<String> archs, ConvertOptions o, Diagnostics diag, Sink sink)
      throws IOException {
    FileKind kind = FileKind.sniff(in);
    try (SymtabFile symtab = SymtabFile.open(o.symtabFile())) {
      if (kind != FileKind.MACH_O_UNIVERSAL) {
        try (ObjectFile file = ObjectFiles.open(in)) {
          String arch = SymtabFile.archName(file);
          ObjectFile symbols = symtab == null ? null : symtab.forArch(arch);
          // LLVM 22 names a thin file by its triple alone ("aarch64" where llvm main says "arm64")
          String shown = o.mainArchNames() ? arch : file.archName();
          convertObject(new Unit(in, shown, false, file), symbols, o, diag, sink);
          return;
        }
      }
      try (MachOUniversal fat = MachOUniversal.open(in)) {
        List<FatArch> chosen = new ArrayList<>();
        for (FatArch a : fat.archs()) {
          try (MachOFile slice = fat.slice(a)) {
            if (matches(archs, slice)) chosen.add(a);
          }
        }
        if (chosen.isEmpty()) throw new GsymFormatException(in.toString(), -1, "no matching architectures found");
        if (chosen.size() > 1 && symtab instanceof SymtabFile.Thin) {
          throw new ConvertException("symbol table file '" + symtab.path() + "' is not a universal binary, but the"
              + " input contains multiple architectures; use --arch to select a single architecture");
        }
        for (FatArch a : chosen) {
          try (MachOFile slice = fat.slice(a)) {
            ObjectFile symbols = symtab == null ? null : symtab.forArch(a.archName());
            convertObject(new Unit(in, a.archName(), chosen.size() > 1, slice), symbols, o, diag, sink);
          }
        }
      }
    }
  }

  /** llvm-gsymutil's filterArch: no --arch, or one naming the slice's architecture or its CPU type's number. */
  private static boolean matches(List<String> archs, MachOFile slice) {
    if (archs.isEmpty()) return true;
    for (String arch : archs) {
      if (arch.equals(slice.universalArchName())) return true;
      Long v = cpuType(arch);
      if (v != null && (int) (long) v == slice.header().cpuType()) return true;
    }
    return false;
  }

  /**
   * An --arch given as a number, as llvm's {@code getAsInteger(0)} reads it ({@code 0x} hex, {@code
   * 0b} binary, {@code 0o} or a leading {@code 0} octal, else decimal), or null when it is not one
   * or exceeds 32 bits.
   */
  static Long cpuType(String s) {
    int radix = 10;
    int from = 0;
    if (s.length() >= 2 && s.charAt(0) == '0') {
      switch (s.charAt(1)) {
        case 'x', 'X' -> { radix = 16; from = 2; }
        case 'b', 'B' -> { radix = 2; from = 2; }
        case 'o' -> { radix = 8; from = 2; }
        default -> { radix = 8; from = 1; }
      }
    }
    String digits = s.substring(from);
    if (digits.isEmpty() || digits.length() > 64 || !digits.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 0x80)) {
      return null;
    }
    try {
      long v = Long.parseUnsignedLong(digits, radix);
      return Long.compareUnsigned(v, 0xffffffffL) <= 0 ? v : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** llvm-gsymutil's handleObjectFile: the DWARF and symbols of one object into a GSYM, to {@code sink}. */
  private static void convertObject(Unit unit, ObjectFile symbols, ConvertOptions o, Diagnostics diag, Sink sink)
      throws IOException {
    o.listener().objectStarted(unit);
    Path binaryPath = o.unwind() && o.unwindBinary() != null && !o.unwindBinary().equals(unit.source())
        ? o.unwindBinary() : null;
    try (GsymCreator creator = new GsymCreator(); // closed: one process converts many modules
        ObjectFile binary = binaryPath == null ? null : ObjectFiles.open(binaryPath)) {
      creator.setOutputVersion(o.outputVersion());
      // replaced by the first PT_LOAD's (__TEXT's) address when there is one
      if (o.baseAddress() != null) creator.setBaseAddress(o.baseAddress());
      DwarfConverter.Options.Builder b = DwarfConverter.Options.builder().quiet(o.quiet())
          .mergedFunctions(o.mergedFunctions()).dwarfCallSites(o.dwarfCallSites()).threads(o.threads())
          .symbolFile(symbols, o.symtabFile()).miniDebugInfo(o.miniDebugInfo())
          .unwind(o.unwind() ? DwarfConverter.Unwind.ALL : DwarfConverter.Unwind.NONE)
          .dynamicSymbols(o.dynamicSymbols()).listener(dwarfListener(o));
      if (binary != null) b.unwindBinary(binary);
      DwarfConverter.Summary s = DwarfConverter.convert(unit.object(), creator, diag, b.build());
      sink.accept(new Converted(unit, creator, s.byteOrder(), s, null));
    }
  }

  /** The DWARF converter's listener: progress, and the call-site YAML loaded where llvm loads it. */
  private static DwarfConverter.Listener dwarfListener(ConvertOptions o) {
    Listener l = o.listener();
    String yaml = o.callSitesYaml();
    if (l == Listener.NONE && yaml == null) return DwarfConverter.Listener.NONE;
    return new DwarfConverter.Listener() {
      @Override
      public void unitsConverted(int done, int total) {
        l.progress(done, total);
      }

      @Override
      public void beforeFinish(GsymCreator creator) {
        if (yaml != null) loadCallSites(creator, yaml);
      }
    };
  }

  /**
   * llvm's --callsites-yaml-file, after the symbol table: the YAML reader's diagnostics and llvm's
   * message in a {@link ConvertException}.
   */
  private static void loadCallSites(GsymCreator creator, String file) {
    List<CallSiteYaml.Function> functions;
    try {
      Path p = Path.of(file);
      if (Files.isDirectory(p)) throw new ConvertException("Is a directory");
      functions = CallSiteYaml.read(p, file);
    } catch (InvalidPathException e) {
      throw new ConvertException("", "No such file or directory", e);
    } catch (IOException e) {
      throw new ConvertException("", reason(e), e);
    } catch (CallSiteYaml.ParseException e) {
      throw new ConvertException(e.diagnostics(), e.getMessage(), e);
    }
    // llvm reads each entry's flags after looking its name up: an unknown flag is reported only if
    // no name up to and including its entry is unknown
    List<FunctionCallSites> resolved = new ArrayList<>(functions.size());
    CallSiteYaml.UnknownFlagException badFlag = null;
    for (CallSiteYaml.Function f : functions) {
      try {
        resolved.add(f.resolve());
      } catch (CallSiteYaml.UnknownFlagException e) {
        resolved.add(new FunctionCallSites(f.name(), List.of()));
        badFlag = e;
        break;
      }
    }
    try {
      creator.loadCallSites(resolved);
    } catch (IllegalArgumentException e) {
      throw new ConvertException("", e.getMessage() + "\n", e); // llvm's message ends in a newline
    }
    if (badFlag != null) throw new ConvertException("", badFlag.getMessage() + "\n", badFlag);
  }

  /** An I/O error in the words of llvm's errorToErrorCode (the strerror text). */
  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) return "No such file or directory";
    if (e instanceof java.nio.file.AccessDeniedException) return "Permission denied";
    if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) return f.getReason();
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }

  /**
   * A Breakpad symbol file ({@code in}) or stream ({@code stream}) to GSYM ({@link
   * BreakpadTransformer}): its functions, public symbols and, with {@link ConvertOptions#unwind()},
   * STACK records; addresses less {@link ConvertOptions#loadAddress()}.
   */
  private static void convertBreakpad(Path in, java.io.InputStream stream, String name, ConvertOptions o,
      Diagnostics diag, Sink sink) throws IOException {
    Unit unit = new Unit(in, null, false, null);
    Listener l = o.listener();
    l.objectStarted(unit);
    try (GsymCreator creator = new GsymCreator()) {
      creator.setOutputVersion(o.outputVersion());
      if (o.baseAddress() != null) creator.setBaseAddress(o.baseAddress());
      BreakpadTransformer t = new BreakpadTransformer(creator, o.lenient(), diag).loadAddress(o.loadAddress());
      if (o.unwind()) t.unwind();
      BreakpadTransformer.Result r;
      if (stream != null) {
        r = t.convert(new BreakpadParser(stream, name));
      } else {
        try (BreakpadParser p = BreakpadParser.open(in, l == Listener.NONE ? dev.gsym.Progress.NONE : l::progress)) {
          r = t.convert(p);
        }
      }
      l.breakpadRead(r, creator);
      if (creator.numFunctionInfos() == 0) throw new GsymFormatException(name, -1, "no FUNC or PUBLIC records");
      creator.finish(diag);
      if (r.unwind() != null && !r.unwind().entries().isEmpty()) creator.attachUnwind(r.unwind().arch(), r.unwind().entries());
      sink.accept(new Converted(unit, creator, ByteOrder.LITTLE_ENDIAN, null, r));
    }
  }

  /**
   * A GSYM file (or an ELF file's {@code .gsym} section) rewritten in {@link
   * ConvertOptions#outputVersion()}, in its byte order: every lookup answers the same.
   */
  private static void rewrite(Unit unit, GsymReader r, ConvertOptions o, Sink sink) throws IOException {
    o.listener().objectStarted(unit);
    ByteOrder order = r.byteOrder();
    try (GsymCreator creator = GsymCreator.from(r)) {
      creator.setOutputVersion(o.outputVersion());
      creator.finish(Diagnostics.silent());
      sink.accept(new Converted(unit, creator, order, null, null));
    }
  }

  /** A GSYM file, or the GSYM in an ELF file's {@code .gsym} section. */
  private static GsymReader openGsym(Path in) throws IOException {
    if (FileKind.sniff(in) == FileKind.ELF) {
      Optional<EmbeddedGsym.Location> at = EmbeddedGsym.find(in);
      if (at.isPresent()) {
        try (FileChannel ch = FileChannel.open(in, StandardOpenOption.READ)) {
          return GsymReader.open(ch, at.get().offset(), at.get().size(), at.get().source(in.toString()));
        }
      }
    }
    return GsymReader.open(in);
  }
}
