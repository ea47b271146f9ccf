package dev.gsym.cfi;

import dev.gsym.GsymFormatException;

/**
 * The work one reading of call frame information may do, proportional to the bytes read: every
 * instruction executed (a CIE's initial instructions run again for each of its FDEs), every CIE
 * header parsed, and every register rule copied into a row or a remembered state counts one step.
 * Real CFI takes 0.7-1.3 steps per byte (the test corpus; libstdc++, python3.11 and libjvm.so's
 * {@code .eh_frame}); hostile CFI (one long CIE program shared by thousands of FDEs, many registers
 * times many rows) would take quadratic time and memory without the bound.
 */
final class Budget {
  /** Steps allowed per byte of input. */
  static final long STEPS_PER_BYTE = 16;
  /** Steps allowed on top, so that tiny inputs are not limited by their size. */
  static final long BASE_STEPS = 1 << 16;

  private final long limit;
  private long left;

  private Budget(long limit) {
    this.limit = limit;
    this.left = limit;
  }

  /** A budget for {@code bytes} bytes of input. */
  static Budget forBytes(long bytes) {
    long b = Math.max(0, bytes);
    long steps = b > (Long.MAX_VALUE - BASE_STEPS) / STEPS_PER_BYTE ? Long.MAX_VALUE : b * STEPS_PER_BYTE + BASE_STEPS;
    return new Budget(steps);
  }

  /** Spends {@code n} steps; when none are left, fails at the entry at {@code entry} of {@code section}. */
  void spend(long n, CfiSection section, long entry) {
    left -= n;
    if (left < 0) {
      left = -1;
      throw section.data().error(entry, section.name() + " entry at 0x" + Long.toHexString(entry)
          + ": call frame information too complex to read: more than " + limit + " steps for "
          + section.data().size() + " bytes");
    }
  }

  /** Whether the budget is spent (later entries are not read). */
  boolean exhausted() {
    return left < 0;
  }
}
