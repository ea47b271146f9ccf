package dev.gsym.read;

/**
 * An address that cannot be symbolicated (not in the GSYM, not in a line table, bad file index).
 * The message is llvm-gsymutil's, e.g. {@code address 0x1158 is not in GSYM}. Carries no stack
 * trace: it is an expected outcome, not a bug.
 */
public final class LookupException extends RuntimeException {
  /** A miss described by llvm-gsymutil's {@code message}. */
  public LookupException(String message) {
    super(message, null, false, false);
  }
}
