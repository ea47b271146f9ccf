package dev.gsym.convert.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A small, strict YAML reader for the subset that LLVM's YAMLIO accepts in call-site files: block
 * and flow mappings and sequences, plain, single- and double-quoted scalars, literal and folded
 * block scalars, comments, a BOM, directives and document markers (only the first document is
 * read), tags and anchors (ignored), explicit ({@code ? key}) keys in block mappings. Aliases are
 * reported as LLVM's YAMLIO reports them ("unknown node kind").
 * Errors are reported as LLVM's SourceMgr prints them ({@code FILE:LINE:COL: error: MSG}, the
 * source line and a caret); the common ones use LLVM's wording. Nesting is limited to
 * {@value #MAX_DEPTH} levels, so hostile input cannot exhaust the stack.
 */
final class YamlTree {
  static final int MAX_DEPTH = 256;

  /** A parsed node; {@code pos} is its start offset, {@code len} the width of its caret mark. */
  sealed interface Node permits Scalar, Null, Seq, Map, Alias {
    int pos();

    /** Width of the caret mark (1 for collections and empty values). */
    default int len() {
      return 1;
    }
  }

  record Scalar(String value, int pos, int len) implements Node {}

  record Null(int pos) implements Node {}

  record Seq(List<Node> items, int pos) implements Node {}

  record Entry(Scalar key, Node value) {}

  record Map(List<Entry> entries, int pos) implements Node {}

  record Alias(int pos) implements Node {}

  /** A syntax error; {@link #diagnostics} holds the SourceMgr-style text. */
  static class SyntaxError extends Exception {
    final String diagnostics;

    SyntaxError(String diagnostics) {
      super(diagnostics, null, false, false);
      this.diagnostics = diagnostics;
    }
  }

  private final String s;
  private final String name;
  private final int n;
  private int p;
  private int depth;

  private YamlTree(String text, String name) {
    this.s = text;
    this.name = name;
    this.n = text.length();
  }

  /** The first document's root node, or {@code null} for an empty document. */
  static Node parse(String text, String name) throws SyntaxError {
    return new YamlTree(text, name).document();
  }

  // ------------------------------------------------------------------ diagnostics

  /** LLVM SourceMgr's message: location, "error: ", message, the source line and a caret mark. */
  static String diag(String text, String name, int pos, int len, String msg) {
    pos = Math.max(0, Math.min(pos, text.length()));
    int ls = pos;
    while (ls > 0 && text.charAt(ls - 1) != '\n') ls--;
    int le = pos;
    while (le < text.length() && text.charAt(le) != '\n') le++;
    int line = 1;
    for (int i = 0; i < ls; i++) if (text.charAt(i) == '\n') line++;
    String src = text.substring(ls, le);
    if (src.endsWith("\r")) src = src.substring(0, src.length() - 1);
    int col = pos - ls;
    // columns count bytes, as LLVM's
    int byteCol = dev.gsym.ByteStrings.encode(text.substring(ls, pos)).length;
    StringBuilder sb = new StringBuilder();
    sb.append(name).append(':').append(line).append(':').append(byteCol + 1).append(": error: ").append(msg).append('\n');
    boolean ascii = src.chars().allMatch(c -> c < 0x80);
    if (!ascii) return sb.append(src).append('\n').toString(); // LLVM prints no caret then
    // the caret line marks each source column; tabs expand to 8-column stops in both lines
    char[] marks = new char[Math.max(src.length(), col + 1)];
    java.util.Arrays.fill(marks, ' ');
    int tildes = Math.min(Math.max(len, 1), Math.max(1, src.length() - col)) - 1;
    for (int i = 1; i <= tildes; i++) marks[col + i] = '~';
    marks[col] = '^';
    StringBuilder line1 = new StringBuilder();
    StringBuilder line2 = new StringBuilder();
    for (int i = 0; i < marks.length; i++) {
      char c = i < src.length() ? src.charAt(i) : ' ';
      if (c == '\t') {
        do {
          line1.append(' ');
          line2.append(marks[i]);
        } while (line1.length() % 8 != 0);
      } else {
        if (i < src.length()) line1.append(c);
        line2.append(marks[i]);
      }
    }
    int end = line2.length();
    while (end > 0 && line2.charAt(end - 1) == ' ') end--;
    sb.append(line1).append('\n').append(line2, 0, end).append('\n');
    return sb.toString();
  }

  private SyntaxError error(int pos, int len, String msg) {
    return new SyntaxError(diag(s, name, pos, len, msg));
  }

  /** Where LLVM's scanner reports running out of input: the last newline, else the end. */
  private int endPos() {
    return n > 0 && s.charAt(n - 1) == '\n' ? n - 1 : n;
  }

  // ------------------------------------------------------------------ character helpers

  private boolean eof() {
    return p >= n;
  }

  private char ch(int i) {
    return i < n ? s.charAt(i) : '\0';
  }

  private static boolean blank(char c) {
    return c == ' ' || c == '\t';
  }

  private boolean breakAt(int i) {
    return i >= n || s.charAt(i) == '\n' || (s.charAt(i) == '\r' && ch(i + 1) == '\n') || s.charAt(i) == '\r';
  }

  private boolean blankOrBreak(int i) {
    return i >= n || blank(s.charAt(i)) || breakAt(i);
  }

  private int col(int i) {
    int ls = i;
    while (ls > 0 && s.charAt(ls - 1) != '\n') ls--;
    return i - ls;
  }

  /** Skips blanks and a comment on the current line (not the line break). */
  private void skipInline() {
    while (p < n && blank(s.charAt(p))) p++;
    if (p < n && s.charAt(p) == '#') {
      while (p < n && s.charAt(p) != '\n') p++;
    }
  }

  /** Skips blanks, comments and line breaks. */
  private void skipAll() {
    while (true) {
      skipInline();
      if (p < n && (s.charAt(p) == '\n' || s.charAt(p) == '\r')) {
        p++;
      } else {
        return;
      }
    }
  }

  private boolean atEol() {
    return breakAt(p);
  }

  /** "---" or "..." at the start of a line followed by a blank or break. */
  private boolean docMarker(int i) {
    if (col(i) != 0 || i + 3 > n) return false;
    String m = s.substring(i, i + 3);
    return (m.equals("---") || m.equals("...")) && blankOrBreak(i + 3);
  }

  private boolean blockEntry(int i) {
    return ch(i) == '-' && blankOrBreak(i + 1) && i < n;
  }

  private void enter() throws SyntaxError {
    if (++depth > MAX_DEPTH) throw error(p, 1, "Exceeded maximum nesting depth of " + MAX_DEPTH);
  }

  // ------------------------------------------------------------------ structure

  private Node document() throws SyntaxError {
    if (n > 0 && s.charAt(0) == '\uFEFF') p = 1;
    skipAll();
    while (p < n && s.charAt(p) == '%' && col(p) == 0) {
      while (p < n && s.charAt(p) != '\n') p++;
      skipAll();
    }
    boolean explicit = false;
    if (p < n && docMarker(p) && s.startsWith("---", p)) {
      p += 3;
      explicit = true;
    }
    skipAll();
    if (eof() || docMarker(p)) return null;
    Node root = explicit && col(p) == 0 ? nodeHere(-1) : block(-1, false);
    skipAll();
    if (!eof() && !docMarker(p)) {
      throw error(p, 1, root instanceof Seq ? "Unexpected token. Expected Block Entry or Block End."
          : "Unexpected token. Expected Key or Block End");
    }
    return root;
  }

  /** A node on the following lines, more indented than {@code parent} (or a sequence at it). */
  private Node block(int parent, boolean seqAtParent) throws SyntaxError {
    skipAll();
    if (eof() || docMarker(p)) return new Null(p);
    int c = col(p);
    if (c < parent || (c == parent && !(seqAtParent && blockEntry(p)))) return new Null(p);
    return nodeHere(parent);
  }

  /** The node starting at {@code p} (on the current line), inside a block at indent {@code parent}. */
  private Node nodeHere(int parent) throws SyntaxError {
    return nodeHere(parent, true);
  }

  /** {@code allowMap} false: a map value on its key's line, where "a: b: c" is an error. */
  private Node nodeHere(int parent, boolean allowMap) throws SyntaxError {
    properties();
    if (atEol()) return block(parent, false);
    char c = s.charAt(p);
    if (c == '*') return alias();
    if (blockEntry(p)) return blockSeq(col(p), col(p) == parent);
    if (c == '|' || c == '>') return blockScalar(parent);
    if (c == '[' || c == '{') {
      Node f = flow();
      skipInline();
      if (!atEol()) throw error(p, 1, "Unexpected token. Expected Key or Block End");
      return f;
    }
    if (c == '?' && blankOrBreak(p + 1)) {
      int at = col(p);
      return blockMap(at, complexKey(at));
    }
    int start = p;
    Scalar sc = scalar(false, parent);
    int after = p;
    skipInlineBlanks();
    if (ch(p) == ':' && blankOrBreak(p + 1)) {
      if (!allowMap) throw error(p, 1, "Unexpected token. Expected Key or Block End");
      return blockMap(col(start), sc);
    }
    p = after;
    return sc;
  }

  private void skipInlineBlanks() {
    while (p < n && blank(s.charAt(p))) p++;
  }

  /** Skips tags ({@code !x}) and anchors ({@code &x}). */
  private void properties() {
    while (p < n && (s.charAt(p) == '!' || s.charAt(p) == '&')) {
      while (p < n && !blankOrBreak(p)) p++;
      skipInline();
    }
  }

  private Node alias() {
    while (p < n && !blankOrBreak(p) && ",]}".indexOf(s.charAt(p)) < 0) p++;
    return new Alias(n); // LLVM reports its alias nodes at the end of the input
  }

  private Node blockMap(int indent, Scalar firstKey) throws SyntaxError {
    enter();
    List<Entry> entries = new ArrayList<>();
    Scalar key = firstKey;
    while (true) {
      // p is at the ':' after key, or after a complex key without a ':' line
      Node value;
      if (ch(p) != ':' || !blankOrBreak(p + 1)) {
        value = new Null(p);
      } else if (skipColon() && atEol()) {
        value = block(indent, true);
      } else {
        try {
          value = nodeHere(indent, false);
        } catch (UnclosedQuote e) {
          throw new SyntaxError(e.diagnostics + diag(s, name, key.pos(), key.len(), "Map value must not be empty"));
        }
        int save = p;
        skipInlineBlanks();
        if (ch(p) == ':' && value instanceof Scalar) throw error(p, 1, "Unexpected token. Expected Key or Block End");
        p = save;
      }
      entries.add(new Entry(key, value));
      skipAll();
      if (eof() || docMarker(p)) break;
      int c = col(p);
      if (c < indent || (c == indent && blockEntry(p))) break;
      if (c > indent) {
        int colon = keyColon(p);
        throw error(colon >= 0 ? colon : p, 1, "Unexpected token. Expected Key or Block End");
      }
      properties();
      if (ch(p) == '?' && blankOrBreak(p + 1)) {
        key = complexKey(indent);
        continue;
      }
      int kpos = p;
      key = scalar(true, indent);
      skipInlineBlanks();
      if (!(ch(p) == ':' && blankOrBreak(p + 1))) {
        throw error(kpos, 1, "Unexpected token. Expected Key or Block End");
      }
    }
    depth--;
    return new Map(entries, firstKey.pos());
  }

  /** {@code indentless}: the value of a mapping key at the same indent ("key:\n- a"). */
  private boolean skipColon() {
    p++;
    skipInline();
    return true;
  }

  /**
   * A {@code ? key} (explicit key) at indent {@code indent}: returns the key with {@code p} at
   * the {@code :} line that follows at the same indent, or at the next token if there is none.
   */
  private Scalar complexKey(int indent) throws SyntaxError {
    p++; // '?'
    skipInline();
    Node k = atEol() ? block(indent, false) : nodeHere(indent, false);
    if (!(k instanceof Scalar key)) throw error(k.pos(), k.len(), "Map key must be a scalar");
    skipAll(); // blockMap takes a ':' here as the start of the value, anything else as no value
    return key;
  }

  private Node blockSeq(int indent, boolean indentless) throws SyntaxError {
    enter();
    int start = p;
    List<Node> items = new ArrayList<>();
    while (true) {
      p++; // '-'
      skipInline();
      items.add(atEol() ? block(indent, false) : nodeHere(indent));
      skipAll();
      if (eof() || docMarker(p)) break;
      int c = col(p);
      if (c < indent) break;
      if (c == indent) {
        if (blockEntry(p)) continue;
        if (indentless) break;
        throw error(p, 1, "Unexpected token. Expected Block Entry or Block End.");
      }
      int at = p;
      int colon = keyColon(p);
      throw error(colon >= 0 ? colon : at, 1, "Unexpected token. Expected Block Entry or Block End.");
    }
    depth--;
    return new Seq(items, start);
  }

  /** The position of the ':' ending a plain key on this line, or -1. */
  private int keyColon(int i) {
    for (; i < n && s.charAt(i) != '\n'; i++) {
      if (s.charAt(i) == ':' && blankOrBreak(i + 1)) return i;
      if (s.charAt(i) == '#' && i > 0 && blank(s.charAt(i - 1))) return -1;
    }
    return -1;
  }

  // ------------------------------------------------------------------ flow collections

  private Node flow() throws SyntaxError {
    enter();
    char open = s.charAt(p++);
    skipAll();
    int start = p; // LLVM places a flow collection at its first token after the bracket
    Node result;
    if (open == '[') {
      List<Node> items = new ArrayList<>();
      while (true) {
        skipAll();
        if (eof()) throw error(endPos(), 1, "Could not find closing ]!");
        if (s.charAt(p) == ']') {
          p++;
          break;
        }
        Node item = flowNode();
        skipAll();
        if (ch(p) == ':' && item instanceof Scalar k) { // [k: v] is a one-pair mapping
          p++;
          skipAll();
          Node v = ch(p) == ',' || ch(p) == ']' ? new Null(p) : flowNode();
          item = new Map(List.of(new Entry(k, v)), k.pos());
          skipAll();
        }
        items.add(item);
        if (eof()) throw error(endPos(), 1, "Could not find closing ]!");
        if (s.charAt(p) == ',') {
          p++;
        } else if (s.charAt(p) != ']') {
          throw error(p, 1, "Unexpected token. Expected Flow Entry or Flow Sequence End.");
        }
      }
      result = new Seq(items, start);
    } else {
      List<Entry> entries = new ArrayList<>();
      String expect = "Unexpected token. Expected Key, Flow Entry, or Flow Mapping End.";
      while (true) {
        skipAll();
        if (eof()) throw error(endPos(), 1, expect);
        if (s.charAt(p) == '}') {
          p++;
          break;
        }
        properties();
        if (ch(p) == '[' || ch(p) == '{' || ch(p) == '*') throw error(p, 1, expect);
        Scalar key = flowScalar();
        skipAll();
        Node v;
        if (ch(p) == ':') {
          p++;
          skipAll();
          v = eof() || ch(p) == ',' || ch(p) == '}' ? new Null(p) : flowNode();
          skipAll();
        } else {
          v = new Null(p);
        }
        entries.add(new Entry(key, v));
        if (eof()) throw error(endPos(), 1, expect);
        if (s.charAt(p) == ',') {
          p++;
        } else if (s.charAt(p) != '}') {
          throw error(p, 1, expect);
        }
      }
      result = new Map(entries, start);
    }
    depth--;
    return result;
  }

  private Node flowNode() throws SyntaxError {
    properties();
    skipAll();
    char c = ch(p);
    if (c == '[' || c == '{') return flow();
    if (c == '*') return alias();
    return flowScalar();
  }

  private Scalar flowScalar() throws SyntaxError {
    char c = ch(p);
    if (c == '"' || c == '\'') return quoted();
    int start = p;
    StringBuilder sb = new StringBuilder();
    int end = p;
    while (p < n) {
      char x = s.charAt(p);
      if (x == ',' || x == '[' || x == ']' || x == '{' || x == '}') break;
      if (x == ':' && (blankOrBreak(p + 1) || ",[]{}".indexOf(ch(p + 1)) >= 0)) break;
      if (x == '#' && p > start && blank(s.charAt(p - 1))) break;
      if (x == '\n' || x == '\r') { // multi-line plain scalar: fold
        int save = p;
        skipAll();
        if (eof() || ",[]{}:#".indexOf(s.charAt(p)) >= 0) {
          p = save;
          break;
        }
        sb.setLength(trimEnd(sb));
        sb.append(' ');
        continue;
      }
      sb.append(x);
      p++;
      if (!blank(x)) end = p;
    }
    sb.setLength(trimEnd(sb));
    return new Scalar(sb.toString(), start, end - start);
  }

  private static int trimEnd(StringBuilder sb) {
    int l = sb.length();
    while (l > 0 && blank(sb.charAt(l - 1))) l--;
    return l;
  }

  // ------------------------------------------------------------------ scalars

  /** A scalar in block context: quoted, or plain up to ": ", " #" or the end of the line. */
  private Scalar scalar(boolean key, int parent) throws SyntaxError {
    char c = ch(p);
    if (c == '"' || c == '\'') return quoted();
    int start = p;
    int end = plainLineEnd();
    StringBuilder sb = new StringBuilder(s.substring(start, end));
    int markEnd = end;
    p = end;
    if (key) return new Scalar(sb.toString(), start, markEnd - start);
    // continuation lines, more indented than the parent block
    while (true) {
      int save = p;
      skipInlineBlanks();
      if (!atEol()) {
        p = save;
        break;
      }
      int q = p;
      int emptyLines = 0;
      while (true) {
        if (q < n && s.charAt(q) == '\r') q++;
        if (q < n && s.charAt(q) == '\n') q++;
        else break;
        int ls = q;
        while (q < n && blank(s.charAt(q))) q++;
        if (q < n && (s.charAt(q) == '\n' || s.charAt(q) == '\r')) {
          emptyLines++;
          continue;
        }
        if (q >= n || q - ls <= parent || s.charAt(q) == '#' || docMarker(ls) || keyColon(q) >= 0) {
          p = save;
          q = -1;
        }
        break;
      }
      if (q < 0 || q >= n || p == save && q <= p) {
        p = save;
        break;
      }
      p = q;
      int e = plainLineEnd();
      if (e == p) {
        p = save;
        break;
      }
      if (emptyLines == 0) sb.append(' ');
      else sb.repeat('\n', emptyLines);
      sb.append(s, p, e);
      p = e;
      markEnd = e;
    }
    return new Scalar(sb.toString(), start, markEnd - start);
  }

  /** End (exclusive, trailing blanks trimmed) of a plain scalar's text on the current line. */
  private int plainLineEnd() {
    int i = p;
    int end = p;
    while (i < n) {
      char x = s.charAt(i);
      if (x == '\n' || x == '\r') break;
      if (x == ':' && blankOrBreak(i + 1)) break;
      if (x == '#' && i > p && blank(s.charAt(i - 1))) break;
      i++;
      if (!blank(x)) end = i;
    }
    return end;
  }

  /** An unterminated quoted scalar (LLVM adds a note about the map value it was in). */
  static final class UnclosedQuote extends SyntaxError {
    UnclosedQuote(String d) {
      super(d);
    }
  }

  private Scalar quoted() throws SyntaxError {
    char q = s.charAt(p);
    int start = p++;
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (p >= n) throw new UnclosedQuote(diag(s, name, endPos(), 1, "Expected quote at end of scalar"));
      char c = s.charAt(p);
      if (c == q) {
        if (q == '\'' && ch(p + 1) == '\'') {
          sb.append('\'');
          p += 2;
          continue;
        }
        p++;
        break;
      }
      if (c == '\n' || c == '\r') {
        fold(sb);
        continue;
      }
      if (c == '\\' && q == '"') {
        p++;
        if (p >= n) throw new UnclosedQuote(diag(s, name, endPos(), 1, "Expected quote at end of scalar"));
        char e = s.charAt(p);
        if (e == '\n' || e == '\r') { // escaped line break: join without a space
          if (e == '\r' && ch(p + 1) == '\n') p++;
          p++;
          while (p < n && blank(s.charAt(p))) p++;
          continue;
        }
        int cp = escape(e);
        sb.appendCodePoint(cp);
        continue;
      }
      sb.append(c);
      p++;
    }
    return new Scalar(sb.toString(), start, p - start);
  }

  /** Line folding inside quotes: one break becomes a space, each further empty line a newline. */
  private void fold(StringBuilder sb) {
    sb.setLength(trimEnd(sb));
    int breaks = 0;
    while (p < n) {
      char c = s.charAt(p);
      if (c == '\r') {
        p++;
      } else if (c == '\n') {
        breaks++;
        p++;
      } else if (blank(c)) {
        p++;
      } else {
        break;
      }
    }
    if (breaks <= 1) sb.append(' ');
    else sb.repeat('\n', breaks - 1);
  }

  /** A double-quoted escape; {@code p} is at the character after the backslash. */
  private int escape(char e) throws SyntaxError {
    int at = p;
    p++;
    return switch (e) {
      case '0' -> 0;
      case 'a' -> 7;
      case 'b' -> 8;
      case 't', '\t' -> 9;
      case 'n' -> 10;
      case 'v' -> 11;
      case 'f' -> 12;
      case 'r' -> 13;
      case 'e' -> 0x1b;
      case ' ' -> ' ';
      case '"' -> '"';
      case '/' -> '/';
      case '\\' -> '\\';
      case 'N' -> 0x85;
      case '_' -> 0xa0;
      case 'L' -> 0x2028;
      case 'P' -> 0x2029;
      case 'x' -> hex(2, at);
      case 'u' -> hex(4, at);
      case 'U' -> hex(8, at);
      default -> throw error(at, 1, "Unrecognized escape code");
    };
  }

  private int hex(int digits, int at) throws SyntaxError {
    if (p + digits > n) throw error(at, 1, "Unrecognized escape code");
    long v = 0;
    for (int i = 0; i < digits; i++) {
      int d = Character.digit(s.charAt(p + i), 16);
      if (d < 0) throw error(at, 1, "Unrecognized escape code");
      v = v * 16 + d;
    }
    p += digits;
    if (v > Character.MAX_CODE_POINT) return 0xfffd;
    return (int) v;
  }

  /** {@code |} or {@code >} with optional chomping ({@code -}/{@code +}) and indentation digit. */
  private Scalar blockScalar(int parent) throws SyntaxError {
    int start = p;
    boolean literal = s.charAt(p++) == '|';
    char chomp = ' ';
    int explicit = 0;
    for (int i = 0; i < 2 && p < n; i++) {
      char c = s.charAt(p);
      if ((c == '-' || c == '+') && chomp == ' ') {
        chomp = c;
        p++;
      } else if (c >= '1' && c <= '9' && explicit == 0) {
        explicit = c - '0';
        p++;
      }
    }
    skipInline();
    if (!atEol()) throw error(p, 1, "Expected a line break after block scalar header");
    int headerEnd = p;
    // collect lines
    List<String> lines = new ArrayList<>();
    int indent = explicit > 0 ? Math.max(parent, 0) + explicit : -1;
    int q = p;
    int lastContentEnd = p;
    while (q < n) {
      if (s.charAt(q) == '\r') q++;
      if (q < n && s.charAt(q) == '\n') q++;
      if (q >= n) break;
      int ls = q;
      int le = ls;
      while (le < n && s.charAt(le) != '\n') le++;
      String line = s.substring(ls, le);
      if (line.endsWith("\r")) line = line.substring(0, line.length() - 1);
      int lead = 0;
      while (lead < line.length() && line.charAt(lead) == ' ') lead++;
      boolean empty = line.isBlank();
      if (!empty) {
        if (indent < 0) {
          if (lead <= parent) break;
          indent = lead;
        }
        if (lead < indent || docMarker(ls)) break;
      }
      lines.add(empty ? "" : line.substring(indent));
      if (!empty) lastContentEnd = le;
      q = le;
    }
    // trailing empty lines belong to the scalar only for chomping
    int trailing = 0;
    while (!lines.isEmpty() && lines.getLast().isEmpty()) {
      lines.removeLast();
      trailing++;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (i > 0) {
        String prev = lines.get(i - 1);
        if (literal) {
          sb.append('\n');
        } else if (!l.isEmpty() && !blank(l.charAt(0)) && !prev.isEmpty() && !blank(prev.charAt(0))) {
          sb.append(' ');
        } else if (l.isEmpty() || !prev.isEmpty()) {
          sb.append('\n'); // an empty line, or a more-indented line keeps its break
        }
      }
      sb.append(l);
    }
    if (!lines.isEmpty()) {
      if (chomp == '+') sb.repeat('\n', 1 + trailing);
      else if (chomp == ' ') sb.append('\n');
    } else if (chomp == '+') {
      sb.repeat('\n', trailing);
    }
    p = lines.isEmpty() ? headerEnd : lastContentEnd;
    return new Scalar(sb.toString(), start, 1);
  }
}
