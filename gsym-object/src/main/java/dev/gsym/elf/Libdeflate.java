package dev.gsym.elf;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Whole-buffer zlib decompression with the system's libdeflate ({@code libdeflate.so.0}, Debian's
 * {@code libdeflate0}) through the FFM API, when it is installed and native access is enabled.
 * libdeflate inflates a buffer whose decompressed size is known about twice as fast as zlib's
 * streaming inflater, which java.util.zip uses, and ELF compressed sections declare their size.
 * It checks the zlib header and the Adler-32 trailer itself. Without the library every call
 * answers false and {@link SectionDecompressor} inflates with java.util.zip as before; its errors
 * are the ones users see, since a stream libdeflate rejects is inflated again that way.
 */
final class Libdeflate {
  /** libdeflate_result LIBDEFLATE_SUCCESS. */
  private static final int SUCCESS = 0;

  private Libdeflate() {}

  /** The library's entry points: resolved on first use, never unloaded (a global library arena). */
  private static final class Api {
    static final MethodHandle ALLOC;
    static final MethodHandle DECOMPRESS;
    static final MethodHandle FREE;

    static {
      MethodHandle alloc = null;
      MethodHandle decompress = null;
      MethodHandle free = null;
      if (!"false".equals(System.getProperty("gsym.libdeflate")) && Api.class.getModule().isNativeAccessEnabled()) {
        try {
          SymbolLookup lib = SymbolLookup.libraryLookup("libdeflate.so.0", Arena.global());
          Linker linker = Linker.nativeLinker();
          alloc = linker.downcallHandle(lib.findOrThrow("libdeflate_alloc_decompressor"), FunctionDescriptor.of(ValueLayout.ADDRESS));
          // enum libdeflate_result libdeflate_zlib_decompress(struct libdeflate_decompressor *d,
          //     const void *in, size_t in_nbytes, void *out, size_t out_nbytes_avail, size_t *actual_out_nbytes_ret)
          decompress = linker.downcallHandle(lib.findOrThrow("libdeflate_zlib_decompress"),
              FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                  ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
          free = linker.downcallHandle(lib.findOrThrow("libdeflate_free_decompressor"), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
        } catch (IllegalArgumentException | java.util.NoSuchElementException | UnsupportedOperationException | IllegalCallerException e) {
          alloc = null; // no such library here (or another OS): java.util.zip does the work
        }
      }
      ALLOC = alloc;
      DECOMPRESS = decompress;
      FREE = free;
    }
  }

  /** True if libdeflate is loaded (the library exists and native access is enabled). */
  static boolean available() {
    return Api.ALLOC != null;
  }

  /**
   * Inflates the zlib stream {@code in} into all of {@code out}. True only if the stream is valid
   * (header, data, Adler-32) and inflates to exactly {@code out.byteSize()} bytes; false otherwise
   * or without the library, with {@code out}'s content then unspecified.
   */
  static boolean zlibDecompress(MemorySegment in, MemorySegment out) {
    if (!available() || !in.isNative() || !out.isNative()) return false; // heap memory cannot go to a downcall
    try (Arena a = Arena.ofConfined()) {
      MemorySegment actual = a.allocate(ValueLayout.JAVA_LONG);
      MemorySegment d = (MemorySegment) Api.ALLOC.invokeExact();
      if (d.equals(MemorySegment.NULL)) return false;
      try {
        int r = (int) Api.DECOMPRESS.invokeExact(d, in, in.byteSize(), out, out.byteSize(), actual);
        return r == SUCCESS && actual.get(ValueLayout.JAVA_LONG, 0) == out.byteSize();
      } finally {
        Api.FREE.invokeExact(d);
      }
    } catch (Throwable t) {
      if (t instanceof Error e && !(t instanceof LinkageError)) throw e;
      return false;
    }
  }
}
