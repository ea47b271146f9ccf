package dev.gsym.demangle;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The platform's Itanium demangler, {@code abi::__cxa_demangle} from libstdc++ ({@code
 * libstdc++.so.6}: GNU libiberty's cp-demangle, the text of c++filt, gdb, perf and addr2line),
 * through the FFM API, when the library exists and native access is enabled (the launcher passes
 * {@code --enable-native-access=ALL-UNNAMED}). Without it {@link #available()} is false.
 *
 * <p>Its text is GNU's, not llvm's ({@code > >}, {@code [clone .cold]}, {@code {lambda()#1}}), and
 * its work is not bounded: a short name whose back references double at each level keeps it busy
 * (in native code, which cannot be interrupted) for minutes and gigabytes. {@link Demangler} hands
 * it only names whose expansion the bounded Java demangler has measured.
 */
final class CxaDemangle {
  /** __cxa_demangle status: success. */
  private static final int SUCCESS = 0;

  private CxaDemangle() {}

  /** Entry points: resolved on first use, never unloaded (a global library arena). */
  private static final class Api {
    static final MethodHandle DEMANGLE;
    static final MethodHandle STRLEN;
    static final MethodHandle FREE;

    static {
      MethodHandle demangle = null;
      MethodHandle strlen = null;
      MethodHandle free = null;
      if (!"false".equals(System.getProperty("gsym.cxa_demangle")) && Api.class.getModule().isNativeAccessEnabled()) {
        try {
          SymbolLookup lib = SymbolLookup.libraryLookup("libstdc++.so.6", Arena.global());
          Linker linker = Linker.nativeLinker();
          // char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status)
          demangle = linker.downcallHandle(lib.findOrThrow("__cxa_demangle"), FunctionDescriptor.of(ValueLayout.ADDRESS,
              ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
          SymbolLookup libc = linker.defaultLookup();
          strlen = linker.downcallHandle(libc.findOrThrow("strlen"), FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
          free = linker.downcallHandle(libc.findOrThrow("free"), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
        } catch (IllegalArgumentException | java.util.NoSuchElementException | UnsupportedOperationException | IllegalCallerException e) {
          demangle = null; // no libstdc++ here (or another OS)
        }
      }
      DEMANGLE = demangle;
      STRLEN = strlen;
      FREE = free;
    }
  }

  /** True if libstdc++'s demangler is loaded. */
  static boolean available() {
    return Api.DEMANGLE != null;
  }

  /**
   * {@code __cxa_demangle} of {@code len} bytes of {@code name} from {@code off}: the demangled
   * bytes, or null if it fails (not a mangled C++ name, embedded NUL, no library).
   */
  static byte[] demangle(byte[] name, int off, int len) {
    if (!available()) return null;
    for (int i = off; i < off + len; i++) {
      if (name[i] == 0) return null; // a C string ends there
    }
    try (Arena a = Arena.ofConfined()) {
      MemorySegment in = a.allocate(len + 1L);
      MemorySegment.copy(name, off, in, ValueLayout.JAVA_BYTE, 0, len);
      in.set(ValueLayout.JAVA_BYTE, len, (byte) 0);
      MemorySegment status = a.allocate(ValueLayout.JAVA_INT);
      MemorySegment out = (MemorySegment) Api.DEMANGLE.invokeExact(in, MemorySegment.NULL, MemorySegment.NULL, status);
      if (out.equals(MemorySegment.NULL)) return null;
      try {
        if (status.get(ValueLayout.JAVA_INT, 0) != SUCCESS) return null;
        long n = (long) Api.STRLEN.invokeExact(out);
        if (n > Integer.MAX_VALUE - 8) return null;
        byte[] r = new byte[(int) n];
        MemorySegment.copy(out.reinterpret(n), ValueLayout.JAVA_BYTE, 0, r, 0, (int) n);
        return r;
      } finally {
        Api.FREE.invokeExact(out);
      }
    } catch (Throwable t) {
      if (t instanceof Error e && !(t instanceof LinkageError)) throw e;
      return null;
    }
  }
}
