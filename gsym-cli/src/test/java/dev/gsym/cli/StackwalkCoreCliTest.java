package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gsym.elf.ElfCore;
import dev.gsym.elf.ElfFile;
import dev.gsym.testing.TestData;
import dev.gsym.testing.Tools;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.XZInputStream;

/**
 * {@code gsymutil stackwalk} on ELF core files (src-test-data/crash) and the symbolizer's sources
 * ({@code --debug-file-directory}, {@code --store}, {@code --debuginfod}, {@code
 * --breakpad-symbols} as a directory and as a symbol server). The frames themselves are checked against gdb's backtraces for every core by
 * gsym-stackwalk's ElfCoreWalkTest; here: the command finds a core among its arguments, the
 * corpus's binaries in a symbol path, prints minidump_stackwalk's text and {@code -m} forms with
 * gdb's functions in every thread, and each source gives what only it can give (libc's debug file:
 * its static functions, which its {@code .dynsym} does not name).
 */
class StackwalkCoreCliTest {
  /** A static libc function only libc's debug file names (gdb's frame under main). */
  static final String LIBC_STATIC = "__libc_start_call_main";
  static final String LIBC_BUILD_ID = "93ac61ec5a8eb1396f9fbd350e3169a558528a40";

  @TempDir
  static Path tmp;

  static Path empty;

  static Path crash() {
    return TestData.repoRoot().resolve("src-test-data/crash");
  }

  @BeforeAll
  static void dirs() throws IOException {
    empty = Files.createDirectories(tmp.resolve("empty"));
  }

  /** The core NAME unpacked into the temporary directory. */
  static Path core(String name) throws IOException {
    Path out = tmp.resolve(name + ".core");
    if (!Files.exists(out)) {
      try (InputStream in = new XZInputStream(Files.newInputStream(crash().resolve("cores").resolve(name + ".core.xz")))) {
        Files.copy(in, out);
      }
    }
    return out;
  }

  /** Skips unless the system libraries of the core are this machine's (and libc's debug file is installed). */
  static void assumeSystemLibraries(Path core) throws IOException {
    try (ElfCore c = ElfCore.open(core)) {
      for (ElfCore.CoreModule m : c.modules()) {
        if (m.path().startsWith("[") || m.path().startsWith("/tmp/gsym-crash/")) continue;
        Path file = Path.of(m.path());
        Assumptions.assumeTrue(Files.isRegularFile(file), file + " is not on this machine: skipped");
        try (ElfFile elf = ElfFile.open(file)) {
          Assumptions.assumeTrue(elf.buildId() != null && HexFormat.of().formatHex(elf.buildId()).equals(m.buildIdHex()),
              file + " is not the core's (build-id " + m.buildIdHex() + "): skipped");
        }
      }
    }
    Assumptions.assumeTrue(Files.isRegularFile(libcDebugFile()), "libc6-dbg is not installed: skipped");
  }

  static Path libcDebugFile() {
    return Path.of("/usr/lib/debug/.build-id", LIBC_BUILD_ID.substring(0, 2), LIBC_BUILD_ID.substring(2) + ".debug");
  }

  static CliRun run(String... args) {
    return CliRun.withEnv(Map.of(), new byte[0], args);
  }

  /**
   * gdb's function names per thread (thread N at index N - 1), physical and inlined frames, "??"
   * where gdb has none, less its tail-call frames (DWARF call-site frames after a jmp, which no CFI
   * walker sees: see gsym-stackwalk's ElfCoreWalkTest).
   */
  static List<List<String>> gdbFunctions(String name, Path core) throws IOException {
    List<List<String>> threads = new ArrayList<>();
    Pattern thread = Pattern.compile("^Thread (\\d+) \\(.*\\)\\):$");
    Pattern frame = Pattern.compile("^(?:frame|inline) 0x([0-9a-f]+) (.*)$");
    List<String> current = null;
    try (ElfCore c = ElfCore.open(core)) {
      for (String line : Files.readAllLines(crash().resolve("gdb").resolve(name + ".txt"))) {
        Matcher t = thread.matcher(line);
        Matcher f = frame.matcher(line);
        if (t.matches()) {
          int n = Integer.parseInt(t.group(1));
          while (threads.size() < n) threads.add(new ArrayList<>());
          current = threads.get(n - 1);
        } else if (current != null && f.matches() && !tailCallFrame(c, Long.parseUnsignedLong(f.group(1), 16))) {
          current.add(f.group(2));
        }
      }
    }
    return threads;
  }

  /** Whether {@code pc} follows a {@code jmp rel32} or {@code jmp rel8} in its module's file (cores hold no code). */
  static boolean tailCallFrame(ElfCore core, long pc) throws IOException {
    ElfCore.CoreModule m = core.moduleAt(pc);
    if (m == null || m.path().startsWith("[")) return false;
    Path file = m.path().startsWith("/tmp/gsym-crash/bin/")
        ? crash().resolve("bin").resolve(m.path().substring("/tmp/gsym-crash/bin/".length())) : Path.of(m.path());
    try (ElfFile elf = ElfFile.open(file)) {
      long vaddr = pc - m.loadBias();
      for (ElfFile.ProgramHeader ph : elf.programHeaders()) {
        if (ph.type() != ElfFile.PT_LOAD || vaddr - ph.vaddr() < 5 || vaddr - ph.vaddr() > ph.filesz()) continue;
        long off = ph.offset() + (vaddr - ph.vaddr());
        byte[] code = java.util.Arrays.copyOfRange(Files.readAllBytes(file), (int) off - 5, (int) off);
        return (code[0] & 0xff) == 0xe9 || (code[3] & 0xff) == 0xeb;
      }
      return false;
    }
  }

  /** The functions of each thread in minidump_stackwalk's {@code -m} output ({@code thread|frame|module|function|...}). */
  static List<List<String>> machineFunctions(String out) {
    List<List<String>> threads = new ArrayList<>();
    boolean frames = false;
    for (String line : out.split("\n", -1)) {
      if (line.isEmpty()) {
        frames = true;
        continue;
      }
      if (!frames) continue;
      String[] f = line.split("\\|", -1);
      int t = Integer.parseInt(f[0]);
      while (threads.size() <= t) threads.add(new ArrayList<>());
      threads.get(t).add(f[3]);
    }
    return threads;
  }

  @Test
  void coreIsWalkedWithGdbsFunctionsInEveryThread() throws IOException {
    String name = "threads-x86_64-nofp";
    Path core = core(name);
    assumeSystemLibraries(core);
    CliRun m = run("stackwalk", "-m", core.toString(), crash().resolve("bin").toString(), "--no-debuginfod");
    assertThat(m.err()).isEmpty();
    assertThat(m.status()).isZero();
    assertThat(m.out()).startsWith("OS|Linux|\nCPU|amd64||0\nGPU|||\nCrash|SIGSEGV /0x00000000|0x10|0\n");
    assertThat(m.out()).contains("Module|threads-x86_64-nofp||threads-x86_64-nofp|");
    List<List<String>> gdb = gdbFunctions(name, core);
    List<List<String>> ours = machineFunctions(m.out());
    assertThat(ours).hasSize(gdb.size());
    for (int t = 0; t < gdb.size(); t++) {
      // gdb's frames first (Breakpad's walker may scan on past the outermost one)
      assertThat(ours.get(t).subList(0, gdb.get(t).size())).as("thread %d", t).isEqualTo(gdb.get(t));
    }
    CliRun text = run("stackwalk", core.toString(), crash().resolve("bin").toString(), "--no-debuginfod");
    assertThat(text.status()).isZero();
    assertThat(text.out()).startsWith("Operating system: Linux\n                  \nCPU: amd64\n     0 CPUs\n\nGPU: UNKNOWN\n\n"
        + "Crash reason:  SIGSEGV /0x00000000\nCrash address: 0x10\nProcess uptime: not available\n\nThread 0 (crashed)\n"
        + " 0  threads-x86_64-nofp!work2 [threads.c : 40 + 0x");
    assertThat(text.out()).contains("    rip = 0x0000555555555250\n    Found by: given as instruction pointer in context\n");
    assertThat(text.out()).contains("\nThread 3\n 0  libc.so.6!__futex_abstimed_wait_common64 [futex-internal.c : 57 + 0x");
  }

  /** The functions of every thread's frames of {@code name}'s core with these extra arguments. */
  static String walk(String name, String... extra) throws IOException {
    List<String> args = new ArrayList<>(List.of("stackwalk", "-m", core(name).toString(), crash().resolve("bin").toString()));
    args.addAll(List.of(extra));
    CliRun r = run(args.toArray(String[]::new));
    assertThat(r.err()).isEmpty();
    assertThat(r.status()).isZero();
    return r.out();
  }

  @Test
  void debugFileDirectoryAndStore() throws IOException {
    String name = "null-x86_64-fp";
    assumeSystemLibraries(core(name));
    // without libc's debug file its static functions have no name of their own
    assertThat(walk(name, "--debug-file-directory", empty.toString())).doesNotContain("|" + LIBC_STATIC + "|");
    Path debug = tmp.resolve("debug");
    Path link = debug.resolve(".build-id").resolve(LIBC_BUILD_ID.substring(0, 2)).resolve(LIBC_BUILD_ID.substring(2) + ".debug");
    Files.createDirectories(link.getParent());
    Files.createSymbolicLink(link, libcDebugFile());
    Path store = tmp.resolve("store");
    assertThat(walk(name, "--debug-file-directory=" + debug, "--store", store.toString())).contains("|libc.so.6|" + LIBC_STATIC + "|");
    try (var s = Files.walk(store)) {
      assertThat(s.filter(p -> p.toString().endsWith(".gsym")).count()).as("GSYMs in the store").isGreaterThanOrEqualTo(2);
    }
    // the store answers without the debug file
    assertThat(walk(name, "--debug-file-directory", empty.toString(), "--store=" + store)).contains("|libc.so.6|" + LIBC_STATIC + "|");
  }

  @Test
  void debuginfod() throws Exception {
    String name = "abort-x86_64-nofp";
    assumeSystemLibraries(core(name));
    Path exe = Tools.require(Tools.find("debuginfod"), "debuginfod (Debian package debuginfod)");
    Path served = Files.createDirectories(tmp.resolve("served"));
    Files.copy(libcDebugFile(), served.resolve("libc.so.6.debug"));
    Path work = Files.createDirectories(tmp.resolve("debuginfod"));
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Process p = new ProcessBuilder(exe.toString(), "-F", "-p", Integer.toString(port), "-d", work.resolve("db.sqlite").toString(),
        "-t", "0", "-g", "0", "-c", "1", served.toString()).redirectErrorStream(true)
        .redirectOutput(work.resolve("log").toFile()).start();
    try {
      URI url = URI.create("http://127.0.0.1:" + port);
      awaitServed(p, url, work.resolve("log"));
      String out = walk(name, "--debug-file-directory", empty.toString(), "--debuginfod", url.toString());
      assertThat(out).contains("|libc.so.6|" + LIBC_STATIC + "|");
    } finally {
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Waits (up to a minute) until debuginfod serves libc's debug info (its scan is asynchronous). */
  private static void awaitServed(Process p, URI url, Path log) throws Exception {
    try (HttpClient c = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) {
        if (!p.isAlive()) throw new AssertionError("debuginfod exited: " + Files.readString(log));
        int status;
        try {
          status = c.send(HttpRequest.newBuilder(url.resolve("/buildid/" + LIBC_BUILD_ID + "/debuginfo")).GET().build(),
              HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
          status = -1;
        }
        if (status == 200) return;
        if (System.nanoTime() > deadline) throw new AssertionError("debuginfod did not serve libc within a minute: " + Files.readString(log));
        Thread.sleep(100);
      }
    }
  }

  @Test
  void breakpadSymbolServer() throws Exception {
    // the same symbols from a symbol server (HTTP GET NAME/ID/NAME.sym), as Breakpad's http_symbol_supplier asks
    Path symbols = unpackMinidumpSymbols();
    try (java.net.ServerSocket server = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      Thread.ofVirtual().start(() -> serve(server, symbols));
      Path dump = StackwalkCliTest.dump("x86_64-nofp-lib");
      CliRun r = run("stackwalk", "-m", dump.toString(), "--no-debuginfod", "--debug-file-directory", empty.toString(),
          "--breakpad-symbols", "http://127.0.0.1:" + server.getLocalPort() + "/");
      assertThat(r.err()).isEmpty();
      assertThat(r.out()).isEqualTo(StackwalkCliTest.golden("x86_64-nofp-lib", "stackwalk-sym-m"));
    }
  }

  /** A minimal HTTP/1.1 server of the files under {@code root} (GET only; 404 for anything else), until closed. */
  private static void serve(java.net.ServerSocket server, Path root) {
    while (!server.isClosed()) {
      try (java.net.Socket s = server.accept()) {
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(),
            java.nio.charset.StandardCharsets.ISO_8859_1));
        String request = in.readLine();
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
          // headers: ignored
        }
        String[] parts = request == null ? new String[0] : request.split(" ");
        Path file = parts.length == 3 && parts[0].equals("GET")
            ? root.resolve(java.net.URLDecoder.decode(parts[1].substring(1), java.nio.charset.StandardCharsets.UTF_8)).normalize()
            : null;
        byte[] body = file != null && file.startsWith(root) && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
        String head = (body != null ? "HTTP/1.1 200 OK" : "HTTP/1.1 404 Not Found") + "\r\nContent-Length: "
            + (body == null ? 0 : body.length) + "\r\nConnection: close\r\n\r\n";
        s.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        if (body != null) s.getOutputStream().write(body);
      } catch (IOException e) {
        // closed, or a client gone: the next connection
      }
    }
  }

  /** The minidump corpus's symbols with their .sym.xz files unpacked (once). */
  private static synchronized Path unpackMinidumpSymbols() throws IOException {
    Path symbols = tmp.resolve("symbols");
    if (Files.isDirectory(symbols)) return symbols;
    Path src = StackwalkCliTest.corpus().resolve("symbols");
    try (var s = Files.walk(src)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = src.relativize(p).toString();
        Path to = symbols.resolve(rel.endsWith(".xz") ? rel.substring(0, rel.length() - 3) : rel);
        Files.createDirectories(to.getParent());
        try (InputStream in = rel.endsWith(".xz") ? new XZInputStream(Files.newInputStream(p)) : Files.newInputStream(p)) {
          Files.copy(in, to);
        }
      }
    }
    return symbols;
  }

  @Test
  void breakpadSymbolsServeMinidumps() throws IOException {
    // the symbols of StackwalkCliTest's corpus given as a Breakpad store instead of a symbol path:
    // minidump_stackwalk's output with those symbols
    Path symbols = unpackMinidumpSymbols();
    Path dump = StackwalkCliTest.dump("x86_64-nofp-lib");
    CliRun without = run("stackwalk", "-m", dump.toString(), "--no-debuginfod", "--debug-file-directory", empty.toString());
    assertThat(without.out()).isNotEqualTo(StackwalkCliTest.golden("x86_64-nofp-lib", "stackwalk-sym-m"));
    CliRun r = run("stackwalk", "-m", dump.toString(), "--no-debuginfod", "--debug-file-directory", empty.toString(),
        "--breakpad-symbols", symbols.toString());
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).isEqualTo(StackwalkCliTest.golden("x86_64-nofp-lib", "stackwalk-sym-m"));
  }

  @Test
  void aTruncatedCoreIsOneLineAndTheOthersAreStillWalked() throws IOException {
    Path core = core("null-x86_64-fp");
    Path cut = tmp.resolve("cut.core");
    Files.write(cut, java.util.Arrays.copyOf(Files.readAllBytes(core), 3000));
    CliRun r = run("stackwalk", "-m", cut.toString(), core.toString(), crash().resolve("bin").toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("gsymutil stackwalk: " + cut + ": offset 0x00000040: PT_NOTE past the end of the file\n");
    assertThat(r.out()).startsWith("OS|Linux|\n").contains("|null-x86_64-fp|level3|");
  }

  @Test
  void badSourceOptionsAreUsageErrors() {
    CliRun r = run("stackwalk", "x.core", "--store");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).startsWith("gsymutil stackwalk: option '--store' requires an argument\nUsage:");
    CliRun b = run("stackwalk", "x.core", "--debuginfod", "http://[bad");
    assertThat(b.status()).isEqualTo(1);
    assertThat(b.err()).startsWith("gsymutil stackwalk: --debuginfod: http://[bad: ");
    assertThat(b.out()).isEmpty();
  }
}
