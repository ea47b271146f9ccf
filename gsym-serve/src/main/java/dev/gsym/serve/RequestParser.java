package dev.gsym.serve;

import dev.gsym.symbolize.AddressAdjustment;
import dev.gsym.symbolize.ModuleRef;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads a {@code POST /symbolicate} body with Jackson's streaming parser, checking every type and
 * bound as it goes: nothing is built that the limits do not allow (frames are counted as they
 * arrive, strings and nesting are bounded by the parser's constraints, the body by the caller's
 * {@link LimitedInputStream}). Unknown properties of the body, of modules, stacks and frames are
 * skipped (clients may send more than we use, as Sentry's do); unknown options are refused, since
 * an option changes the answer.
 */
final class RequestParser {
  /** JSON strings: a path is at most 4 KiB on Linux; a module name is far less. */
  private static final int MAX_STRING = 16 * 1024;
  private static final int MAX_NAME = 256;
  private static final int MAX_NUMBER = 64;
  private static final int MAX_DEPTH = 16;

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxNestingDepth(MAX_DEPTH)
          .maxStringLength(MAX_STRING)
          .maxNameLength(MAX_NAME)
          .maxNumberLength(MAX_NUMBER)
          .build())
      .build();

  private final int maxFrames;
  private final int maxModules;

  RequestParser(int maxFrames, int maxModules) {
    this.maxFrames = maxFrames;
    this.maxModules = maxModules;
  }

  /**
   * Parses {@code in} to its end.
   *
   * @throws BadRequest for anything that is not a valid request, with the status to answer
   * @throws IOException if reading the body fails (client gone, timeout)
   */
  SymbolicateRequest parse(InputStream in) throws BadRequest, IOException {
    Body body = new Body(in);
    try (JsonParser p = FACTORY.createParser(ObjectReadContext.empty(), body)) {
      try {
        return new Reading(p).request();
      } catch (JacksonException e) {
        throw refusal(e, p, body);
      }
    } catch (JacksonException e) { // while detecting the encoding, or closing
      throw refusal(e, null, body);
    }
  }

  /**
   * The answer to a body Jackson refused, in our words (its messages name its own classes and
   * features, e.g. {@code StreamReadConstraints.getMaxStringLength()}), with where: the JSON
   * pointer of the value being read, line, column and byte offset. A failed read of the body
   * itself is no refusal: thrown as it is (the connection is dropped).
   */
  private static BadRequest refusal(JacksonException e, JsonParser p, Body body) throws IOException {
    IOException io = ioCause(e);
    if (io instanceof LimitedInputStream.TooLarge t) return t.badRequest();
    if (io != null && io == body.failure) throw io;
    if (io != null) {
      // any other IOException is Jackson's about the bytes (an encoding it cannot read, bytes that
      // are no character in the encoding it detected): the body's fault, not the connection's
      return BadRequest.invalid("malformed_json", "malformed JSON: the body is not text in UTF-8, UTF-16 or UTF-32");
    }
    if (e instanceof StreamConstraintsException) {
      // no location of its own: where the parser is, where it reached the limit
      var at = p == null ? null : p.currentLocation();
      return BadRequest.invalid("limit_exceeded", "request exceeds a JSON limit: " + limit(e.getOriginalMessage())
          + " at " + position(at) + pointer(p));
    }
    var at = e.getLocation() != null && e.getLocation().getLineNr() > 0 ? e.getLocation()
        : p == null ? null : p.currentLocation();
    String what;
    if (e instanceof UnexpectedEndOfInputException eof) {
      TokenStreamContext c = p == null ? null : p.streamReadContext();
      what = "the body ends inside " + (eof.getTokenBeingDecoded() == JsonToken.VALUE_STRING ? "a string"
          : eof.getTokenBeingDecoded() == JsonToken.PROPERTY_NAME ? "a property name"
          : c != null && c.inObject() ? "an object" : c != null && c.inArray() ? "an array" : "a value");
    } else {
      // Jackson's offset is the offending text's start, or (after a token it refuses, such as NaN)
      // its end: the text before it on its line shows which
      long offset = at == null ? -1 : at.getByteOffset();
      String text = body.after(offset, 12);
      String before = text.isEmpty() ? "" : body.before(offset, 16);
      what = text.isEmpty() ? "unexpected input" : "unexpected '" + text + "'" + (before.isEmpty() ? "" : " after '" + before + "'");
    }
    return BadRequest.invalid("malformed_json", "malformed JSON: " + what + " at " + position(at) + pointer(p));
  }

  /** The limit a StreamConstraintsException reports, by the constraint its message names. */
  private static String limit(String jackson) {
    String m = jackson == null ? "" : jackson;
    if (m.contains("MaxStringLength")) return "a string longer than " + MAX_STRING + " characters";
    if (m.contains("MaxNameLength")) return "a property name longer than " + MAX_NAME + " characters";
    if (m.contains("MaxNumberLength")) return "a number longer than " + MAX_NUMBER + " characters";
    if (m.contains("MaxNestingDepth")) return "arrays and objects nested deeper than " + MAX_DEPTH + " levels";
    return "a string, name or number too long, or nesting too deep";
  }

  /** "line L, column C (byte B)": byte offsets where Jackson reads bytes (UTF-8), characters where it decodes them. */
  static String position(TokenStreamLocation l) {
    if (l == null || l.getLineNr() < 1) return "an unknown position";
    String s = "line " + l.getLineNr() + ", column " + l.getColumnNr();
    if (l.getByteOffset() >= 0) return s + " (byte " + l.getByteOffset() + ")";
    if (l.getCharOffset() >= 0) return s + " (character " + l.getCharOffset() + ")";
    return s;
  }

  /** ", in /stacks/0/frames/3": the JSON pointer of the value being read, or nothing at the top. */
  private static String pointer(JsonParser p) {
    if (p == null) return "";
    String ptr = p.streamReadContext().pathAsPointer().toString();
    if (ptr.isEmpty()) return "";
    return ", in " + (ptr.length() > 200 ? ptr.substring(0, 200) + "..." : ptr);
  }

  /**
   * The body stream, remembering the failure of a read (only that one is an I/O error) and the last
   * bytes read, so that a refusal can show the text at its offset.
   */
  private static final class Body extends java.io.FilterInputStream {
    IOException failure;
    private final byte[] recent = new byte[8 * 1024]; // Jackson reads 8000 bytes at a time
    private long total;

    Body(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      try {
        int b = super.read();
        if (b >= 0) recent[(int) (total++ % recent.length)] = (byte) b;
        return b;
      } catch (IOException e) {
        failure = e;
        throw e;
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n;
      try {
        n = super.read(b, off, len);
      } catch (IOException e) {
        failure = e;
        throw e;
      }
      if (n > 0) {
        // the last recent.length bytes of these n, in at most two copies around the end of the ring
        int skip = Math.max(0, n - recent.length);
        int at = (int) ((total + skip) % recent.length);
        int first = Math.min(n - skip, recent.length - at);
        System.arraycopy(b, off + skip, recent, at, first);
        System.arraycopy(b, off + skip + first, recent, 0, n - skip - first);
        total += n;
      }
      return n;
    }

    /** Up to {@code n} bytes from {@code offset} to the end of its line, as text; "" where not kept. */
    String after(long offset, int n) {
      StringBuilder b = new StringBuilder();
      if (offset < 0 || offset < total - recent.length) return "";
      for (long i = offset; i < total && i < offset + n && !newline(i); i++) append(b, i);
      return b.toString();
    }

    /** Up to {@code n} bytes before {@code offset}, from the start of its line, as text; "" where not kept. */
    String before(long offset, int n) {
      StringBuilder b = new StringBuilder();
      if (offset > total) return "";
      long start = offset;
      while (start > 0 && start > offset - n && start > total - recent.length && !newline(start - 1)) start--;
      for (long i = start; i < offset; i++) append(b, i);
      return b.toString();
    }

    private boolean newline(long i) {
      int c = recent[(int) (i % recent.length)];
      return c == '\n' || c == '\r';
    }

    /** The byte at {@code i}: printable ASCII as itself, any other as \xNN. */
    private void append(StringBuilder b, long i) {
      int c = recent[(int) (i % recent.length)] & 0xff;
      if (c >= 0x20 && c < 0x7f) b.append((char) c);
      else b.append(String.format(java.util.Locale.ROOT, "\\x%02x", c));
    }
  }

  private static IOException ioCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException io) return io;
    }
    return null;
  }

  /** The state of one parse. */
  private final class Reading {
    private final JsonParser p;
    private final List<SymbolicateRequest.Module> modules = new ArrayList<>();
    private int[] stackStart = new int[16];
    private int stacks;
    private int[] frameModule = new int[256];
    private long[] frameAddress = new long[256];
    private int frames;
    private SymbolicateRequest.Options options = SymbolicateRequest.Options.DEFAULT;
    private boolean sawModules;
    private boolean sawStacks;

    Reading(JsonParser p) {
      this.p = p;
    }

    SymbolicateRequest request() throws BadRequest {
      JsonToken first = p.nextToken();
      if (first == null) throw BadRequest.invalid("malformed_json", "the request body is empty");
      if (first != JsonToken.START_OBJECT) throw type("the request", "an object");
      for (String name; (name = p.nextName()) != null; ) {
        JsonToken t = p.nextToken();
        switch (name) {
          case "modules" -> {
            expect(t, JsonToken.START_ARRAY, "modules", "an array");
            sawModules = true;
            while (p.nextToken() != JsonToken.END_ARRAY) module(modules.size());
          }
          case "stacks" -> {
            expect(t, JsonToken.START_ARRAY, "stacks", "an array");
            sawStacks = true;
            while (p.nextToken() != JsonToken.END_ARRAY) stack();
          }
          case "options" -> options(t);
          default -> p.skipChildren();
        }
      }
      if (p.nextToken() != null) throw BadRequest.invalid("malformed_json", "malformed JSON: content after the request object at " + here());
      if (!sawModules) throw BadRequest.invalid("missing_field", "the request has no \"modules\" array");
      if (!sawStacks) throw BadRequest.invalid("missing_field", "the request has no \"stacks\" array");
      for (int i = 0; i < frames; i++) {
        if (frameModule[i] >= modules.size()) {
          int s = stackOf(i);
          throw BadRequest.invalid("unknown_module", "stacks[" + s + "].frames[" + (i - stackStart[s]) + "]: module "
              + frameModule[i] + " is not in \"modules\" (" + modules.size() + " entries)");
        }
      }
      int[] starts = Arrays.copyOf(stackStart, stacks + 1);
      starts[stacks] = frames;
      return new SymbolicateRequest(List.copyOf(modules), starts, Arrays.copyOf(frameModule, frames),
          Arrays.copyOf(frameAddress, frames), options);
    }

    private int stackOf(int frame) {
      int s = Arrays.binarySearch(stackStart, 0, stacks, frame);
      if (s < 0) return -s - 2;
      while (s + 1 < stacks && stackStart[s + 1] == frame) s++; // empty stacks share a start
      return s;
    }

    private void module(int index) throws BadRequest {
      String at = "modules[" + index + "]";
      expect(p.currentToken(), JsonToken.START_OBJECT, at, "an object");
      if (index >= maxModules) {
        throw new BadRequest(413, "too_many_modules", "more than " + maxModules + " modules in one request");
      }
      String buildId = null;
      String path = null;
      String debugFile = null;
      String debugId = null;
      for (String name; (name = p.nextName()) != null; ) {
        JsonToken t = p.nextToken();
        switch (name) {
          case "build_id" -> buildId = string(t, at + ".build_id");
          case "path" -> path = string(t, at + ".path");
          case "debug_file" -> debugFile = string(t, at + ".debug_file");
          case "debug_id" -> debugId = string(t, at + ".debug_id");
          default -> p.skipChildren();
        }
      }
      modules.add(moduleRef(buildId, path, debugFile, debugId));
    }

    private void stack() throws BadRequest {
      String at = "stacks[" + stacks + "]";
      expect(p.currentToken(), JsonToken.START_OBJECT, at, "an object");
      if (stacks + 1 >= stackStart.length) stackStart = Arrays.copyOf(stackStart, stackStart.length * 2);
      stackStart[stacks] = frames;
      boolean sawFrames = false;
      for (String name; (name = p.nextName()) != null; ) {
        JsonToken t = p.nextToken();
        if (name.equals("frames")) {
          expect(t, JsonToken.START_ARRAY, at + ".frames", "an array");
          if (sawFrames) throw BadRequest.invalid("invalid_request", at + " has two \"frames\" arrays");
          sawFrames = true;
          int j = 0;
          while (p.nextToken() != JsonToken.END_ARRAY) frame(at + ".frames[" + j++ + "]");
        } else {
          p.skipChildren();
        }
      }
      if (!sawFrames) throw BadRequest.invalid("missing_field", at + " has no \"frames\" array");
      stacks++;
    }

    private void frame(String at) throws BadRequest {
      expect(p.currentToken(), JsonToken.START_OBJECT, at, "an object");
      if (frames >= maxFrames) {
        throw new BadRequest(413, "too_many_frames", "more than " + maxFrames + " frames in one request");
      }
      int module = -1;
      long address = 0;
      boolean sawAddress = false;
      for (String name; (name = p.nextName()) != null; ) {
        JsonToken t = p.nextToken();
        switch (name) {
          case "module" -> module = moduleIndex(t, at + ".module");
          case "address" -> {
            address = address(t, at + ".address");
            sawAddress = true;
          }
          default -> p.skipChildren();
        }
      }
      if (module < 0) throw BadRequest.invalid("missing_field", at + " has no \"module\"");
      if (!sawAddress) throw BadRequest.invalid("missing_field", at + " has no \"address\"");
      if (frames == frameModule.length) {
        int n = Math.min(maxFrames, frames * 2);
        frameModule = Arrays.copyOf(frameModule, n);
        frameAddress = Arrays.copyOf(frameAddress, n);
      }
      frameModule[frames] = module;
      frameAddress[frames] = address;
      frames++;
    }

    private int moduleIndex(JsonToken t, String at) throws BadRequest {
      if (t != JsonToken.VALUE_NUMBER_INT) throw type(at, "a module index (an integer)");
      if (p.getNumberType() == JsonParser.NumberType.INT) {
        int v = p.getIntValue();
        if (v >= 0) return v;
      }
      throw BadRequest.invalid("unknown_module", at + ": " + p.getString() + " is not a module index");
    }

    private long address(JsonToken t, String at) throws BadRequest {
      if (t == JsonToken.VALUE_STRING) {
        String s = p.getString();
        if (s.length() < 3 || s.charAt(0) != '0' || (s.charAt(1) | 0x20) != 'x' || s.length() > 2 + 16 + 48) {
          throw badAddress(at, s);
        }
        int i = 2;
        while (i < s.length() - 1 && s.charAt(i) == '0') i++; // leading zeros
        if (s.length() - i > 16) throw badAddress(at, s);
        long v = 0;
        for (; i < s.length(); i++) {
          int d = Character.digit(s.charAt(i), 16);
          if (d < 0) throw badAddress(at, s);
          v = v << 4 | d;
        }
        return v;
      }
      if (t == JsonToken.VALUE_NUMBER_INT) {
        BigInteger v = p.getBigIntegerValue();
        if (v.signum() < 0 || v.bitLength() > 64) throw badAddress(at, v.toString());
        return v.longValue();
      }
      throw type(at, "a \"0x...\" hex string or a non-negative integer");
    }

    private BadRequest badAddress(String at, String value) {
      String shown = value.length() > 64 ? value.substring(0, 64) + "..." : value;
      return BadRequest.invalid("invalid_address", at + ": \"" + shown
          + "\" is not an address (\"0x\" and 1 to 16 hex digits, or an integer from 0 to 2^64-1)");
    }

    private static AddressAdjustment adjustment(String v) throws BadRequest {
      return switch (v) {
        case "all_but_first" -> AddressAdjustment.ALL_BUT_FIRST;
        case "all" -> AddressAdjustment.ALL;
        case "none" -> AddressAdjustment.NONE;
        default -> throw BadRequest.invalid("invalid_option", "options.adjust_addresses is \"" + v
            + "\": one of all_but_first, all, none");
      };
    }

    private void options(JsonToken t) throws BadRequest {
      expect(t, JsonToken.START_OBJECT, "options", "an object");
      boolean demangle = true;
      boolean inlines = true;
      boolean relative = false;
      AddressAdjustment adjust = AddressAdjustment.ALL_BUT_FIRST;
      for (String name; (name = p.nextName()) != null; ) {
        JsonToken v = p.nextToken();
        switch (name) {
          case "demangle" -> demangle = bool(v, "options.demangle");
          case "inlines" -> inlines = bool(v, "options.inlines");
          case "relative" -> relative = bool(v, "options.relative");
          case "adjust_addresses" -> adjust = adjustment(string(v, "options.adjust_addresses"));
          default -> throw BadRequest.invalid("unknown_option", "options." + name
              + " is not an option (demangle, inlines, relative, adjust_addresses)");
        }
      }
      options = new SymbolicateRequest.Options(demangle, inlines, relative, adjust);
    }

    private boolean bool(JsonToken t, String at) throws BadRequest {
      if (t == JsonToken.VALUE_TRUE) return true;
      if (t == JsonToken.VALUE_FALSE) return false;
      throw type(at, "true or false");
    }

    private String string(JsonToken t, String at) throws BadRequest {
      if (t != JsonToken.VALUE_STRING) throw type(at, "a string");
      return p.getString();
    }

    private void expect(JsonToken t, JsonToken wanted, String at, String what) throws BadRequest {
      if (t != wanted) throw type(at, what);
    }

    private BadRequest type(String at, String what) {
      JsonToken t = p.currentToken();
      return BadRequest.invalid("wrong_type", at + " must be " + what + " (found " + describe(t) + " at " + here() + ")");
    }

    private String here() {
      return position(p.currentTokenLocation());
    }
  }

  private static String describe(JsonToken t) {
    if (t == null) return "the end of the body";
    return switch (t) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> t.name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  /**
   * The module an entry names: {@code build_id} (with {@code debug_file}, also looked up in Breakpad
   * stores), {@code debug_file} + {@code debug_id}, or an absolute {@code path}. An entry that names
   * none, or a value {@link ModuleRef} refuses, is kept with its error: its frames answer {@code
   * malformed_module} and the rest of the request is served.
   */
  static SymbolicateRequest.Module moduleRef(String buildId, String path, String debugFile, String debugId) {
    try {
      if (buildId != null) {
        if (path != null || debugId != null) return error("give either build_id, path, or debug_file with debug_id");
        ModuleRef.BuildId b = ModuleRef.buildId(buildId);
        return new SymbolicateRequest.Module(debugFile == null ? b : b.withDebugFile(debugFile), null);
      }
      if (path != null) {
        if (debugFile != null || debugId != null) return error("give either build_id, path, or debug_file with debug_id");
        Path p;
        try {
          p = Path.of(path);
        } catch (InvalidPathException e) {
          return error("path: not a valid path");
        }
        if (!p.isAbsolute()) return error("path: must be absolute");
        return new SymbolicateRequest.Module(ModuleRef.file(p), null);
      }
      if (debugFile != null && debugId != null) return new SymbolicateRequest.Module(ModuleRef.breakpad(debugFile, debugId), null);
      return error("a module needs build_id, path, or debug_file with debug_id");
    } catch (IllegalArgumentException e) {
      return error(e.getMessage());
    }
  }

  private static SymbolicateRequest.Module error(String message) {
    return new SymbolicateRequest.Module(null, message);
  }
}
