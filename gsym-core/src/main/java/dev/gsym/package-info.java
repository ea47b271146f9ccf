/**
 * Types every module's API shares: {@link dev.gsym.GsymFormatException} (malformed input, with
 * source and offset), {@link dev.gsym.ByteStrings} (how names and paths, which are byte strings,
 * become Strings and back), {@link dev.gsym.TextBuffer} (byte text output) and {@link
 * dev.gsym.Progress}. Exported.
 */
package dev.gsym;
