package dev.gsym.symbolize;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Finds a module's {@code .sym} file in a Breakpad symbol store, local or HTTP, in the
 * symbol-server layout: {@code <root>/<debug file>/<DEBUG ID>/<sym name>}, where the sym name is
 * the debug file name with a trailing {@code .pdb} (any case) replaced by {@code .sym}, else the
 * debug file name plus {@code .sym} (Breakpad's {@code SimpleSymbolSupplier}).
 */
final class BreakpadFetcher implements Fetcher {
  private final Source.BreakpadSymbols config;
  private final HttpFetch http;
  private final LongAdder downloads;

  BreakpadFetcher(Source.BreakpadSymbols config, LongAdder downloads) {
    this.config = config;
    this.http = config.isDirectory() ? null
        : new HttpFetch(new HttpFetch.Limits(config.timeout(), java.time.Duration.ZERO, config.retries(),
            config.maxDownloadSize()));
    this.downloads = downloads;
  }

  /** The {@code .sym} file name for a debug file name. */
  static String symName(String debugFile) {
    if (debugFile.length() > 4 && debugFile.substring(debugFile.length() - 4).toLowerCase(Locale.ROOT).equals(".pdb")) {
      return debugFile.substring(0, debugFile.length() - 4) + ".sym";
    }
    return debugFile + ".sym";
  }

  @Override
  public Source source() {
    return config;
  }

  @Override
  public Origin origin() {
    return Origin.BREAKPAD;
  }

  @Override
  public boolean applies(Target.Search t) {
    return t.breakpad() != null;
  }

  @Override
  public Fetched fetch(Target.Search t, TempFiles temp) throws InterruptedException {
    return fetch(t.breakpad().debugFile(), t.breakpad().debugId(), temp);
  }

  /**
   * Looks the module up; an HTTP download goes to a new file from {@code temp} (deleted here if
   * nothing usable arrives, else by the caller after converting it).
   */
  Fetched fetch(String debugFile, String debugId, TempFiles temp) throws InterruptedException {
    String sym = symName(debugFile);
    if (http == null) {
      Path p = Path.of(config.location()).resolve(debugFile).resolve(debugId).resolve(sym);
      if (Files.isRegularFile(p)) return new Fetched.Found(p, false, p.toString());
      return new Fetched.Missed(Miss.NOT_FOUND, "no " + p);
    }
    String base = config.location().toString();
    URI url = URI.create(base + (base.endsWith("/") ? "" : "/") + encodeSegment(debugFile) + "/" + debugId + "/"
        + encodeSegment(sym));
    Path file;
    try {
      file = temp.create();
    } catch (IOException e) {
      return new Fetched.Missed(Miss.UNAVAILABLE, "cannot create a download file: " + Texts.message(e));
    }
    boolean keep = false;
    try {
      HttpFetch.Result r = http.get(url, file, Map.of());
      switch (r) {
        case HttpFetch.Result.Ok ok -> {
          keep = true;
          downloads.increment();
          return new Fetched.Found(file, true, url.toString());
        }
        case HttpFetch.Result.NotFound nf -> {
          return new Fetched.Missed(Miss.NOT_FOUND, nf.message());
        }
        case HttpFetch.Result.Failed f -> {
          return new Fetched.Missed(f.transientFailure() ? Miss.UNAVAILABLE : Miss.UNREADABLE, f.message());
        }
      }
    } finally {
      if (!keep) {
        try {
          Files.deleteIfExists(file);
        } catch (IOException e) {
          // a stale temporary file is removed by eviction later
        }
      }
    }
  }

  /** Percent-encodes one URL path segment (UTF-8; RFC 3986 unreserved characters stay). */
  static String encodeSegment(String s) {
    StringBuilder sb = new StringBuilder();
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return sb.toString();
  }

  @Override
  public void close() {
    if (http != null) http.close();
  }
}
