package dev.gsym.dwarf;

import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Library entry point for {@code llvm-gsymutil --convert} of an ELF with DWARF (single-threaded
 * order, so the output is byte-identical to {@code --num-threads=1}).
 */
public final class DwarfConverter {
  private DwarfConverter() {}

  /**
   * Conversion options: llvm's --quiet, --merged-functions, --dwarf-callsites, --num-threads
   * ({@code threads}: 0 = one per core; the output does not depend on it), and a receiver of
   * (units converted, units in all) updates, and {@code beforeFinalize} (may be null): called with
   * the creator after the symbol table was added and before it is finalized, where llvm loads
   * {@code --callsites-yaml-file} (see {@link GsymCreator#loadCallSites}); what it throws
   * propagates.
   */
  public record Options(boolean quiet, boolean mergedFunctions, boolean dwarfCallSites, int threads,
      dev.gsym.Progress progress, java.util.function.Consumer<GsymCreator> beforeFinalize) {
    public Options(boolean quiet, boolean mergedFunctions, boolean dwarfCallSites, int threads,
        dev.gsym.Progress progress) {
      this(quiet, mergedFunctions, dwarfCallSites, threads, progress, null);
    }

    public Options(boolean quiet, boolean mergedFunctions, boolean dwarfCallSites, int threads) {
      this(quiet, mergedFunctions, dwarfCallSites, threads, dev.gsym.Progress.NONE);
    }

    public Options(boolean quiet) {
      this(quiet, false, false, 0);
    }

    public Options(boolean quiet, boolean mergedFunctions, boolean dwarfCallSites) {
      this(quiet, mergedFunctions, dwarfCallSites, 0);
    }

    public static Options defaults() {
      return new Options(false);
    }
  }

  /** What a conversion did. */
  public record Summary(int dwarfFunctions, int symbolFunctions, ByteOrder byteOrder, String arch) {}

  /**
   * Reads {@code in}, fills {@code out} (base address, text ranges, DWARF functions, UUID, symbols)
   * and finalizes it. Messages go through {@code diag} as llvm prints them.
   */
  public static Summary convert(Path in, GsymCreator out, Diagnostics diag, Options options) throws IOException {
    try (ElfFile elf = ElfFile.open(in)) {
      return convert(elf, out, diag, options);
    }
  }

  /** As {@link #convert(Path, GsymCreator, Diagnostics, Options)} for an ELF already open. */
  public static Summary convert(ElfFile elf, GsymCreator out, Diagnostics diag, Options options) {
    {
      Long base = elf.baseAddress();
      if (base != null) out.setBaseAddress(base);
      // Like llvm-gsymutil: without executable sections every address counts as text.
      if (!elf.textRanges().isEmpty()) out.setValidTextRanges(elf.textRanges());
      int nd;
      var abbrevs = DwarfFile.parseAbbreviationsInBackground(elf);
      LineTablePreparser lines = LineTablePreparser.start(elf);
      DwarfSections sections = DwarfSections.of(elf);
      for (String w : elf.relocationWarnings()) diag.log("warning: " + w + "\n");
      try (DwarfFile dwarf = new DwarfFile(sections, objectPath(elf), preparsed(abbrevs),
          lines == null ? java.util.Map.of() : lines.finish())) {
        nd = new DwarfTransformer(dwarf, out, diag, options.quiet()).dwarfCallSites(options.dwarfCallSites())
            .progress(options.progress()).convert(options.threads());
      }
      diag.log("Loaded " + nd + " functions from DWARF.\n");
      if (options.mergedFunctions()) out.prepareMergedFunctions(diag);
      int ns = ObjectFileTransformer.convert(elf, out, diag);
      diag.log("Loaded " + ns + " functions from symbol table.\n");
      if (options.beforeFinalize() != null) options.beforeFinalize().accept(out);
      out.finish(diag);
      return new Summary(nd, ns, elf.byteOrder(), arch(elf));
    }
  }

  private static java.util.Map<Long, java.util.Map<Long, Abbreviation>> preparsed(
      java.util.concurrent.FutureTask<java.util.Map<Long, java.util.Map<Long, Abbreviation>>> task) {
    if (task == null) return java.util.Map.of();
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return java.util.Map.of();
    } catch (java.util.concurrent.ExecutionException e) {
      return java.util.Map.of();
    }
  }

  private static Path objectPath(ElfFile elf) {
    try {
      return Path.of(elf.source());
    } catch (java.nio.file.InvalidPathException e) {
      return null;
    }
  }

  /**
   * llvm's architecture name for the "Output file (ARCH): …" message: the first component of
   * {@code ObjectFile::makeTriple()} (ELFObjectFile::getArch by e_machine, class and byte order).
   * ARM gives "arm": llvm refines it from the .ARM.attributes CPU architecture ("armv7", ...),
   * which is not read here (docs/dwarf-differences.md).
   */
  public static String arch(ElfFile elf) {
    boolean le = elf.byteOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;
    boolean is64 = elf.is64();
    return switch (elf.machine()) {
      case 62 -> "x86_64";
      case 3, 6 -> "i386"; // EM_386, EM_IAMCU
      case 183 -> le ? "aarch64" : "aarch64_be";
      case 40 -> "arm";
      case 243 -> is64 ? "riscv64" : "riscv32";
      case 8 -> is64 ? (le ? "mips64el" : "mips64") : (le ? "mipsel" : "mips");
      case 20 -> le ? "powerpcle" : "powerpc";
      case 21 -> le ? "powerpc64le" : "powerpc64";
      case 22 -> "s390x";
      case 2, 18 -> le ? "sparcel" : "sparc"; // EM_SPARC, EM_SPARC32PLUS
      case 43 -> "sparcv9";
      case 258 -> is64 ? "loongarch64" : "loongarch32";
      case 247 -> le ? "bpfel" : "bpfeb";
      case 4 -> "m68k";
      case 164 -> "hexagon";
      case 105 -> "msp430";
      case 83 -> "avr";
      case 252 -> "csky";
      case 251 -> "ve";
      case 244 -> "lanai";
      case 94 -> "xtensa";
      default -> "unknown";
    };
  }
}
