/**
 * {@code gsymutil serve}: an HTTP symbolication service on the {@code dev.gsym.symbolize}
 * Symbolizer ({@code dev.gsym.serve}). Only {@link dev.gsym.serve.SymbolicationServer} is API.
 */
module dev.gsym.serve {
  requires dev.gsym.core;
  requires transitive dev.gsym.symbolize; // SymbolicationServer.builder takes a Symbolizer
  requires dev.gsym.demangle;
  requires transitive dev.gsym.stackwalk; // SymbolicationServer.Builder.minidumpSymbols takes a SymbolSource
  requires dev.gsym.profile; // POST /symbolicate/pprof
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.http2.server;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.util;
  requires tools.jackson.core;
  requires io.prometheus.metrics.core;
  requires io.prometheus.metrics.model;
  requires io.prometheus.writer.text;
  requires org.slf4j;

  exports dev.gsym.serve;
}
