package dev.gsym.stackwalk;

import dev.gsym.unwind.MemoryReader;
import java.util.Map;
import java.util.Set;

/**
 * Breakpad's postfix expressions, evaluated as its {@code PostfixEvaluator} evaluates them: the
 * program strings of {@code STACK WIN} records ({@code $T0 $ebp = $eip $T0 4 + ^ = ...}) and the
 * rules of {@code STACK CFI} records ({@code .cfa 8 - ^}). Tokens are separated by white space; an
 * {@code =} glued to the next token ({@code =$eip}) counts as two. A token is an operator ({@code +
 * - * / %}, {@code @} (align down), {@code ^} (a word of memory), {@code =} (assign to a {@code $}
 * variable)), else a decimal literal (a leading {@code -} negates, wrapping), else a name looked up
 * in the dictionary when it is used. Arithmetic wraps at the word size (4 or 8 bytes).
 */
final class Postfix {
  /** Most tokens one expression may have: bounds the work of hostile symbol files. */
  static final int MAX_TOKENS = 4096;

  private final Map<String, Long> dictionary;
  private final MemoryReader memory;
  private final int wordSize;
  private final long mask;
  // the stack: a raw token (String) or a computed value (Long)
  private final Object[] stack = new Object[MAX_TOKENS];
  private int sp;

  /**
   * An evaluator over {@code dictionary} (read, and written by assignments) and {@code memory}
   * (null: {@code ^} fails), with words of {@code wordSize} bytes.
   */
  Postfix(Map<String, Long> dictionary, MemoryReader memory, int wordSize) {
    this.dictionary = dictionary;
    this.memory = memory;
    this.wordSize = wordSize;
    this.mask = wordSize == 4 ? 0xffff_ffffL : -1L;
  }

  /**
   * Runs a program of assignments; the names assigned are added to {@code assigned} (may be null).
   *
   * @return false when a token fails or values are left on the stack
   */
  boolean evaluate(String program, Set<String> assigned) {
    sp = 0;
    return run(program, assigned) && sp == 0;
  }

  /**
   * Evaluates an expression to one value in {@code out[0]}.
   *
   * @return false when a token fails or the stack does not end with exactly one value
   */
  boolean evaluateForValue(String expression, long[] out) {
    sp = 0;
    if (!run(expression, null) || sp != 1) return false;
    return pop(out);
  }

  private boolean run(String s, Set<String> assigned) {
    int n = s.length();
    int i = 0;
    int tokens = 0;
    while (true) {
      while (i < n && isSpace(s.charAt(i))) i++;
      if (i == n) return true;
      int start = i;
      while (i < n && !isSpace(s.charAt(i))) i++;
      if (++tokens > MAX_TOKENS) return false;
      String token = s.substring(start, i);
      if (token.length() > 1 && token.charAt(0) == '=') {
        if (!token("=", assigned) || !token(token.substring(1), assigned)) return false;
      } else if (!token(token, assigned)) {
        return false;
      }
    }
  }

  /** C's isspace in the "C" locale: what {@code istringstream >> string} splits on. */
  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
  }

  private boolean token(String t, Set<String> assigned) {
    long[] v = new long[2];
    switch (t) {
      case "+", "-", "*", "/", "%", "@" -> {
        if (!pop(v, 1) || !pop(v, 0)) return false;
        long a = v[0];
        long b = v[1];
        long r;
        switch (t) {
          case "+" -> r = a + b;
          case "-" -> r = a - b;
          case "*" -> r = a * b;
          case "/" -> {
            if ((b & mask) == 0) return false;
            r = Long.divideUnsigned(a & mask, b & mask);
          }
          case "%" -> {
            if ((b & mask) == 0) return false;
            r = Long.remainderUnsigned(a & mask, b & mask);
          }
          default -> r = a & (-1L ^ (b - 1));
        }
        return push(r & mask);
      }
      case "^" -> {
        if (memory == null || !pop(v, 0)) return false;
        long address = v[0] & mask;
        if (!memory.readable(address, wordSize)) return false;
        return push(memory.read(address, wordSize) & mask);
      }
      case "=" -> {
        if (!pop(v, 0)) return false;
        if (sp == 0) return false;
        Object top = stack[--sp];
        // the target must be a name (not a literal or a computed value) that starts with $
        if (!(top instanceof String name) || literal(name, v, 1) || name.isEmpty() || name.charAt(0) != '$') return false;
        dictionary.put(name, v[0] & mask);
        if (assigned != null) assigned.add(name);
        return true;
      }
      default -> {
        if (sp == stack.length) return false;
        stack[sp++] = t;
        return true;
      }
    }
  }

  private boolean push(long value) {
    if (sp == stack.length) return false;
    stack[sp++] = value;
    return true;
  }

  private boolean pop(long[] out) {
    return pop(out, 0);
  }

  /** Pops a value into {@code out[i]}: a computed value, a literal, or a name's value in the dictionary. */
  private boolean pop(long[] out, int i) {
    if (sp == 0) return false;
    Object top = stack[--sp];
    if (top instanceof Long l) {
      out[i] = l;
      return true;
    }
    String token = (String) top;
    if (literal(token, out, i)) return true;
    Long value = dictionary.get(token);
    if (value == null) return false;
    out[i] = value & mask;
    return true;
  }

  /**
   * Parses {@code t} as Breakpad's evaluator reads a literal: an optional {@code -}, then what
   * {@code istream >> unsigned} accepts (an optional sign, decimal digits, no overflow), and nothing
   * after it.
   */
  private boolean literal(String t, long[] out, int i) {
    int p = 0;
    boolean negative = false;
    if (p < t.length() && t.charAt(p) == '-') {
      negative = true;
      p++;
    }
    boolean innerNegative = false;
    if (p < t.length() && (t.charAt(p) == '+' || t.charAt(p) == '-')) {
      innerNegative = t.charAt(p) == '-';
      p++;
    }
    if (p == t.length()) return false;
    long v = 0;
    for (; p < t.length(); p++) {
      char c = t.charAt(p);
      if (c < '0' || c > '9') return false;
      int d = c - '0';
      // overflow of the value type: the stream fails and the token is a name
      if (Long.compareUnsigned(v, Long.divideUnsigned(mask - d, 10)) > 0) return false;
      v = v * 10 + d;
    }
    if (innerNegative) v = -v;
    if (negative) v = -v;
    out[i] = v & mask;
    return true;
  }
}
