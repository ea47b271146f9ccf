package dev.gsym.convert;

import dev.gsym.Progress;
import dev.gsym.dwarf.DwarfConverter;
import dev.gsym.elf.ElfFile;
import dev.gsym.io.AtomicFile;
import dev.gsym.io.ByteView;
import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The steps of Breakpad's {@code dump_syms} on an ELF file, for {@code gsymutil --to-breakpad}:
 * find the separate debug file of a binary without DWARF ({@link #debugFile}), convert the DWARF,
 * symbols and CFI ({@link #convert}) or take the GSYM the binary carries and add the CFI it lacks
 * ({@link #withUnwind}), and read the result back from an unlinked scratch file ({@link
 * #throughScratch}) for gsym-breakpad's {@code BreakpadWriter}. The caller reports each step.
 */
public final class DumpSyms {
  private DumpSyms() {}

  /** Uses a GSYM read back from a scratch file while the file is open. */
  @FunctionalInterface
  public interface ReaderUse<T> {
    /** Uses {@code reader}, which is closed after. */
    T apply(GsymReader reader) throws IOException;
  }

  /**
   * The search for a binary's separate debug file.
   *
   * @param found the debug file, or null when none was found
   * @param tried the paths looked at and refused, in order (a debuglink name whose CRC-32 does not
   *     match is marked so)
   */
  public record DebugFileSearch(Path found, List<String> tried) {
    /** Copies the list. */
    public DebugFileSearch {
      tried = List.copyOf(tried);
    }
  }

  /**
   * The separate debug file of a binary without DWARF, as dump_syms finds it in the directories it
   * is given: {@code DIR/.build-id/xx/rest.debug} by build-id, then {@code DIR/NAME} by the {@code
   * .gnu_debuglink} name, accepted only if its CRC-32 is the link's.
   *
   * @return the search, or null when there is none to make: no directories, or a binary with DWARF
   */
  public static DebugFileSearch debugFile(ElfFile elf, List<String> dirs) throws IOException {
    if (dirs.isEmpty()) return null;
    ElfFile.Section info = elf.section(".debug_info");
    if (info != null && info.type() != ElfFile.SHT_NOBITS && info.size() > 0) return null;
    List<String> tried = new ArrayList<>();
    byte[] id = elf.buildId();
    if (id != null && id.length >= 2) {
      String hex = HexFormat.of().formatHex(id);
      for (String d : dirs) {
        Path p = Path.of(d, ".build-id", hex.substring(0, 2), hex.substring(2) + ".debug");
        if (Files.isRegularFile(p)) return new DebugFileSearch(p, tried);
        tried.add(p.toString());
      }
    }
    ElfFile.Section link = elf.section(".gnu_debuglink");
    if (link != null && link.type() != ElfFile.SHT_NOBITS) {
      ByteView v = elf.rawData(link);
      byte[] name = v.cStringBytes(0);
      long at = (name.length + 1 + 3) & ~3L;
      String n = new String(name, StandardCharsets.UTF_8);
      if (name.length > 0 && v.has(at, 4) && n.indexOf('/') < 0) {
        long crc = v.u32(at);
        for (String d : dirs) {
          Path p = Path.of(d, n);
          if (!Files.isRegularFile(p)) continue;
          if (crc32(p) == crc) return new DebugFileSearch(p, tried);
          tried.add(p + " (CRC-32 mismatch)");
        }
        for (String d : dirs) if (!Files.isRegularFile(Path.of(d, n))) tried.add(Path.of(d, n).toString());
      }
    }
    return new DebugFileSearch(null, tried);
  }

  private static long crc32(Path p) throws IOException {
    CRC32 crc = new CRC32();
    try (FileChannel ch = FileChannel.open(p)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
      while (ch.read(buf) > 0) {
        buf.flip();
        crc.update(buf);
        buf.clear();
      }
    }
    return crc.getValue();
  }

  /**
   * dump_syms' functions: the DWARF and symbols of {@code elf}, or of its separate {@code debug}
   * file (not null) with the CFI of both (the binary keeps {@code .eh_frame}), into {@code out};
   * with {@code cfi} its CFI as Breakpad's STACK CFI rows.
   *
   * @param quiet as llvm's {@code --quiet}
   * @param progress hears the compile units converted
   * @throws dev.gsym.GsymFormatException for malformed input
   */
  public static DwarfConverter.Summary convert(ElfFile elf, ElfFile debug, GsymCreator out, boolean cfi, boolean quiet,
      Diagnostics diag, Progress progress) {
    return DwarfConverter.convert(debug != null ? debug : elf, out, diag, DwarfConverter.Options.builder()
        .quiet(quiet).listener(new DwarfConverter.Listener() {
          @Override
          public void unitsConverted(int done, int total) {
            progress.update(done, total);
          }
        }).unwindBinary(debug != null ? elf : null)
        .unwind(cfi ? DwarfConverter.Unwind.BREAKPAD : DwarfConverter.Unwind.NONE).build());
  }

  /** Whether any function of {@code r} carries unwind information. */
  public static boolean hasUnwind(GsymReader r) {
    for (int i = 0; i < r.numFunctions(); i++) if (r.unwindInfoAtIndex(i) != null) return true;
    return false;
  }

  /**
   * The GSYM a binary carries ({@code gsymutil embed}) with the binary's CFI attached as STACK CFI
   * rows, for a GSYM that carries none: a finished creator (the caller closes it), or null when
   * {@code gsym} has unwind information or the binary has no CFI.
   *
   * @throws dev.gsym.GsymFormatException for malformed input
   */
  public static GsymCreator withUnwind(GsymReader gsym, Path elf, Diagnostics diag) throws IOException {
    if (hasUnwind(gsym)) return null;
    DwarfConverter.UnwindEntries u;
    try (ElfFile file = ElfFile.open(elf)) {
      u = DwarfConverter.unwindEntries(file, null, DwarfConverter.Unwind.BREAKPAD, diag);
    }
    if (u == null || u.entries().isEmpty()) return null;
    GsymCreator withCfi = GsymCreator.from(gsym);
    try {
      withCfi.finish(Diagnostics.silent());
      withCfi.attachUnwind(u.arch(), u.entries());
      return withCfi;
    } catch (RuntimeException e) {
      withCfi.close();
      throw e;
    }
  }

  /**
   * Saves {@code creator} to an unlinked scratch file in {@code dir} (no name is ever left behind)
   * and hands it, mapped by a reader named {@code source}, to {@code use}.
   */
  public static <T> T throughScratch(GsymCreator creator, ByteOrder order, Path dir, String source, ReaderUse<T> use)
      throws IOException {
    try (FileChannel gsym = AtomicFile.scratch(dir)) {
      creator.save(gsym, order);
      try (GsymReader r = GsymReader.open(gsym, source)) {
        return use.apply(r);
      }
    }
  }
}
