package dev.gsym.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.ByteStrings;
import dev.gsym.testing.Breakpad.Found;
import dev.gsym.testing.Breakpad.Machine;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@link Breakpad} looks for its peers (on a made-up machine: properties, environment, PATH
 * and local copy given), and that the minidump tools it finds run here and read a minidump.
 */
@StartsProcesses
class BreakpadTest {
  @TempDir
  Path dir;

  private final Map<String, String> properties = new HashMap<>();
  private final Map<String, String> env = new HashMap<>();
  private final Map<String, Path> path = new HashMap<>();

  private Machine machine(Path local) {
    return new Machine(properties::get, env::get, path::get, local);
  }

  /** An unpacked package under {@code dir/name}: the three tools (executable files) and a source tree. */
  private Path fakePackage(String name) throws IOException {
    Path pkg = dir.resolve(name);
    for (String t : new String[] {"dump_syms", "minidump_stackwalk", "minidump_dump"}) {
      executable(pkg.resolve(Breakpad.BIN).resolve(t));
    }
    for (String f : Breakpad.RESOLVER_SOURCES) {
      Path p = pkg.resolve(Breakpad.SRC).resolve("src/processor").resolve(f);
      Files.createDirectories(p.getParent());
      Files.writeString(p, "// " + f + "\n");
    }
    return pkg;
  }

  private static Path executable(Path p) throws IOException {
    Files.createDirectories(p.getParent());
    Files.writeString(p, "#!/bin/sh\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  @Test
  void aNamedPackageIsTheOnlyPlaceLookedAt() throws IOException {
    Path local = fakePackage("local");
    Path other = fakePackage("other");
    path.put("dump_syms", local.resolve(Breakpad.BIN).resolve("dump_syms"));
    env.put(Breakpad.PACKAGE_ENV, other.toString());
    env.put(Breakpad.SRC_ENV, other.resolve(Breakpad.SRC).toString());
    properties.put(Breakpad.PACKAGE_PROPERTY, dir.resolve("nonexistent").toString());
    Found tool = Breakpad.tool(machine(local), "dump_syms");
    assertThat(tool.path()).isNull();
    assertThat(tool.where()).isEqualTo(dir.resolve("nonexistent/bin/linux-x64/dump_syms") + " (-Dgsym.breakpad.package)");
    Found src = Breakpad.sources(machine(local));
    assertThat(src.path()).isNull();
    assertThat(src.where()).isEqualTo(dir.resolve("nonexistent/deps/breakpad") + " (-Dgsym.breakpad.package)");

    properties.put(Breakpad.PACKAGE_PROPERTY, local.toString());
    assertThat(Breakpad.tool(machine(local), "minidump_dump").path())
        .isEqualTo(local.resolve("bin/linux-x64/minidump_dump"));
    assertThat(Breakpad.sources(machine(local)).path()).isEqualTo(local.resolve("deps/breakpad"));
  }

  @Test
  void thePackageFromTheEnvironmentWithoutTheProperty() throws IOException {
    Path pkg = fakePackage("pkg");
    env.put(Breakpad.PACKAGE_ENV, pkg.toString());
    env.put(Breakpad.SRC_ENV, dir.resolve("elsewhere").toString());
    path.put("minidump_stackwalk", dir.resolve("on-path"));
    Path local = dir.resolve("no-local");
    assertThat(Breakpad.tool(machine(local), "minidump_stackwalk").path())
        .isEqualTo(pkg.resolve("bin/linux-x64/minidump_stackwalk"));
    assertThat(Breakpad.sources(machine(local)).path()).isEqualTo(pkg.resolve("deps/breakpad"));
    // a package without the tool: not found, the PATH is not looked at
    Files.delete(pkg.resolve("bin/linux-x64/minidump_stackwalk"));
    Found f = Breakpad.tool(machine(local), "minidump_stackwalk");
    assertThat(f.path()).isNull();
    assertThat(f.where()).isEqualTo(pkg.resolve("bin/linux-x64/minidump_stackwalk") + " ($BREAKPAD_PACKAGE)");
  }

  @Test
  void aToolsOwnPropertyComesFirst() throws IOException {
    Path pkg = fakePackage("pkg");
    Path own = executable(dir.resolve("mine/dump_syms"));
    properties.put(Breakpad.PACKAGE_PROPERTY, pkg.toString());
    properties.put("gsym.breakpad.dump_syms", own.toString());
    assertThat(Breakpad.tool(machine(pkg), "dump_syms").path()).isEqualTo(own);
    assertThat(Breakpad.tool(machine(pkg), "minidump_dump").path()).isEqualTo(pkg.resolve("bin/linux-x64/minidump_dump"));
    // not an executable file: not found (a skip naming it), not the package's
    Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rw-r--r--"));
    Found f = Breakpad.tool(machine(pkg), "dump_syms");
    assertThat(f.path()).isNull();
    assertThat(f.where()).isEqualTo(own + " (-Dgsym.breakpad.dump_syms)");

    Path src = fakePackage("src").resolve(Breakpad.SRC);
    properties.put(Breakpad.SRC_PROPERTY, src.toString());
    assertThat(Breakpad.sources(machine(pkg)).path()).isEqualTo(src);
  }

  @Test
  void thenThePathAndBreakpadSrcThenTheLocalCopy() throws IOException {
    Path local = fakePackage("local");
    Path onPath = executable(dir.resolve("path/dump_syms"));
    path.put("dump_syms", onPath);
    Path src = fakePackage("src").resolve(Breakpad.SRC);
    env.put(Breakpad.SRC_ENV, src.toString());
    assertThat(Breakpad.tool(machine(local), "dump_syms").path()).isEqualTo(onPath);
    assertThat(Breakpad.sources(machine(local)).path()).isEqualTo(src);
    assertThat(Breakpad.tool(machine(local), "minidump_dump").path()).isEqualTo(local.resolve("bin/linux-x64/minidump_dump"));
    env.remove(Breakpad.SRC_ENV);
    assertThat(Breakpad.sources(machine(local)).path()).isEqualTo(local.resolve("deps/breakpad"));

    Path none = dir.resolve("none");
    Found f = Breakpad.tool(machine(none), "minidump_dump");
    assertThat(f.path()).isNull();
    assertThat(f.where()).startsWith("minidump_dump on the PATH, " + none.resolve("bin/linux-x64/minidump_dump") + " (");
    assertThat(Breakpad.sources(machine(none)).path()).isNull();
  }

  @Test
  void aSourceTreeHasTheResolversFiles() throws IOException {
    Path src = fakePackage("pkg").resolve(Breakpad.SRC);
    env.put(Breakpad.SRC_ENV, src.toString());
    assertThat(Breakpad.sources(machine(dir)).path()).isEqualTo(src);
    Files.delete(src.resolve("src/processor/tokenize.cc"));
    Found f = Breakpad.sources(machine(dir));
    assertThat(f.path()).isNull();
    assertThat(f.where()).isEqualTo(src + " ($BREAKPAD_SRC)");
  }

  // ------------------------------------------------------------------ the tools found here

  /** A minidump header (MINIDUMP_HEADER) with no streams and the given time stamp and flags. */
  private static byte[] emptyMinidump(int timeDateStamp, long flags) {
    return ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN).putInt(0x504d444d).putInt(0xa793).putInt(0)
        .putInt(32).putInt(0).putInt(timeDateStamp).putLong(flags).array();
  }

  private static String[] run(Path dir, String... cmd) throws IOException, InterruptedException {
    Path out = dir.resolve("out");
    Path err = dir.resolve("err");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    p.waitFor();
    return new String[] {ByteStrings.decode(Files.readAllBytes(out)), ByteStrings.decode(Files.readAllBytes(err))};
  }

  /** minidump_dump prints the header we wrote (it then fails: the minidump has no streams). */
  @Test
  void minidumpDumpReadsAMinidumpHeader() throws IOException, InterruptedException {
    Path tool = Breakpad.minidumpDump();
    Path dmp = Files.write(dir.resolve("empty.dmp"), emptyMinidump(0x5f5e0ff, 0x41));
    String out = run(dir, tool.toString(), dmp.toString())[0];
    assertThat(out).startsWith("""
        MDRawHeader
          signature            = 0x504d444d
          version              = 0xa793
          stream_count         = 0
          stream_directory_rva = 0x20
          checksum             = 0x0
          time_date_stamp      = 0x5f5e0ff 1973-03-03 09:46:39
          flags                = 0x41
        """);
  }

  /** minidump_stackwalk opens the minidump, reads its header, and finds no threads to walk. */
  @Test
  void minidumpStackwalkReadsAMinidump() throws IOException, InterruptedException {
    Path tool = Breakpad.minidumpStackwalk();
    Path dmp = Files.write(dir.resolve("empty.dmp"), emptyMinidump(1, 0));
    String err = run(dir, tool.toString(), dmp.toString())[1];
    assertThat(err).contains("Minidump opened minidump " + dmp).contains("Minidump not byte-swapping minidump");
    Files.write(dmp, new byte[] {'M', 'D', 'M'});
    assertThat(run(dir, tool.toString(), dmp.toString())[1]).contains("Minidump cannot read header");
  }
}
