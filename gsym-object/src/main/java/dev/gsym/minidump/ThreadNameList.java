package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MINIDUMP_THREAD_NAME_LIST}: a u32 count, then that many {@link ThreadName}s; the stream's
 * size must match exactly, at most {@link ThreadList#MAX_THREADS} names, and every name must read.
 */
public record ThreadNameList(List<ThreadName> names) {
  /** Copies the lists. */
  public ThreadNameList {
    names = List.copyOf(names);
  }

  static ThreadNameList read(Minidump dump, DirectoryEntry e) {
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "thread name list");
    if (b.size() < 4) throw dump.error(b.fileOffset(), "thread name list of " + b.size() + " bytes has no count");
    long count = b.u32(0);
    if (b.size() != 4 + count * ThreadName.SIZE) {
      throw dump.error(b.fileOffset(), "thread name list of " + count + " names needs " + (4 + count * ThreadName.SIZE)
          + " bytes, the stream has " + b.size());
    }
    if (count > ThreadList.MAX_THREADS) {
      throw dump.error(b.fileOffset(), "thread name list of " + count + " names, more than " + ThreadList.MAX_THREADS);
    }
    List<ThreadName> names = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long at = 4 + (long) i * ThreadName.SIZE;
      long rva = b.u64(at + 4);
      names.add(new ThreadName(b.u32(at), rva, dump.string(rva, b.fileOffset() + at + 4, "thread name " + i)));
    }
    return new ThreadNameList(names);
  }

  /** The name of thread {@code id} (the first listed), or null. */
  public String nameOf(long id) {
    for (ThreadName n : names) if (n.threadId() == id) return n.name();
    return null;
  }
}
