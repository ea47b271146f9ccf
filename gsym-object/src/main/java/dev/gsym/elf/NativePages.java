package dev.gsym.elf;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Large decompression buffers straight from the kernel: an anonymous {@code mmap} (already zero, so
 * not cleared again as {@link Arena#allocate} clears it) with transparent huge pages asked for
 * ({@code madvise(MADV_HUGEPAGE)}: one page fault per 2 MiB instead of per 4 KiB while the buffer
 * is first written). Unmapped when the arena closes. Elsewhere than on Linux, without native access,
 * or for small sizes, the arena allocates as usual.
 */
final class NativePages {
  /** Smaller buffers come from the arena: huge pages only pay for whole 2 MiB pages. */
  static final long MIN = 8L << 20;

  private static final int PROT_READ_WRITE = 0x1 | 0x2;
  private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
  private static final int MADV_HUGEPAGE = 14;

  private NativePages() {}

  private static final class Api {
    static final MethodHandle MMAP;
    static final MethodHandle MADVISE;
    static final MethodHandle MUNMAP;

    static {
      MethodHandle mmap = null;
      MethodHandle madvise = null;
      MethodHandle munmap = null;
      String arch = System.getProperty("os.arch");
      if (System.getProperty("os.name", "").equals("Linux") && (arch.equals("amd64") || arch.equals("aarch64"))
          && !"false".equals(System.getProperty("gsym.hugepages")) && Api.class.getModule().isNativeAccessEnabled()) {
        try {
          Linker linker = Linker.nativeLinker();
          var libc = linker.defaultLookup();
          // void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
          mmap = linker.downcallHandle(libc.findOrThrow("mmap"), FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS,
              ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
          madvise = linker.downcallHandle(libc.findOrThrow("madvise"),
              FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
          munmap = linker.downcallHandle(libc.findOrThrow("munmap"),
              FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        } catch (IllegalArgumentException | java.util.NoSuchElementException | UnsupportedOperationException | IllegalCallerException e) {
          mmap = null;
        }
      }
      MMAP = mmap;
      MADVISE = madvise;
      MUNMAP = munmap;
    }
  }

  /** True if large buffers come from mmap here (Linux, native access enabled). */
  static boolean mapped() {
    return Api.MMAP != null;
  }

  /** A zeroed native segment of {@code size} bytes (16-byte aligned) that lives as long as {@code arena}. */
  static MemorySegment allocate(long size, Arena arena) {
    if (size < MIN || Api.MMAP == null) return arena.allocate(size, 16);
    MemorySegment p;
    try {
      p = (MemorySegment) Api.MMAP.invokeExact(MemorySegment.NULL, size, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
    } catch (Throwable t) {
      if (t instanceof Error e && !(t instanceof LinkageError)) throw e;
      return arena.allocate(size, 16);
    }
    if (p.address() == -1L) return arena.allocate(size, 16); // MAP_FAILED: let the JDK say what is wrong
    long address = p.address();
    try {
      int ignored = (int) Api.MADVISE.invokeExact(p, size, MADV_HUGEPAGE); // a hint: refused where THP is off
    } catch (Throwable t) {
      if (t instanceof Error e && !(t instanceof LinkageError)) throw e;
    }
    return p.reinterpret(size, arena, s -> unmap(address, size));
  }

  private static void unmap(long address, long size) {
    try {
      int ignored = (int) Api.MUNMAP.invokeExact(MemorySegment.ofAddress(address), size);
    } catch (Throwable t) {
      if (t instanceof Error e && !(t instanceof LinkageError)) throw e;
    }
  }
}
