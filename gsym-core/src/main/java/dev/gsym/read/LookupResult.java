package dev.gsym.read;

import dev.gsym.format.AddressRange;
import dev.gsym.format.Hex;
import java.util.List;

/**
 * The answer for one address: the containing function and its source locations, deepest inlined
 * frame first and the concrete function last.
 *
 * <p>Names and paths are the file's bytes decoded by {@link dev.gsym.ByteStrings}: UTF-8
 * decoded, each byte that is not part of well-formed UTF-8 appearing as U+DC80 + byte;
 * {@code ByteStrings.encode} gives the exact bytes back (what llvm-gsymutil prints). {@link
 * #toString()} and {@link #appendTo} produce such Strings too.
 *
 * @param callSiteFuncRegex regular expressions of the call site whose return address is the lookup
 *     address, if the function records call sites
 * @param callSiteFlags that call site's flags ({@link dev.gsym.format.CallSiteInfo#INTERNAL_CALL},
 *     {@link dev.gsym.format.CallSiteInfo#EXTERNAL_CALL}); 0 without such a call site
 */
public record LookupResult(long lookupAddress, AddressRange functionRange, String functionName,
    List<SourceLocation> locations, List<String> callSiteFuncRegex, int callSiteFlags) {

  /** Copies the lists. */
  public LookupResult {
    locations = List.copyOf(locations);
    callSiteFuncRegex = List.copyOf(callSiteFuncRegex);
  }

  /** A result whose call site (if any) has no flags. */
  public LookupResult(long lookupAddress, AddressRange functionRange, String functionName,
      List<SourceLocation> locations, List<String> callSiteFuncRegex) {
    this(lookupAddress, functionRange, functionName, locations, callSiteFuncRegex, 0);
  }

  /** The same result without call-site regexes. */
  public LookupResult withoutCallSites() {
    return callSiteFuncRegex.isEmpty() && callSiteFlags == 0 ? this
        : new LookupResult(lookupAddress, functionRange, functionName, locations, List.of(), 0);
  }

  /**
   * llvm-gsymutil's text: "HEX64(addr): " + locations joined by a newline and 20 spaces, inlined
   * frames marked " [inlined]", then call-site regexes if any, and a final newline.
   */
  public StringBuilder appendTo(StringBuilder sb) {
    Hex.append(sb, lookupAddress, 16).append(": ");
    for (int i = 0; i < locations.size(); i++) {
      if (i > 0) sb.append('\n').repeat(' ', 20);
      locations.get(i).appendTo(sb);
      if (i + 1 != locations.size()) sb.append(" [inlined]");
    }
    if (!callSiteFuncRegex.isEmpty()) {
      sb.append("\n      CallSites: ").append(String.join(", ", callSiteFuncRegex));
    }
    return sb.append('\n');
  }

  @Override
  public String toString() {
    return appendTo(new StringBuilder()).toString();
  }
}
