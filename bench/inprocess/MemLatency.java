/**
 * Latency of dependent random loads over working sets of 1 to 128 MB (a pointer chase over one
 * random cycle of cache lines): what one cache miss costs a lookup on this machine.
 * docs/performance.md, "In-process lookups against libLLVM".
 *
 * <pre>java -Xmx1g bench/inprocess/MemLatency.java</pre>
 */
import java.util.SplittableRandom;
public class MemLatency {
  public static void main(String[] a) {
    for (int mb : new int[] {1, 8, 32, 64, 128}) {
      int n = mb * 1024 * 1024 / 4;
      int[] next = new int[n];
      // one random cycle over cache-line-spaced slots
      int lines = n / 16;
      int[] order = new int[lines];
      for (int i = 0; i < lines; i++) order[i] = i * 16;
      SplittableRandom r = new SplittableRandom(1);
      for (int i = lines - 1; i > 0; i--) { int j = r.nextInt(i + 1); int t = order[i]; order[i] = order[j]; order[j] = t; }
      for (int i = 0; i < lines; i++) next[order[i]] = order[(i + 1) % lines];
      int p = 0;
      for (int i = 0; i < 2_000_000; i++) p = next[p];
      long best = Long.MAX_VALUE;
      for (int round = 0; round < 5; round++) {
        long t0 = System.nanoTime();
        for (int i = 0; i < 5_000_000; i++) p = next[p];
        best = Math.min(best, System.nanoTime() - t0);
      }
      System.out.printf("%d MB: %.1f ns per dependent load (%d)%n", mb, best / 5e6, p & 1);
    }
  }
}
