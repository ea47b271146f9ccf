package dev.gsym.symbolize;

import dev.gsym.format.CallSiteInfo;
import dev.gsym.read.LookupResult;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Chooses among merged functions along a call stack with the callers' call sites (docs/symbolize.md,
 * "Merged functions"). Frames are resolved from the outermost caller inwards, because a caller that
 * is itself merged has one set of call sites per candidate.
 */
final class StackResolver {
  /** How many callers above a merged frame are asked, the immediate caller included. */
  static final int MAX_CALLER_DISTANCE = 4;

  private static final int FLAG_MASK = CallSiteInfo.INTERNAL_CALL | CallSiteInfo.EXTERNAL_CALL;

  /** A frame before resolution: found in its module, or already answered (a failure). */
  sealed interface Place permits Located, Answered {}

  /**
   * One frame found in its module.
   *
   * @param moduleKey identifies the module (frames of one module have equal keys)
   * @param candidates the functions at the address, primary first (at least one)
   * @param source where the module's symbols came from ({@link Symbolized.Found#source})
   */
  record Located(ModuleRef module, long address, long fileAddress, long base, String moduleKey,
      List<LookupResult> candidates, Origin source) implements Place {}

  /**
   * A frame whose answer is known without resolution: its module or address failed; null for a
   * placeholder (a frame the caller could not name, answered null).
   */
  record Answered(Symbolized answer) implements Place {}

  /** A frame the caller has no request for: it keeps its place in the stack. */
  static final Answered PLACEHOLDER = new Answered(null);

  /** What a caller's call site says about a merged callee. */
  private sealed interface Verdict {}

  /** The call site says nothing about these candidates: ask the next caller. */
  private record Pass() implements Verdict {}

  /** The call site names these candidate names (at least one). */
  private record Names(Set<String> names) implements Verdict {}

  /** The caller is unresolved and its possible functions' call sites disagree. */
  private record Conflict() implements Verdict {}

  private static final Pass PASS = new Pass();

  private final RegexCache regexes;
  private final FunctionNames names;

  /** @param names how frames show function names (demangled or raw) */
  StackResolver(RegexCache regexes, FunctionNames names) {
    this.regexes = regexes;
    this.names = names;
  }

  /** The answers for a stack: frame 0 is the innermost, each following frame its caller. */
  Symbolized[] resolve(Place[] frames) {
    int n = frames.length;
    Symbolized[] out = new Symbolized[n];
    // per found frame: the candidate indexes it may still be (whose call sites count as a caller)
    int[][] possible = new int[n][];
    for (int i = n - 1; i >= 0; i--) {
      if (!(frames[i] instanceof Located f)) {
        out[i] = ((Answered) frames[i]).answer();
        continue;
      }
      List<LookupResult> c = f.candidates();
      if (c.size() == 1) {
        possible[i] = new int[] {0};
        out[i] = found(f, 0, null);
        continue;
      }
      List<String> all = new ArrayList<>(c.size());
      for (LookupResult r : c) all.add(r.functionName());
      List<String> distinct = List.copyOf(new LinkedHashSet<>(all));
      if (distinct.size() == 1) {
        possible[i] = indexes(all, Set.copyOf(distinct));
        out[i] = found(f, 0, new Merged(Merged.Resolution.UNIQUE, all, distinct, -1));
        continue;
      }
      Verdict v = PASS;
      int by = -1;
      for (int j = i + 1; j < n && j - i <= MAX_CALLER_DISTANCE; j++) {
        v = verdict(frames, possible, j, f, distinct);
        if (!(v instanceof Pass)) {
          by = j;
          break;
        }
      }
      if (v instanceof Names(Set<String> names)) {
        List<String> chosen = distinct.stream().filter(names::contains).toList();
        possible[i] = indexes(all, names);
        if (chosen.size() == 1) {
          out[i] = found(f, possible[i][0], new Merged(Merged.Resolution.CALL_SITE, all, chosen, by));
        } else {
          out[i] = found(f, 0, new Merged(Merged.Resolution.AMBIGUOUS, all, chosen, by));
        }
      } else {
        possible[i] = indexes(all, Set.copyOf(distinct));
        out[i] = found(f, 0, new Merged(Merged.Resolution.AMBIGUOUS, all, distinct, -1));
      }
    }
    return out;
  }

  /** What caller {@code j} says about callee {@code callee} whose distinct names are {@code names}. */
  private Verdict verdict(Place[] frames, int[][] possible, int j, Located callee, List<String> names) {
    if (!(frames[j] instanceof Located caller)) return PASS; // no call-site information there
    boolean sameModule = caller.moduleKey().equals(callee.moduleKey());
    Verdict agreed = null;
    for (int p : possible[j]) {
      Verdict v = match(caller.candidates().get(p), sameModule, names);
      if (agreed == null) agreed = v;
      else if (!agreed.equals(v)) return new Conflict();
    }
    return agreed;
  }

  /** The names one caller function's call site at its return address matches. */
  private Verdict match(LookupResult caller, boolean sameModule, List<String> names) {
    List<String> rx = caller.callSiteFuncRegex();
    if (rx.isEmpty()) return PASS;
    int flags = caller.callSiteFlags() & FLAG_MASK;
    if (flags == CallSiteInfo.INTERNAL_CALL && !sameModule) return PASS;
    if (flags == CallSiteInfo.EXTERNAL_CALL && sameModule) return PASS;
    Set<String> matched = new LinkedHashSet<>();
    for (String name : names) {
      for (String r : rx) {
        if (regexes.find(r, name)) {
          matched.add(name);
          break;
        }
      }
    }
    return matched.isEmpty() ? PASS : new Names(matched);
  }

  private static int[] indexes(List<String> all, Set<String> names) {
    int[] out = new int[all.size()];
    int k = 0;
    for (int i = 0; i < all.size(); i++) {
      if (names.contains(all.get(i))) out[k++] = i;
    }
    return java.util.Arrays.copyOf(out, k);
  }

  private Symbolized.Found found(Located f, int candidate, Merged merged) {
    return new Symbolized.Found(f.module(), f.address(), f.fileAddress(), f.base(),
        GsymCoreAdapter.frames(f.candidates().get(candidate), names), java.util.Optional.ofNullable(merged), f.source());
  }
}
