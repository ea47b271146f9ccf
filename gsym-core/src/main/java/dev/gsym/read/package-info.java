/**
 * Reading GSYM files: {@link dev.gsym.read.GsymReader} (open, lookup, decode, dump), its results
 * ({@link dev.gsym.read.LookupResult}, {@link dev.gsym.read.SourceLocation}), {@link
 * dev.gsym.read.LookupException}, and {@link dev.gsym.read.LookupFrames} for allocation-free batch
 * lookups. Exported.
 */
package dev.gsym.read;
