package dev.gsym.symbolize;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Asks debuginfod servers for a build-id's {@code debuginfo}, then its {@code executable}, through
 * the debuginfod client's cache ({@link DebuginfodCache}). Servers are asked one after the other,
 * in order (the elfutils client asks them in parallel and takes the first answer). A download is
 * checked before it enters the cache: an ELF file whose build-id, if it has one, is the one asked
 * for; anything else is dropped and reported as unusable.
 */
final class DebuginfodFetcher implements Fetcher {
  static final String[] TYPES = {"debuginfo", "executable"};

  private final Source.Debuginfod config;
  private final DebuginfodCache cache;
  private final HttpFetch http;
  private final LongAdder downloads;

  DebuginfodFetcher(Source.Debuginfod config, LongAdder downloads) {
    this.config = config;
    this.cache = new DebuginfodCache(config.cacheDirectory());
    this.http = new HttpFetch(new HttpFetch.Limits(config.timeout(), config.maxTime(), config.retries(),
        config.maxDownloadSize()));
    this.downloads = downloads;
  }

  /** The URL of {@code type} of build-id {@code hex} on {@code server}, as the client builds it. */
  static URI url(URI server, String hex, String type) {
    String s = server.toString();
    return URI.create(s + (s.endsWith("/") ? "" : "/") + "buildid/" + hex + "/" + type);
  }

  @Override
  public Source source() {
    return config;
  }

  @Override
  public Origin origin() {
    return Origin.DEBUGINFOD;
  }

  @Override
  public boolean applies(Target.Search t) {
    return t.buildId() != null;
  }

  @Override
  public Fetched fetch(Target.Search t, TempFiles temp) throws InterruptedException {
    return fetch(t.buildId());
  }

  /** Asks for build-id {@code hex}: the client cache, then each server, debuginfo before executable. */
  Fetched fetch(String hex) throws InterruptedException {
    List<String> notes = new ArrayList<>();
    boolean transientFailure = false;
    boolean unusable = false;
    long negativeSeconds = Math.max(1, config.negativeTtl().toSeconds());
    for (String type : TYPES) {
      switch (cache.lookup(hex, type, negativeSeconds)) {
        case DebuginfodCache.Lookup.Hit h -> {
          String bad = check(h.file(), hex);
          if (bad == null) return new Fetched.Found(h.file(), false, h.file().toString());
          cache.remove(hex, type);
          notes.add(h.file() + ": " + bad + " (removed from the cache)");
        }
        case DebuginfodCache.Lookup.Negative n -> {
          notes.add(type + ": not found (recorded " + n.ageSeconds() + " s ago in " + cache.dir() + ")");
          continue;
        }
        case DebuginfodCache.Lookup.Miss m -> { }
      }
      boolean allNotFound = true;
      boolean allTransient = true;
      for (URI server : config.servers()) {
        URI url = url(server, hex, type);
        Path download;
        try {
          download = cache.newDownload(hex, type);
        } catch (IOException e) {
          return new Fetched.Missed(Miss.UNAVAILABLE, cache.dir() + ": cannot create a download file: " + Texts.message(e));
        }
        boolean committed = false;
        try {
          Map<String, String> headers = config.maxDownloadSize() == Long.MAX_VALUE ? Map.of()
              : Map.of("X-DEBUGINFOD-MAXSIZE", Long.toString(config.maxDownloadSize()));
          HttpFetch.Result r = http.get(url, download, headers);
          switch (r) {
            case HttpFetch.Result.Ok ok -> {
              String bad = check(download, hex);
              if (bad != null) {
                notes.add(url + ": " + bad);
                unusable = true;
                allNotFound = false;
                allTransient = false;
                continue;
              }
              Path file = cache.commit(download, hex, type);
              committed = true;
              downloads.increment();
              return new Fetched.Found(file, false, url.toString());
            }
            case HttpFetch.Result.NotFound nf -> {
              notes.add(nf.message());
              allTransient = false;
            }
            case HttpFetch.Result.Failed f -> {
              notes.add(f.message());
              allNotFound = false;
              if (f.transientFailure()) {
                transientFailure = true;
              } else {
                unusable = true;
                allTransient = false;
              }
            }
          }
        } catch (IOException e) {
          notes.add(url + ": " + Texts.message(e));
          allNotFound = false;
          transientFailure = true;
        } finally {
          if (!committed) cache.discard(download, hex);
        }
      }
      if (allNotFound) cache.recordMiss(hex, type);
      if (allTransient) break; // no server could be asked: the executable cannot be fetched either
    }
    String message = String.join("; ", notes);
    if (transientFailure) return new Fetched.Missed(Miss.UNAVAILABLE, message);
    if (unusable) return new Fetched.Missed(Miss.UNREADABLE, message);
    return new Fetched.Missed(Miss.NOT_FOUND, message);
  }

  /** Why a downloaded or cached file is unusable for build-id {@code hex}, or null if it is fine. */
  private static String check(Path file, String hex) {
    try {
      if (ConverterAdapter.sniff(file) != ConverterAdapter.Kind.OBJECT) return "not an ELF file";
      ConverterAdapter.ObjectFacts f = ConverterAdapter.probe(file);
      if (f.buildId() != null && !f.buildId().equals(hex)) return "has build-id " + f.buildId() + ", not " + hex;
      return null;
    } catch (IOException | RuntimeException e) {
      return Texts.message(e);
    }
  }

  @Override
  public void close() {
    http.close();
  }
}
