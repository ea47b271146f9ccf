package dev.gsym.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The one gate for tests that need an external tool (an llvm-22 oracle, Breakpad's tools, gdb, a
 * compiler, a server, a native library). Without the tool a test is a reported skip, never a quiet
 * pass; under {@code -Dgsym.requireTools=true} (which {@code .ci/run} sets, so CI can never be
 * green without its oracles) a missing tool fails the test instead.
 *
 * <p>Every lookup of a tool in the tests goes through here ({@link #find} to locate it, then
 * {@link #require} or {@link #check} before the test depends on it), so the property covers them all.
 */
public final class Tools {
  /** The system property that turns a missing tool from a skip into a failure. */
  public static final String REQUIRE_PROPERTY = "gsym.requireTools";

  private Tools() {}

  /** Whether missing tools fail tests (CI) rather than skip them (a developer's machine). */
  public static boolean required() {
    return Boolean.parseBoolean(System.getProperty(REQUIRE_PROPERTY, "false"));
  }

  /**
   * Returns {@code tool} when it is present; otherwise skips the calling test (or fails it under
   * {@link #REQUIRE_PROPERTY}) with a message naming {@code what} is missing.
   */
  public static Path require(Path tool, String what) {
    check(tool != null && Files.isRegularFile(tool) && Files.isExecutable(tool), what);
    return tool;
  }

  /** The executable {@code name} on the PATH, gated as {@link #require(Path, String)}. */
  public static Path require(String name) {
    return require(find(name), name + " (on the PATH)");
  }

  /**
   * Skips the calling test (or fails it under {@link #REQUIRE_PROPERTY}) unless {@code present};
   * {@code what} names the missing tool or condition.
   */
  public static void check(boolean present, String what) {
    if (present) return;
    String message = what + " is not available";
    if (required()) {
      throw new AssertionError(message + " and -D" + REQUIRE_PROPERTY + "=true (CI installs it)");
    }
    Assumptions.abort(message + ": skipped");
  }

  /**
   * Skips the calling test unless {@code present}, even under {@link #REQUIRE_PROPERTY}: only for an
   * input no CI machine has (a large file a developer made locally), never for a tool CI installs.
   */
  public static void optional(boolean present, String what) {
    Assumptions.assumeTrue(present, () -> what + " is not available (a local input CI does not have): skipped");
  }

  /**
   * The executable {@code name} on the PATH, or null. A test that needs it passes the answer to
   * {@link #require(Path, String)}; only a test that picks among alternatives looks at null itself.
   */
  public static Path find(String name) {
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
