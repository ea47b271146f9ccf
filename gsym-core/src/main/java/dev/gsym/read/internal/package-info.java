/**
 * What makes repeated lookups fast, behind {@link dev.gsym.read.GsymReader}: the decoded-function
 * cache ({@link dev.gsym.read.internal.FunctionCache}, {@link
 * dev.gsym.read.internal.DecodedFunction}, {@link dev.gsym.read.internal.LineIndex}, {@link
 * dev.gsym.read.internal.InlineTable}), the string and path caches, and the lookup on encoded
 * records ({@link dev.gsym.read.internal.RecordLookup}). Every cache answers exactly as the
 * walkers of {@code dev.gsym.format} do on the same bytes. Not exported.
 */
package dev.gsym.read.internal;
