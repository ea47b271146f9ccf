package dev.gsym.write;

import dev.gsym.format.CallSiteInfo;
import java.util.List;

/**
 * Call sites to attach to the function named {@link #name} with {@link
 * GsymCreator#loadCallSites}: what llvm's {@code CallSiteInfoLoader} takes from a call-site file,
 * with the regular expressions as text (the creator adds them to the string table).
 *
 * @param name the function's name, as in the string table
 * @param callSites its call sites, in order
 */
public record FunctionCallSites(String name, List<CallSite> callSites) {
  /** Checks the name and copies the call sites. */
  public FunctionCallSites {
    if (name == null) throw new NullPointerException("name");
    callSites = List.copyOf(callSites);
  }

  /**
   * One call site.
   *
   * @param returnOffset the return address minus the function's start
   * @param matchRegex regular expressions naming the functions it may call
   * @param flags {@link CallSiteInfo#INTERNAL_CALL} and/or {@link CallSiteInfo#EXTERNAL_CALL} (an
   *     unsigned byte on disk)
   */
  public record CallSite(long returnOffset, List<String> matchRegex, int flags) {
    /** Copies the expressions; checks that the flags fit in a byte. */
    public CallSite {
      matchRegex = List.copyOf(matchRegex);
      if ((flags & ~0xff) != 0) throw new IllegalArgumentException("call-site flags do not fit in a byte: " + flags);
    }
  }
}
