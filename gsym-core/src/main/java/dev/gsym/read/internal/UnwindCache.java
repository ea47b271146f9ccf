package dev.gsym.read.internal;

import dev.gsym.format.UnwindInfo;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.UnwindEntry;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindState;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * Unwind information decoded for lookups, by function index, in a direct-mapped cache bounded in
 * slots and bytes as {@link FunctionCache}: a function's CFI tables as arrays of row addresses
 * and row states, so that a warm unwind lookup is a search and an array copy into the caller's
 * {@link UnwindState}, without decoding or allocating. Answers are those of {@link
 * UnwindInfo#lookup} on the record (the first stored table that covers the address wins).
 */
public final class UnwindCache {
  /** Upper bound of the heap held by decoded unwind information: 64 MiB, or a sixteenth of the heap. */
  private static final long BUDGET = Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16);
  private static final int MAX_SLOTS = 1 << 16;

  private final AtomicReferenceArray<Decoded> slots;
  private final AtomicLong bytes = new AtomicLong();
  private final IntFunction<UnwindInfo> decode;

  /** One function's tables: table t covers [start[t], start[t] + length[t]), its rows rows[t]. */
  private record Decoded(int index, long[] start, long[] length, long[][] rowAddress, UnwindState[][] rows, long bytes) {}

  /** A cache for {@code functions} functions whose unwind information {@code decode} gives (null: none). */
  public UnwindCache(int functions, IntFunction<UnwindInfo> decode) {
    int n = 1;
    while (n < MAX_SLOTS && n < 2L * functions) n <<= 1;
    this.slots = new AtomicReferenceArray<>(n);
    this.decode = decode;
  }

  /**
   * Fills {@code out} with the row in effect at {@code address} from the unwind information of
   * function {@code index}; false when it has none covering the address.
   */
  public boolean lookup(int index, long address, UnwindState out) {
    Decoded d = get(index);
    for (int t = 0; t < d.start.length; t++) {
      if (Long.compareUnsigned(address - d.start[t], d.length[t]) >= 0) continue;
      long[] at = d.rowAddress[t];
      int lo = 0;
      int hi = at.length - 1;
      while (lo < hi) { // the last row at or below the address
        int mid = (lo + hi + 1) >>> 1;
        if (Long.compareUnsigned(at[mid], address) <= 0) lo = mid;
        else hi = mid - 1;
      }
      out.copyFrom(d.rows[t][lo]);
      return true;
    }
    return false;
  }

  private Decoded get(int index) {
    int at = index & (slots.length() - 1);
    Decoded s = slots.getAcquire(at);
    if (s != null && s.index == index) return s;
    Decoded d = read(index);
    long old = s == null ? 0 : s.bytes;
    if (bytes.get() - old + d.bytes > BUDGET) return d; // over budget: used once
    if (slots.compareAndSet(at, s, d)) bytes.addAndGet(d.bytes - old);
    return d;
  }

  private Decoded read(int index) {
    UnwindInfo u = decode.apply(index);
    if (u == null) return new Decoded(index, new long[0], new long[0], new long[0][], new UnwindState[0][], 64);
    List<UnwindEntry> all = u.all();
    int n = 0;
    for (UnwindEntry e : all) if (e instanceof CfiTable t && !t.rows().isEmpty()) n++;
    long[] start = new long[n];
    long[] length = new long[n];
    long[][] rowAddress = new long[n][];
    UnwindState[][] rows = new UnwindState[n][];
    long bytes = 64 + 40L * n;
    int k = 0;
    for (UnwindEntry e : all) {
      if (!(e instanceof CfiTable t) || t.rows().isEmpty()) continue;
      start[k] = t.start();
      length[k] = t.length();
      rowAddress[k] = new long[t.rows().size()];
      rows[k] = new UnwindState[t.rows().size()];
      for (int r = 0; r < t.rows().size(); r++) {
        UnwindRow row = t.rows().get(r);
        rowAddress[k][r] = row.address();
        UnwindState s = new UnwindState();
        s.table(u.arch(), t.source(), t.start(), t.length(), t.returnAddressRegister());
        s.set(row);
        rows[k][r] = s;
        bytes += 8 + 96 + 24L * row.registers().size();
      }
      k++;
    }
    return new Decoded(index, start, length, rowAddress, rows, bytes);
  }
}
