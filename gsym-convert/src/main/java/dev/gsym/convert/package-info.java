/**
 * The one conversion front door: {@link dev.gsym.convert.Converter} (an {@link
 * dev.gsym.convert.Input} to GSYM under {@link dev.gsym.convert.ConvertOptions}, each GSYM handed
 * to a {@link dev.gsym.convert.Converter.Sink}, or written to a channel for a store).
 */
package dev.gsym.convert;
