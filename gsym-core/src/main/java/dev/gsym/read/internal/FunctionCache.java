package dev.gsym.read.internal;

import dev.gsym.io.Cursor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * The decoded functions of one reader ({@link DecodedFunction}), direct-mapped by function index: a
 * slot holds the last function decoded into it. Bounded: at most {@link #MAX_SLOTS} slots and
 * {@link #BUDGET} bytes of decoded rows and trees, whatever the file's size. Thread-safe: slots
 * are published with compare-and-set, and a racing thread at worst decodes a function again.
 */
public final class FunctionCache {
  /**
   * Upper bound of the heap held by decoded functions (rows and inline trees): 256 MiB, or a
   * quarter of the maximum heap if that is less.
   */
  private static final long BUDGET = Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4);
  /** Slots of the cache (a power of two; 1 MiB of references at most). */
  private static final int MAX_SLOTS = 1 << 18;

  private final AtomicReferenceArray<DecodedFunction> slots;
  private final AtomicLong bytes = new AtomicLong();
  private final IntFunction<Cursor> record;
  private final StartAddress startAddress;

  /** Start address of a function by index. */
  @FunctionalInterface
  public interface StartAddress {
    long of(int index);
  }

  /**
   * A cache for {@code functions} functions whose records are at {@code record.apply(index)} and
   * start at {@code startAddress.of(index)}.
   */
  public FunctionCache(int functions, IntFunction<Cursor> record, StartAddress startAddress) {
    int n = 1;
    while (n < MAX_SLOTS && n < 2L * functions) n <<= 1;
    this.slots = new AtomicReferenceArray<>(n);
    this.record = record;
    this.startAddress = startAddress;
  }

  /** The cached decoding of function {@code index}, or null if it is read from its record. */
  private DecodedFunction get(int index) {
    int at = index & (slots.length() - 1);
    DecodedFunction s = slots.getAcquire(at);
    if (s != null && s.index == index) return s.cacheable ? s : null;
    DecodedFunction d = DecodedFunction.read(index, record, startAddress);
    long old = s == null ? 0 : s.bytes;
    if (bytes.get() - old + d.bytes > BUDGET) return d.cacheable ? d : null; // over budget: use once
    if (slots.compareAndSet(at, s, d)) bytes.addAndGet(d.bytes - old);
    return d.cacheable ? d : null;
  }

  /**
   * Looks {@code addr} up in function {@code index} if it is cacheable; false (nothing written) if
   * it is not, and the caller reads its record.
   */
  public boolean lookup(int index, long addr, FrameSink out) {
    DecodedFunction d = get(index);
    if (d == null) return false;
    d.lookup(addr, out);
    return true;
  }

  /**
   * The fast path of a lookup: if function {@code index} is cacheable and covers {@code addr},
   * looks it up and returns true; otherwise returns false without writing anything.
   */
  public boolean lookupIfCovered(int index, long addr, FrameSink out) {
    DecodedFunction d = get(index);
    if (d == null || !d.covers(addr)) return false;
    d.lookup(addr, out);
    return true;
  }
}
