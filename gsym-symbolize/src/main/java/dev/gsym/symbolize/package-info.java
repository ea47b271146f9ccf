/**
 * Symbolization service over GSYM: {@link dev.gsym.symbolize.Symbolizer} answers (module,
 * address) pairs from a shared GSYM store fed by local debug files, debuginfod servers and Breakpad
 * symbol stores (docs/symbolize.md).
 */
package dev.gsym.symbolize;
