package dev.gsym.testing;

import dev.gsym.GsymFormatException;

/** What llvm-gsymutil prints for a lookup that fails: a miss's message, or a malformed record's bare detail. */
public final class LookupErrors {
  private LookupErrors() {}

  /** The message llvm-gsymutil prints after "error: " for {@code e} (a LookupException or GsymFormatException). */
  public static String llvm(RuntimeException e) {
    return e instanceof GsymFormatException g ? g.detail() : e.getMessage();
  }
}
