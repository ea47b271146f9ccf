package dev.gsym.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the tool name, then the project version (llvm prints its name and LLVM version). */
final class VersionProvider implements IVersionProvider {
  static String version() {
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.txt")) {
      if (in != null) {
        String v = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!v.isEmpty() && !v.startsWith("$")) return v;
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }

  @Override
  public String[] getVersion() {
    return new String[] {GsymUtil.TOOL_NAME, "gsym-java version " + version()};
  }
}
