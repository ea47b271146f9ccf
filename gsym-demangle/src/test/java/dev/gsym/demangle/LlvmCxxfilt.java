package dev.gsym.demangle;

import dev.gsym.testing.Tools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code llvm-cxxfilt-22} as an oracle for whole names. Read from stdin it splits lines into words at
 * every byte outside {@code [A-Za-z0-9_.$]}, so only names made of those bytes go to one process's
 * stdin (the fast path); the others go through {@code xargs -0} as arguments, which it demangles
 * whole and which carry any byte.
 */
final class LlvmCxxfilt {
  static final String NAME = "llvm-cxxfilt-22";

  private final Path exe;

  private LlvmCxxfilt(Path exe) {
    this.exe = exe;
  }

  /**
   * The tool ({@code -Dgsym.llvm.cxxfilt=PATH|none}, else the PATH) and xargs; the calling test is
   * skipped without them (failed under -Dgsym.requireTools=true). A path that is not an executable
   * file is an error: a mistyped override must not turn the comparison into a skip.
   */
  static LlvmCxxfilt require() {
    Tools.require("xargs");
    String override = System.getProperty("gsym.llvm.cxxfilt");
    if (override == null || override.isEmpty()) return new LlvmCxxfilt(Tools.require(NAME));
    Path p = override.equals("none") ? null : Path.of(override);
    if (p != null && (!Files.isRegularFile(p) || !Files.isExecutable(p))) {
      throw new IllegalArgumentException("-Dgsym.llvm.cxxfilt=" + override + " is not an executable file (a path to " + NAME + ", or \"none\")");
    }
    return new LlvmCxxfilt(Tools.require(p, NAME + " (-Dgsym.llvm.cxxfilt=none)"));
  }

  /** llvm-cxxfilt's output for each name (no name may contain '\n' or NUL, or start with '-'). */
  List<byte[]> demangle(List<byte[]> names) throws IOException, InterruptedException {
    List<Integer> simple = new ArrayList<>();
    List<Integer> other = new ArrayList<>();
    ByteArrayOutputStream simpleIn = new ByteArrayOutputStream();
    ByteArrayOutputStream otherIn = new ByteArrayOutputStream();
    for (int i = 0; i < names.size(); i++) {
      byte[] n = names.get(i);
      if (n.length == 0 || n[0] == '-') throw new IllegalArgumentException("not a name llvm-cxxfilt takes: " + i);
      if (isSimple(n)) {
        simple.add(i);
        simpleIn.write(n);
        simpleIn.write('\n');
      } else {
        other.add(i);
        otherIn.write(n);
        otherIn.write(0);
      }
    }
    byte[][] out = new byte[names.size()][];
    if (!simple.isEmpty()) fill(out, simple, run(List.of(exe.toString()), simpleIn.toByteArray()));
    if (!other.isEmpty()) fill(out, other, run(List.of("xargs", "-0", exe.toString()), otherIn.toByteArray()));
    return List.of(out);
  }

  private static boolean isSimple(byte[] n) {
    for (byte b : n) {
      boolean ok = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' || b == '.' || b == '$';
      if (!ok) return false;
    }
    return true;
  }

  private static void fill(byte[][] out, List<Integer> index, List<byte[]> lines) {
    if (lines.size() != index.size()) {
      throw new IllegalStateException(NAME + " printed " + lines.size() + " lines for " + index.size() + " names");
    }
    for (int i = 0; i < index.size(); i++) out[index.get(i)] = lines.get(i);
  }

  private static List<byte[]> run(List<String> command, byte[] stdin) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Thread writer = Thread.ofPlatform().start(() -> {
      try (OutputStream os = p.getOutputStream()) {
        os.write(stdin);
      } catch (IOException e) {
        // the process died; its exit status reports it
      }
    });
    byte[] stdout;
    try (InputStream is = p.getInputStream()) {
      stdout = is.readAllBytes();
    }
    writer.join();
    int rc = p.waitFor();
    if (rc != 0) throw new IOException(String.join(" ", command) + " exited with " + rc);
    return lines(stdout);
  }

  /** The '\n'-terminated lines of {@code bytes}. */
  static List<byte[]> lines(byte[] bytes) {
    List<byte[]> r = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\n') {
        r.add(java.util.Arrays.copyOfRange(bytes, start, i));
        start = i + 1;
      }
    }
    if (start < bytes.length) r.add(java.util.Arrays.copyOfRange(bytes, start, bytes.length));
    return r;
  }
}
