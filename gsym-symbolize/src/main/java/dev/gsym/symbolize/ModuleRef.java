package dev.gsym.symbolize;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Names a module to symbolize: by identifier (a GNU build-id or Mach-O UUID, or a Breakpad debug
 * id with its debug file name) or by a file on this machine (a binary, a separate debug file, a
 * {@code .gsym} or a Breakpad {@code .sym}).
 *
 * <p>Every factory and constructor validates its input and throws one {@link
 * IllegalArgumentException} whose message quotes at most the first 64 characters of a bad value,
 * so hostile strings cost no allocation proportional to their length.
 */
public sealed interface ModuleRef {
  /** Longest identifier accepted, in bytes (debuginfod's limit is below 64 bytes too). */
  int MAX_ID_BYTES = 64;
  /** Longest debug file name accepted, in characters. */
  int MAX_NAME = 255;
  /** Longest path accepted, in characters. */
  int MAX_PATH = 4096;

  /**
   * A GNU build-id ({@code .note.gnu.build-id}) or a Mach-O {@code LC_UUID}, as lower-case hex.
   *
   * @param hex 1 to 64 bytes of lower-case hex
   * @param debugFile the module's file name (e.g. {@code libxul.so}), or null; only Breakpad symbol
   *     stores need it, which are keyed by file name and debug id (derived from the build-id as
   *     {@code dump_syms} does)
   */
  record BuildId(String hex, String debugFile) implements ModuleRef {
    /** Validates and normalizes the build-id (lower case) and the debug file name. */
    public BuildId {
      hex = normalizeBuildId(hex);
      if (debugFile != null) debugFile = debugFileName(debugFile);
    }

    /** The same build-id with a debug file name for Breakpad symbol stores. */
    public BuildId withDebugFile(String name) {
      return new BuildId(hex, name);
    }

    @Override
    public String toString() {
      return "BUILDID:" + hex;
    }
  }

  /**
   * A Breakpad module identity, the key of symbol-server layouts
   * ({@code <debugFile>/<debugId>/<debugFile minus .pdb>.sym}).
   *
   * @param debugFile the debug file's base name ({@code xul.pdb}, {@code libc.so.6}); a path is
   *     reduced to its last component (after {@code /} or {@code \})
   * @param debugId 33 to 40 hex digits (GUID + age) in upper case; also accepted as a dashed UUID
   *     with an optional {@code -age} suffix ({@code 8-4-4-4-12[-age]}, as Sentry writes debug ids)
   */
  record Breakpad(String debugFile, String debugId) implements ModuleRef {
    /** Validates the debug file name and normalizes the debug id (upper case). */
    public Breakpad {
      debugFile = debugFileName(debugFile);
      debugId = normalizeDebugId(debugId);
    }

    @Override
    public String toString() {
      return "BREAKPAD:" + debugFile + "/" + debugId;
    }
  }

  /**
   * A file on this machine: an ELF binary or debug file, a GSYM file or a Breakpad {@code .sym}
   * file (recognised by content, not by name).
   */
  record FilePath(Path path) implements ModuleRef {
    /** Checks that the path is not empty. */
    public FilePath {
      if (path == null) throw new IllegalArgumentException("module path is null");
      if (path.toString().isEmpty()) throw new IllegalArgumentException("module path is empty");
    }

    @Override
    public String toString() {
      return path.toString();
    }
  }

  /** A build-id or Mach-O UUID given as hex (either case; a UUID may have its four dashes). */
  static BuildId buildId(String hex) {
    return new BuildId(hex, null);
  }

  /** A build-id or Mach-O UUID given as bytes. */
  static BuildId buildId(byte[] id) {
    if (id == null || id.length == 0 || id.length > MAX_ID_BYTES) {
      throw new IllegalArgumentException("build-id must be 1 to " + MAX_ID_BYTES + " bytes, got "
          + (id == null ? "null" : id.length));
    }
    return new BuildId(java.util.HexFormat.of().formatHex(id), null);
  }

  /** A Breakpad module identity (see {@link Breakpad}). */
  static Breakpad breakpad(String debugFile, String debugId) {
    return new Breakpad(debugFile, debugId);
  }

  /** A file on this machine. */
  static FilePath file(Path path) {
    return new FilePath(path);
  }

  /**
   * Parses the text forms: {@code BUILDID:<hex>} (llvm-symbolizer's syntax; prefix in any case),
   * {@code BREAKPAD:<debug file>/<debug id>}, and anything else as a file path.
   */
  static ModuleRef parse(String s) {
    if (s == null) throw new IllegalArgumentException("module is null");
    if (s.length() > MAX_PATH) {
      throw new IllegalArgumentException("module name is " + s.length() + " characters long (limit " + MAX_PATH + "): "
          + Texts.quote(s));
    }
    if (s.regionMatches(true, 0, "BUILDID:", 0, 8)) return buildId(s.substring(8));
    if (s.regionMatches(true, 0, "BREAKPAD:", 0, 9)) {
      String rest = s.substring(9);
      int slash = rest.lastIndexOf('/');
      if (slash <= 0) throw new IllegalArgumentException("expected BREAKPAD:<debug file>/<debug id>, got " + Texts.quote(s));
      return breakpad(rest.substring(0, slash), rest.substring(slash + 1));
    }
    if (s.isEmpty()) throw new IllegalArgumentException("module name is empty");
    if (s.indexOf('\0') >= 0) throw new IllegalArgumentException("module path contains a NUL character: " + Texts.quote(s));
    try {
      return file(Path.of(s));
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("invalid module path " + Texts.quote(s) + ": " + e.getReason());
    }
  }

  private static String normalizeBuildId(String hex) {
    if (hex == null) throw new IllegalArgumentException("build-id is null");
    // a Mach-O UUID in its usual text form: 8-4-4-4-12
    if (hex.length() == 36 && hex.charAt(8) == '-' && hex.charAt(13) == '-' && hex.charAt(18) == '-' && hex.charAt(23) == '-') {
      hex = hex.replace("-", "");
    }
    if (hex.isEmpty() || hex.length() > 2 * MAX_ID_BYTES) {
      throw new IllegalArgumentException("build-id must be 1 to " + MAX_ID_BYTES + " bytes of hex, got "
          + hex.length() + " characters: " + Texts.quote(hex));
    }
    if (hex.length() % 2 != 0) throw new IllegalArgumentException("build-id has an odd number of hex digits: " + Texts.quote(hex));
    if (!Texts.isHex(hex)) throw new IllegalArgumentException("build-id is not hex: " + Texts.quote(hex));
    return hex.toLowerCase(Locale.ROOT);
  }

  private static String normalizeDebugId(String id) {
    if (id == null) throw new IllegalArgumentException("Breakpad debug id is null");
    if (id.length() > 48) {
      throw new IllegalArgumentException("Breakpad debug id is " + id.length() + " characters long: " + Texts.quote(id));
    }
    // Sentry/Microsoft form: 8-4-4-4-12 UUID, optionally "-age" (hex)
    if (id.length() >= 36 && id.charAt(8) == '-' && id.charAt(13) == '-' && id.charAt(18) == '-' && id.charAt(23) == '-'
        && (id.length() == 36 || id.charAt(36) == '-')) {
      String age = id.length() == 36 ? "0" : id.substring(37);
      id = id.substring(0, 36).replace("-", "") + age;
    }
    if (id.length() < 33 || id.length() > 40 || !Texts.isHex(id)) {
      throw new IllegalArgumentException("Breakpad debug id must be 33 to 40 hex digits (GUID + age), got " + Texts.quote(id));
    }
    return id.toUpperCase(Locale.ROOT);
  }

  /** A debug file's base name, safe as one path component of a store. */
  private static String debugFileName(String name) {
    if (name == null) throw new IllegalArgumentException("debug file name is null");
    if (name.length() > MAX_PATH) {
      throw new IllegalArgumentException("debug file name is " + name.length() + " characters long: " + Texts.quote(name));
    }
    String base = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
    if (base.isEmpty() || base.equals(".") || base.equals("..")) {
      throw new IllegalArgumentException("invalid debug file name " + Texts.quote(name));
    }
    if (base.length() > MAX_NAME) {
      throw new IllegalArgumentException("debug file name is " + base.length() + " characters long (limit " + MAX_NAME + "): "
          + Texts.quote(base));
    }
    for (int i = 0; i < base.length(); i++) {
      char c = base.charAt(i);
      if (c < 0x20 || c == 0x7f) throw new IllegalArgumentException("debug file name contains a control character: " + Texts.quote(base));
    }
    return base;
  }
}
