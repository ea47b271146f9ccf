package dev.gsym.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** {@code --version}: the tool name, then the project version (llvm prints its name and LLVM version). */
public final class Version {
  private Version() {}

  /** The project version the build wrote into {@code version.txt}, or "unknown". */
  static String version() {
    try (InputStream in = Version.class.getResourceAsStream("version.txt")) {
      if (in != null) {
        String v = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!v.isEmpty() && !v.startsWith("$")) return v;
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }

  /** The lines {@code --version} prints. */
  public static String[] lines() {
    return new String[] {CliException.TOOL_NAME, "gsym-java version " + version()};
  }
}
