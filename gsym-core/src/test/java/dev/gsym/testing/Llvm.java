package dev.gsym.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates {@code llvm-gsymutil-22} for differential tests: the system property
 * {@code gsym.llvm.gsymutil} (a path, or "none" to skip the comparisons), else the PATH.
 */
public final class Llvm {
  public static final String GSYMUTIL = "llvm-gsymutil-22";
  public static final String PROPERTY = "gsym.llvm.gsymutil";

  private Llvm() {}

  /** The executable, or null when it is not available (tests then skip, not fail). */
  public static Path gsymutil() {
    String override = System.getProperty(PROPERTY);
    if (override != null && !override.isEmpty()) {
      if (override.equals("none")) return null;
      Path p = Path.of(override);
      return Files.isRegularFile(p) && Files.isExecutable(p) ? p : null;
    }
    return onPath(GSYMUTIL);
  }

  /**
   * {@code llvm-symbolizer-22}: the system property {@code gsym.llvm.symbolizer} (a path, or "none"),
   * else the PATH; null when it is not available (tests then skip, not fail).
   */
  public static Path symbolizer() {
    String override = System.getProperty("gsym.llvm.symbolizer");
    if (override != null && !override.isEmpty()) {
      if (override.equals("none")) return null;
      Path p = Path.of(override);
      return Files.isRegularFile(p) && Files.isExecutable(p) ? p : null;
    }
    return onPath("llvm-symbolizer-22");
  }

  /** {@code llvm-nm-22} on the PATH, or null. */
  public static Path nm() {
    return onPath("llvm-nm-22");
  }

  /** {@code llvm-readelf-22} on the PATH, or null (tests then skip the live comparison). */
  public static Path readelf() {
    return onPath("llvm-readelf-22");
  }

  /** The executable {@code name} (for instance {@code llvm-objcopy-22}, {@code strip}) on the PATH, or null. */
  public static Path tool(String name) {
    return onPath(name);
  }

  private static Path onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) return null;
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) continue;
      Path p = Path.of(dir, name);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
    }
    return null;
  }
}
