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
 * that fill a store ahead of the symbolizers. {@link #publish} converts a file into a local store
 * in one call; {@link #identify} and {@link #convert} are its parts, for callers that publish
 * elsewhere themselves (gsym-spark's bulk conversion: write a temporary file, then rename it to
 * {@link Module#storePath()}).
 */
public final class StoreConversion {
  private StoreConversion() {}

  /** The store subdirectory of GSYMs converted with merged functions and DWARF call sites. */
  public static final String MERGED_SUBDIRECTORY = Symbolizer.MERGED_STORE;

  /**
   * The input formats a store is fed from: the {@link dev.gsym.object.FileKind}s a store converts,
   * so that {@link #convert} cannot be handed any other.
   */
  public enum Format {
    /** An ELF binary or debug file. */
    ELF,
    /** A thin Mach-O binary or dSYM companion. */
    MACH_O,
    /** A Breakpad symbol file. */
    BREAKPAD
  }

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
    /** Checks that the format is not null. */
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
    return module(file, ModuleLoader.identify(file));
  }

  private static Module module(Path file, ModuleLoader.FileIdentity id) throws IOException {
    String path = id.storeKey() == null ? null : id.storeKey().path() + GsymStore.GSYM;
    String bpFile = id.breakpad() == null ? null : id.breakpad().debugFile();
    String bpId = id.breakpad() == null ? null : id.breakpad().debugId();
    return switch (id.kind()) {
      case OBJECT -> new Module(FileKind.sniff(file) == FileKind.MACH_O
          ? Format.MACH_O : Format.ELF, path, id.facts().buildId(), bpFile, bpId, id.facts().hasDebugInfo());
      case BREAKPAD -> new Module(Format.BREAKPAD, path, null, bpFile, bpId, true);
      case GSYM -> throw new GsymFormatException(file.toString(), 0, "a GSYM file carries no build-id to store it under");
      case OTHER -> throw new GsymFormatException(file.toString(), 0, "not an ELF file or a Breakpad symbol file");
    };
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
    ConverterAdapter.Kind kind = format == Format.BREAKPAD ? ConverterAdapter.Kind.BREAKPAD : ConverterAdapter.Kind.OBJECT;
    ConverterAdapter.convert(kind, file, out, mergedFunctions, threads, false, null);
  }

  /**
   * Converts {@code file} and publishes its GSYM into the store directory {@code store} (created if
   * missing) as a symbolizer does: written to a temporary file beside its place (a {@code
   * .gsym-*.tmp} file, which symbolizers never read), forced to disk, then renamed to {@code
   * store/}{@link Module#storePath()} ({@code store/}{@link #MERGED_SUBDIRECTORY}{@code /...} if
   * {@code mergedFunctions}), so that symbolizers using the store, in this process or others, see
   * the whole file or none. A GSYM already there is replaced (with the same bytes), the module's
   * negative-cache marker removed; a failure leaves no file behind.
   *
   * @return the published GSYM file, or empty when a store keeps no GSYM of this file: no store
   *     identity (an ELF file without a build-id, a {@code .sym} file without a usable MODULE
   *     record) or an ELF file with a symbol table only ({@link #identify} tells which)
   * @throws GsymFormatException for input that is not an ELF, Mach-O or Breakpad symbol file, is
   *     malformed, or has no function
   * @throws IllegalArgumentException if the store directory cannot be created (naming the file in
   *     the way)
   */
  public static java.util.Optional<Path> publish(Path file, Path store, boolean mergedFunctions) throws IOException {
    ModuleLoader.FileIdentity id = ModuleLoader.identify(file);
    Module m = module(file, id);
    if (m.storePath() == null || !m.hasDebugInfo()) return java.util.Optional.empty();
    Path root = mergedFunctions ? store.resolve(MERGED_SUBDIRECTORY) : store;
    GsymStore.createRoot(root);
    GsymStore s = new GsymStore(root, Long.MAX_VALUE);
    Path temp = s.createTemp(id.storeKey());
    try {
      try (FileChannel ch = FileChannel.open(temp, java.nio.file.StandardOpenOption.READ,
          java.nio.file.StandardOpenOption.WRITE)) {
        convert(file, m.format(), ch, mergedFunctions, 0);
        ch.force(true);
      }
      s.publish(temp, id.storeKey());
      return java.util.Optional.of(s.gsym(id.storeKey()));
    } finally {
      java.nio.file.Files.deleteIfExists(temp);
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
