package dev.gsym.minidump;

/**
 * {@code MINIDUMP_DIRECTORY}: one entry of the stream directory, the stream of type {@code type}
 * (an {@link StreamType} constant or a writer's own) at {@code location}.
 *
 * <pre>
 *   0  u32 stream_type
 *   4  MINIDUMP_LOCATION_DESCRIPTOR location
 * </pre>
 *
 * @param index the entry's position in the directory
 * @param offset the entry's absolute file offset
 */
public record DirectoryEntry(int index, long offset, int type, Location location) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 12;

  /** Breakpad's name for the type ({@code MD_THREAD_LIST_STREAM}, ..., {@code unknown}). */
  public String typeName() {
    return StreamType.name(type);
  }
}
