package dev.gsym.symbolize;

import java.util.List;
import java.util.Objects;

/**
 * The functions identical code folding merged at a {@link Symbolized.Found}'s address, and which of
 * them the answer names (see docs/symbolize.md, "Merged functions").
 *
 * @param resolution how the function was chosen
 * @param candidates the names of every function at the address, the GSYM's primary first, then its
 *     merged functions in the file's order (one entry per function, so a name appears twice when two
 *     folded functions share it); at least two entries
 * @param chosen the names that remain possible, each once, in {@code candidates} order: {@link
 *     Resolution#CALL_SITE}: the one name the call site matched (the frames are that function's);
 *     {@link Resolution#UNIQUE}: the one name all candidates share; {@link Resolution#AMBIGUOUS}:
 *     the names a caller's call site matched when it matched several, else every distinct name
 * @param callerFrame the index (in the stack) of the frame whose call site chose or narrowed the
 *     candidates, or -1 (no call site decided, or an address symbolized without its stack)
 */
public record Merged(Resolution resolution, List<String> candidates, List<String> chosen, int callerFrame) {
  /** How a merged frame's function was chosen. */
  public enum Resolution {
    /** All candidates have the same name: nothing to choose. The frames are the primary's. */
    UNIQUE,
    /** A caller's call site named exactly one of the candidates: the frames are that function's. */
    CALL_SITE,
    /** No rule decided: the frames are the primary's, {@code chosen} lists the possible names. */
    AMBIGUOUS
  }

  /** Copies the lists; checks that there are two candidates at least and one name chosen. */
  public Merged {
    Objects.requireNonNull(resolution, "resolution");
    candidates = List.copyOf(candidates);
    chosen = List.copyOf(chosen);
    if (candidates.size() < 2) throw new IllegalArgumentException("fewer than two candidates");
    if (chosen.isEmpty()) throw new IllegalArgumentException("nothing chosen");
  }
}
