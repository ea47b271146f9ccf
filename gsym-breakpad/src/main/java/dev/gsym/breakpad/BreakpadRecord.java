package dev.gsym.breakpad;

import dev.gsym.format.AddressRange;
import java.util.List;

/**
 * One record (line) of a Breakpad {@code .sym} file. Addresses and sizes are unsigned 64-bit
 * values; file, origin and line numbers are non-negative decimals as written. Text fields are the
 * line's bytes decoded by {@link dev.gsym.ByteStrings} (bytes that are not UTF-8 appear as
 * U+DC80 + byte).
 */
public sealed interface BreakpadRecord {

  /** {@code MODULE os arch id name}. */
  record Module(String os, String arch, String id, String name) implements BreakpadRecord {}

  /** {@code INFO key value}, e.g. {@code INFO CODE_ID 5A1B... libfoo.so}. */
  record Info(String key, String value) implements BreakpadRecord {}

  /** {@code FILE number name}. */
  record File(long number, String name) implements BreakpadRecord {}

  /**
   * {@code INLINE_ORIGIN number name}, or the older {@code INLINE_ORIGIN number file name} (told
   * apart as Breakpad's parser does: the word after the number is a decimal), whose file Breakpad's
   * processor ignores.
   */
  record InlineOrigin(long number, String name) implements BreakpadRecord {}

  /** {@code FUNC [m] address size parameter_size name}. */
  record Func(boolean multiple, long address, long size, long parameterSize, String name)
      implements BreakpadRecord {}

  /** {@code address size line filenum}: belongs to the last FUNC. */
  record Line(long address, long size, long line, long file) implements BreakpadRecord {}

  /**
   * {@code INLINE nest_level call_line call_file origin [address size]+}, or the older form without
   * {@code call_file} (told apart as Breakpad's parser does: by the parity of the field count):
   * belongs to the last FUNC. {@code callFile} is {@link #NO_CALL_FILE} for the older form and
   * for {@code -1}.
   */
  record Inline(int level, long callLine, long callFile, long origin, List<AddressRange> ranges)
      implements BreakpadRecord {
    /** The call file of a record that names none. */
    public static final long NO_CALL_FILE = -1;

    public Inline {
      ranges = AddressPairs.copyOf(ranges);
    }

    /** The ranges as [start, end) pairs (not to be modified). */
    long[] pairs() {
      return ((AddressPairs) ranges).pairs;
    }
  }

  /** {@code PUBLIC [m] address parameter_size name}. */
  record Public(boolean multiple, long address, long parameterSize, String name) implements BreakpadRecord {}

  /** {@code STACK WIN ...} / {@code STACK CFI ...}: the kind and the rest as text ({@link StackRecords} reads them). */
  record Stack(String kind, String text) implements BreakpadRecord {}

  /**
   * A record whose keyword (an upper-case word that is not a hex number) the parser does not know:
   * {@code keyword} and the rest of the line after it and a space.
   */
  record Other(String keyword, String text) implements BreakpadRecord {}
}
