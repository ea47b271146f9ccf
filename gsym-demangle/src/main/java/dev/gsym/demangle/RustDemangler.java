package dev.gsym.demangle;

/**
 * Rust v0 symbol names ({@code _R...}, RFC 2603), printed as LLVM's RustDemangle.cpp prints them
 * (llvm-symbolizer's Rust demangler; rustc-demangle's text without hashes or {@code {closure#0}}
 * differences): paths {@code crate::module::item}, generic arguments, {@code <T as Trait>},
 * closures and shims {@code {closure#0}}, const generics, punycode identifiers.
 *
 * <p>Backreferences make the output grow exponentially with the input on hostile names; llvm only
 * bounds the recursion (500 levels). Here the {@link OutputBuffer} also bounds the output length and
 * the number of steps, and punycode identifiers are limited to {@link #MAX_PUNYCODE} bytes (their
 * decoding is quadratic); past a bound the name is not demangled.
 */
final class RustDemangler {
  private static final int MAX_RECURSION_LEVEL = 500;
  /** Longest punycode identifier decoded. */
  static final int MAX_PUNYCODE = 1024;

  // Basic types, indexed by their mangling letter.
  private static final String[] BASIC = new String[128];

  static {
    String[][] t = {
      {"a", "i8"}, {"b", "bool"}, {"c", "char"}, {"d", "f64"}, {"e", "str"}, {"f", "f32"}, {"h", "u8"},
      {"i", "isize"}, {"j", "usize"}, {"l", "i32"}, {"m", "u32"}, {"n", "i128"}, {"o", "u128"},
      {"p", "_"}, {"s", "i16"}, {"t", "u16"}, {"u", "()"}, {"v", "..."}, {"x", "i64"}, {"y", "u64"},
      {"z", "!"},
    };
    for (String[] e : t) BASIC[e[0].charAt(0)] = e[1];
  }

  private final byte[] s;
  private final int inputStart; // just after "_R"
  private final int inputSize; // up to the first '.'
  private int position;
  private boolean print = true;
  private boolean error;
  private int recursionLevel;
  private long boundLifetimes;
  private final OutputBuffer output;

  private RustDemangler(byte[] s, int inputStart, int inputSize, OutputBuffer output) {
    this.s = s;
    this.inputStart = inputStart;
    this.inputSize = inputSize;
    this.output = output;
  }

  /** The demangled name, or null if {@code s[off, off+len)} is not a Rust v0 name. */
  static byte[] demangle(byte[] s, int off, int len, OutputBuffer output) {
    if (len < 2 || s[off] != '_' || s[off + 1] != 'R') return null;
    int start = off + 2;
    int end = off + len;
    int dot = -1;
    for (int i = start; i < end; i++) {
      if (s[i] == '.') {
        dot = i;
        break;
      }
    }
    RustDemangler d = new RustDemangler(s, start, (dot < 0 ? end : dot) - start, output);
    try {
      d.demanglePath(false, false);
      if (d.position != d.inputSize) {
        // <instantiating-crate>, not printed
        d.print = false;
        d.demanglePath(false, false);
        d.print = true;
      }
      if (d.position != d.inputSize) d.error = true;
      if (dot >= 0) {
        d.print(" (");
        if (!d.error) output.append(s, dot, end - dot);
        d.print(")");
      }
    } catch (OutputBuffer.Abort a) {
      return null;
    }
    return d.error ? null : output.toByteArray();
  }

  // <path> = "C" <identifier>               // crate root
  //        | "M" <impl-path> <type>         // <T> (inherent impl)
  //        | "X" <impl-path> <type> <path>  // <T as Trait> (trait impl)
  //        | "Y" <type> <path>              // <T as Trait> (trait definition)
  //        | "N" <ns> <path> <identifier>   // ...::ident (nested path)
  //        | "I" <path> {<generic-arg>} "E" // ...<T, U> (generic args)
  //        | <backref>
  // Returns whether generic arguments were left open (leaveOpen: no closing '>').
  private boolean demanglePath(boolean inType, boolean leaveOpen) {
    if (error || recursionLevel >= MAX_RECURSION_LEVEL) {
      error = true;
      return false;
    }
    output.step();
    recursionLevel++;
    try {
      switch (consume()) {
        case 'C' -> {
          parseOptionalBase62Number('s');
          printIdentifier(parseIdentifier());
        }
        case 'M' -> {
          demangleImplPath(inType);
          print("<");
          demangleType();
          print(">");
        }
        case 'X' -> {
          demangleImplPath(inType);
          print("<");
          demangleType();
          print(" as ");
          demanglePath(true, false);
          print(">");
        }
        case 'Y' -> {
          print("<");
          demangleType();
          print(" as ");
          demanglePath(true, false);
          print(">");
        }
        case 'N' -> {
          int ns = consume();
          if (!isLower(ns) && !isUpper(ns)) {
            error = true;
            break;
          }
          demanglePath(inType, false);
          long disambiguator = parseOptionalBase62Number('s');
          long ident = parseIdentifier();
          if (isUpper(ns)) {
            // Special namespaces.
            print("::{");
            if (ns == 'C') print("closure");
            else if (ns == 'S') print("shim");
            else print((char) ns);
            if (!identEmpty(ident)) {
              print(":");
              printIdentifier(ident);
            }
            print('#');
            printDecimalNumber(disambiguator);
            print('}');
          } else if (!identEmpty(ident)) {
            // Implementation-internal namespaces.
            print("::");
            printIdentifier(ident);
          }
        }
        case 'I' -> {
          demanglePath(inType, false);
          // "::" is optional in a type, where it is omitted.
          if (!inType) print("::");
          print("<");
          for (int i = 0; !error && !consumeIf('E'); ++i) {
            if (i > 0) print(", ");
            demangleGenericArg();
          }
          if (leaveOpen) return true;
          print(">");
        }
        case 'B' -> {
          boolean[] isOpen = {false};
          demangleBackref(() -> isOpen[0] = demanglePath(inType, leaveOpen));
          return isOpen[0];
        }
        default -> error = true;
      }
      return false;
    } finally {
      recursionLevel--;
    }
  }

  // <impl-path> = [<disambiguator>] <path>
  private void demangleImplPath(boolean inType) {
    boolean saved = print;
    print = false;
    parseOptionalBase62Number('s');
    demanglePath(inType, false);
    print = saved;
  }

  // <generic-arg> = <lifetime> | <type> | "K" <const>
  private void demangleGenericArg() {
    if (consumeIf('L')) printLifetime(parseBase62Number());
    else if (consumeIf('K')) demangleConst();
    else demangleType();
  }

  // <type> = <basic-type> | <path> | "A" <type> <const> | "S" <type> | "T" {<type>} "E"
  //        | "R" [<lifetime>] <type> | "Q" [<lifetime>] <type> | "P" <type> | "O" <type>
  //        | "F" <fn-sig> | "D" <dyn-bounds> <lifetime> | <backref>
  private void demangleType() {
    if (error || recursionLevel >= MAX_RECURSION_LEVEL) {
      error = true;
      return;
    }
    output.step();
    recursionLevel++;
    try {
      int start = position;
      int c = consume();
      if (c < 128 && BASIC[c] != null) {
        print(BASIC[c]);
        return;
      }
      switch (c) {
        case 'A' -> {
          print("[");
          demangleType();
          print("; ");
          demangleConst();
          print("]");
        }
        case 'S' -> {
          print("[");
          demangleType();
          print("]");
        }
        case 'T' -> {
          print("(");
          int i = 0;
          for (; !error && !consumeIf('E'); ++i) {
            if (i > 0) print(", ");
            demangleType();
          }
          if (i == 1) print(",");
          print(")");
        }
        case 'R', 'Q' -> {
          print('&');
          if (consumeIf('L')) {
            long lifetime = parseBase62Number();
            if (lifetime != 0) {
              printLifetime(lifetime);
              print(' ');
            }
          }
          if (c == 'Q') print("mut ");
          demangleType();
        }
        case 'P' -> {
          print("*const ");
          demangleType();
        }
        case 'O' -> {
          print("*mut ");
          demangleType();
        }
        case 'F' -> demangleFnSig();
        case 'D' -> {
          demangleDynBounds();
          if (consumeIf('L')) {
            long lifetime = parseBase62Number();
            if (lifetime != 0) {
              print(" + ");
              printLifetime(lifetime);
            }
          } else {
            error = true;
          }
        }
        case 'B' -> demangleBackref(this::demangleType);
        default -> {
          position = start;
          demanglePath(true, false);
        }
      }
    } finally {
      recursionLevel--;
    }
  }

  // <fn-sig> := [<binder>] ["U"] ["K" <abi>] {<type>} "E" <type>
  private void demangleFnSig() {
    long savedBound = boundLifetimes;
    demangleOptionalBinder();
    if (consumeIf('U')) print("unsafe ");
    if (consumeIf('K')) {
      print("extern \"");
      if (consumeIf('C')) {
        print("C");
      } else {
        long ident = parseIdentifier();
        if (identPunycode(ident)) error = true;
        int off = identOffset(ident);
        for (int i = 0, n = identLength(ident); i < n; i++) {
          int ch = s[off + i] & 0xff;
          print(ch == '_' ? '-' : (char) ch); // "-" in an ABI string is mangled as "_"
        }
      }
      print("\" ");
    }
    print("fn(");
    for (int i = 0; !error && !consumeIf('E'); ++i) {
      if (i > 0) print(", ");
      demangleType();
    }
    print(")");
    if (!consumeIf('u')) { // the unit return type is omitted
      print(" -> ");
      demangleType();
    }
    boundLifetimes = savedBound;
  }

  // <dyn-bounds> = [<binder>] {<dyn-trait>} "E"
  private void demangleDynBounds() {
    long savedBound = boundLifetimes;
    print("dyn ");
    demangleOptionalBinder();
    for (int i = 0; !error && !consumeIf('E'); ++i) {
      if (i > 0) print(" + ");
      demangleDynTrait();
    }
    boundLifetimes = savedBound;
  }

  // <dyn-trait> = <path> {<dyn-trait-assoc-binding>}
  // <dyn-trait-assoc-binding> = "p" <undisambiguated-identifier> <type>
  private void demangleDynTrait() {
    boolean isOpen = demanglePath(true, true);
    while (!error && consumeIf('p')) {
      if (!isOpen) {
        isOpen = true;
        print('<');
      } else {
        print(", ");
      }
      long ident = parseIdentifier();
      printRaw(identOffset(ident), identLength(ident));
      print(" = ");
      demangleType();
    }
    if (isOpen) print(">");
  }

  // <binder> = "G" <base-62-number>
  private void demangleOptionalBinder() {
    long binder = parseOptionalBase62Number('G');
    if (error || binder == 0) return;
    // Each bound lifetime is referenced later, by at least one byte of input: reject binders the
    // rest of the input cannot use (their output would be excessive).
    if (Long.compareUnsigned(binder, inputSize - boundLifetimes) >= 0) {
      error = true;
      return;
    }
    print("for<");
    for (long i = 0; i != binder; ++i) {
      boundLifetimes += 1;
      if (i > 0) print(", ");
      printLifetime(1);
    }
    print("> ");
  }

  // <const> = <basic-type> <const-data> | "p" | <backref>
  private void demangleConst() {
    if (error || recursionLevel >= MAX_RECURSION_LEVEL) {
      error = true;
      return;
    }
    output.step();
    recursionLevel++;
    try {
      int c = consume();
      switch (c) {
        case 'a', 's', 'l', 'x', 'n', 'i', 'h', 't', 'm', 'y', 'o', 'j' -> demangleConstInt();
        case 'b' -> demangleConstBool();
        case 'c' -> demangleConstChar();
        case 'p' -> print('_');
        case 'B' -> demangleBackref(this::demangleConst);
        default -> error = true;
      }
    } finally {
      recursionLevel--;
    }
  }

  // <const-data> = ["n"] <hex-number>
  private void demangleConstInt() {
    if (consumeIf('n')) print('-');
    long value = parseHexNumber();
    if (hexLen <= 16) {
      printDecimalNumber(value);
    } else {
      print("0x");
      printRaw(hexStart, hexLen);
    }
  }

  // <const-data> = "0_" | "1_"
  private void demangleConstBool() {
    parseHexNumber();
    if (hexLen == 1 && s[hexStart] == '0') print("false");
    else if (hexLen == 1 && s[hexStart] == '1') print("true");
    else error = true;
  }

  // <const-data> = <hex-number>
  private void demangleConstChar() {
    long codePoint = parseHexNumber();
    if (error || hexLen > 6) {
      error = true;
      return;
    }
    print("'");
    switch ((int) codePoint) {
      case '\t' -> print("\\t");
      case '\r' -> print("\\r");
      case '\n' -> print("\\n");
      case '\\' -> print("\\\\");
      case '"' -> print("\"");
      case '\'' -> print("\\'");
      default -> {
        if (0x20 <= codePoint && codePoint <= 0x7e) {
          print((char) codePoint);
        } else {
          print("\\u{");
          printRaw(hexStart, hexLen);
          print('}');
        }
      }
    }
    print('\'');
  }

  private void demangleBackref(Runnable demangler) {
    long backref = parseBase62Number();
    if (error || Long.compareUnsigned(backref, position) >= 0) {
      error = true;
      return;
    }
    if (!print) return;
    int saved = position;
    position = (int) backref;
    demangler.run();
    position = saved;
  }

  // ---- identifiers and numbers ----

  // An identifier, packed: offset into s (bits 0-31), length (bits 32-62), punycode (bit 63).
  private static long ident(int off, int len, boolean punycode) {
    return (off & 0xffffffffL) | ((long) len << 32) | (punycode ? Long.MIN_VALUE : 0);
  }

  private static int identOffset(long ident) {
    return (int) ident;
  }

  private static int identLength(long ident) {
    return (int) ((ident >>> 32) & 0x7fffffff);
  }

  private static boolean identPunycode(long ident) {
    return ident < 0;
  }

  private static boolean identEmpty(long ident) {
    return identLength(ident) == 0;
  }

  // <undisambiguated-identifier> = ["u"] <decimal-number> ["_"] <bytes>
  private long parseIdentifier() {
    boolean punycode = consumeIf('u');
    long bytes = parseDecimalNumber();
    // An underscore separates the length from an identifier starting with a digit or underscore.
    consumeIf('_');
    if (error || Long.compareUnsigned(bytes, inputSize - position) > 0) {
      error = true;
      return 0;
    }
    int off = inputStart + position;
    position += (int) bytes;
    for (int i = 0; i < bytes; i++) {
      if (!isValid(s[off + i] & 0xff)) {
        error = true;
        return 0;
      }
    }
    return ident(off, (int) bytes, punycode);
  }

  // Parses an optional base-62 number after Tag: 0 when absent, value + 1 otherwise.
  private long parseOptionalBase62Number(char tag) {
    if (!consumeIf(tag)) return 0;
    long n = parseBase62Number();
    if (error || n == -1L) {
      if (n == -1L) error = true;
      return 0;
    }
    return n + 1;
  }

  // <base-62-number> = {<0-9a-zA-Z>} "_"; "_" is 0, "0_" is 1, ...
  private long parseBase62Number() {
    if (consumeIf('_')) return 0;
    long value = 0;
    while (true) {
      long digit;
      int c = consume();
      if (c == '_') break;
      if (isDigit(c)) digit = c - '0';
      else if (isLower(c)) digit = 10 + (c - 'a');
      else if (isUpper(c)) digit = 10 + 26 + (c - 'A');
      else {
        error = true;
        return 0;
      }
      if (value != 0 && Long.compareUnsigned(value, Long.divideUnsigned(-1L, 62)) > 0) {
        error = true;
        return 0;
      }
      value *= 62;
      if (Long.compareUnsigned(value, -1L - digit) > 0) {
        error = true;
        return 0;
      }
      value += digit;
    }
    if (value == -1L) {
      error = true;
      return 0;
    }
    return value + 1;
  }

  // <decimal-number> = "0" | <1-9> {<0-9>}
  private long parseDecimalNumber() {
    int c = look();
    if (!isDigit(c)) {
      error = true;
      return 0;
    }
    if (c == '0') {
      consume();
      return 0;
    }
    long value = 0;
    while (isDigit(look())) {
      if (Long.compareUnsigned(value, Long.divideUnsigned(-1L, 10)) > 0) {
        error = true;
        return 0;
      }
      value *= 10;
      long d = consume() - '0';
      if (Long.compareUnsigned(value, -1L - d) > 0) {
        error = true;
        return 0;
      }
      value += d;
    }
    return value;
  }

  // The digits of the last parseHexNumber: offset into s and length.
  private int hexStart;
  private int hexLen;

  // <hex-number> = "0_" | <1-9a-f> {<0-9a-f>} "_"; the value is unspecified past 16 digits.
  private long parseHexNumber() {
    int start = position;
    long value = 0;
    if (!isHexDigit(look())) error = true;
    if (consumeIf('0')) {
      if (!consumeIf('_')) error = true;
    } else {
      while (!error && !consumeIf('_')) {
        int c = consume();
        value *= 16;
        if (isDigit(c)) value += c - '0';
        else if ('a' <= c && c <= 'f') value += 10 + (c - 'a');
        else error = true;
      }
    }
    if (error) {
      hexStart = 0;
      hexLen = 0;
      return 0;
    }
    hexStart = inputStart + start;
    hexLen = position - 1 - start;
    return value;
  }

  // ---- printing ----

  private void print(char c) {
    if (error || !print) return;
    output.append(c);
  }

  private void print(String str) {
    if (error || !print) return;
    output.append(str);
  }

  private void printRaw(int off, int len) {
    if (error || !print) return;
    output.append(s, off, len);
  }

  private void printDecimalNumber(long n) {
    if (error || !print) return;
    output.appendUnsigned(n);
  }

  // Index 0 is the erased lifetime; from 1 on, De Bruijn indices of lifetimes bound by binders.
  private void printLifetime(long index) {
    if (index == 0) {
      print("'_");
      return;
    }
    if (Long.compareUnsigned(index - 1, boundLifetimes) >= 0) {
      error = true;
      return;
    }
    long depth = boundLifetimes - index;
    print('\'');
    if (depth < 26) {
      print((char) ('a' + depth));
    } else {
      print('z');
      printDecimalNumber(depth - 26 + 1);
    }
  }

  private void printIdentifier(long ident) {
    if (error || !print) return;
    if (identPunycode(ident)) {
      if (identLength(ident) > MAX_PUNYCODE || !decodePunycode(identOffset(ident), identLength(ident))) {
        error = true;
      }
    } else {
      output.append(s, identOffset(ident), identLength(ident));
    }
  }

  /**
   * Decodes a punycode identifier (RFC 3492 with '_' as the delimiter) into UTF-8 in the output.
   * Code points are kept in 4-byte slots while decoding, then the padding NULs are removed.
   */
  private boolean decodePunycode(int off, int len) {
    int outputSize = output.position();
    int inputIdx = 0;

    int delimiterPos = -1;
    for (int i = 0; i != len; ++i) {
      if (s[off + i] == '_') delimiterPos = i;
    }
    if (delimiterPos >= 0) {
      // Basic code points before the last delimiter are copied.
      for (; inputIdx != delimiterPos; ++inputIdx) {
        int c = s[off + inputIdx] & 0xff;
        if (!isValid(c)) return false;
        output.append((char) c);
        output.append('\0');
        output.append('\0');
        output.append('\0');
      }
      ++inputIdx;
    }

    final long base = 36;
    final long skew = 38;
    final long tMin = 1;
    final long tMax = 26;
    long bias = 72;
    long n = 0x80;
    long damp = 700;

    for (long i = 0; inputIdx != len; i += 1) {
      long oldI = i;
      long w = 1;
      for (long k = base; true; k += base) {
        if (inputIdx == len) return false;
        int c = s[off + inputIdx++] & 0xff;
        long digit;
        if (isLower(c)) digit = c - 'a';
        else if (isDigit(c)) digit = 26 + (c - '0');
        else return false;

        if (Long.compareUnsigned(digit, Long.divideUnsigned(-1L - i, w)) > 0) return false;
        i += digit * w;

        long t;
        if (k <= bias) t = tMin;
        else if (k >= bias + tMax) t = tMax;
        else t = k - bias;

        if (digit < t) break;

        if (Long.compareUnsigned(w, Long.divideUnsigned(-1L, base - t)) > 0) return false;
        w *= (base - t);
      }
      long numPoints = (output.position() - outputSize) / 4 + 1;

      // adapt(i - oldI, numPoints)
      long delta = Long.divideUnsigned(i - oldI, damp);
      delta += Long.divideUnsigned(delta, numPoints);
      damp = 2;
      long kk = 0;
      while (Long.compareUnsigned(delta, (base - tMin) * tMax / 2) > 0) {
        delta = Long.divideUnsigned(delta, base - tMin);
        kk += base;
      }
      bias = kk + Long.divideUnsigned((base - tMin + 1) * delta, delta + skew);

      if (Long.compareUnsigned(Long.divideUnsigned(i, numPoints), -1L - n) > 0) return false;
      n += Long.divideUnsigned(i, numPoints);
      i = Long.remainderUnsigned(i, numPoints);

      // Insert code point n at position i.
      byte[] utf8 = new byte[4];
      if (!encodeUtf8(n, utf8)) return false;
      output.insert(outputSize + (int) i * 4, utf8, 0, 4);
    }

    // Remove the padding.
    int w = outputSize;
    for (int r = outputSize, end = output.position(); r < end; r++) {
      int b = output.byteAt(r);
      if (b != 0) output.setByteAt(w++, b);
    }
    output.setPosition(w);
    return true;
  }

  private static boolean encodeUtf8(long codePoint, byte[] out) {
    if (0xD800 <= codePoint && codePoint <= 0xDFFF) return false;
    if (Long.compareUnsigned(codePoint, 0x7F) <= 0) {
      out[0] = (byte) codePoint;
      return true;
    }
    if (codePoint <= 0x7FF) {
      out[0] = (byte) (0xC0 | ((codePoint >> 6) & 0x3F));
      out[1] = (byte) (0x80 | (codePoint & 0x3F));
      return true;
    }
    if (codePoint <= 0xFFFF) {
      out[0] = (byte) (0xE0 | (codePoint >> 12));
      out[1] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
      out[2] = (byte) (0x80 | (codePoint & 0x3F));
      return true;
    }
    if (codePoint <= 0x10FFFF) {
      out[0] = (byte) (0xF0 | (codePoint >> 18));
      out[1] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
      out[2] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
      out[3] = (byte) (0x80 | (codePoint & 0x3F));
      return true;
    }
    return false;
  }

  // ---- input ----

  private int look() {
    if (error || position >= inputSize) return 0;
    return s[inputStart + position] & 0xff;
  }

  private int consume() {
    if (error || position >= inputSize) {
      error = true;
      return 0;
    }
    return s[inputStart + position++] & 0xff;
  }

  private boolean consumeIf(char prefix) {
    if (error || position >= inputSize || (s[inputStart + position] & 0xff) != prefix) return false;
    position += 1;
    return true;
  }

  private static boolean isDigit(int c) {
    return '0' <= c && c <= '9';
  }

  private static boolean isHexDigit(int c) {
    return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f');
  }

  private static boolean isLower(int c) {
    return 'a' <= c && c <= 'z';
  }

  private static boolean isUpper(int c) {
    return 'A' <= c && c <= 'Z';
  }

  /** A valid mangled character: [0-9a-zA-Z_]. */
  private static boolean isValid(int c) {
    return isDigit(c) || isLower(c) || isUpper(c) || c == '_';
  }
}
