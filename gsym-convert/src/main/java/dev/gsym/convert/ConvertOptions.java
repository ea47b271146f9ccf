package dev.gsym.convert;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How {@link Converter} converts (immutable; {@link #builder()}). The defaults are {@code
 * llvm-gsymutil --convert}'s.
 *
 * @param outputVersion the GSYM version written, 1 (LLVM 22) or 2 (LLVM main)
 * @param quiet as llvm's {@code --quiet}: no warning for ranges outside executable sections
 * @param mergedFunctions as llvm's {@code --merged-functions}
 * @param dwarfCallSites as llvm's {@code --dwarf-callsites}
 * @param callSitesYaml llvm's {@code --callsites-yaml-file}, named as in messages, or null
 * @param symtabFile llvm main's {@code --symtab-file}, named as in messages, or null: the file whose
 *     symbol table (of the input's architecture) replaces the input's
 * @param llvmCompat the LLVM release to follow where releases differ: 22, 23, or 0 for the default
 *     (23's {@code .gnu_debugdata}, 22's names of thin Mach-O files unless {@code symtabFile} is given)
 * @param threads threads converting an object's units, 0 for one per processor (the bytes are the same)
 * @param unwind attach every CFI table of the module as unwind information (InfoType UnwindInfo);
 *     for Breakpad input, its STACK records
 * @param dynamicSymbols take function names from {@code .dynsym} too (a library with neither DWARF
 *     nor {@code .symtab}, for a stack walker)
 * @param unwindBinary the binary whose CFI a separate debug file lacks (with {@code unwind}), or null
 * @param baseAddress the header's BaseAddress for a file without a base of its own (no {@code
 *     PT_LOAD}, Breakpad input), or null for llvm's (the lowest function address)
 * @param embeddedGsym {@link Converter#write} copies the GSYM an ELF file carries in its {@code .gsym}
 *     section instead of converting its DWARF
 * @param lenient Breakpad input: skip bad records instead of failing
 * @param loadAddress Breakpad input: subtracted from every address
 * @param listener hears each object and the progress
 */
public record ConvertOptions(int outputVersion, boolean quiet, boolean mergedFunctions, boolean dwarfCallSites,
    String callSitesYaml, String symtabFile, int llvmCompat, int threads, boolean unwind, boolean dynamicSymbols,
    Path unwindBinary, Long baseAddress, boolean embeddedGsym, boolean lenient, long loadAddress,
    Converter.Listener listener) {
  private static final ConvertOptions DEFAULTS = builder().build();

  /** Checks the values. */
  public ConvertOptions {
    if (outputVersion != 1 && outputVersion != 2) throw new IllegalArgumentException("GSYM version " + outputVersion);
    if (llvmCompat != 0 && llvmCompat != 22 && llvmCompat != 23) throw new IllegalArgumentException("LLVM " + llvmCompat);
    if (threads < 0) throw new IllegalArgumentException("negative thread count: " + threads);
    Objects.requireNonNull(listener, "listener");
  }

  /** The defaults: {@code builder().build()}. */
  public static ConvertOptions defaults() {
    return DEFAULTS;
  }

  /** A builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** These options with {@code l} as the listener. */
  public ConvertOptions withListener(Converter.Listener l) {
    return new ConvertOptions(outputVersion, quiet, mergedFunctions, dwarfCallSites, callSitesYaml, symtabFile,
        llvmCompat, threads, unwind, dynamicSymbols, unwindBinary, baseAddress, embeddedGsym, lenient, loadAddress, l);
  }

  /** Whether to read {@code .gnu_debugdata} (MiniDebugInfo): LLVM 23 does, 22 does not. */
  boolean miniDebugInfo() {
    return llvmCompat != 22;
  }

  /** Whether a thin Mach-O file is named as llvm main names it ({@code arm64}) rather than LLVM 22 ({@code aarch64}). */
  boolean mainArchNames() {
    return symtabFile != null || llvmCompat == 23;
  }

  /** Builds {@link ConvertOptions}; every setter returns the builder. */
  public static final class Builder {
    private int outputVersion = 1;
    private boolean quiet;
    private boolean mergedFunctions;
    private boolean dwarfCallSites;
    private String callSitesYaml;
    private String symtabFile;
    private int llvmCompat;
    private int threads;
    private boolean unwind;
    private boolean dynamicSymbols;
    private Path unwindBinary;
    private Long baseAddress;
    private boolean embeddedGsym;
    private boolean lenient;
    private long loadAddress;
    private Converter.Listener listener = Converter.Listener.NONE;

    private Builder() {}

    /** See {@link ConvertOptions#outputVersion()}. */
    public Builder outputVersion(int v) {
      outputVersion = v;
      return this;
    }

    /** See {@link ConvertOptions#quiet()}. */
    public Builder quiet(boolean on) {
      quiet = on;
      return this;
    }

    /** See {@link ConvertOptions#mergedFunctions()}. */
    public Builder mergedFunctions(boolean on) {
      mergedFunctions = on;
      return this;
    }

    /** See {@link ConvertOptions#dwarfCallSites()}. */
    public Builder dwarfCallSites(boolean on) {
      dwarfCallSites = on;
      return this;
    }

    /** See {@link ConvertOptions#callSitesYaml()}. */
    public Builder callSitesYaml(String file) {
      callSitesYaml = file;
      return this;
    }

    /** See {@link ConvertOptions#symtabFile()}. */
    public Builder symtabFile(String file) {
      symtabFile = file;
      return this;
    }

    /** See {@link ConvertOptions#llvmCompat()}. */
    public Builder llvmCompat(int release) {
      llvmCompat = release;
      return this;
    }

    /** See {@link ConvertOptions#threads()}. */
    public Builder threads(int n) {
      threads = n;
      return this;
    }

    /** See {@link ConvertOptions#unwind()}. */
    public Builder unwind(boolean on) {
      unwind = on;
      return this;
    }

    /** See {@link ConvertOptions#dynamicSymbols()}. */
    public Builder dynamicSymbols(boolean on) {
      dynamicSymbols = on;
      return this;
    }

    /** See {@link ConvertOptions#unwindBinary()}. */
    public Builder unwindBinary(Path binary) {
      unwindBinary = binary;
      return this;
    }

    /** See {@link ConvertOptions#baseAddress()}. */
    public Builder baseAddress(Long base) {
      baseAddress = base;
      return this;
    }

    /** See {@link ConvertOptions#embeddedGsym()}. */
    public Builder embeddedGsym(boolean on) {
      embeddedGsym = on;
      return this;
    }

    /** See {@link ConvertOptions#lenient()}. */
    public Builder lenient(boolean on) {
      lenient = on;
      return this;
    }

    /** See {@link ConvertOptions#loadAddress()}. */
    public Builder loadAddress(long address) {
      loadAddress = address;
      return this;
    }

    /** See {@link ConvertOptions#listener()}. */
    public Builder listener(Converter.Listener l) {
      listener = Objects.requireNonNull(l, "listener");
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException for a version other than 1 or 2, an LLVM release other than
     *     22 or 23, or a negative thread count
     */
    public ConvertOptions build() {
      return new ConvertOptions(outputVersion, quiet, mergedFunctions, dwarfCallSites, callSitesYaml, symtabFile,
          llvmCompat, threads, unwind, dynamicSymbols, unwindBinary, baseAddress, embeddedGsym, lenient, loadAddress,
          listener);
    }
  }
}
