package dev.gsym.profile;

import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Line;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import dev.gsym.ByteStrings;
import dev.gsym.demangle.Demangler;
import dev.gsym.elf.ElfFile;
import dev.gsym.symbolize.AddressMode;
import dev.gsym.symbolize.Frame;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.Symbolized;
import dev.gsym.symbolize.Symbolizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Symbolizes pprof profiles with a {@link Symbolizer}: every location of a mapping not yet
 * symbolized gets its frames (inlined ones first, as pprof orders a location's lines), each
 * function named demangled in {@code Function.name} and as the module stores it in {@code
 * Function.system_name}, with its file and line. Modules are found by the mapping's build-id, then
 * by its file name; process addresses become module addresses by pprof's rules (the mapping's
 * {@code memory_start} and {@code file_offset} and the ELF file's {@code PT_LOAD} segments), and
 * each address is looked up as given, as pprof does (a profile's non-leaf addresses already point
 * into their call instructions, by the format's convention). Samples, values, labels, comments and
 * locations that already have lines are left as they are. Thread-safe; see docs/profiles.md.
 */
public final class ProfileSymbolizer {
  private final Symbolizer symbolizer;
  private final boolean demangle;
  private final List<Path> debugDirectories;
  private final SymbolTableNames symbolTableNames;
  private final Demangler demangler = Demangler.llvm();

  private ProfileSymbolizer(Builder b) {
    this.symbolizer = b.symbolizer;
    this.demangle = b.demangle;
    this.debugDirectories = List.copyOf(b.debugDirectories);
    this.symbolTableNames = b.symbolTableNames;
  }

  /**
   * Names the function containing an address from an ELF file's symbol table, as llvm-symbolizer
   * names the outermost frame when it reads DWARF (the symbol of a {@code .cold} part, a global
   * alias over glibc's local {@code __GI_} name); {@code gsymutil} passes its llvm-compatible
   * rules. Must be thread-safe.
   */
  @FunctionalInterface
  public interface SymbolTableNames {
    /** The name at {@code fileAddress} of ELF file {@code elf} (the module if it is here, else its debug file), or null. */
    String name(Path elf, long fileAddress);
  }

  /** A builder over {@code symbolizer}, which finds and answers the modules. */
  public static Builder builder(Symbolizer symbolizer) {
    return new Builder(symbolizer);
  }

  /** Configures a {@link ProfileSymbolizer}. */
  public static final class Builder {
    private final Symbolizer symbolizer;
    private boolean demangle = true;
    private final List<Path> debugDirectories = new ArrayList<>(List.of(Path.of("/usr/lib/debug")));
    private SymbolTableNames symbolTableNames;

    private Builder(Symbolizer symbolizer) {
      this.symbolizer = Objects.requireNonNull(symbolizer, "symbolizer");
    }

    /** Demangled names in {@code Function.name} (default); false keeps the module's names there too. */
    public Builder demangle(boolean on) {
      this.demangle = on;
      return this;
    }

    /**
     * Where a module's ELF file is looked for by build-id ({@code DIR/.build-id/xx/rest.debug}), when
     * the mapping's own file is not on this machine: its program headers place the mapping in the
     * module (default {@code /usr/lib/debug}).
     */
    public Builder debugDirectories(List<Path> dirs) {
      debugDirectories.clear();
      debugDirectories.addAll(dirs);
      return this;
    }

    /**
     * Names the outermost frame of each location from the module's symbol table (default none:
     * the names the symbolizer's GSYM holds, DWARF's).
     */
    public Builder symbolTableNames(SymbolTableNames names) {
      this.symbolTableNames = names;
      return this;
    }

    public ProfileSymbolizer build() {
      return new ProfileSymbolizer(this);
    }
  }

  /**
   * What a symbolization did, in locations.
   *
   * @param locations every location of the profile
   * @param symbolized given frames now
   * @param alreadySymbolized left as they were: they had lines naming a function, or their mapping had
   *     functions
   * @param noMapping left as they were: no mapping (or a mapping of no file, such as {@code [vdso]}
   *     without a build-id)
   * @param missingModule left as they were: no symbols found for their module
   * @param unknownAddress left as they were: the module has no function at the address, or the
   *     address is outside its mapping or cannot be placed in the module
   * @param unreadableModule left as they were: the module's symbols could not be read
   * @param assumedLayout symbolized locations whose module address was computed without the
   *     module's program headers (its ELF file was not found here, or only a separate debug file:
   *     pprof's rule for a shared object without them, exact when the executable segment's
   *     addresses equal its file offsets)
   * @param problems one line per module that could not be used, and why (at most 100)
   */
  public record Summary(long locations, long symbolized, long alreadySymbolized, long noMapping, long missingModule,
      long unknownAddress, long unreadableModule, long assumedLayout, List<String> problems) {
    public Summary {
      problems = List.copyOf(problems);
    }

    /** The counts as one line: {@code 1234 locations: 1200 symbolized, ...}. */
    public String line() {
      StringBuilder sb = new StringBuilder();
      sb.append(locations).append(" locations: ").append(symbolized).append(" symbolized");
      if (alreadySymbolized > 0) sb.append(", ").append(alreadySymbolized).append(" already symbolized");
      if (noMapping > 0) sb.append(", ").append(noMapping).append(" without a module");
      if (missingModule > 0) sb.append(", ").append(missingModule).append(" in modules not found");
      if (unknownAddress > 0) sb.append(", ").append(unknownAddress).append(" at unknown addresses");
      if (unreadableModule > 0) sb.append(", ").append(unreadableModule).append(" in unreadable modules");
      if (assumedLayout > 0) sb.append(" (").append(assumedLayout).append(" placed without program headers)");
      return sb.toString();
    }
  }

  /** A symbolized profile and what was done. */
  public record Result(PprofProfile profile, Summary summary) {}

  private static final int MAX_PROBLEMS = 100;

  /** How one mapping is symbolized. */
  private static final class Plan {
    final Mapping mapping;
    ModuleRef ref;
    ModuleRef fallback;
    ElfLayout layout;
    boolean assumed;
    long base;
    String noBase;
    boolean planned;
    String file = "";
    /** The ELF file whose symbol table names the outermost frames: the module, else its debug file. */
    Path symbolFile;
    boolean symbolizedAny;

    Plan(Mapping m) {
      this.mapping = m;
    }
  }

  /** Symbolizes {@code profile}; the answer is a new profile and the summary. */
  public Result symbolize(PprofProfile profile) {
    Map<Long, Plan> plans = new LinkedHashMap<>();
    for (Mapping m : profile.mappings()) plans.put(m.getId(), new Plan(m));
    List<String> problems = new ArrayList<>();
    long already = 0;
    long noMapping = 0;
    long missing = 0;
    long unknown = 0;
    long unreadable = 0;
    long assumed = 0;
    // the locations to look up, in profile order; a mapping's base comes from its first (pprof's)
    List<Location> locations = profile.locations();
    int[] todo = new int[locations.size()];
    int todoCount = 0;
    List<Symbolizer.Request> requests = new ArrayList<>();
    Outcome[] outcome = new Outcome[locations.size()];
    Map<Long, Function> functionsById = new HashMap<>();
    for (Function f : profile.functions()) functionsById.put(f.getId(), f);
    for (int i = 0; i < locations.size(); i++) {
      Location l = locations.get(i);
      Plan p = l.getMappingId() == 0 ? null : plans.get(l.getMappingId());
      if (named(l, profile, functionsById) || (p != null && p.mapping.getHasFunctions())) {
        outcome[i] = Outcome.ALREADY;
        already++;
        continue;
      }
      if (p == null) {
        outcome[i] = Outcome.NO_MAPPING;
        noMapping++;
        continue;
      }
      if (!p.planned) {
        p.planned = true;
        plan(profile, p, l.getAddress(), problems);
      }
      if (p.ref == null) {
        outcome[i] = Outcome.NO_MAPPING;
        noMapping++;
        continue;
      }
      Mapping m = p.mapping;
      if (Long.compareUnsigned(l.getAddress(), m.getMemoryStart()) < 0
          || (Long.compareUnsigned(m.getMemoryStart(), m.getMemoryLimit()) < 0
              && Long.compareUnsigned(l.getAddress(), m.getMemoryLimit()) >= 0)) {
        outcome[i] = Outcome.UNKNOWN;
        unknown++;
        continue;
      }
      if (p.noBase != null) {
        outcome[i] = Outcome.UNKNOWN;
        unknown++;
        continue;
      }
      todo[todoCount++] = i;
      requests.add(new Symbolizer.Request(p.ref, l.getAddress() - p.base));
    }
    List<Symbolized> answers = requests.isEmpty() ? List.of() : symbolizer.symbolize(requests, AddressMode.ABSOLUTE);
    // a module not found by build-id may still be the mapping's file on this machine
    List<Integer> retry = new ArrayList<>();
    List<Symbolizer.Request> retryRequests = new ArrayList<>();
    answers = new ArrayList<>(answers);
    for (int k = 0; k < todoCount; k++) {
      if (answers.get(k) instanceof Symbolized.ModuleNotFound) {
        Plan p = plans.get(locations.get(todo[k]).getMappingId());
        if (p.fallback != null) {
          retry.add(k);
          retryRequests.add(new Symbolizer.Request(p.fallback, requests.get(k).address()));
        }
      }
    }
    if (!retryRequests.isEmpty()) {
      List<Symbolized> again = symbolizer.symbolize(retryRequests, AddressMode.ABSOLUTE);
      for (int r = 0; r < retry.size(); r++) answers.set(retry.get(r), again.get(r));
    }

    // new functions and strings
    long nextFunction = 1;
    for (Function f : profile.functions()) nextFunction = Math.max(nextFunction, f.getId() + 1);
    Strings strings = new Strings(profile.stringCount());
    Map<List<Object>, Long> functionIds = new HashMap<>();
    List<Function> functions = new ArrayList<>(profile.functions());
    Map<String, String> demangled = new HashMap<>();
    List<Location> out = new ArrayList<>(locations);
    Map<Long, String> reported = new HashMap<>();
    long symbolized = 0;
    for (int k = 0; k < todoCount; k++) {
      int i = todo[k];
      Location l = locations.get(i);
      Plan p = plans.get(l.getMappingId());
      switch (answers.get(k)) {
        case Symbolized.Found f -> {
          Location.Builder b = l.toBuilder().clearLine();
          String outer = symbolTableNames == null || p.symbolFile == null ? null
              : symbolTableNames.name(p.symbolFile, f.fileAddress());
          List<Frame> frames = f.frames();
          for (int fi = 0; fi < frames.size(); fi++) {
            Frame fr = frames.get(fi);
            String raw = outer != null && fi == frames.size() - 1 ? outer : fr.rawName();
            String name = demangle ? demangled.computeIfAbsent(raw, demangler::demangle) : raw;
            String file = fr.location().path();
            List<Object> key = List.of(name, raw, file);
            Long id = functionIds.get(key);
            if (id == null) {
              id = nextFunction++;
              functionIds.put(key, id);
              functions.add(Function.newBuilder().setId(id).setName(strings.index(name)).setSystemName(strings.index(raw))
                  .setFilename(strings.index(file)).build());
            }
            b.addLine(Line.newBuilder().setFunctionId(id).setLine(fr.location().line()));
          }
          b.setIsFolded(f.merged().isPresent());
          out.set(i, b.build());
          p.symbolizedAny = true;
          symbolized++;
          if (p.assumed) assumed++;
        }
        case Symbolized.AddressNotCovered a -> unknown++;
        case Symbolized.ModuleNotFound m -> {
          missing++;
          report(reported, problems, p, m.message());
        }
        case Symbolized.ModuleUnreadable u -> {
          unreadable++;
          report(reported, problems, p, u.message());
        }
      }
    }
    List<Mapping> mappings = new ArrayList<>();
    for (Mapping m : profile.mappings()) {
      Plan p = plans.get(m.getId());
      mappings.add(p.symbolizedAny ? m.toBuilder().setHasFunctions(true).setHasFilenames(true).setHasLineNumbers(true)
          .setHasInlineFrames(true).build() : m);
    }
    PprofProfile result = profile.with(mappings, out, functions, strings.added);
    return new Result(result, new Summary(locations.size(), symbolized, already, noMapping, missing, unknown, unreadable,
        assumed, problems));
  }

  private enum Outcome { ALREADY, NO_MAPPING, UNKNOWN }

  /**
   * Whether a location is symbolized: it has a line naming a function with a name, system name or
   * file. Go's runtime/pprof writes a frame it cannot name (C code of a cgo program) as one line of
   * a function with none of them; such a location is looked up like one without lines.
   */
  private static boolean named(Location l, PprofProfile profile, Map<Long, Function> functions) {
    for (Line line : l.getLineList()) {
      Function f = functions.get(line.getFunctionId());
      if (f != null && !(profile.string(f.getName()).isEmpty() && profile.string(f.getSystemName()).isEmpty()
          && profile.string(f.getFilename()).isEmpty())) {
        return true;
      }
    }
    return false;
  }

  private static void report(Map<Long, String> reported, List<String> problems, Plan p, String message) {
    if (reported.putIfAbsent(p.mapping.getId(), message) == null && problems.size() < MAX_PROBLEMS) {
      problems.add("mapping " + p.mapping.getId() + " (" + describe(p) + "): " + message);
    }
  }

  private static String describe(Plan p) {
    return p.file.isEmpty() ? String.valueOf(p.ref) : p.file + ", " + p.ref;
  }

  /** Strings added to the string table, each once. */
  private static final class Strings {
    final int first;
    final List<byte[]> added = new ArrayList<>();
    final Map<String, Long> index = new HashMap<>();

    Strings(int first) {
      this.first = first;
    }

    long index(String s) {
      if (s.isEmpty()) return 0;
      Long i = index.get(s);
      if (i == null) {
        i = (long) first + added.size();
        added.add(ByteStrings.encode(s));
        index.put(s, i);
      }
      return i;
    }
  }

  /** Finds the module, its ELF layout and the mapping's base; leaves {@code p.ref} null if there is no module. */
  private void plan(PprofProfile profile, Plan p, long firstAddress, List<String> problems) {
    Mapping m = p.mapping;
    String file = profile.string(m.getFilename());
    p.file = file;
    String buildId = profile.string(m.getBuildId());
    byte[] id = hexBuildId(buildId);
    Path path = localPath(file);
    ElfFile elf = null;
    if (path != null) elf = openMatching(path, id);
    // the symbol table that names the outermost frames is the module's, as llvm-symbolizer reads it
    // when pprof runs it on the module; without the module here, the debug file's, as llvm-symbolizer
    // reads it for a BUILDID: lookup
    if (elf != null) p.symbolFile = path;
    if (elf == null && id != null) {
      String hex = HexFormat.of().formatHex(id);
      for (Path dir : debugDirectories) {
        Path debug = dir.resolve(".build-id").resolve(hex.substring(0, 2)).resolve(hex.substring(2) + ".debug");
        elf = openMatching(debug, id);
        if (elf != null) {
          p.symbolFile = debug;
          break;
        }
      }
    }
    try {
      if (id != null) {
        ModuleRef.BuildId ref = ModuleRef.buildId(id);
        String base = baseName(file);
        if (base != null) {
          try {
            ref = ref.withDebugFile(base);
          } catch (IllegalArgumentException e) {
            // a name Breakpad stores cannot hold: the build-id alone
          }
        }
        p.ref = ref;
        if (path != null && elf != null && elf.source().equals(path.toString())) p.fallback = ModuleRef.file(path);
      } else if (path != null && elf != null) {
        p.ref = ModuleRef.file(path);
      } else if (path != null && Files.isRegularFile(path)) {
        p.ref = ModuleRef.file(path); // not ELF: a GSYM or another kind the symbolizer reads
      }
    } catch (IllegalArgumentException e) {
      p.ref = null;
    }
    if (p.ref == null) {
      if (problems.size() < MAX_PROBLEMS && !file.startsWith("[") && !file.isEmpty()) {
        problems.add("mapping " + m.getId() + " (" + file + (buildId.isEmpty() ? "" : ", build-id " + buildId)
            + "): no build-id and no such file here");
      }
      return;
    }
    try {
      ElfLayout layout = elf == null ? null : ElfLayout.of(elf);
      if (layout != null && layout.hasFileOffsets()) {
        p.layout = layout;
        p.base = p.layout.base(m.getMemoryStart(), m.getMemoryLimit(), m.getFileOffset(), firstAddress);
      } else {
        // pprof's rule for a shared object whose program headers it does not have (or only a
        // separate debug file's, without file offsets)
        p.assumed = !(m.getMemoryStart() == 0 && m.getFileOffset() == 0);
        p.base = m.getMemoryStart() - m.getFileOffset();
      }
    } catch (ElfLayout.NoBase e) {
      p.noBase = e.getMessage();
      if (problems.size() < MAX_PROBLEMS) problems.add("mapping " + m.getId() + " (" + describe(p) + "): " + e.getMessage());
    } finally {
      if (elf != null) elf.close();
    }
  }

  /** The ELF file at {@code path} if it is one and has build-id {@code id} (any, if id is null); else null. */
  private static ElfFile openMatching(Path path, byte[] id) {
    if (!Files.isRegularFile(path)) return null;
    ElfFile f;
    try {
      f = ElfFile.open(path);
    } catch (IOException | RuntimeException e) {
      return null;
    }
    if (id != null && !Arrays.equals(id, f.buildId())) {
      f.close();
      return null;
    }
    return f;
  }

  private static Path localPath(String file) {
    if (file.isEmpty() || file.startsWith("[") || !file.startsWith("/")) return null;
    try {
      return Path.of(file);
    } catch (InvalidPathException e) {
      return null;
    }
  }

  private static String baseName(String file) {
    if (file.isEmpty() || file.startsWith("[")) return null;
    int slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
    String b = file.substring(slash + 1);
    return b.isEmpty() ? null : b;
  }

  /** A build-id written as hex (as Linux profilers write GNU build-ids); null for anything else (Go's build ids). */
  static byte[] hexBuildId(String s) {
    if (s.isEmpty() || s.length() % 2 != 0 || s.length() > 2 * ModuleRef.MAX_ID_BYTES) return null;
    for (int i = 0; i < s.length(); i++) if (Character.digit(s.charAt(i), 16) < 0) return null;
    return HexFormat.of().parseHex(s);
  }
}
