package dev.gsym.cli.symbolize;

import dev.gsym.GsymFormatException;
import dev.gsym.cli.ForeignFile;
import dev.gsym.elf.ElfFile;
import dev.gsym.object.FileKind;
import dev.gsym.read.GsymReader;
import dev.gsym.symbolize.ModuleRef;
import java.io.IOException;
import java.lang.ref.SoftReference;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The modules a {@code gsymutil symbolize} run names, by the name llvm prints (a path as given,
 * or a build-id in upper-case hex), each resolved once on the thread reading the input: a path is
 * checked as llvm-symbolizer opens it (so that a missing file, a directory or a file that is no
 * object file gets llvm's message), and a GSYM file is preferred where llvm-symbolizer-22 prefers
 * one: {@code FILE.gsym} beside FILE, else {@code DIR/<file name>.gsym} for each {@code
 * --gsym-file-directory}, unless {@code --disable-gsym} (a GSYM file that cannot be opened is
 * passed over, as llvm falls back to the DWARF).
 */
final class SymbolizeModules {
  /** llvm's message for a file that is not an object file. */
  static final String NOT_OBJECT = "The file was not recognized as a valid object file";
  /** llvm's message for a build-id no place has. */
  static final String NO_BUILD_ID = "could not find build ID";
  /** Distinct module names remembered (a hostile input naming millions stays bounded). */
  private static final int MAX_MODULES = 1 << 16;

  /**
   * One module.
   */
  static final class Module {
    final String name;
    final boolean byBuildId;
    /** What the symbolizer is asked, or null if {@link #error} says why not. */
    final ModuleRef ref;
    /** llvm's message for a module that cannot be opened, or null. */
    final String error;
    /** Set by the writing thread once llvm would have reported this module's error. */
    boolean reported;
    /** {@link #name} quoted as a JSON string, made by the first answer that prints it (any thread). */
    volatile byte[] jsonName;
    /**
     * The ELF file whose symbol table names the outermost frames (as llvm-symbolizer names them
     * when it reads DWARF), or null: the module is no ELF file, or a GSYM file is read for it.
     */
    private final Path symbolFile;
    /** {@link #symbolFile}'s names, read at first use; dropped under memory pressure and read again. */
    private volatile SoftReference<SymbolNames> symbols;

    Module(String name, boolean byBuildId, ModuleRef ref, String error) {
      this(name, byBuildId, ref, error, null);
    }

    Module(String name, boolean byBuildId, ModuleRef ref, String error, Path symbolFile) {
      this.name = name;
      this.byBuildId = byBuildId;
      this.ref = ref;
      this.error = error;
      this.symbolFile = symbolFile;
    }

    /**
     * The names of the outermost frames from the module's symbol table, or null (GSYM's names
     * stay). Called for every answer, on any worker thread: no lock once read.
     */
    SymbolNames symbols() {
      if (symbolFile == null) return null;
      SoftReference<SymbolNames> ref = symbols;
      SymbolNames s = ref == null ? null : ref.get();
      if (s != null) return s;
      synchronized (this) {
        ref = symbols;
        s = ref == null ? null : ref.get();
        if (s == null) {
          s = SymbolNames.read(symbolFile);
          symbols = new SoftReference<>(s);
        }
        return s;
      }
    }
  }

  private final boolean disableGsym;
  private final List<String> gsymDirectories;
  private final Map<String, Module> byName = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Module> eldest) {
      return size() > MAX_MODULES;
    }
  };

  /** Where a build-id's debug file is looked for, as llvm looks: {@code DIR/.build-id/xx/rest.debug}. */
  private final List<Path> debugDirectories;

  SymbolizeModules(boolean disableGsym, List<String> gsymDirectories, List<Path> debugDirectories) {
    this.disableGsym = disableGsym;
    this.gsymDirectories = List.copyOf(gsymDirectories);
    this.debugDirectories = List.copyOf(debugDirectories);
  }

  /** The module of an input that parsed. */
  Module of(SymbolizeInput in) {
    if (!in.byBuildId()) return file(in.module());
    Module m = byName.get(in.module());
    if (m == null || !m.byBuildId) {
      m = buildId(in.module(), in.buildId());
      byName.put(in.module(), m);
    }
    return m;
  }

  /** The module given by path as {@code name} (resolved once). */
  Module file(String name) {
    Module m = byName.get(name);
    if (m == null || m.byBuildId) {
      m = resolveFile(name);
      byName.put(name, m);
    }
    return m;
  }

  private Module buildId(String name, byte[] id) {
    ModuleRef ref;
    try {
      ref = ModuleRef.buildId(id);
    } catch (IllegalArgumentException e) {
      return new Module(name, true, null, NO_BUILD_ID); // longer than any build-id a store can hold
    }
    return new Module(name, true, ref, null, symbolFileOf(id));
  }

  /**
   * The debug file llvm opens for build-id {@code id} when it reads its DWARF, whose symbol table
   * then names the outermost frames: the first {@code DIR/.build-id/xx/rest.debug} of the debug
   * directories that is an ELF file, unless a GSYM file is found for it (llvm then reads that). Null
   * if none is here (found elsewhere, by debuginfod or in the store, GSYM's names stay).
   */
  private Path symbolFileOf(byte[] id) {
    if (id.length < 2) return null;
    String hex = HexFormat.of().formatHex(id);
    for (Path dir : debugDirectories) {
      Path p;
      try {
        p = dir.resolve(".build-id").resolve(hex.substring(0, 2)).resolve(hex.substring(2) + ".debug");
      } catch (InvalidPathException e) {
        continue;
      }
      if (!Files.isRegularFile(p)) continue;
      if (ForeignFile.of(p) != FileKind.ELF) return null;
      return disableGsym || gsymFor(p.toString(), p) == null ? p : null;
    }
    return null;
  }

  /**
   * A module given by path, checked as llvm's {@code createBinary} opens it; or, our extension, a
   * Breakpad identity {@code BREAKPAD:<debug file>/<DEBUG ID>} (for {@code --breakpad-symbols}).
   */
  private Module resolveFile(String name) {
    if (name.regionMatches(true, 0, BREAKPAD, 0, BREAKPAD.length())) {
      try {
        return new Module(name, false, ModuleRef.parse(name), null);
      } catch (IllegalArgumentException e) {
        return new Module(name, false, null, e.getMessage());
      }
    }
    Path path;
    try {
      if (name.isEmpty() || name.indexOf('\0') >= 0) return new Module(name, false, null, "No such file or directory");
      path = Path.of(name);
    } catch (InvalidPathException e) {
      return new Module(name, false, null, "No such file or directory");
    }
    String problem = check(path);
    if (problem != null) return new Module(name, false, null, problem);
    Path gsym = disableGsym ? null : gsymFor(name, path);
    try {
      // llvm names the outermost frame from the file's symbols when it reads DWARF, not a GSYM file
      Path symbolFile = gsym == null && ForeignFile.of(path) == FileKind.ELF ? path : null;
      return new Module(name, false, ModuleRef.file(gsym != null ? gsym : path), null, symbolFile);
    } catch (IllegalArgumentException e) {
      return new Module(name, false, null, "No such file or directory");
    }
  }

  /** llvm's error for opening {@code path} as an object file, or null if we can read it. */
  private static String check(Path path) {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return "No such file or directory";
    } catch (AccessDeniedException e) {
      return "Permission denied";
    } catch (FileSystemException e) {
      return e.getReason() != null ? e.getReason() : "Input/output error";
    } catch (IOException e) {
      return "Input/output error";
    }
    if (a.isDirectory()) return "Is a directory";
    FileKind kind;
    try {
      kind = FileKind.sniff(path);
    } catch (AccessDeniedException e) {
      return "Permission denied";
    } catch (IOException e) {
      return e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : "Input/output error";
    }
    if (kind.isGsym()) {
      try (GsymReader r = GsymReader.open(path)) {
        // the tables open; a file cut short loses its last FunctionInfo records: decode the one
        // stored last (one record, whatever the file's size)
        int last = -1;
        for (int i = 0; i < r.numFunctions(); i++) {
          if (last < 0 || Long.compareUnsigned(r.functionInfoOffset(i), r.functionInfoOffset(last)) > 0) last = i;
        }
        if (last >= 0) r.functionInfoAtIndex(last);
        return null;
      } catch (GsymFormatException e) {
        return problem(e);
      } catch (IOException e) {
        return "Input/output error";
      }
    }
    if (kind == FileKind.ELF) {
      // llvm's createBinary reads the headers and the section table: a truncated or corrupt file
      // cannot be opened (its debug info is read, and may fail, request by request)
      try (ElfFile elf = ElfFile.open(path)) {
        return null;
      } catch (GsymFormatException e) {
        return problem(e);
      } catch (IOException e) {
        return "Input/output error";
      }
    }
    if (kind == FileKind.BREAKPAD) return null;
    String description = ForeignFile.description(kind);
    if (description != null) return NOT_OBJECT + " by gsymutil (it reads ELF, GSYM and Breakpad symbol files; this is "
        + description + ")";
    return NOT_OBJECT;
  }

  /** A malformed file's problem, as llvm names it after the file: the offset and what is wrong. */
  private static String problem(GsymFormatException e) {
    return (e.offset() >= 0 ? String.format("offset 0x%08x: ", e.offset()) : "") + e.detail();
  }

  private static final String BREAKPAD = "BREAKPAD:";

  /** llvm-symbolizer-22's {@code lookUpGsymFile}, keeping only a GSYM file that opens. */
  private Path gsymFor(String name, Path path) {
    Path beside = usable(name + ".gsym");
    if (beside != null) return beside;
    Path file = path.getFileName();
    if (file == null) return null;
    for (String dir : gsymDirectories) {
      Path p = usable(dir.isEmpty() ? file + ".gsym" : Path.of(dir, file + ".gsym").toString());
      if (p != null) return p;
    }
    return null;
  }

  private static Path usable(String candidate) {
    try {
      Path p = Path.of(candidate);
      if (!Files.exists(p) || Files.isDirectory(p)) return null;
      try (GsymReader r = GsymReader.open(p)) {
        return p;
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
