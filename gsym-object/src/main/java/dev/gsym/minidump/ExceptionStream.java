package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MINIDUMP_EXCEPTION_STREAM}: the thread that crashed, why, and its registers at the crash.
 *
 * <pre>
 *   0  u32 thread_id
 *   4  u32 __alignment
 *   8  MINIDUMP_EXCEPTION exception_record:
 *        u32 exception_code             Windows: EXCEPTION_*; Linux: the signal; macOS: the Mach exception
 *        u32 exception_flags            Linux: the si_code; macOS: the Mach code
 *        u64 exception_record           a nested record's address
 *        u64 exception_address          the faulting address (Linux: si_addr)
 *        u32 number_parameters
 *        u32 __unusedAlignment
 *        u64 exception_information[15]
 * 160  MINIDUMP_LOCATION_DESCRIPTOR thread_context
 * </pre>
 *
 * The stream is exactly 168 bytes (Breakpad refuses any other size). Read the context with {@link
 * Minidump#context(Location, long)} and {@link #contextOffset()}.
 *
 * @param offset the stream's absolute file offset
 * @param parameters the first {@code min(numberParameters, 15)} parameters
 */
public record ExceptionStream(long offset, long threadId, long exceptionCode, long exceptionFlags, long exceptionRecord,
    long exceptionAddress, long numberParameters, List<Long> parameters, Location threadContext) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 168;
  /** Parameters the record has room for. */
  public static final int MAXIMUM_PARAMETERS = 15;

  /** Copies the lists. */
  public ExceptionStream {
    parameters = List.copyOf(parameters);
  }

  static ExceptionStream read(Minidump dump, DirectoryEntry e) {
    if (e.location().dataSize() != SIZE) {
      throw dump.error(e.offset() + 4, "exception stream of " + e.location().dataSize() + " bytes, not " + SIZE);
    }
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "exception stream");
    long n = b.u32(32);
    List<Long> params = new ArrayList<>();
    for (int i = 0; i < Math.min(n, MAXIMUM_PARAMETERS); i++) params.add(b.u64(40 + 8L * i));
    return new ExceptionStream(b.fileOffset(), b.u32(0), b.u32(8), b.u32(12), b.u64(16), b.u64(24), n, params,
        new Location(b.u32(160), b.u32(164)));
  }

  /** The absolute file offset of the thread-context location descriptor. */
  public long contextOffset() {
    return offset + 160;
  }
}
