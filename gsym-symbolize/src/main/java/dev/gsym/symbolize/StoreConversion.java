package dev.gsym.symbolize;

import dev.gsym.GsymFormatException;
import dev.gsym.object.FileKind;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Converts one debug file or Breakpad symbol file into the GSYM file a store keeps for it, exactly
 * as a {@link Symbolizer} converts and publishes it (docs/symbolize.md, "Store layout"), for tools
 * that fill a store ahead of the symbolizers (gsym-spark's bulk conversion). The caller publishes
 * the output itself (write elsewhere, then rename to {@link Module#storePath()}).
 */
public final class StoreConversion {
  private StoreConversion() {}

  /** The store subdirectory of GSYMs converted with merged functions and DWARF call sites. */
  public static final String MERGED_SUBDIRECTORY = Symbolizer.MERGED_STORE;

  /**
   * The input formats a store is fed from: the {@link dev.gsym.object.FileKind}s a store converts,
   * so that {@link #convert} cannot be handed any other.
   */
  public enum Format { ELF, MACH_O, BREAKPAD }

  /**
   * What a file is to a store.
   *
   * @param format the file's format
   * @param storePath where the store keeps its GSYM, relative to the store's root ({@code
   *     '/'}-separated, ending in {@code .gsym}); null when the symbolizer would not publish it: an
   *     ELF file without a build-id, a {@code .sym} file without a usable MODULE record
   * @param buildId the ELF GNU build-id in lower-case hex, or null
   * @param debugFile the Breakpad debug file name (the MODULE record's; for ELF the one {@code
   *     dump_syms} gives), or null
   * @param debugId the Breakpad debug id (upper case), or null
   * @param hasDebugInfo false for an ELF file with a symbol table only: the symbolizer never
   *     publishes such a conversion (a debug file may turn up later), and neither should a bulk
   *     converter
   */
  public record Module(Format format, String storePath, String buildId, String debugFile, String debugId,
      boolean hasDebugInfo) {
    public Module {
      Objects.requireNonNull(format, "format");
    }
  }

  /**
   * Recognises {@code file} and finds its store identity as the symbolizer does.
   *
   * @throws GsymFormatException if it is neither an ELF file nor a Breakpad symbol file (a GSYM
   *     file included: it carries no identity), or its headers are malformed
   */
  public static Module identify(Path file) throws IOException {
    FileKind fileKind = FileKind.sniff(file);
    switch (ConverterAdapter.kind(fileKind)) {
      case OBJECT -> {
        ConverterAdapter.ObjectFacts f = ConverterAdapter.probe(file);
        Format format = fileKind == FileKind.MACH_O ? Format.MACH_O : Format.ELF;
        String bpFile = null;
        String bpId = null;
        if (f.breakpadName() != null) {
          try {
            ModuleRef.Breakpad bp = ModuleRef.breakpad(f.breakpadName(), f.breakpadId());
            bpFile = bp.debugFile();
            bpId = bp.debugId();
          } catch (IllegalArgumentException e) {
            // a SONAME that is no usable file name: no Breakpad identity
          }
        }
        String path = f.buildId() == null ? null : ModuleKey.ofBuildId(f.buildId()).path() + GsymStore.GSYM;
        return new Module(format, path, f.buildId(), bpFile, bpId, f.hasDebugInfo());
      }
      case BREAKPAD -> {
        ConverterAdapter.BreakpadModule m = ConverterAdapter.breakpadModule(file);
        ModuleRef.Breakpad id = null;
        if (m != null) {
          try {
            id = ModuleRef.breakpad(m.name(), m.debugId());
          } catch (IllegalArgumentException e) {
            // a MODULE record without a usable identity: the symbolizer converts such a file privately
          }
        }
        return id == null ? new Module(Format.BREAKPAD, null, null, null, null, true)
            : new Module(Format.BREAKPAD, storePath(id), null, id.debugFile(), id.debugId(), true);
      }
      case GSYM -> throw new GsymFormatException(file.toString(), 0, "a GSYM file carries no build-id to store it under");
      default -> throw new GsymFormatException(file.toString(), 0, "not an ELF file or a Breakpad symbol file");
    }
  }

  /**
   * Writes the GSYM of {@code file} to {@code out} (empty, positioned at 0): {@code llvm-gsymutil
   * --convert}'s bytes for ELF (with {@code --merged-functions --dwarf-callsites} if {@code
   * mergedFunctions}; an embedded {@code .gsym} section is copied instead), lenient conversion for
   * Breakpad, the module's base as BaseAddress; the same bytes a symbolizer publishes.
   *
   * @param threads threads a DWARF conversion uses, 0 for one per processor (the bytes are the same)
   * @throws GsymFormatException for malformed input, or input without any function
   */
  public static void convert(Path file, Format format, FileChannel out, boolean mergedFunctions, int threads)
      throws IOException {
    if (threads < 0) throw new IllegalArgumentException("negative thread count: " + threads);
    switch (format) {
      case ELF, MACH_O -> ConverterAdapter.convertObject(file, out, mergedFunctions, threads);
      case BREAKPAD -> ConverterAdapter.convertBreakpad(file, out);
    }
  }

  /**
   * Where a store keeps module {@code ref} (relative, ending in {@code .gsym}).
   *
   * @throws IllegalArgumentException for a module given by file path, which has no key of its own
   */
  public static String storePath(ModuleRef ref) {
    return switch (ref) {
      case ModuleRef.BuildId b -> ModuleKey.ofBuildId(b.hex()).path() + GsymStore.GSYM;
      case ModuleRef.Breakpad p -> ModuleKey.ofBreakpad(p.debugFile(), p.debugId()).path() + GsymStore.GSYM;
      case ModuleRef.FilePath f -> throw new IllegalArgumentException("a module given by path has no store key: identify the file");
    };
  }
}
