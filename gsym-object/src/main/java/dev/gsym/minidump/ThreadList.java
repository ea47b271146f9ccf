package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code MINIDUMP_THREAD_LIST}: a u32 count, then that many {@link MinidumpThread}s (some writers
 * put 4 bytes of padding after the count, which Breakpad accepts). Checked as Breakpad checks it:
 * the stream's size matches the count, at most {@link #MAX_THREADS} threads, no thread id twice.
 */
public record ThreadList(List<MinidumpThread> threads) {
  /** Most threads Breakpad reads. */
  public static final int MAX_THREADS = 4096;

  /** Copies the lists. */
  public ThreadList {
    threads = List.copyOf(threads);
  }

  static ThreadList read(Minidump dump, DirectoryEntry e) {
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "thread list");
    long count = countedList(dump, b, MinidumpThread.SIZE, "thread list");
    if (count > MAX_THREADS) throw dump.error(b.fileOffset(), "thread list of " + count + " threads, more than " + MAX_THREADS);
    long first = b.size() - count * MinidumpThread.SIZE; // 4, or 8 with padding
    List<MinidumpThread> threads = new ArrayList<>((int) count);
    Map<Long, Integer> ids = new HashMap<>();
    for (int i = 0; i < count; i++) {
      long at = first + (long) i * MinidumpThread.SIZE;
      MinidumpThread t = new MinidumpThread(b.fileOffset() + at, b.u32(at), b.u32(at + 4), b.u32(at + 8), b.u32(at + 12),
          b.u64(at + 16), new MemoryDescriptor(b.u64(at + 24), new Location(b.u32(at + 32), b.u32(at + 36))),
          new Location(b.u32(at + 40), b.u32(at + 44)));
      Integer previous = ids.putIfAbsent(t.threadId(), i);
      if (previous != null) {
        throw dump.error(t.offset(), "thread list: threads " + previous + " and " + i + " have the same id 0x" + Long.toHexString(t.threadId()));
      }
      threads.add(t);
    }
    return new ThreadList(threads);
  }

  /**
   * The count of a list stream (u32 count, optionally 4 bytes of padding, {@code entrySize}-byte
   * entries), checked against the stream's size as Breakpad checks the thread, module and memory
   * lists.
   */
  static long countedList(Minidump dump, ByteView b, int entrySize, String what) {
    if (b.size() < 4) throw dump.error(b.fileOffset(), what + " of " + b.size() + " bytes has no count");
    long count = b.u32(0);
    if (b.size() != 4 + count * entrySize && b.size() != 8 + count * entrySize) {
      throw dump.error(b.fileOffset(), what + " of " + count + " entries needs " + (4 + count * entrySize) + " bytes, the stream has "
          + b.size());
    }
    return count;
  }

  /** The thread of {@code id}, or null. */
  public MinidumpThread byId(long id) {
    for (MinidumpThread t : threads) if (t.threadId() == id) return t;
    return null;
  }
}
