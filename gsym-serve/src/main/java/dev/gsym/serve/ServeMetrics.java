package dev.gsym.serve;

import dev.gsym.symbolize.Symbolizer;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The service's Prometheus metrics, in a registry of its own (no global state: two servers in one
 * JVM count apart). The symbolizer's counters are read from {@link Symbolizer#stats()} at each
 * scrape.
 */
final class ServeMetrics {
  static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Counter requests;
  private final Counter frames;
  private final Counter errors;
  private final Histogram latency;
  private final Counter minidumps;
  private final Counter minidumpFrames;
  private final Histogram walkTime;
  private final java.util.concurrent.atomic.AtomicInteger inProgress = new java.util.concurrent.atomic.AtomicInteger();

  ServeMetrics(Supplier<Symbolizer.Stats> stats) {
    requests = Counter.builder().name("gsym_serve_requests")
        .help("HTTP requests answered, by endpoint and status code").labelNames("endpoint", "status").register(registry);
    frames = Counter.builder().name("gsym_serve_frames")
        .help("Input frames symbolicated (POST /symbolicate; the locations of POST /symbolicate/pprof)").register(registry);
    errors = Counter.builder().name("gsym_serve_errors")
        .help("Requests refused or failed, by error kind (the error.kind of the response)").labelNames("kind")
        .register(registry);
    latency = Histogram.builder().name("gsym_serve_request_duration_seconds")
        .help("Time from the request's arrival to the end of the response, by endpoint").labelNames("endpoint")
        .classicOnly()
        .classicUpperBounds(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
        .register(registry);
    minidumps = Counter.builder().name("gsym_serve_minidumps")
        .help("Minidumps walked (POST /minidump)").register(registry);
    minidumpFrames = Counter.builder().name("gsym_serve_minidump_frames")
        .help("Stack frames found in the minidumps walked, inlined ones included").register(registry);
    walkTime = Histogram.builder().name("gsym_serve_minidump_walk_seconds")
        .help("Time to walk a minidump's threads and write its report (POST /minidump)")
        .classicOnly()
        .classicUpperBounds(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
        .register(registry);
    GaugeWithCallback.builder().name("gsym_serve_requests_in_progress")
        .help("Requests being handled now (reading the body, symbolizing, writing the answer), this scrape included")
        .callback(cb -> cb.call(inProgress.get())).register(registry);
    symbolizerCounter("gsym_symbolize_lookups", "Addresses looked up in an open module", stats, Symbolizer.Stats::lookups);
    symbolizerCounter("gsym_symbolize_store_hits", "Modules opened from the GSYM store without converting", stats,
        Symbolizer.Stats::storeHits);
    symbolizerCounter("gsym_symbolize_store_misses", "Module searches that did not find the module open or in the"
        + " store and asked the sources (conversions plus failed searches)", stats,
        s -> s.conversions() + s.moduleFailures());
    symbolizerCounter("gsym_symbolize_conversions", "Modules converted to GSYM by this process", stats,
        Symbolizer.Stats::conversions);
    symbolizerCounter("gsym_symbolize_downloads", "Files downloaded from debuginfod or Breakpad symbol servers", stats,
        Symbolizer.Stats::downloads);
    symbolizerCounter("gsym_symbolize_module_failures", "Module searches that ended without symbols", stats,
        Symbolizer.Stats::moduleFailures);
    GaugeWithCallback.builder().name("gsym_symbolize_open_modules").help("Modules open (mapped) now")
        .callback(cb -> cb.call(stats.get().openModules())).register(registry);
  }

  private void symbolizerCounter(String name, String help, Supplier<Symbolizer.Stats> stats,
      ToDoubleFunction<Symbolizer.Stats> value) {
    CounterWithCallback.builder().name(name).help(help).callback(cb -> cb.call(value.applyAsDouble(stats.get())))
        .register(registry);
  }

  /** A request enters the handler. */
  void started() {
    inProgress.incrementAndGet();
  }

  /** A request leaves the handler (its answer is written, or its connection dropped). */
  void ended() {
    inProgress.decrementAndGet();
  }

  void request(String endpoint, int status, long nanos) {
    requests.labelValues(endpoint, Integer.toString(status)).inc();
    latency.labelValues(endpoint).observe(nanos / 1e9);
  }

  void frames(int n) {
    frames.inc(n);
  }

  /** A minidump was walked: its frames and the walk's time. */
  void minidump(int frames, long nanos) {
    minidumps.inc();
    minidumpFrames.inc(frames);
    walkTime.observe(nanos / 1e9);
  }

  void error(String kind) {
    errors.labelValues(kind).inc();
  }

  void write(OutputStream out) throws IOException {
    writer.write(out, registry.scrape());
  }
}
