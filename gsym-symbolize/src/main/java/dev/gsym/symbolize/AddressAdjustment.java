package dev.gsym.symbolize;

/**
 * Which frames of a stack hold return addresses (Sentry's {@code instruction_addr_adjustment}). A
 * return address points after its call instruction, and can be the first byte of the next line or
 * even of the next function (a call to a function that does not return, last in its caller): such a
 * frame is looked up at its address minus one, inside the call, while its call-site information is
 * still taken at the return address (docs/symbolize.md, "Return addresses"). The answer keeps the
 * address as given.
 */
public enum AddressAdjustment {
  /** Frame 0 is where the thread was (a crash's or a sample's program counter); its callers hold return addresses. */
  ALL_BUT_FIRST,
  /** Every frame holds a return address (a stack captured from inside a call, frame 0 included). */
  ALL,
  /** No frame does: the addresses were adjusted before (to their call instructions) or are exact. */
  NONE
}
