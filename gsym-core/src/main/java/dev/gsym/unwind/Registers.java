package dev.gsym.unwind;

import java.util.Arrays;

/**
 * A frame's register values by DWARF register number, each either known or not; mutable and
 * reusable (the stack walker keeps two and swaps them frame by frame). Numbers from 0 to {@link
 * #MAX_REGISTER} are held.
 */
public final class Registers {
  /** The largest register number held: covers the general, vector and special registers CFI names. */
  public static final int MAX_REGISTER = 511;

  private final long[] values = new long[MAX_REGISTER + 1];
  private final long[] known = new long[(MAX_REGISTER + 64) / 64];
  private long pc;
  private boolean pcKnown;

  /** A set with no value known. */
  public Registers() {}

  /** Forgets every value. */
  public void clear() {
    Arrays.fill(known, 0);
    pcKnown = false;
  }

  /** Copies {@code other}'s values into this set. */
  public void copyFrom(Registers other) {
    System.arraycopy(other.values, 0, values, 0, values.length);
    System.arraycopy(other.known, 0, known, 0, known.length);
    pc = other.pc;
    pcKnown = other.pcKnown;
  }

  /** Sets {@code register}'s value. */
  public void set(int register, long value) {
    check(register);
    values[register] = value;
    known[register >>> 6] |= 1L << register;
  }

  /** Forgets {@code register}'s value. */
  public void unset(int register) {
    check(register);
    known[register >>> 6] &= ~(1L << register);
  }

  /** True if {@code register}'s value is known. */
  public boolean has(int register) {
    return register >= 0 && register <= MAX_REGISTER && (known[register >>> 6] & (1L << register)) != 0;
  }

  /** The value of {@code register}; 0 when it is not known (check with {@link #has}). */
  public long get(int register) {
    return has(register) ? values[register] : 0;
  }

  /**
   * The frame's instruction address: where the CPU was (the context frame) or the return address
   * (caller frames). On architectures whose return address is a register column (x86's eip/rip)
   * the column holds the same value.
   */
  public long pc() {
    return pc;
  }

  /** True if the instruction address is known. */
  public boolean hasPc() {
    return pcKnown;
  }

  /** Sets the instruction address. */
  public void pc(long value) {
    pc = value;
    pcKnown = true;
  }

  private static void check(int register) {
    if (register < 0 || register > MAX_REGISTER) throw new IllegalArgumentException("register " + register);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("pc=").append(pcKnown ? "0x" + Long.toHexString(pc) : "?");
    for (int r = 0; r <= MAX_REGISTER; r++) if (has(r)) sb.append(" r").append(r).append("=0x").append(Long.toHexString(values[r]));
    return sb.toString();
  }
}
