package dev.gsym.profile;

import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Line;
import com.google.perftools.profiles.ProfileProto.Location;
import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolizer;
import dev.gsym.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The profile test data (src-test-data/profile, regenerate.sh) and helpers. */
final class ProfileData {
  private ProfileData() {}

  static Path dir() {
    return TestData.path("profile");
  }

  static Path file(String name) {
    return dir().resolve(name);
  }

  /** A debug directory holding the test modules under their build-ids. */
  static Path debugDirectory(Path tmp) throws IOException {
    Path dbg = tmp.resolve("dbg");
    for (String m : List.of("profdemo", "libprofdemo.so", "cgodemo")) {
      Path bin = file("bin/" + m);
      TestData.addToDebugDirectory(dbg, hex(dev.gsym.elf.ElfFile.open(bin).buildId()), bin);
    }
    return dbg;
  }

  static String hex(byte[] b) {
    return java.util.HexFormat.of().formatHex(b);
  }

  static Symbolizer symbolizer(Path debugDir) {
    return Symbolizer.builder().addSource(Source.DebugDirectories.of(debugDir)).threads(2).build();
  }

  /** One frame as llvm-symbolizer prints it (LLVM style): function, file ("??" for none), line. */
  record LlvmFrame(String function, String file, long line) {}

  /** llvm-symbolizer's LLVM-style answers, one list of frames per address, in order. */
  static List<List<LlvmFrame>> llvmBlocks(Path output) throws IOException {
    List<List<LlvmFrame>> out = new ArrayList<>();
    List<LlvmFrame> block = new ArrayList<>();
    List<String> lines = Files.readAllLines(output);
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.isEmpty()) {
        out.add(block);
        block = new ArrayList<>();
        continue;
      }
      String where = lines.get(++i);
      // path:line:column; the path may hold colons
      int c2 = where.lastIndexOf(':');
      int c1 = where.lastIndexOf(':', c2 - 1);
      block.add(new LlvmFrame(l, where.substring(0, c1), Long.parseLong(where.substring(c1 + 1, c2))));
    }
    if (!block.isEmpty()) out.add(block);
    return out;
  }

  /** A location's lines as (function name, system name, file, line). */
  static List<String[]> lines(PprofProfile p, Location l) {
    Map<Long, Function> functions = new HashMap<>();
    for (Function f : p.functions()) functions.put(f.getId(), f);
    List<String[]> out = new ArrayList<>();
    for (Line line : l.getLineList()) {
      Function f = functions.get(line.getFunctionId());
      out.add(new String[] {p.string(f.getName()), p.string(f.getSystemName()), p.string(f.getFilename()),
          Long.toString(line.getLine())});
    }
    return out;
  }

  /** Runs a command and returns its stdout; fails unless it exits 0 within two minutes. */
  static String run(Path dir, Map<String, String> env, String... cmd) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.PIPE);
    pb.environment().putAll(env);
    Process p = pb.start();
    byte[] err = new byte[0];
    var errReader = new Thread(() -> { });
    String out;
    try (var in = p.getInputStream(); var es = p.getErrorStream()) {
      var errBytes = new java.io.ByteArrayOutputStream();
      errReader = Thread.ofVirtual().start(() -> {
        try {
          es.transferTo(errBytes);
        } catch (IOException e) {
          // the process is gone
        }
      });
      out = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      errReader.join();
      err = errBytes.toByteArray();
    }
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", cmd));
    }
    if (p.exitValue() != 0) {
      throw new AssertionError(String.join(" ", cmd) + " exited " + p.exitValue() + ": "
          + new String(err, java.nio.charset.StandardCharsets.UTF_8));
    }
    return out;
  }
}
