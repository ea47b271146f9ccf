package dev.gsym.cli;

import dev.gsym.serve.SymbolicationServer;
import dev.gsym.symbolize.AddressMode;
import dev.gsym.symbolize.Source;
import dev.gsym.symbolize.Symbolizer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * {@code gsymutil serve}: a {@link Symbolizer} over the store and the sources the options name,
 * served over HTTP by {@link SymbolicationServer} until the process is stopped. The sources are
 * those of {@code gsymutil symbolize} (debug directories, debuginfod, Breakpad symbol stores).
 */
final class ServeCommand implements CliCommand {
  private final Session session;
  private final Map<String, String> env;
  private final Args args = new Args();

  ServeCommand(Session session, Map<String, String> env) {
    this.session = session;
    this.env = env;
  }

  @Override
  public Args args() {
    return args;
  }

  @Override
  public Integer call() {
    session.verbose = args.flag(Opt.VERBOSE);
    Symbolizer.Builder symbolizer = symbolizer();
    String listen = args.value(Opt.LISTEN);
    String host = "127.0.0.1";
    int port = 8080;
    if (listen != null) {
      int colon = listen.lastIndexOf(':');
      Long p = colon < 0 ? null : Addresses.parse(listen.substring(colon + 1));
      if (p == null || p < 0 || p > 65535) {
        throw CliException.stderr("gsymutil serve: --listen: expected HOST:PORT, but got '" + listen + "'");
      }
      host = listen.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
      if (host.isEmpty()) host = "0.0.0.0";
      port = p.intValue();
    }
    SymbolicationServer.Builder server;
    Symbolizer s;
    try {
      s = symbolizer.build();
    } catch (IllegalArgumentException e) {
      throw CliException.stderr("gsymutil serve: " + e.getMessage());
    }
    try {
      server = SymbolicationServer.builder(s).listen(host, port).warmUp(!args.flag(Opt.NO_WARM_UP));
      String max = args.value(Opt.MAX_REQUEST_BYTES);
      if (max != null) server.maxRequestBytes(SymbolizeCommand.size("--max-request-bytes", max));
      Integer frames = positive(Opt.MAX_FRAMES);
      if (frames != null) server.maxFrames(frames);
      Integer idle = positive(Opt.IDLE_TIMEOUT);
      if (idle != null) server.idleTimeout(Duration.ofSeconds(idle));
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
    SymbolicationServer running;
    try {
      running = server.build().start();
    } catch (IOException e) {
      s.close();
      throw CliException.stderr("gsymutil serve: cannot listen on " + host + ":" + port + ": " + e.getMessage());
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      // SIGTERM, Ctrl-C: finish the requests in progress, then release the modules
      running.close();
      s.close();
      stopped.countDown();
    }, "gsym-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    session.err.println("gsymutil serve: listening on http://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
        + running.port() + " (store " + args.value(Opt.STORE) + ")");
    session.err.flush();
    try {
      running.join();
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  private Symbolizer.Builder symbolizer() {
    String store = args.value(Opt.STORE);
    if (store == null) throw CliException.stderr("gsymutil serve: --store DIR is required");
    Symbolizer.Builder b = Symbolizer.builder().addressMode(AddressMode.ABSOLUTE).store(path("--store", store))
        .threads(Modes.threads(args)).mergedFunctions(args.flag(Opt.MERGED_FUNCTIONS));
    if (!args.flag(Opt.CONVERT_IN_PROCESS)) b.conversionProcess(conversionJvmOptions());
    String size = args.value(Opt.MAX_STORE_SIZE);
    if (size != null) b.maxStoreSize(SymbolizeCommand.size("--max-store-size", size));
    Integer open = positive(Opt.MAX_OPEN_MODULES);
    if (open != null) b.maxOpenModules(open);
    List<Path> dirs = new ArrayList<>();
    for (String d : args.values(Opt.DEBUG_FILE_DIRECTORY)) dirs.add(path("--debug-file-directory", d));
    if (dirs.isEmpty()) dirs.add(Source.DebugDirectories.DEFAULT_DIRECTORY);
    b.addSource(Source.DebugDirectories.of(dirs.toArray(Path[]::new)));
    if (!args.flag(Opt.NO_DEBUGINFOD)) {
      try {
        List<String> urls = args.values(Opt.DEBUGINFOD_URL);
        Optional<Source.Debuginfod> d = urls.isEmpty() ? Source.Debuginfod.fromEnvironment(env)
            : Optional.of(Source.Debuginfod.of(urls.stream().map(URI::create).toList()));
        d.ifPresent(b::addSource);
      } catch (IllegalArgumentException e) {
        throw CliException.stderr("gsymutil serve: --debuginfod: " + e.getMessage());
      }
    }
    for (String loc : args.values(Opt.BREAKPAD_SYMBOLS)) {
      try {
        b.addSource(Source.BreakpadSymbols.parse(loc));
      } catch (IllegalArgumentException e) {
        throw CliException.stderr("gsymutil serve: --breakpad-symbols: " + e.getMessage());
      }
    }
    return b;
  }

  /**
   * The child conversion JVM's options: this JVM's collector and access settings, then those the
   * launcher gives conversions (property {@value #CONVERSION_JVM_OPTIONS}, one per line: its AOT
   * cache and JIT settings), so a conversion runs as {@code gsymutil --dwarf} would.
   */
  static List<String> conversionJvmOptions() {
    List<String> o = new ArrayList<>(List.of("-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow"));
    String extra = System.getProperty(CONVERSION_JVM_OPTIONS, "");
    extra.lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(o::add);
    return o;
  }

  /** The system property by which the launcher passes its conversion JVM options. */
  static final String CONVERSION_JVM_OPTIONS = "gsym.conversion.jvmOptions";

  private Integer positive(Opt o) {
    String v = args.value(o);
    if (v == null) return null;
    Long n = Addresses.parse(v);
    if (n == null || n < 1 || n > Integer.MAX_VALUE) {
      throw CliException.stderr("gsymutil serve: " + o.names.getFirst() + ": expected a positive integer, but got '" + v + "'");
    }
    return n.intValue();
  }

  private static Path path(String option, String v) {
    try {
      if (v.indexOf('\0') >= 0) throw new InvalidPathException(v, "NUL character");
      return Path.of(v);
    } catch (InvalidPathException e) {
      throw CliException.stderr("gsymutil serve: " + option + ": invalid path '" + v + "'");
    }
  }
}
