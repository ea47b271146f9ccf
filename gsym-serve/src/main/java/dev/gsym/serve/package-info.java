/**
 * The HTTP symbolication service: {@link dev.gsym.serve.SymbolicationServer} serves {@code POST
 * /symbolicate}, {@code GET /healthz} and {@code GET /metrics} on a {@link
 * dev.gsym.symbolize.Symbolizer}. The API is described in docs/serve.md.
 */
package dev.gsym.serve;
