package dev.gsym.cli;

/**
 * The edit distance of llvm's "did you mean" suggestions ({@code StringRef::edit_distance}: the
 * fewest insertions, deletions and replacements), shared by gsymutil's and symbolize's option
 * parsers.
 */
public final class EditDistance {
  private EditDistance() {}

  /** The number of single-character edits that turn {@code a} into {@code b}. */
  public static int between(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) prev[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
