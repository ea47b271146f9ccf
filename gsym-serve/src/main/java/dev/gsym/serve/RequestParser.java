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
import tools.jackson.core.exc.StreamConstraintsException;
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

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxNestingDepth(16)
          .maxStringLength(MAX_STRING)
          .maxNameLength(256)
          .maxNumberLength(64)
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
      return new Reading(p).request();
    } catch (StreamConstraintsException e) {
      throw BadRequest.invalid("limit_exceeded", "request exceeds a JSON limit: " + firstLine(e.getOriginalMessage()));
    } catch (JacksonException e) {
      IOException io = ioCause(e);
      if (io instanceof LimitedInputStream.TooLarge t) throw t.badRequest();
      if (io != null && io == body.failure) throw io;
      // any other IOException is Jackson's about the bytes (an encoding it cannot read, bytes that
      // are no character in the encoding it detected): the body's fault, not the connection's
      if (io != null) throw BadRequest.invalid("malformed_json", firstLine(io.getMessage()));
      throw BadRequest.invalid("malformed_json", firstLine(e.getOriginalMessage()) + " at " + where(e));
    }
  }

  /** The body stream, remembering the failure of a read: only that one is an I/O error. */
  private static final class Body extends java.io.FilterInputStream {
    IOException failure;

    Body(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (IOException e) {
        failure = e;
        throw e;
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (IOException e) {
        failure = e;
        throw e;
      }
    }
  }

  private static IOException ioCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException io) return io;
    }
    return null;
  }

  private static String where(JacksonException e) {
    var l = e.getLocation();
    return l == null ? "an unknown position" : "line " + l.getLineNr() + ", column " + l.getColumnNr();
  }

  private static String firstLine(String s) {
    if (s == null) return "invalid JSON";
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
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
      if (p.nextToken() != null) throw BadRequest.invalid("malformed_json", "content after the request object at " + here());
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
      var l = p.currentTokenLocation();
      return "line " + l.getLineNr() + ", column " + l.getColumnNr();
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
