package dev.gsym.cli;

import dev.gsym.elf.ElfFile;
import dev.gsym.serve.SymbolicationServer;
import dev.gsym.symbolize.Symbolizer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The training workload from which the build makes the JDK AOT cache {@code gsymutil.aot}
 * (gsym-cli's {@code package} phase runs it under {@code -XX:AOTMode=record}; the {@code gsymutil}
 * launcher passes the cache to every run). It runs, in one JVM, the commands people type:
 * lookups (plain, {@code --verbose}, {@code --merged-functions}, the {@code lookup} subcommand,
 * {@code --addresses-from-stdin}), a dump, {@code symbolize} (stdin lines and a JSON list, reading
 * GSYM files, and once converting a binary into a store), a DWARF conversion of a small test binary
 * and both Breakpad conversions, so the classes and linked call sites of all of them go into the
 * cache.
 *
 * <p>Usage: {@code AotTraining SRC_TEST_DATA WORK_DIR}; {@code AotTraining --serve SRC_TEST_DATA
 * WORK_DIR} trains {@code gsymutil serve}'s own cache, {@code AotTraining --crash SRC_TEST_DATA
 * WORK_DIR} the cache of {@code stackwalk}, {@code symbolize --pprof} and {@code flamegraph}
 * ({@code gsymutil-crash.aot}). Every command must exit 0; otherwise the
 * command and its stderr are printed and the exit status is 1, which fails the build. {@code
 * AotTraining --check-classes LOG} reads the {@code -Xlog:class+load} log of a lookup run with the
 * cache and fails (exit status 1) if it loaded a picocli or logging class. {@code AotTraining
 * --record-jars TARGET CACHE...} writes {@code CACHE.jars}, the jars of gsym-cli/target {@code
 * TARGET} the caches were made from ({@link AotJars}).
 */
public final class AotTraining {
  private AotTraining() {}

  /** Runs the workload; ends through {@code System.exit} as {@code GsymUtil.main} does. */
  public static void main(String[] args) {
    if (args.length == 2 && args[0].equals("--check-classes")) {
      System.exit(checkClasses(Path.of(args[1])));
    }
    if (args.length >= 3 && args[0].equals("--record-jars")) {
      List<Path> caches = new ArrayList<>();
      for (int i = 2; i < args.length; i++) caches.add(Path.of(args[i]));
      System.exit(AotJars.write(Path.of(args[1]), caches));
    }
    if (args.length == 3 && args[0].equals("--crash")) {
      try {
        System.exit(trainCrash(Path.of(args[1]), Path.of(args[2])) == 0 ? 0 : 1);
      } catch (IOException e) {
        System.err.println("AotTraining: " + e);
        System.exit(1);
      }
    }
    if (args.length == 3 && args[0].equals("--serve")) {
      try {
        System.exit(trainServe(Path.of(args[1])) == 0 ? 0 : 1);
      } catch (IOException e) {
        System.err.println("AotTraining: " + e);
        System.exit(1);
      }
    }
    if (args.length != 2) {
      System.err.println("usage: AotTraining [--serve|--crash] SRC_TEST_DATA WORK_DIR");
      System.exit(2);
    }
    try {
      System.exit(train(Path.of(args[0]), Path.of(args[1])) == 0 ? 0 : 1);
    } catch (IOException e) {
      System.err.println("AotTraining: " + e);
      System.exit(1);
    }
  }

  /** Classes a one-shot lookup must not load: only other command lines and internal errors need them. */
  private static final List<String> NOT_AT_START_UP = List.of("picocli.", "ch.qos.logback.", "org.slf4j.");

  /** 0 if the class+load log {@code log} shows none of {@link #NOT_AT_START_UP}, else 1 (printed). */
  private static int checkClasses(Path log) {
    List<String> bad = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        // "[0.012s][info][class,load] java.lang.Object source: shared objects file"
        int start = line.indexOf("] ", line.indexOf("class,load"));
        int end = line.indexOf(' ', start + 2);
        if (start < 0 || end < 0) continue;
        String name = line.substring(start + 2, end);
        if (NOT_AT_START_UP.stream().anyMatch(name::startsWith)) bad.add(name);
      }
    } catch (IOException e) {
      System.err.println("AotTraining: " + e);
      return 1;
    }
    if (bad.isEmpty()) return 0;
    System.err.println("AotTraining: a lookup with the AOT cache loaded " + bad + " (see " + log + ")");
    return 1;
  }

  /** Runs the workload; returns the number of commands that did not exit 0. */
  private static int train(Path data, Path workDir) throws IOException {
    Path work = Files.createDirectories(workDir);
    // the caches and stores of an earlier build's training would spare this one the conversions,
    // and their classes would be missing from the cache
    deleteTree(work.resolve("store"));
    String gsym = data.resolve("gsym/cpp-gcc-O2.gsym").toString();
    String icf = data.resolve("gsym/icf-clang-O2-gold.merged.gsym").toString();
    List<String> addrs = Files.readAllLines(data.resolve("expected/gsym/cpp-gcc-O2.gsym.addrs"));
    String sym = work.resolve("c-clang-O2.sym").toString();

    List<String> lookup = new ArrayList<>();
    for (String a : addrs) {
      lookup.add("--lookup");
      lookup.add(a);
    }
    lookup.add(gsym);
    StringBuilder stdin = new StringBuilder();
    for (String a : addrs) stdin.append(a).append(' ').append(gsym).append('\n');

    String gsymDir = data.resolve("gsym").toString();
    String cppBinary = data.resolve("bin/cpp-gcc-O2").toString();
    StringBuilder symbolizeStdin = new StringBuilder();
    for (String a : addrs) symbolizeStdin.append(cppBinary).append(' ').append(a).append('\n');
    List<String> symbolizeArgs = new ArrayList<>(List.of("symbolize", "--no-debuginfod", "--output-style=JSON",
        "--gsym-file-directory", gsymDir, "--obj", cppBinary));
    symbolizeArgs.addAll(addrs);

    int failures = 0;
    for (int round = 0; round < 3; round++) { // repeated so the lookup path gets profiled and compiled
      failures += run("", lookup.toArray(String[]::new));
      failures += run("", "--verbose", "--lookup", addrs.get(1), "--lookup", addrs.getLast(), gsym);
      failures += run("", "--merged-functions", "--lookup", "0x1130", icf);
      failures += run("", "lookup", "-f", gsym, addrs.get(2));
      failures += run(stdin.toString(), "--addresses-from-stdin");
      failures += run("", gsym);
      // symbolize by path, reading the GSYM file llvm-symbolizer would (--gsym-file-directory)
      failures += run(symbolizeStdin.toString(), "symbolize", "--no-debuginfod", "--gsym-file-directory", gsymDir);
      failures += run("", symbolizeArgs.toArray(String[]::new));
    }
    // and converting a binary, through a store
    failures += run(symbolizeStdin.toString().replace(cppBinary, data.resolve("bin/c-clang-O2").toString()),
        "symbolize", "--no-debuginfod", "--disable-gsym", "--store", work.resolve("store").toString());
    String converted = work.resolve("c-clang-O2.gsym").toString();
    failures += run("", "--quiet", "--dwarf", data.resolve("bin/c-clang-O2").toString(), "-o", converted);
    failures += run("", "--to-breakpad", converted, "-o", sym);
    failures += run("", "--breakpad", sym, "-o", work.resolve("c-clang-O2.from-sym.gsym").toString());
    failures += run("", "--lookup", "0x1179", converted);
    return failures;
  }

  /**
   * The workload of the crash and profile cache ({@code gsymutil-crash.aot}; kept apart from
   * {@code gsymutil.aot}, whose classes every lookup loads at start-up): stack walking and profiles.
   */
  private static int trainCrash(Path data, Path workDir) throws IOException {
    Path work = Files.createDirectories(workDir);
    for (String dir : List.of("symbol-cache", "profile-store", "profile-debug")) deleteTree(work.resolve(dir));
    return trainStackwalk(data, work) + trainProfiles(data, work);
  }

  /**
   * Stack walking as a crash backend runs it: the corpus's minidumps (amd64, x86 with and without
   * frame pointers, arm64) against its Breakpad symbols, the first round converting the {@code .sym}
   * files into the symbol cache and the later ones reading the GSYM files from it, in the text,
   * {@code -m} and JSON formats.
   */
  private static int trainStackwalk(Path data, Path work) {
    Path dumps = data.resolve("minidump/dumps");
    String symbols = data.resolve("minidump/symbols").toString();
    String cache = work.resolve("symbol-cache").toString();
    List<String> names = List.of("x86_64-nofp-thread.dmp", "x86_64-fp-lib.dmp", "i386-nofp-abort.dmp", "aarch64-core2md.dmp");
    int failures = 0;
    for (int round = 0; round < 3; round++) {
      for (String name : names) {
        String dump = dumps.resolve(name).toString();
        failures += run("", "stackwalk", "--symbol-cache", cache, dump, symbols);
        failures += run("", "stackwalk", "--symbol-cache", cache, "-m", dump, symbols);
      }
      failures += run("", "stackwalk", "--symbol-cache", cache, "--json", dumps.resolve(names.getFirst()).toString(), symbols);
    }
    return failures;
  }

  /**
   * A pprof profile symbolized by build-id through a debug directory, its flame graph and its
   * collapsed stacks.
   */
  private static int trainProfiles(Path data, Path work) throws IOException {
    Path dbg = work.resolve("profile-debug");
    for (String m : List.of("profdemo", "libprofdemo.so")) {
      Path bin = data.resolve("profile/bin").resolve(m);
      String id;
      try (ElfFile f = ElfFile.open(bin)) {
        id = HexFormat.of().formatHex(f.buildId());
      }
      Path to = dbg.resolve(".build-id").resolve(id.substring(0, 2)).resolve(id.substring(2) + ".debug");
      if (!Files.exists(to)) {
        Files.createDirectories(to.getParent());
        Files.copy(bin, to);
      }
    }
    String profile = data.resolve("profile/synthetic.pb.gz").toString();
    String debugDir = "--debug-file-directory=" + dbg;
    String store = "--store=" + work.resolve("profile-store");
    int failures = 0;
    for (int round = 0; round < 2; round++) {
      failures += run("", "symbolize", "--pprof", profile, debugDir, store, "-o", work.resolve("profile.pb.gz").toString());
      failures += run("", "flamegraph", profile, debugDir, store, "-o", work.resolve("profile.html").toString());
      failures += run("", "symbolize", "--pprof", profile, debugDir, store, "--collapsed", "-o",
          work.resolve("profile.folded").toString());
    }
    return failures;
  }

  /**
   * The workload of the server's own cache ({@code gsymutil-serve.aot}; kept apart because the
   * classes of a cache are loaded at every start, and a lookup must not load Jetty's or logback's):
   * {@code serve --help} and a few requests to a server on loopback.
   */
  private static int trainServe(Path data) throws IOException {
    String gsym = data.resolve("gsym/cpp-gcc-O2.gsym").toString();
    List<String> addrs = Files.readAllLines(data.resolve("expected/gsym/cpp-gcc-O2.gsym.addrs"));
    return run("", "serve", "--help") + serve(gsym, addrs);
  }

  /**
   * A server on loopback answering a few requests (raw HTTP/1.1 over a socket), so that a server's
   * start and its first requests find Jetty's, Jackson's and the handler's classes in the cache.
   */
  private static int serve(String gsym, List<String> addrs) {
    StringBuilder body = new StringBuilder("{\"modules\":[{\"path\":\"")
        .append(gsym.replace("\\", "\\\\").replace("\"", "\\\"")).append("\"}],\"stacks\":[{\"frames\":[");
    for (int i = 0; i < addrs.size(); i++) {
      body.append(i == 0 ? "" : ",").append("{\"module\":0,\"address\":\"").append(addrs.get(i)).append("\"}");
    }
    byte[] json = body.append("]}]}").toString().getBytes(StandardCharsets.UTF_8);
    try (Symbolizer s = Symbolizer.builder().threads(2).demangle(false).build();
        SymbolicationServer server = SymbolicationServer.builder(s).listen("127.0.0.1", 0).warmUp(true).build().start()) {
      for (int i = 0; i < 20; i++) {
        String status = post(server.port(), i % 4 == 3 ? "/metrics" : "/symbolicate", i % 4 == 3 ? null : json);
        if (!status.startsWith("HTTP/1.1 200")) {
          System.err.println("AotTraining: serve answered " + status);
          return 1;
        }
      }
      return 0;
    } catch (IOException e) {
      System.err.println("AotTraining: serve: " + e);
      return 1;
    }
  }

  /** One request on a new connection; returns the status line. */
  private static String post(int port, String path, byte[] body) throws IOException {
    try (Socket c = new Socket(InetAddress.getLoopbackAddress(), port)) {
      c.setSoTimeout(60_000);
      String head = (body == null ? "GET " : "POST ") + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
          + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n") + "\r\n";
      OutputStream out = c.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      if (body != null) out.write(body);
      out.flush();
      String response = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int eol = response.indexOf("\r\n");
      return eol < 0 ? response : response.substring(0, eol);
    }
  }

  /** Deletes {@code dir} and everything under it, if it exists. */
  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }

  /** Runs one gsymutil command in-process; returns 1 (after printing why) if it did not exit 0. */
  private static int run(String stdin, String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    InputStream in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    int status;
    try (PrintStream out = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = GsymUtil.run(args, in, out, e);
    }
    if (status == 0) return 0;
    System.err.println("AotTraining: gsymutil " + String.join(" ", args) + " exited " + status + ": "
        + err.toString(StandardCharsets.UTF_8).strip());
    return 1;
  }
}
