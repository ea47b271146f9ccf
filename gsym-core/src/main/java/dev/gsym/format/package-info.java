/**
 * The GSYM on-disk structures, one class each, with its byte layout, its encoder, its dump and,
 * for the variable-length encodings, the one walker that decodes it ({@link
 * dev.gsym.format.FunctionInfo#parse}, {@link dev.gsym.format.LineTable#parse}, {@link
 * dev.gsym.format.InlineInfo#parse}, with the leniency of {@link dev.gsym.format.Reading}).
 * Exported: the records are the library's values; the codec entry points take the in-repo
 * {@code dev.gsym.io} types.
 */
package dev.gsym.format;
