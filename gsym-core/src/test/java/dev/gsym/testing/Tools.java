package dev.gsym.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The one gate for tests that need an external tool (an llvm-22 oracle, Breakpad's tools, gdb, a
 * compiler, a server). Without the tool a test is a reported skip, never a quiet pass; under
 * {@code -Dgsym.requireTools=true} (which {@code .ci/run} sets, so CI can never be green without
 * its oracles) a missing tool fails the test instead.
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
    check(tool != null && Files.isExecutable(tool), what);
    return tool;
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
}
