package dev.gsym.read;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Compiles a POSIX extended regular expression, as llvm::Regex accepts it, into a
 * {@link java.util.regex.Pattern} with the same meaning for unanchored searches.
 *
 * <p>Differences handled: a backslash outside brackets quotes the next character ({@code \1}..{@code
 * \9} stay back-references); inside brackets a backslash, {@code [} and {@code &} are literal and
 * {@code [:class:]}, {@code [=c=]}, {@code [.c.]} are translated; <code>{</code> not followed by a digit
 * is literal; an empty expression or empty alternative is invalid (as in llvm). Invalid expressions
 * yield null: llvm-gsymutil silently treats them as matching nothing.
 *
 * <p>The one translation of llvm's regular expressions in the project: llvm-gsymutil's {@code
 * --merged-functions-filter} and the call-site regexes of CallSiteInfo (which name the functions a
 * call site may call) are matched with it.
 */
public final class PosixRegex {
  private PosixRegex() {}

  /**
   * The pattern for {@code ere}, to be used with {@link java.util.regex.Matcher#find()} (llvm's
   * unanchored {@code Regex::match}); null if llvm would reject the expression.
   */
  public static Pattern compile(String ere) {
    try {
      String java = translate(ere);
      return java == null ? null : Pattern.compile(java, Pattern.DOTALL);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  /** The Java pattern text, or null if llvm would reject the expression. */
  public static String translate(String re) {
    StringBuilder out = new StringBuilder(re.length() + 8);
    int n = re.length();
    boolean atomSeen = false; // something matchable since the last '|' or '('
    int i = 0;
    while (i < n) {
      char c = re.charAt(i);
      switch (c) {
        case '\\' -> {
          if (i + 1 >= n) return null;
          char e = re.charAt(i + 1);
          if (e >= '1' && e <= '9') out.append('\\').append(e);
          else appendLiteral(out, e);
          i += 2;
          atomSeen = true;
        }
        case '[' -> {
          int end = bracket(re, i, out);
          if (end < 0) return null;
          i = end;
          atomSeen = true;
        }
        case '{' -> {
          if (i + 1 < n && Character.isDigit(re.charAt(i + 1))) {
            if (!atomSeen) return null;
            int close = re.indexOf('}', i);
            if (close < 0) return null;
            out.append(re, i, close + 1);
            i = close + 1;
          } else {
            out.append("\\{");
            i++;
            atomSeen = true;
          }
        }
        case '|' -> {
          if (!atomSeen) return null;
          out.append('|');
          atomSeen = false;
          i++;
        }
        case '(' -> {
          out.append('(');
          atomSeen = false;
          i++;
        }
        case ')' -> {
          if (!atomSeen) return null;
          out.append(')');
          i++;
        }
        case '*', '+', '?' -> {
          if (!atomSeen) return null;
          out.append(c);
          i++;
        }
        case '^', '$', '.' -> {
          out.append(c);
          atomSeen = true;
          i++;
        }
        default -> {
          appendLiteral(out, c);
          atomSeen = true;
          i++;
        }
      }
    }
    if (!atomSeen) return null;
    return out.toString();
  }

  private static void appendLiteral(StringBuilder out, char c) {
    if ("\\^$.|?*+()[]{}".indexOf(c) >= 0) out.append('\\');
    out.append(c);
  }

  /** Translates the bracket expression starting at {@code start}; returns the index after it. */
  private static int bracket(String re, int start, StringBuilder out) {
    int n = re.length();
    int i = start + 1;
    out.append('[');
    if (i < n && re.charAt(i) == '^') {
      out.append('^');
      i++;
    }
    boolean first = true;
    while (i < n) {
      char c = re.charAt(i);
      if (c == ']' && !first) {
        out.append(']');
        return i + 1;
      }
      first = false;
      if (c == '[' && i + 1 < n && ":=.".indexOf(re.charAt(i + 1)) >= 0) {
        char kind = re.charAt(i + 1);
        int close = re.indexOf(kind + "]", i + 2);
        if (close < 0) return -1;
        String name = re.substring(i + 2, close);
        if (kind == ':') {
          String cls = switch (name) {
            case "alpha" -> "\\p{Alpha}";
            case "digit" -> "\\p{Digit}";
            case "alnum" -> "\\p{Alnum}";
            case "upper" -> "\\p{Upper}";
            case "lower" -> "\\p{Lower}";
            case "space" -> "\\p{Space}";
            case "blank" -> "\\p{Blank}";
            case "punct" -> "\\p{Punct}";
            case "print" -> "\\p{Print}";
            case "graph" -> "\\p{Graph}";
            case "cntrl" -> "\\p{Cntrl}";
            case "xdigit" -> "\\p{XDigit}";
            default -> null;
          };
          if (cls == null) return -1;
          out.append(cls);
        } else {
          if (name.length() != 1) return -1;
          out.append('\\').append(name.charAt(0) == '\\' ? "\\" : name);
        }
        i = close + 2;
        continue;
      }
      if (c == '-' ) {
        boolean rangeOp = out.charAt(out.length() - 1) != '[' && out.charAt(out.length() - 1) != '^'
            && i + 1 < n && re.charAt(i + 1) != ']';
        out.append(rangeOp ? "-" : "\\-");
        i++;
        continue;
      }
      if (c == '\\' || c == '[' || c == '&' || c == '^' || c == ']') out.append('\\');
      out.append(c);
      i++;
    }
    return -1;
  }
}
