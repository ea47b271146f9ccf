package dev.gsym.stackwalk;

import dev.gsym.elf.ElfFile;
import dev.gsym.read.GsymReader;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.Symbolizer;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Symbols and CFI from a {@link Symbolizer} built with {@link Symbolizer.Builder#unwind unwind}
 * information: its store, debug directories, debuginfod servers and Breakpad symbol stores, as
 * {@code gsymutil symbolize} finds modules. A module with a GNU build-id (its code identifier on
 * Linux) is looked for by its build-id (and its file name, for Breakpad symbol stores); when module
 * files are looked for (a core file's modules, whose files are usually on the machine that reads
 * the core), first as a file: its code file's name in each of the binary directories, then its code
 * file's own path, taken when that file has the module's build-id (its DWARF, or a debug file the
 * sources find for it, gives the symbols; its {@code .eh_frame} the CFI). A module without one is looked for by
 * its Breakpad debug file and identifier. A module that cannot be found has no symbols: {@link
 * #problems()} says why.
 *
 * <p>Thread-safe. {@link #close()} releases the modules opened (not the symbolizer).
 */
public final class SymbolizerSymbols implements SymbolSource, AutoCloseable {
  private final Symbolizer symbolizer;
  private final List<Path> binaryDirectories;
  private final boolean moduleFiles;
  private final Map<String, Symbolizer.OpenModule> open = new HashMap<>();
  private final Map<String, String> problems = new LinkedHashMap<>();

  /**
   * Symbols through {@code symbolizer} (which should convert with unwind information: without it
   * the walker has no CFI), module files looked for in {@code binaryDirectories} first, then at
   * their own paths.
   */
  public SymbolizerSymbols(Symbolizer symbolizer, List<Path> binaryDirectories) {
    this(symbolizer, binaryDirectories, true);
  }

  /**
   * Symbols through {@code symbolizer}; with {@code moduleFiles} false, modules are looked for by
   * their identifiers only (a minidump's: the paths it names are another machine's).
   */
  public SymbolizerSymbols(Symbolizer symbolizer, List<Path> binaryDirectories, boolean moduleFiles) {
    this.symbolizer = symbolizer;
    this.binaryDirectories = List.copyOf(binaryDirectories);
    this.moduleFiles = moduleFiles;
  }

  @Override
  public synchronized ModuleSymbols find(CodeModule module, SystemDescription system) {
    ModuleRef ref = reference(module);
    if (ref == null) return null;
    String key = ref.toString();
    Symbolizer.OpenModule m = open.get(key);
    if (m == null) {
      if (problems.containsKey(key)) return null;
      m = symbolizer.openModule(ref);
      if (!m.found()) {
        problems.put(key, m.problem());
        m.close();
        return null;
      }
      open.put(key, m);
    }
    GsymReader r = m.reader();
    // a GSYM of an ELF file has its first segment's address as base; one of a Breakpad symbol file 0
    return new GsymModuleSymbols(r, r.header().baseAddress(), false, null);
  }

  /** Why modules looked for had no symbols: one message per module, in the order they were looked for. */
  public synchronized List<String> problems() {
    return new ArrayList<>(problems.values());
  }

  /** How the symbolizer is asked for {@code module}, or null when it cannot be named. */
  ModuleRef reference(CodeModule module) {
    String id = module.codeIdentifier();
    String name = CodeModule.fileName(module.debugFile().isEmpty() ? module.codeFile() : module.debugFile());
    if (isBuildId(id)) {
      String hex = id.toLowerCase(java.util.Locale.ROOT);
      String codeName = CodeModule.fileName(module.codeFile());
      if (moduleFiles && !codeName.isEmpty()) {
        for (Path dir : binaryDirectories) {
          Path p = resolve(dir, codeName);
          if (p != null && hasBuildId(p, hex)) return ModuleRef.file(p);
        }
      }
      Path own = resolve(null, module.codeFile());
      if (moduleFiles && own != null && own.isAbsolute() && hasBuildId(own, hex)) return ModuleRef.file(own);
      try {
        return new ModuleRef.BuildId(hex, name.isEmpty() ? null : name);
      } catch (IllegalArgumentException e) {
        return new ModuleRef.BuildId(hex, null);
      }
    }
    if (name.isEmpty() || module.debugIdentifier().isEmpty()) return null;
    try {
      return ModuleRef.breakpad(name, module.debugIdentifier());
    } catch (IllegalArgumentException e) {
      return null; // an identity no store can have
    }
  }

  private static boolean isBuildId(String id) {
    if (id.length() < 8 || id.length() > 2 * ModuleRef.MAX_ID_BYTES || id.length() % 2 != 0) return false;
    for (int i = 0; i < id.length(); i++) if (Character.digit(id.charAt(i), 16) < 0) return false;
    return true;
  }

  private static Path resolve(Path dir, String name) {
    try {
      return dir == null ? Path.of(name) : dir.resolve(name);
    } catch (InvalidPathException e) {
      return null;
    }
  }

  /** Whether {@code p} is an ELF file with build-id {@code hex}. */
  private static boolean hasBuildId(Path p, String hex) {
    if (!Files.isRegularFile(p)) return false;
    try (ElfFile elf = ElfFile.open(p)) {
      byte[] id = elf.buildId();
      return id != null && HexFormat.of().formatHex(id).equals(hex);
    } catch (java.io.IOException | RuntimeException e) {
      return false; // not an ELF file, or unreadable: not this module
    }
  }

  @Override
  public synchronized void close() {
    for (Symbolizer.OpenModule m : open.values()) m.close();
    open.clear();
  }
}
