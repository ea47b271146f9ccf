package dev.gsym.demangle;

import dev.gsym.ByteStrings;
import java.util.Optional;

/**
 * Turns mangled symbol names into readable ones, as {@code llvm-symbolizer-22 --demangle} does.
 *
 * <p>{@link #llvm()} tries the schemes llvm's {@code nonMicrosoftDemangle} tries, in its order,
 * after setting aside one leading {@code '.'} (printed again in front of the result):
 * <ul>
 *   <li>Itanium C++ when the name is 1 to 4 underscores then {@code Z} ({@code _Z}, {@code __Z},
 *       and the block invocations {@code ___Z..._block_invoke}), with a trailing {@code .suffix}
 *       printed as {@code (.suffix)}. Rust's legacy names ({@code _ZN...17h<hash>E}) are Itanium
 *       names and print as llvm prints them: {@code core::fmt::write::h0123456789abcdef}.</li>
 *   <li>Rust v0 when it starts with {@code _R}.</li>
 *   <li>D when it starts with {@code _D} (the subset llvm 22 demangles).</li>
 * </ul>
 * A name that no scheme accepts comes back unchanged, as the same String instance, so callers may
 * test {@code result == name}. Like llvm-symbolizer on ELF files, Swift ({@code $s...}) and other
 * names pass through unchanged; unlike it, so do MSVC names ({@code ?foo@@YAXXZ}), which
 * llvm-symbolizer demangles for any object file.
 *
 * <p>The text is llvm's, byte for byte: the demanglers are Java ports of llvm's ItaniumDemangle,
 * RustDemangle and DLangDemangle (see docs/symbolize.md, "Demangling", for how they are checked
 * against llvm-cxxfilt-22 and where they differ). {@link #gnu()} instead prints Itanium names
 * with the platform's {@code __cxa_demangle} (GNU's text, as c++filt, gdb and perf print it), for
 * the names llvm's rules accept.
 *
 * <p>Names are bytes: a String is the name's {@link ByteStrings} decoding, source-name lengths count
 * bytes, and bytes that are not UTF-8 survive. Hostile names are cheap and safe: names over
 * {@link #MAX_NAME_BYTES} bytes, output over {@link #MAX_OUTPUT_BYTES} bytes, and nesting or work
 * past fixed bounds leave the name unchanged; no input throws, overflows the stack or allocates more
 * than a small multiple of these bounds.
 *
 * <p>Instances are immutable and thread-safe; each call is independent (callers cache).
 */
public final class Demangler {
  /** Longest name demangled, in bytes; longer names come back unchanged. */
  public static final int MAX_NAME_BYTES = 64 * 1024;
  /** Longest demangled name, in bytes; a name whose demangling is longer comes back unchanged. */
  public static final int MAX_OUTPUT_BYTES = 1 << 20;
  /** Bound on nested print calls (the parse is bounded by ItaniumParser.MAX_DEPTH). */
  static final int MAX_PRINT_DEPTH = 512;
  /** Bound on print steps for one name (prints and type queries, also those that print nothing). */
  static final int MAX_STEPS = 1 << 22;

  private static final Demangler LLVM = new Demangler(false);
  private static final Demangler GNU = new Demangler(true);

  private final boolean gnuItanium;

  private Demangler(boolean gnuItanium) {
    this.gnuItanium = gnuItanium;
  }

  /** llvm-symbolizer's demangling, in pure Java. */
  public static Demangler llvm() {
    return LLVM;
  }

  /**
   * Itanium names in GNU's text, from libstdc++'s {@code __cxa_demangle} through FFM ({@code
   * std::vector<int, std::allocator<int> >}, {@code foo() [clone .cold]}, {@code {lambda()#1}});
   * Rust and D as {@link #llvm()}. It demangles the names {@link #llvm()} demangles (those it
   * rejects, or whose text exceeds a bound, never reach the native code, whose work is unbounded
   * on hostile names), and prints llvm's text where GNU rejects one of them. Empty if libstdc++
   * cannot be loaded or native access is not enabled.
   */
  public static Optional<Demangler> gnu() {
    return CxaDemangle.available() ? Optional.of(GNU) : Optional.empty();
  }

  /** True for {@link #gnu()}: Itanium names go to the platform's {@code __cxa_demangle}. */
  public boolean isGnu() {
    return gnuItanium;
  }

  /**
   * The demangled form of {@code name}, or {@code name} itself (the same instance) when it is not a
   * name this demangler accepts.
   */
  public String demangle(String name) {
    int n = name.length();
    if (n < 2 || n > MAX_NAME_BYTES) return name;
    char c0 = name.charAt(0);
    if (c0 != '_' && c0 != '.') return name; // every scheme starts with '_', after an optional '.'
    byte[] in = ByteStrings.encode(name);
    if (in.length > MAX_NAME_BYTES) return name;
    byte[] out;
    try {
      out = demangle(in);
    } catch (RuntimeException e) {
      return name; // a defect must not fail a symbolization; the tests call demangle(byte[])
    }
    return out == null ? name : ByteStrings.decode(out);
  }

  /** The demangled bytes of {@code name}, or null if it is not a name this demangler accepts. */
  byte[] demangle(byte[] name) {
    // llvm::nonMicrosoftDemangle: a leading '.' is not part of the mangled name.
    int off = name.length > 0 && name[0] == '.' ? 1 : 0;
    int len = name.length - off;
    byte[] r;
    if (isItaniumEncoding(name, off, len)) r = gnuItanium ? gnuItanium(name, off, len) : itanium(name, off, len);
    else if (len >= 2 && name[off] == '_' && name[off + 1] == 'R') r = RustDemangler.demangle(name, off, len, buffer(len));
    else if (len >= 2 && name[off] == '_' && name[off + 1] == 'D') r = DlangDemangler.demangle(name, off, len, buffer(len));
    else return null;
    if (r == null || off == 0) return r;
    byte[] dotted = new byte[r.length + 1];
    dotted[0] = '.';
    System.arraycopy(r, 0, dotted, 1, r.length);
    return dotted;
  }

  /** 1 to 4 underscores, then 'Z'. */
  private static boolean isItaniumEncoding(byte[] s, int off, int len) {
    int pos = 0;
    while (pos < len && s[off + pos] == '_') pos++;
    return pos > 0 && pos <= 4 && pos < len && s[off + pos] == 'Z';
  }

  private static byte[] itanium(byte[] s, int off, int len) {
    if (len == 0) return null;
    Node ast = new ItaniumParser(s, off, off + len).parse();
    if (ast == null) return null;
    OutputBuffer ob = buffer(len);
    try {
      ast.print(ob);
    } catch (OutputBuffer.Abort a) {
      return null;
    }
    return ob.toByteArray();
  }

  /**
   * GNU's text for a name llvm's rules accept within the bounds, else null. libiberty's demangler
   * has no bound on its work (a 500-byte name whose back references double 40 times runs for
   * minutes in native code that cannot be interrupted), so it only sees names whose expansion the
   * bounded port has measured. Where GNU rejects such a name ({@code __Z...}, block invocations),
   * llvm's text is returned.
   */
  private static byte[] gnuItanium(byte[] s, int off, int len) {
    byte[] llvm = itanium(s, off, len);
    if (llvm == null) return null;
    byte[] gnu = CxaDemangle.demangle(s, off, len);
    return gnu != null ? gnu : llvm;
  }

  private static OutputBuffer buffer(int inputLength) {
    return new OutputBuffer(2 * inputLength + 32, MAX_OUTPUT_BYTES, MAX_PRINT_DEPTH, MAX_STEPS);
  }

  @Override
  public String toString() {
    return gnuItanium ? "Demangler[gnu __cxa_demangle]" : "Demangler[llvm]";
  }
}
