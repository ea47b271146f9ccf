package dev.gsym.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the llvm-22 tools the differential tests compare with. Each method answers null when the
 * tool is absent; a test passes the answer to {@link Tools#require(Path, String)}, which skips it
 * (or fails it under {@code -Dgsym.requireTools=true}).
 *
 * <p>{@code llvm-gsymutil-22} and {@code llvm-symbolizer-22} may be overridden by the system
 * properties {@code gsym.llvm.gsymutil} and {@code gsym.llvm.symbolizer}: a path, or "none" to skip
 * the comparisons. A path that is not an executable file is an error, not a skip, so a mistyped
 * override cannot turn the comparisons off unnoticed.
 */
public final class Llvm {
  public static final String GSYMUTIL = "llvm-gsymutil-22";
  public static final String SYMBOLIZER = "llvm-symbolizer-22";
  public static final String PROPERTY = "gsym.llvm.gsymutil";
  public static final String SYMBOLIZER_PROPERTY = "gsym.llvm.symbolizer";

  private Llvm() {}

  /** {@code llvm-gsymutil-22}: the property {@value #PROPERTY}, else the PATH; null when absent. */
  public static Path gsymutil() {
    return overridden(PROPERTY, GSYMUTIL);
  }

  /** {@code llvm-symbolizer-22}: the property {@value #SYMBOLIZER_PROPERTY}, else the PATH; null when absent. */
  public static Path symbolizer() {
    return overridden(SYMBOLIZER_PROPERTY, SYMBOLIZER);
  }

  /** {@code llvm-nm-22} on the PATH, or null. */
  public static Path nm() {
    return Tools.find("llvm-nm-22");
  }

  /** {@code llvm-readelf-22} on the PATH, or null. */
  public static Path readelf() {
    return Tools.find("llvm-readelf-22");
  }

  /** The executable {@code name} (for instance {@code llvm-objcopy-22}, {@code strip}) on the PATH, or null. */
  public static Path tool(String name) {
    return Tools.find(name);
  }

  private static Path overridden(String property, String name) {
    String override = System.getProperty(property);
    if (override == null || override.isEmpty()) return Tools.find(name);
    if (override.equals("none")) return null;
    Path p = Path.of(override);
    if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
      throw new IllegalArgumentException(
          "-D" + property + "=" + override + " is not an executable file (a path to " + name + ", or \"none\")");
    }
    return p;
  }
}
