package dev.gsym.stackwalk;

/**
 * A module (executable or shared library) loaded in the crashed process, with Breakpad's identities:
 * the code file and identifier (what was loaded), the debug file and identifier (what its symbol
 * file is filed under: {@code NAME/DEBUGID/NAME.sym}).
 *
 * @param size bytes of the module's address range as the dump gives it (what the module list prints)
 * @param version the version resource's file version ({@code a.b.c.d}), or ""
 */
public record CodeModule(long base, long size, String codeFile, String codeIdentifier, String debugFile,
    String debugIdentifier, String version) {
  /** Null files, identifiers and version become "". */
  public CodeModule {
    codeFile = codeFile == null ? "" : codeFile;
    codeIdentifier = codeIdentifier == null ? "" : codeIdentifier;
    debugFile = debugFile == null ? "" : debugFile;
    debugIdentifier = debugIdentifier == null ? "" : debugIdentifier;
    version = version == null ? "" : version;
  }

  /** The last address of the module's range ({@code base + size - 1}). */
  public long last() {
    return base + size - 1;
  }

  /** The file name of {@code path}: what follows its last {@code /} or {@code \} (Breakpad's {@code PathnameStripper}). */
  public static String fileName(String path) {
    int slash = path.lastIndexOf('/');
    int backslash = path.lastIndexOf('\\');
    return path.substring(Math.max(slash, backslash) + 1);
  }
}
