package dev.gsym.cli.gsymutil;

import dev.gsym.GsymFormatException;
import dev.gsym.TextBuffer;
import dev.gsym.cli.Args;
import dev.gsym.cli.Opt;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.Hex;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupException;
import dev.gsym.read.LookupFrames;
import dev.gsym.read.LookupResult;
import dev.gsym.read.PosixRegex;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Formats lookups exactly as llvm-gsymutil-22's {@code doLookup}: plain, {@code --verbose} (the
 * FunctionInfo block and the LookupResult) and {@code --merged-functions} (all merged functions,
 * optionally filtered by name). Appends to a caller-supplied StringBuilder so one buffer can be
 * reused for every result.
 */
final class Symbolicator {
  private final boolean verbose;
  private final boolean merged;
  /** Compiled filters; null entries are invalid expressions, which never match (as in llvm). */
  private final List<Pattern> filters;

  /** The layout {@code --verbose}, {@code --merged-functions} and its filters in {@code a} ask for. */
  Symbolicator(Args a) {
    this.verbose = a.flag(Opt.VERBOSE);
    this.merged = a.flag(Opt.MERGED_FUNCTIONS);
    this.filters = a.values(Opt.MERGED_FILTER).stream().map(PosixRegex::compile).toList();
  }

  /**
   * Appends, as UTF-8, the text llvm-gsymutil prints for {@code addr} looked up in {@code gsym}.
   * {@code frames} and {@code scratch} are the calling thread's reusable buffers: plain lookups
   * are formatted straight from the frames into {@code out}, without Strings.
   */
  void lookup(GsymReader gsym, long addr, TextBuffer out, LookupFrames frames, StringBuilder scratch) {
    if (verbose || merged) {
      scratch.setLength(0);
      lookup(gsym, addr, scratch);
      out.append(scratch);
      return;
    }
    try {
      gsym.lookup(addr, frames); // a miss appends llvm's error line
    } catch (GsymFormatException e) {
      // llvm-gsymutil prints a malformed record's error as it prints a miss: the bare message
      out.appendHex(addr, 16).append(ERROR).append(e.detail()).append('\n');
      return;
    }
    frames.appendTo(out, false);
  }

  private static final byte[] ERROR = ": error: ".getBytes(StandardCharsets.US_ASCII);

  /** Appends the text llvm-gsymutil prints for {@code addr} looked up in {@code gsym}. */
  void lookup(GsymReader gsym, long addr, StringBuilder sb) {
    if (merged) {
      lookupMerged(gsym, addr, sb);
      return;
    }
    LookupResult result;
    try {
      result = gsym.lookup(addr).withoutCallSites();
    } catch (LookupException | GsymFormatException e) {
      if (verbose) Hex.append(sb.append("\nLookupResult for "), addr, 16).append(":\n");
      appendError(sb, addr, e instanceof GsymFormatException g ? g.detail() : e.getMessage());
      if (verbose) sb.append('\n');
      return;
    }
    if (verbose) {
      FunctionInfo fi = decodeQuietly(gsym, addr);
      if (fi != null) {
        int mark = sb.length();
        try {
          Hex.append(sb.append("FunctionInfo for "), addr, 16).append(":\n");
          gsym.dump(sb, fi, 0);
          Hex.append(sb.append("\nLookupResult for "), addr, 16).append(":\n");
        } catch (GsymFormatException e) {
          sb.setLength(mark); // llvm omits the block when the record cannot be decoded
        }
      }
    }
    result.appendTo(sb);
    if (verbose) sb.append('\n');
  }

  private static FunctionInfo decodeQuietly(GsymReader gsym, long addr) {
    try {
      return gsym.functionInfo(addr);
    } catch (GsymFormatException | LookupException e) {
      return null;
    }
  }

  private static void appendError(StringBuilder sb, long addr, String message) {
    Hex.append(sb, addr, 16).append(": error: ").append(message).append('\n');
  }

  /** llvm's doLookupMergedFunctions: failures print nothing; --verbose adds nothing. */
  private void lookupMerged(GsymReader gsym, long addr, StringBuilder sb) {
    List<LookupResult> results;
    try {
      results = gsym.lookupAll(addr);
    } catch (LookupException | GsymFormatException e) {
      return;
    }
    int n = results.size();
    boolean[] shown = new boolean[n];
    int count = 0;
    for (int i = 0; i < n; i++) {
      shown[i] = matches(results.get(i).functionName());
      if (shown[i]) count++;
    }
    sb.append("Found ").append(count).append(count == 1 ? " function" : " functions")
        .append(" at address ");
    Hex.append(sb, addr, 16).append(":\n");
    for (int i = 0; i < n; i++) {
      if (!shown[i]) continue;
      results.get(i).appendTo(sb.append("   "));
      // llvm separates by the position in the unfiltered list, so a filtered-out last result
      // still leaves an empty line after the one before it.
      if (i != n - 1) sb.append('\n');
    }
  }

  private boolean matches(String name) {
    if (filters.isEmpty()) return true;
    for (Pattern p : filters) {
      if (p != null && p.matcher(name).find()) return true;
    }
    return false;
  }
}
