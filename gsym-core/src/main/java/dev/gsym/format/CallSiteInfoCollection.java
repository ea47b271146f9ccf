package dev.gsym.format;

import dev.gsym.io.Cursor;
import dev.gsym.io.GsymWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The call sites of a function (InfoType 4).
 *
 * <pre>
 * ENCODING
 *   u32 NumCallSites, NumCallSites x CallSiteInfo
 * </pre>
 */
public record CallSiteInfoCollection(List<CallSiteInfo> callSites) {
  /** Copies the call sites. */
  public CallSiteInfoCollection {
    callSites = List.copyOf(callSites);
  }

  /** Reads a CallSiteInfo chunk's payload at {@code c}. */
  public static CallSiteInfoCollection decode(Cursor c) {
    if (!c.has(4)) throw c.errorHere("missing CallSiteInfo count");
    long n = c.u32();
    List<CallSiteInfo> list = new ArrayList<>();
    for (long i = 0; i < n; i++) list.add(CallSiteInfo.decode(c));
    return new CallSiteInfoCollection(list);
  }

  /** Writes the chunk's payload to {@code w}. */
  public void encode(GsymWriter w) {
    encode(w, IndexMap.IDENTITY);
  }

  /** As {@link #encode(GsymWriter)} with regex string offsets translated by {@code m}. */
  public void encode(GsymWriter w, IndexMap m) {
    w.u32(callSites.size());
    for (CallSiteInfo cs : callSites) cs.encode(w, m);
  }

  /** The "CallSites" block of llvm-gsymutil's dump, indented by {@code indent}. */
  public void dump(StringBuilder sb, GsymTables t, int indent) {
    sb.repeat(' ', indent).append("CallSites (by relative return offset):\n");
    for (CallSiteInfo cs : callSites) {
      sb.repeat(' ', indent).append("  ");
      cs.dump(sb, t);
      sb.append('\n');
    }
  }
}
