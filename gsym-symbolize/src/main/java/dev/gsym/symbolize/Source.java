package dev.gsym.symbolize;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A place where a {@link Symbolizer} looks for a module's symbols when its GSYM store does not hold
 * them, in the order the sources were added (docs/symbolize.md, "Search order"). Each source
 * remembers its "not found" answers for {@link #negativeTtl()}.
 */
public sealed interface Source {
  /**
   * Identifies the source in the store's negative-cache markers: processes configured with the same
   * source share what it did not find.
   */
  String id();

  /** How long a "not found" (or unreadable) answer of this source is believed. */
  Duration negativeTtl();

  /**
   * Separate debug files on this machine, as gdb and llvm-symbolizer find them: {@code
   * DIR/.build-id/xx/yyyy.debug} by build-id in each directory, and for a binary given by path its
   * {@code .gnu_debuglink} file (CRC-32 checked) beside it, in its {@code .debug/} directory and at
   * {@code DIR/<the binary's absolute directory>/<name>} for each directory.
   *
   * @param directories the debug directories, searched in order
   */
  record DebugDirectories(List<Path> directories, Duration negativeTtl) implements Source {
    /** Debian's, Fedora's and llvm's default. */
    public static final Path DEFAULT_DIRECTORY = Path.of("/usr/lib/debug");

    /** Copies the directories; checks the time. */
    public DebugDirectories {
      directories = List.copyOf(directories);
      requirePositive(negativeTtl);
    }

    /** {@code /usr/lib/debug}, not-found answers kept for one minute. */
    public static DebugDirectories defaults() {
      return of(DEFAULT_DIRECTORY);
    }

    /** These directories, not-found answers kept for one minute. */
    public static DebugDirectories of(Path... directories) {
      return new DebugDirectories(List.of(directories), Duration.ofMinutes(1));
    }

    /** These directories with not-found answers kept for {@code ttl}. */
    public DebugDirectories withNegativeTtl(Duration ttl) {
      return new DebugDirectories(directories, ttl);
    }

    @Override
    public String id() {
      return "debug-directories " + directories;
    }
  }

  /**
   * debuginfod servers: {@code GET <server>/buildid/<hex>/debuginfo}, then {@code .../executable},
   * servers in order; downloads are kept in the debuginfod client's cache layout
   * ({@code <cache>/<hex>/debuginfo}), shared with gdb, elfutils tools and llvm's client.
   *
   * @param servers server URLs (http or https)
   * @param cacheDirectory the download cache (see {@link #defaultCacheDirectory(Map)})
   * @param timeout connect and response-header timeout, and the low-speed limit: a transfer that
   *     receives less than 100 KiB in any {@code timeout} is aborted (as DEBUGINFOD_TIMEOUT)
   * @param retries further attempts after a failure other than "not found" (DEBUGINFOD_RETRY_LIMIT)
   * @param maxDownloadSize larger files are refused, from their Content-Length or while they arrive
   *     (DEBUGINFOD_MAXSIZE; also sent as {@code X-DEBUGINFOD-MAXSIZE})
   * @param maxTime the longest one download may take, {@link Duration#ZERO} for no limit
   *     (DEBUGINFOD_MAXTIME)
   */
  record Debuginfod(List<URI> servers, Path cacheDirectory, Duration timeout, int retries, long maxDownloadSize,
      Duration maxTime, Duration negativeTtl) implements Source {
    /** Checks every setting. */
    public Debuginfod {
      servers = List.copyOf(servers);
      if (servers.isEmpty()) throw new IllegalArgumentException("no debuginfod server");
      for (URI u : servers) requireHttp(u);
      if (cacheDirectory == null) throw new IllegalArgumentException("no debuginfod cache directory");
      requirePositive(timeout);
      if (maxTime == null || maxTime.isNegative()) throw new IllegalArgumentException("negative maxTime");
      if (retries < 0) throw new IllegalArgumentException("negative retries");
      if (maxDownloadSize <= 0) throw new IllegalArgumentException("maxDownloadSize must be positive");
      requirePositive(negativeTtl);
    }

    /**
     * These servers with the debuginfod client's defaults: cache directory from the environment,
     * timeout 90 s, 2 retries, no size or time limit, not-found answers kept for 10 minutes (the
     * client's {@code cache_miss_s} default).
     */
    public static Debuginfod of(List<URI> servers) {
      return new Debuginfod(servers, defaultCacheDirectory(System.getenv()), Duration.ofSeconds(90), 2, Long.MAX_VALUE,
          Duration.ZERO, Duration.ofMinutes(10));
    }

    /** The servers in {@code DEBUGINFOD_URLS} and the client's settings, or empty without servers. */
    public static Optional<Debuginfod> fromEnvironment() {
      return fromEnvironment(System.getenv());
    }

    /**
     * As the debuginfod client reads {@code env}: {@code DEBUGINFOD_URLS} (URLs separated by
     * spaces; duplicates dropped), {@code DEBUGINFOD_CACHE_PATH}, {@code DEBUGINFOD_TIMEOUT},
     * {@code DEBUGINFOD_RETRY_LIMIT}, {@code DEBUGINFOD_MAXSIZE}, {@code DEBUGINFOD_MAXTIME}
     * (seconds and bytes; 0 or unset means the default). Empty without URLs.
     *
     * @throws IllegalArgumentException naming a URL that is not http(s) or a number that is not one
     */
    public static Optional<Debuginfod> fromEnvironment(Map<String, String> env) {
      String urls = env.get("DEBUGINFOD_URLS");
      if (urls == null || urls.isBlank()) return Optional.empty();
      List<URI> servers = new ArrayList<>();
      for (String u : urls.trim().split("\\s+")) {
        if (u.length() > ModuleRef.MAX_PATH) throw new IllegalArgumentException("DEBUGINFOD_URLS entry too long: " + Texts.quote(u));
        URI uri;
        try {
          uri = new URI(u);
        } catch (URISyntaxException e) {
          throw new IllegalArgumentException("DEBUGINFOD_URLS: invalid URL " + Texts.quote(u) + ": " + e.getReason());
        }
        if (!servers.contains(uri)) servers.add(uri);
      }
      Debuginfod d = of(servers).withCacheDirectory(defaultCacheDirectory(env));
      long timeout = number(env, "DEBUGINFOD_TIMEOUT");
      if (timeout > 0) d = d.withTimeout(Duration.ofSeconds(timeout));
      String retries = env.get("DEBUGINFOD_RETRY_LIMIT");
      if (retries != null && !retries.isBlank()) d = d.withRetries((int) Math.min(number(env, "DEBUGINFOD_RETRY_LIMIT"), 100));
      long max = number(env, "DEBUGINFOD_MAXSIZE");
      if (max > 0) d = d.withMaxDownloadSize(max);
      long maxTime = number(env, "DEBUGINFOD_MAXTIME");
      if (maxTime > 0) d = d.withMaxTime(Duration.ofSeconds(maxTime));
      return Optional.of(d);
    }

    /**
     * The debuginfod client's cache directory: {@code $DEBUGINFOD_CACHE_PATH}; else {@code
     * $HOME/.debuginfod_client_cache} if it exists (the old default); else {@code
     * $XDG_CACHE_HOME/debuginfod_client}; else {@code $HOME/.cache/debuginfod_client}.
     */
    public static Path defaultCacheDirectory(Map<String, String> env) {
      String explicit = env.get("DEBUGINFOD_CACHE_PATH");
      if (explicit != null && !explicit.isEmpty()) return Path.of(explicit);
      String home = env.getOrDefault("HOME", "/");
      if (home.isEmpty()) home = "/";
      Path legacy = Path.of(home, ".debuginfod_client_cache");
      if (Files.exists(legacy)) return legacy;
      String xdg = env.get("XDG_CACHE_HOME");
      Path cache = xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(home, ".cache");
      return cache.resolve("debuginfod_client");
    }

    /** These servers with another download cache. */
    public Debuginfod withCacheDirectory(Path dir) {
      return new Debuginfod(servers, dir, timeout, retries, maxDownloadSize, maxTime, negativeTtl);
    }

    /** These servers with another timeout. */
    public Debuginfod withTimeout(Duration t) {
      return new Debuginfod(servers, cacheDirectory, t, retries, maxDownloadSize, maxTime, negativeTtl);
    }

    /** These servers with another retry count. */
    public Debuginfod withRetries(int n) {
      return new Debuginfod(servers, cacheDirectory, timeout, n, maxDownloadSize, maxTime, negativeTtl);
    }

    /** These servers with another download size limit. */
    public Debuginfod withMaxDownloadSize(long bytes) {
      return new Debuginfod(servers, cacheDirectory, timeout, retries, bytes, maxTime, negativeTtl);
    }

    /** These servers with another download time limit ({@link Duration#ZERO}: none). */
    public Debuginfod withMaxTime(Duration t) {
      return new Debuginfod(servers, cacheDirectory, timeout, retries, maxDownloadSize, t, negativeTtl);
    }

    /** These servers with not-found answers kept for {@code ttl}. */
    public Debuginfod withNegativeTtl(Duration ttl) {
      return new Debuginfod(servers, cacheDirectory, timeout, retries, maxDownloadSize, maxTime, ttl);
    }

    @Override
    public String id() {
      return "debuginfod " + servers;
    }

    private static long number(Map<String, String> env, String name) {
      String v = env.get(name);
      if (v == null || v.isBlank()) return 0;
      try {
        return Long.parseLong(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " is not a number: " + Texts.quote(v));
      }
    }
  }

  /**
   * A Breakpad symbol store in the symbol-server layout Mozilla, Crashpad and Sentry use: {@code
   * <root>/<debug file>/<DEBUG ID>/<debug file>.sym}, where a debug file name ending in {@code .pdb}
   * (any case) has that extension replaced ({@code xul.pdb/<ID>/xul.sym}), as Breakpad's {@code
   * SimpleSymbolSupplier} builds the path. Asked for {@link ModuleRef.Breakpad} modules and for
   * {@link ModuleRef.BuildId} modules that carry a debug file name.
   *
   * @param location a {@code file:} URI (a directory) or an {@code http(s):} URL
   * @param timeout as for {@link Debuginfod} (HTTP only)
   * @param retries as for {@link Debuginfod} (HTTP only)
   * @param maxDownloadSize as for {@link Debuginfod} (HTTP only)
   */
  record BreakpadSymbols(URI location, Duration timeout, int retries, long maxDownloadSize, Duration negativeTtl)
      implements Source {
    /** Checks every setting. */
    public BreakpadSymbols {
      if (location == null) throw new IllegalArgumentException("no Breakpad symbol store location");
      String scheme = location.getScheme() == null ? "" : location.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("file")) requireHttp(location);
      requirePositive(timeout);
      if (retries < 0) throw new IllegalArgumentException("negative retries");
      if (maxDownloadSize <= 0) throw new IllegalArgumentException("maxDownloadSize must be positive");
      requirePositive(negativeTtl);
    }

    /** A directory in the symbol-server layout. */
    public static BreakpadSymbols directory(Path root) {
      return new BreakpadSymbols(root.toAbsolutePath().toUri(), Duration.ofSeconds(30), 2, Long.MAX_VALUE,
          Duration.ofMinutes(10));
    }

    /** A symbol server (http or https): timeout 30 s, 2 retries, no size limit. */
    public static BreakpadSymbols server(URI url) {
      return new BreakpadSymbols(url, Duration.ofSeconds(30), 2, Long.MAX_VALUE, Duration.ofMinutes(10));
    }

    /**
     * A directory path or an http(s) URL, as a user types it.
     *
     * @throws IllegalArgumentException for an invalid URL
     */
    public static BreakpadSymbols parse(String location) {
      if (location.regionMatches(true, 0, "http://", 0, 7) || location.regionMatches(true, 0, "https://", 0, 8)) {
        try {
          return server(new URI(location));
        } catch (URISyntaxException e) {
          throw new IllegalArgumentException("invalid Breakpad symbol server URL " + Texts.quote(location) + ": " + e.getReason());
        }
      }
      return directory(Path.of(location));
    }

    /** True for a local directory ({@code file:}), false for a server. */
    public boolean isDirectory() {
      return location.getScheme().equalsIgnoreCase("file");
    }

    /** This store with another timeout. */
    public BreakpadSymbols withTimeout(Duration t) {
      return new BreakpadSymbols(location, t, retries, maxDownloadSize, negativeTtl);
    }

    /** This store with another retry count. */
    public BreakpadSymbols withRetries(int n) {
      return new BreakpadSymbols(location, timeout, n, maxDownloadSize, negativeTtl);
    }

    /** This store with another download size limit. */
    public BreakpadSymbols withMaxDownloadSize(long bytes) {
      return new BreakpadSymbols(location, timeout, retries, bytes, negativeTtl);
    }

    /** This store with not-found answers kept for {@code ttl}. */
    public BreakpadSymbols withNegativeTtl(Duration ttl) {
      return new BreakpadSymbols(location, timeout, retries, maxDownloadSize, ttl);
    }

    @Override
    public String id() {
      return "breakpad " + location;
    }
  }

  private static void requirePositive(Duration d) {
    if (d == null || d.isNegative() || d.isZero()) throw new IllegalArgumentException("duration must be positive: " + d);
  }

  private static void requireHttp(URI u) {
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || u.getHost() == null) {
      throw new IllegalArgumentException("not an http(s) URL: " + Texts.quote(u.toString()));
    }
  }
}
