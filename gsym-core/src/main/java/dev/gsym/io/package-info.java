/**
 * Byte-level plumbing of the in-repo modules: {@link dev.gsym.io.ByteView} and {@link
 * dev.gsym.io.Cursor} (the one byte input: bounds checks and LEB128), {@link
 * dev.gsym.io.GsymWriter} and {@link dev.gsym.io.AtomicFile}. Not API: exported only to the
 * project's own modules.
 */
package dev.gsym.io;
