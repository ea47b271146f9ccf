package dev.gsym.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Locates Breakpad's own tools and sources, the peers the Breakpad tests compare with. The npm
 * package {@value #PACKAGE} ships them: prebuilt linux-x64 {@code dump_syms}, {@code
 * minidump_stackwalk} and {@code minidump_dump} in {@code bin/linux-x64}, Breakpad's sources in
 * {@code deps/breakpad} (from which {@link #resolver} builds Breakpad's resolver). {@code .ci/run}
 * fetches it (docs/reliability.md, "Tools the tests need").
 *
 * <p>Each accessor gates the calling test through {@link Tools}: without the peer it is a reported
 * skip, a failure under {@code -Dgsym.requireTools=true}. Each peer is looked for in the first of
 * these places that is named, and only there:
 *
 * <ol>
 *   <li>its own property: {@code -Dgsym.breakpad.dump_syms=FILE} (likewise {@code .minidump_stackwalk},
 *       {@code .minidump_dump}), {@code -Dgsym.breakpad.src=DIR} for the sources;
 *   <li>an unpacked package, {@code -Dgsym.breakpad.package=DIR}, else the environment's {@code
 *       BREAKPAD_PACKAGE}: {@code DIR/bin/linux-x64/TOOL}, {@code DIR/deps/breakpad};
 *   <li>the tool on the PATH, the sources at {@code $BREAKPAD_SRC};
 *   <li>{@code /work/peers/package}, a developer machine's copy.
 * </ol>
 *
 * So {@code -Dgsym.breakpad.package=/nonexistent} turns them all off.
 */
public final class Breakpad {
  /** The npm package the peers come from. */
  public static final String PACKAGE = "minidump@0.26.0";
  /** The system property naming an unpacked package directory. */
  public static final String PACKAGE_PROPERTY = "gsym.breakpad.package";
  /** The environment variable naming an unpacked package directory (as the regenerate scripts read it). */
  public static final String PACKAGE_ENV = "BREAKPAD_PACKAGE";
  /** The system property naming a Breakpad source tree. */
  public static final String SRC_PROPERTY = "gsym.breakpad.src";
  /** The environment variable naming a Breakpad source tree (as the regenerate scripts read it). */
  public static final String SRC_ENV = "BREAKPAD_SRC";

  static final Path LOCAL_PACKAGE = Path.of("/work/peers/package");
  static final String BIN = "bin/linux-x64";
  static final String SRC = "deps/breakpad";
  /** The processor files the resolver compiles (regenerate-breakpad-oracle.sh): a source tree has them. */
  static final String[] RESOLVER_SOURCES = {"basic_source_line_resolver.cc", "source_line_resolver_base.cc",
      "tokenize.cc", "logging.cc", "pathname_stripper.cc", "cfi_frame_info.cc"};

  private Breakpad() {}

  /** Breakpad's {@code dump_syms}, gated through {@link Tools}. */
  public static Path dumpSyms() {
    return tool("dump_syms");
  }

  /** Breakpad's {@code minidump_stackwalk}, gated through {@link Tools}. */
  public static Path minidumpStackwalk() {
    return tool("minidump_stackwalk");
  }

  /** Breakpad's {@code minidump_dump}, gated through {@link Tools}. */
  public static Path minidumpDump() {
    return tool("minidump_dump");
  }

  /** Breakpad's source tree (the package's {@code deps/breakpad}), gated through {@link Tools}. */
  public static Path sources() {
    Found f = sources(Machine.current());
    Tools.check(f.path() != null, "Breakpad's sources (npm " + PACKAGE + " deps/breakpad; looked for " + f.where()
        + ")");
    return f.path();
  }

  private static Path tool(String name) {
    Found f = tool(Machine.current(), name);
    return Tools.require(f.path(), "Breakpad's " + name + " (npm " + PACKAGE + " " + BIN + "; looked for " + f.where()
        + ")");
  }

  /**
   * Breakpad's resolver ({@code BasicSourceLineResolver} around {@code
   * src-test-data/breakpad/oracle/resolve.cc}), built from {@link #sources} by {@code
   * regenerate-breakpad-oracle.sh --build} into {@code target/breakpad-oracle} of the calling module
   * (again when the sources are others than last time), gated through {@link Tools}.
   */
  public static synchronized Path resolver() throws IOException, InterruptedException {
    Path src = sources();
    Tools.require("g++");
    Path dir = Path.of("target", "breakpad-oracle").toAbsolutePath();
    Path bin = dir.resolve("resolve");
    Path stamp = dir.resolve("sources");
    Path log = dir.resolve("build.log");
    boolean built = Files.isExecutable(bin) && Files.isRegularFile(stamp) && Files.readString(stamp).equals(src.toString());
    if (!built && !src.equals(failedBuild)) {
      Files.createDirectories(dir);
      Files.deleteIfExists(stamp);
      Path script = TestData.repoRoot().resolve("src-test-data").resolve("regenerate-breakpad-oracle.sh");
      ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), "--build", dir.toString())
          .redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().remove(PACKAGE_ENV); // these sources, never another package or a download
      pb.environment().put(SRC_ENV, src.toString());
      Process p = pb.start();
      built = p.waitFor(10, TimeUnit.MINUTES) && p.exitValue() == 0 && Files.isExecutable(bin);
      if (!built) p.destroyForcibly();
      if (built) {
        Files.writeString(stamp, src.toString());
      } else {
        failedBuild = src;
      }
    }
    return Tools.require(built ? bin : null,
        "Breakpad's resolver (regenerate-breakpad-oracle.sh --build from " + src + "; see " + log + ")");
  }

  /** Sources the resolver failed to build from in this JVM: not tried again by every test. */
  private static Path failedBuild;

  // ------------------------------------------------------------------ the rule, apart from the machine

  /** A peer found ({@code path}, null if not) and the places looked at, for the skip message. */
  record Found(Path path, String where) {}

  /** What the rule reads: system properties, the environment, the PATH search and the local copy. */
  record Machine(UnaryOperator<String> property, UnaryOperator<String> env, Function<String, Path> onPath,
      Path localPackage) {
    static Machine current() {
      return new Machine(System::getProperty, System::getenv, Tools::find, LOCAL_PACKAGE);
    }
  }

  static Found tool(Machine m, String name) {
    String own = m.property().apply("gsym.breakpad." + name);
    if (named(own)) return new Found(executable(Path.of(own)), own + " (-Dgsym.breakpad." + name + ")");
    Found pkg = inPackage(m, BIN + "/" + name);
    if (pkg != null) return new Found(executable(pkg.path()), pkg.where());
    Path onPath = m.onPath().apply(name);
    if (onPath != null) return new Found(onPath, name + " on the PATH");
    Path local = m.localPackage().resolve(BIN).resolve(name);
    return new Found(executable(local), name + " on the PATH, " + local + " (-D" + PACKAGE_PROPERTY
        + "=DIR names an unpacked package)");
  }

  static Found sources(Machine m) {
    String own = m.property().apply(SRC_PROPERTY);
    if (named(own)) return new Found(sourceTree(Path.of(own)), own + " (-D" + SRC_PROPERTY + ")");
    Found pkg = inPackage(m, SRC);
    if (pkg != null) return new Found(sourceTree(pkg.path()), pkg.where());
    String env = m.env().apply(SRC_ENV);
    if (named(env)) return new Found(sourceTree(Path.of(env)), env + " ($" + SRC_ENV + ")");
    Path local = m.localPackage().resolve(SRC);
    return new Found(sourceTree(local), local + " (-D" + PACKAGE_PROPERTY + "=DIR names an unpacked package, -D"
        + SRC_PROPERTY + "=DIR a source tree)");
  }

  /** {@code rel} inside the package directory the property or environment names, or null if neither does. */
  private static Found inPackage(Machine m, String rel) {
    String dir = m.property().apply(PACKAGE_PROPERTY);
    String from = "-D" + PACKAGE_PROPERTY;
    if (!named(dir)) {
      dir = m.env().apply(PACKAGE_ENV);
      from = "$" + PACKAGE_ENV;
    }
    if (!named(dir)) return null;
    Path p = Path.of(dir).resolve(rel);
    return new Found(p, p + " (" + from + ")");
  }

  private static boolean named(String s) {
    return s != null && !s.isEmpty();
  }

  private static Path executable(Path p) {
    return Files.isRegularFile(p) && Files.isExecutable(p) ? p : null;
  }

  private static Path sourceTree(Path dir) {
    for (String f : RESOLVER_SOURCES) {
      if (!Files.isRegularFile(dir.resolve("src/processor").resolve(f))) return null;
    }
    return dir;
  }
}
