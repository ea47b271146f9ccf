/**
 * Writing GSYM files: {@link dev.gsym.write.GsymCreator} (add, {@code finish}, save),
 * {@link dev.gsym.write.Diagnostics} and {@link dev.gsym.write.PathStyle}. Exported.
 */
package dev.gsym.write;
