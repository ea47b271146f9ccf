package dev.gsym.cli.serve;

import dev.gsym.cli.Addresses;
import dev.gsym.cli.Args;
import dev.gsym.cli.CliCommand;
import dev.gsym.cli.CliException;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;
import dev.gsym.cli.symbolize.ProfileCommand;
import dev.gsym.cli.symbolize.SymbolizeCommand;
import dev.gsym.serve.SymbolicationServer;
import dev.gsym.stackwalk.BreakpadSymbolDirectories;
import dev.gsym.stackwalk.ModuleSymbols;
import dev.gsym.stackwalk.SymbolSource;
import dev.gsym.stackwalk.SymbolizerSymbols;
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
 * those of {@code gsymutil symbolize} (debug directories, debuginfod, Breakpad symbol stores);
 * {@code POST /minidump} walks dumps with the symbols of the {@code --breakpad-symbols} directories,
 * then of the same store and sources through a second symbolizer that converts with unwind
 * information (its GSYMs in the store's {@code unwind/} part).
 */
public final class ServeCommand implements CliCommand {
  private final Session session;
  private final Map<String, String> env;
  private final Args args = new Args();

  public ServeCommand(Session session, Map<String, String> env) {
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
    // POST /minidump's symbols: the Breakpad symbol directories, each .sym converted once (into
    // --symbol-cache, else in memory)
    List<Path> symbolDirs = new ArrayList<>();
    for (String loc : args.values(Opt.BREAKPAD_SYMBOLS)) {
      if (!Source.BreakpadSymbols.parse(loc).isDirectory()) continue;
      symbolDirs.add(path("--breakpad-symbols", loc));
    }
    String cache = args.value(Opt.SYMBOL_CACHE);
    Path symbolCache = cache == null ? null : path("--symbol-cache", cache);
    Symbolizer s;
    Symbolizer walking;
    try {
      s = symbolizer.build();
    } catch (IllegalArgumentException e) {
      throw CliException.stderr("gsymutil serve: " + e.getMessage());
    }
    try {
      // a minidump's modules by their identifiers only (the paths it names are the crashed machine's)
      walking = symbolizer().unwind(true).build();
    } catch (IllegalArgumentException e) {
      s.close();
      throw CliException.stderr("gsymutil serve: " + e.getMessage());
    }
    try (BreakpadSymbolDirectories directories = symbolDirs.isEmpty() ? null
        : new BreakpadSymbolDirectories(symbolDirs, symbolCache);
        SymbolizerSymbols byId = new SymbolizerSymbols(walking, List.of(), false)) {
      // the symbol directories first, as minidump_stackwalk's symbol paths; then the sources
      SymbolSource minidumpSymbols = directories == null ? byId : (module, system) -> {
        ModuleSymbols found = directories.find(module, system);
        return found != null ? found : byId.find(module, system);
      };
      return serve(s, host, port, minidumpSymbols);
    } finally {
      walking.close();
    }
  }

  private int serve(Symbolizer s, String host, int port, SymbolSource minidumpSymbols) {
    SymbolicationServer.Builder server;
    try {
      server = SymbolicationServer.builder(s).listen(host, port).warmUp(!args.flag(Opt.NO_WARM_UP))
          .minidumpSymbols(minidumpSymbols)
          .profileDebugDirectories(debugDirectories()).profileSymbolTableNames(ProfileCommand.llvmNames());
      String maxDump = args.value(Opt.MAX_MINIDUMP_BYTES);
      if (maxDump != null) server.maxMinidumpBytes(SymbolizeCommand.size("--max-minidump-bytes", maxDump));
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
    // SIGTERM, Ctrl-C: a clean stop (the JVM's own handling would end the process with status 143 or
    // 130 whatever the requests in progress); from here, also during the warm-up
    Stop stop = new Stop(s);
    Map<sun.misc.Signal, sun.misc.SignalHandler> before = new java.util.HashMap<>();
    for (String name : List.of("TERM", "INT")) {
      sun.misc.Signal signal = new sun.misc.Signal(name);
      before.put(signal, sun.misc.Signal.handle(signal, stop::signal));
    }
    SymbolicationServer running;
    try {
      running = server.build().start();
    } catch (IOException e) {
      before.forEach(sun.misc.Signal::handle); // the JVM's own again (this may be a test's JVM)
      s.close();
      throw CliException.stderr("gsymutil serve: " + e.getMessage());
    }
    try {
      if (stop.attach(running)) {
        stop.stop(running); // a signal came during the start
      } else {
        session.err.println("gsymutil serve: listening on http://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
            + running.port() + " (store " + args.value(Opt.STORE) + ")");
        session.err.flush();
        running.join();
      }
      return stop.status();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  /**
   * Stopping on a signal: no new connections, the requests in progress finish (up to the server's
   * stop timeout), the symbolizer's modules are released; status 0 if every request finished. A
   * second signal ends the process at once.
   */
  private final class Stop {
    private final Symbolizer symbolizer;
    private final CountDownLatch done = new CountDownLatch(1);
    /** The server once started; whether a signal came (guarded by this). */
    private SymbolicationServer server;
    private boolean requested;
    private volatile int status;

    Stop(Symbolizer symbolizer) {
      this.symbolizer = symbolizer;
    }

    /** On a signal's own thread: stops the server, or has it stopped once it is started. */
    void signal(sun.misc.Signal signal) {
      SymbolicationServer running;
      synchronized (this) {
        if (requested) {
          session.err.println("gsymutil serve: SIG" + signal.getName() + " again: stopping at once");
          session.err.flush();
          Runtime.getRuntime().halt(128 + signal.getNumber());
          return;
        }
        requested = true;
        running = server;
      }
      session.err.println("gsymutil serve: stopping (SIG" + signal.getName()
          + "): no new connections; the requests in progress finish first");
      session.err.flush();
      if (running != null) stop(running);
    }

    /** The server has started; true if a signal came before, and the caller is to stop it. */
    synchronized boolean attach(SymbolicationServer running) {
      server = running;
      return requested;
    }

    void stop(SymbolicationServer running) {
      try {
        running.close();
      } catch (java.io.UncheckedIOException e) {
        session.err.println("gsymutil serve: " + e.getCause().getMessage());
        status = 1;
      } finally {
        symbolizer.close();
        session.err.println("gsymutil serve: stopped");
        session.err.flush();
        done.countDown();
      }
    }

    /** Once the server has stopped: waits for the rest of the stop and gives the exit status. */
    int status() throws InterruptedException {
      done.await();
      return status;
    }
  }

  /** The debug directories: the symbolizer's source, and where profiles' module files are looked for. */
  private List<Path> debugDirectories() {
    List<Path> dirs = new ArrayList<>();
    for (String d : args.values(Opt.DEBUG_FILE_DIRECTORY)) dirs.add(path("--debug-file-directory", d));
    if (dirs.isEmpty()) dirs.add(Source.DebugDirectories.DEFAULT_DIRECTORY);
    return dirs;
  }

  private Symbolizer.Builder symbolizer() {
    String store = args.value(Opt.STORE);
    if (store == null) throw CliException.stderr("gsymutil serve: --store DIR is required");
    Symbolizer.Builder b = Symbolizer.builder().addressMode(AddressMode.ABSOLUTE).demangle(false).store(path("--store", store))
        .threads(args.threads()).mergedFunctions(args.flag(Opt.MERGED_FUNCTIONS));
    if (!args.flag(Opt.CONVERT_IN_PROCESS)) b.conversionProcess(conversionJvmOptions());
    String size = args.value(Opt.MAX_STORE_SIZE);
    if (size != null) b.maxStoreSize(SymbolizeCommand.size("--max-store-size", size));
    Integer open = positive(Opt.MAX_OPEN_MODULES);
    if (open != null) b.maxOpenModules(open);
    b.addSource(Source.DebugDirectories.of(debugDirectories().toArray(Path[]::new)));
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
