package dev.gsym.demangle;

/**
 * D symbol names ({@code _D...}) as LLVM 22's DLangDemangle.cpp demangles them, which is only a
 * part of the D ABI: qualified names ({@code _D3foo3bari} is {@code foo.bar}) with identifier
 * back references, anonymous and {@code __S<n>} fake parents skipped, the special symbols
 * ({@code __initZ}, {@code __vtblZ}, {@code __ClassZ}, {@code __InterfaceZ},
 * {@code __ModuleInfoZ}), {@code _Dmain}; of the types only {@code i} (not printed) and type back
 * references. Every other D name is left unchanged, as llvm leaves it.
 *
 * <p>A view of the name is its start index (views always run to the end of the name, as llvm's
 * C-string back references do); {@link #NULL} is llvm's empty {@code std::string_view()}, which
 * marks a failure.
 */
final class DlangDemangler {
  private static final int NULL = -1;
  /** Bound on chained type back references (llvm recurses once per link). */
  private static final int MAX_BACKREF_DEPTH = 256;

  private final byte[] s;
  private final int start; // llvm's Str
  private final int end;
  private final OutputBuffer out;
  private int lastBackref;
  private int backrefDepth;
  // Out-parameters of decodeNumber / decodeBackrefPos / decodeBackref.
  private long number;
  private int backrefView;

  private DlangDemangler(byte[] s, int start, int end, OutputBuffer out) {
    this.s = s;
    this.start = start;
    this.end = end;
    this.out = out;
    this.lastBackref = end - start;
  }

  /** The demangled name, or null if {@code s[off, off+len)} is not one llvm demangles. */
  static byte[] demangle(byte[] s, int off, int len, OutputBuffer out) {
    if (len < 2 || s[off] != '_' || s[off + 1] != 'D') return null;
    try {
      if (len == 6 && new Sv(s, off, len).contentEquals("_Dmain")) {
        out.append("D main");
      } else {
        DlangDemangler d = new DlangDemangler(s, off, off + len, out);
        int m = d.parseMangle(off);
        // The whole symbol must be consumed.
        if (m == NULL || (m != d.end && s[m] != 0)) return null;
      }
    } catch (OutputBuffer.Abort a) {
      return null;
    }
    return out.position() > 0 ? out.toByteArray() : null;
  }

  private boolean empty(int v) {
    return v == NULL || v >= end;
  }

  private int front(int v) {
    return s[v] & 0xff;
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isAlpha(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private boolean startsWith(int v, String prefix) {
    if (v == NULL || end - v < prefix.length()) return false;
    for (int i = 0; i < prefix.length(); i++) {
      if ((s[v + i] & 0xff) != prefix.charAt(i)) return false;
    }
    return true;
  }

  // Number: a decimal up to UINT_MAX that must not end the name; into number.
  private int decodeNumber(int v) {
    if (empty(v) || !isDigit(front(v))) return NULL;
    long val = 0;
    do {
      long digit = front(v) - '0';
      if (val > (0xffffffffL - digit) / 10) return NULL;
      val = val * 10 + digit;
      v++;
    } while (!empty(v) && isDigit(front(v)));
    if (empty(v)) return NULL;
    number = val;
    return v;
  }

  // NumberBackRef: [A-Z]* [a-z], base 26; into number. NULL on failure.
  private int decodeBackrefPos(int v) {
    if (empty(v)) return NULL;
    long val = 0;
    while (!empty(v) && isAlpha(front(v))) {
      if (Long.compareUnsigned(val, Long.divideUnsigned(-1L - 25, 26)) > 0) break;
      val *= 26;
      int c = front(v);
      if (c >= 'a' && c <= 'z') {
        val += c - 'a';
        if (val <= 0) break;
        number = val;
        return v + 1;
      }
      val += c - 'A';
      v++;
    }
    return NULL;
  }

  // Q NumberBackRef at v: the position after it, with the referenced view in backrefView.
  private int decodeBackref(int v) {
    int qpos = v;
    v = decodeBackrefPos(v + 1);
    if (v == NULL) return NULL;
    long refPos = number;
    if (refPos > qpos - start) return NULL;
    backrefView = (int) (qpos - refPos);
    return v;
  }

  // IdentifierBackRef: Q NumberBackRef, pointing at a length-prefixed identifier.
  private int parseSymbolBackref(int v) {
    v = decodeBackref(v);
    if (v == NULL) return NULL;
    int backref = decodeNumber(backrefView);
    if (empty(backref) || end - backref < number) return NULL;
    backref = parseLName(backref, number);
    if (empty(backref)) return NULL;
    return v;
  }

  // TypeBackRef: Q NumberBackRef, pointing at a type.
  private int parseTypeBackref(int v) {
    // Moving backwards through the name may be a recursive back reference.
    if (v - start >= lastBackref || backrefDepth >= MAX_BACKREF_DEPTH) return NULL;
    int saveRefPos = lastBackref;
    lastBackref = v - start;
    v = decodeBackref(v);
    if (v == NULL) return NULL;
    int backref = backrefView;
    if (empty(backref)) return NULL;
    backrefDepth++;
    backref = parseType(backref);
    backrefDepth--;
    if (backref == NULL) v = NULL;
    lastBackref = saveRefPos;
    if (empty(backref)) v = NULL;
    return v;
  }

  private boolean isSymbolName(int v) {
    if (isDigit(front(v))) return true;
    if (front(v) != 'Q') return false;
    int qref = v;
    if (decodeBackrefPos(v + 1) == NULL || number > qref - start) return false;
    return isDigit(s[(int) (qref - number)] & 0xff);
  }

  // MangleName: _D QualifiedName Type | _D QualifiedName Z
  private int parseMangle(int v) {
    v += 2;
    v = parseQualified(v);
    if (empty(v)) return NULL;
    // Artificial symbols end with 'Z' and have no type.
    if (front(v) == 'Z') return v + 1;
    return parseType(v);
  }

  // QualifiedName: SymbolFunctionName [QualifiedName]
  private int parseQualified(int v) {
    boolean notFirst = false;
    do {
      // Skip over anonymous symbols.
      if (!empty(v) && front(v) == '0') {
        do v++;
        while (!empty(v) && front(v) == '0');
        continue;
      }
      if (notFirst) out.append('.');
      notFirst = true;
      v = parseIdentifier(v);
    } while (!empty(v) && isSymbolName(v));
    return v;
  }

  private int parseIdentifier(int v) {
    while (true) {
      if (empty(v)) return NULL;
      if (front(v) == 'Q') return parseSymbolBackref(v);
      v = decodeNumber(v);
      if (empty(v)) return NULL;
      long len = number;
      if (len == 0 || end - v < len) return NULL;
      // A fake parent __S<digits> makes declarations in one function unique: skip it.
      if (len >= 4 && startsWith(v, "__S")) {
        long suffixLen = (end - v) - len;
        int p = v + 3;
        while (end - p > suffixLen && isDigit(s[p] & 0xff)) p++;
        if (end - p == suffixLen) {
          v += (int) len;
          continue;
        }
        // Else an ordinary identifier.
      }
      return parseLName(v, len);
    }
  }

  // Type: only 'i' (not printed) and type back references, as in llvm 22.
  private int parseType(int v) {
    if (empty(v)) return NULL;
    return switch (front(v)) {
      case 'i' -> v + 1;
      case 'Q' -> parseTypeBackref(v);
      default -> NULL;
    };
  }

  private int parseLName(int v, long len) {
    String special = switch ((int) len) {
      case 6 -> startsWith(v, "__initZ") ? "initializer for " : startsWith(v, "__vtblZ") ? "vtable for " : null;
      case 7 -> startsWith(v, "__ClassZ") ? "ClassInfo for " : null;
      case 11 -> startsWith(v, "__InterfaceZ") ? "Interface for " : null;
      case 12 -> startsWith(v, "__ModuleInfoZ") ? "ModuleInfo for " : null;
      default -> null;
    };
    if (special != null) {
      // The prefix goes in front, and the '.' before this identifier goes away.
      out.prepend(special);
      out.setPosition(out.position() - 1);
      return v + (int) len;
    }
    out.append(s, v, (int) len);
    return v + (int) len;
  }
}
