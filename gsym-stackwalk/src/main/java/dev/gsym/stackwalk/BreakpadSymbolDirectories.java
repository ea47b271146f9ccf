package dev.gsym.stackwalk;

import dev.gsym.GsymFormatException;
import dev.gsym.breakpad.BreakpadTransformer;
import dev.gsym.convert.ConvertOptions;
import dev.gsym.convert.Converter;
import dev.gsym.convert.Input;
import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Symbols from Breakpad symbol directories, found as minidump_stackwalk's {@code
 * SimpleSymbolSupplier} finds them: {@code ROOT/DEBUG_FILE/DEBUG_ID/DEBUG_FILE.sym} (a {@code .pdb}
 * debug file's name without {@code .pdb}), in the first root that has one. Each {@code .sym} file
 * is converted once into a GSYM with its {@code STACK} records as unwind information ({@code
 * BreakpadTransformer} with {@code unwind()}, then {@code GsymCreator.attachUnwind}), kept in the
 * cache directory as {@code DEBUG_FILE/DEBUG_ID/DEBUG_FILE.gsym} beside a {@code .source} file naming
 * the {@code .sym} it was made from (path, size, modification time) and whether it had bad records;
 * later uses, in this process or another, map that GSYM and parse no text. Without a cache
 * directory the GSYMs are kept in memory. Bad records are skipped (the symbols count as corrupt, as
 * Breakpad counts them); a file that is not a symbol file at all gives empty, corrupt symbols.
 *
 * <p>Thread-safe. {@link #close()} unmaps the GSYMs opened.
 */
public final class BreakpadSymbolDirectories implements SymbolSource, AutoCloseable {
  private static final String SOURCE_SUFFIX = ".source";

  private final List<Path> roots;
  private final Path cache;
  private final Map<String, GsymModuleSymbols> opened = new HashMap<>();
  private int conversions;

  /**
   * Symbols from {@code roots} (searched in order), converted into {@code cacheDirectory} (created
   * when needed), or kept in memory when it is null.
   */
  public BreakpadSymbolDirectories(List<Path> roots, Path cacheDirectory) {
    this.roots = List.copyOf(roots);
    this.cache = cacheDirectory;
  }

  /** How many {@code .sym} files this source converted (not found in its cache). */
  public synchronized int conversions() {
    return conversions;
  }

  /**
   * The path of {@code module}'s symbol file under {@code root} as Breakpad builds it, or null when
   * the module has no debug file or identifier.
   */
  public static Path symbolPath(Path root, CodeModule module) {
    String debugFile = CodeModule.fileName(module.debugFile());
    String id = module.debugIdentifier();
    if (debugFile.isEmpty() || id.isEmpty()) return null;
    String name = debugFile;
    if (debugFile.length() > 4 && debugFile.substring(debugFile.length() - 4).toLowerCase(Locale.ROOT).equals(".pdb")) {
      name = debugFile.substring(0, debugFile.length() - 4);
    }
    try {
      return root.resolve(debugFile).resolve(id).resolve(name + ".sym");
    } catch (InvalidPathException e) {
      return null; // a name no file can have (a NUL)
    }
  }

  @Override
  public synchronized ModuleSymbols find(CodeModule module, SystemDescription system) {
    for (Path root : roots) {
      Path sym = symbolPath(root, module);
      if (sym == null) return null;
      if (Files.exists(sym)) return load(sym, module);
    }
    return null;
  }

  private GsymModuleSymbols load(Path sym, CodeModule module) {
    String key = sym.toAbsolutePath().normalize().toString();
    GsymModuleSymbols s = opened.get(key);
    if (s != null) return s;
    String identity = identity(sym);
    Path gsym = cache == null ? null : cachePath(module);
    if (gsym != null) {
      s = fromCache(gsym, identity);
      if (s == null) s = convertToCache(sym, gsym, identity);
    } else {
      s = convertInMemory(sym);
    }
    opened.put(key, s);
    return s;
  }

  /** The symbol file's path, size and modification time: a cache entry made from another is stale. */
  private static String identity(Path sym) {
    String path = sym.toAbsolutePath().normalize().toString();
    try {
      BasicFileAttributes a = Files.readAttributes(sym, BasicFileAttributes.class);
      return path + "\n" + a.size() + "\n" + a.lastModifiedTime().toMillis();
    } catch (IOException e) {
      return path + "\n?\n?";
    }
  }

  private Path cachePath(CodeModule module) {
    Path p = symbolPath(cache, module);
    if (p == null) return null;
    String name = p.getFileName().toString();
    return p.resolveSibling(name.substring(0, name.length() - ".sym".length()) + ".gsym");
  }

  /** The cached GSYM when its source record names {@code identity}, else null. */
  private static GsymModuleSymbols fromCache(Path gsym, String identity) {
    Path source = gsym.resolveSibling(gsym.getFileName() + SOURCE_SUFFIX);
    try {
      if (!Files.isRegularFile(source, LinkOption.NOFOLLOW_LINKS)) return null;
      String[] lines = Files.readString(source, StandardCharsets.UTF_8).split("\n", -1);
      // identity (3 lines), "corrupt" or "ok", "empty" or "gsym", "params" or "-"
      if (lines.length < 6 || !String.join("\n", lines[0], lines[1], lines[2]).equals(identity)) return null;
      boolean corrupt = lines[3].equals("corrupt");
      ParameterSizes params = null;
      if (lines[5].equals("params")) {
        params = ParameterSizes.load(paramsPath(gsym));
        if (params == null) return null;
      }
      if (lines[4].equals("empty")) return new GsymModuleSymbols(null, corrupt, params);
      if (!Files.isRegularFile(gsym)) return null;
      return new GsymModuleSymbols(GsymReader.open(gsym), corrupt, params);
    } catch (IOException | GsymFormatException | UncheckedIOException e) {
      return null; // unreadable or damaged: converted again
    }
  }

  private static Path paramsPath(Path gsym) {
    return gsym.resolveSibling(gsym.getFileName() + ".params");
  }

  /**
   * What a conversion made: the GSYM (bytes, or written to its target; none when the symbol file has
   * no functions), whether it had bad records, an x86 module's FUNC parameter sizes (or null).
   */
  private record Converted(boolean hasGsym, byte[] bytes, boolean corrupt, ParameterSizes params) {}

  /** Converts {@code sym}, writing the GSYM to {@code target} (atomically) or, when it is null, into memory. */
  private Converted convert(Path sym, Path target) throws IOException {
    conversions++;
    BreakpadTransformer.Result[] read = {null};
    int[] functions = {0};
    byte[][] bytes = {null};
    boolean[] saved = {false};
    // lenient, as Breakpad reads a symbol file: bad records are skipped and counted
    ConvertOptions options = ConvertOptions.builder().lenient(true).unwind(true).build()
        .withListener(new Converter.Listener() {
          @Override
          public void breakpadRead(BreakpadTransformer.Result result, GsymCreator creator) {
            read[0] = result;
            functions[0] = creator.numFunctionInfos();
          }
        });
    try {
      Converter.convert(new Input.BreakpadFile(sym), options, Diagnostics.silent(), gsym -> {
        if (target != null) {
          Files.createDirectories(target.getParent());
          gsym.creator().save(target, ByteOrder.LITTLE_ENDIAN);
        } else {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          gsym.creator().save(out, ByteOrder.LITTLE_ENDIAN);
          bytes[0] = out.toByteArray();
        }
        saved[0] = true;
      });
    } catch (GsymFormatException e) {
      // not a symbol file at all, which Breakpad reads as nothing but bad records; or read, but
      // without any function (the door's "no FUNC or PUBLIC records"): no GSYM
      if (read[0] == null) return new Converted(false, null, true, null);
      if (functions[0] != 0) throw e;
    } catch (IOException | UncheckedIOException e) {
      if (read[0] == null) return new Converted(false, null, false, null); // Breakpad reads a file it cannot read as empty
      throw e;
    }
    BreakpadTransformer.Result r = read[0];
    boolean corrupt = r.badRecords() > 0;
    // the x86 walker reads FUNC parameter sizes, which the GSYM cannot hold
    ParameterSizes params = r.unwind() != null && r.unwind().arch() != dev.gsym.unwind.Arch.X86 ? null : ParameterSizes.read(sym);
    return new Converted(saved[0], bytes[0], corrupt, params);
  }

  private GsymModuleSymbols convertInMemory(Path sym) {
    try {
      Converted c = convert(sym, null);
      return new GsymModuleSymbols(c.hasGsym() ? GsymReader.of(c.bytes(), sym + " (converted)") : null, c.corrupt(),
          c.params());
    } catch (IOException | RuntimeException e) {
      return new GsymModuleSymbols(null, true, null);
    }
  }

  private GsymModuleSymbols convertToCache(Path sym, Path gsym, String identity) {
    Path source = gsym.resolveSibling(gsym.getFileName() + SOURCE_SUFFIX);
    try {
      Files.deleteIfExists(source); // the GSYM about to be replaced is no longer this record's
      Converted c = convert(sym, gsym);
      if (c.params() != null) write(paramsPath(gsym), c.params().encode());
      write(source, (identity + "\n" + (c.corrupt() ? "corrupt" : "ok") + "\n" + (c.hasGsym() ? "gsym" : "empty") + "\n"
          + (c.params() != null ? "params" : "-") + "\n").getBytes(StandardCharsets.UTF_8));
      return new GsymModuleSymbols(c.hasGsym() ? GsymReader.open(gsym) : null, c.corrupt(), c.params());
    } catch (IOException | RuntimeException e) {
      // a cache that cannot be written (or read back): these symbols are converted in memory
      return convertInMemory(sym);
    }
  }

  /** Writes {@code bytes} to {@code target} through a temporary file renamed into place. */
  private static void write(Path target, byte[] bytes) throws IOException {
    dev.gsym.io.AtomicFile.write(target, ch -> {
      ch.write(java.nio.ByteBuffer.wrap(bytes));
      return null;
    });
  }

  @Override
  public synchronized void close() {
    List<GsymModuleSymbols> all = new ArrayList<>(opened.values());
    opened.clear();
    for (GsymModuleSymbols s : all) if (s.reader() != null) s.reader().close();
  }
}
