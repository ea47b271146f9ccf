package dev.gsym.object.internal;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Object files mapped into memory, as every format's {@code open(Path)} reads them. */
public final class MappedFiles {
  private MappedFiles() {}

  /**
   * Maps {@code path} read-only into {@code arena} (with native access, a segment whose bounds
   * checks are cheaper to elide).
   */
  public static MemorySegment map(Path path, Arena arena) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
      if (seg.byteSize() > 0 && MappedFiles.class.getModule().isNativeAccessEnabled()) {
        seg = MemorySegment.ofAddress(seg.address()).reinterpret(seg.byteSize(), arena, null);
      }
      return seg;
    }
  }
}
