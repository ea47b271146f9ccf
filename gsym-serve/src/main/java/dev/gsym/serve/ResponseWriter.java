package dev.gsym.serve;

import dev.gsym.demangle.Demangler;
import dev.gsym.symbolize.Frame;
import dev.gsym.symbolize.Merged;
import dev.gsym.read.SourceLine;
import dev.gsym.symbolize.Symbolized;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/** Writes the JSON answers of the service (streamed: a large answer is never held whole). */
final class ResponseWriter {
  static final String JSON = "application/json";

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
      .build();

  /** Names (and paths) kept before a cache starts over (a few large modules' worth). */
  private static final int MAX_NAMES = 1 << 17;

  private final Demangler demangler = Demangler.llvm();
  // Names and paths as JSON string bytes, encoded once: most frames of a busy server repeat a few
  // thousand functions and files, and encoding them character by character was a fifth of a
  // request's time. Each cache starts over when full.
  private final ConcurrentHashMap<String, SerializedString> demangled = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, SerializedString> raw = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<PathKey, SerializedString> paths = new ConcurrentHashMap<>();

  /** A source file as GSYM stores it (a directory and a file name, usually shared strings). */
  private record PathKey(String directory, String fileName) {}

  /** {@code {"error": {"kind": ..., "message": ...}}}. */
  static void error(OutputStream out, String kind, String message) {
    try (JsonGenerator g = FACTORY.createGenerator(ObjectWriteContext.empty(), out)) {
      g.writeStartObject();
      g.writeName("error");
      g.writeStartObject();
      g.writeStringProperty("kind", kind);
      g.writeStringProperty("message", message);
      g.writeEndObject();
      g.writeEndObject();
    }
  }

  /**
   * The answer to {@code req}: {@code results[i]} answers frame {@code i} (null for a module that
   * could not be asked: {@code req.modules().get(m).error()} says why).
   */
  void symbolicated(OutputStream out, SymbolicateRequest req, List<Symbolized> results) {
    int modules = req.modules().size();
    // each module's status, from the first frame that used it (a resolved one if any: it tells the source)
    Symbolized[] firstOf = new Symbolized[modules];
    for (int i = 0; i < results.size(); i++) {
      int m = req.frameModule()[i];
      Symbolized r = results.get(i);
      if (firstOf[m] == null || firstOf[m] instanceof Symbolized.AddressNotCovered && r instanceof Symbolized.Found) {
        firstOf[m] = r;
      }
    }
    try (JsonGenerator g = FACTORY.createGenerator(ObjectWriteContext.empty(), out)) {
      g.writeStartObject();
      g.writeName("modules");
      g.writeStartArray();
      for (int m = 0; m < modules; m++) module(g, req.modules().get(m), firstOf[m]);
      g.writeEndArray();
      g.writeName("stacks");
      g.writeStartArray();
      for (int s = 0; s < req.stacks(); s++) {
        g.writeStartObject();
        g.writeName("frames");
        g.writeStartArray();
        for (int i = req.stackStart()[s]; i < req.stackStart()[s + 1]; i++) {
          frame(g, i - req.stackStart()[s], req.frameModule()[i], req.frameAddress()[i], results.get(i), req);
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
  }

  private static void module(JsonGenerator g, SymbolicateRequest.Module m, Symbolized first) {
    g.writeStartObject();
    if (m.error() != null) {
      g.writeStringProperty("status", "malformed");
      g.writeStringProperty("error", m.error());
    } else {
      switch (first) {
        case null -> g.writeStringProperty("status", "unused");
        case Symbolized.Found f -> {
          g.writeStringProperty("status", "found");
          g.writeStringProperty("source", f.source().id());
        }
        case Symbolized.AddressNotCovered a -> g.writeStringProperty("status", "found");
        case Symbolized.ModuleNotFound n -> {
          g.writeStringProperty("status", "missing");
          g.writeStringProperty("error", n.message());
          g.writeBooleanProperty("retryable", n.retryable());
        }
        case Symbolized.ModuleUnreadable u -> {
          g.writeStringProperty("status", "malformed");
          g.writeStringProperty("error", u.message());
        }
      }
    }
    g.writeEndObject();
  }

  private void frame(JsonGenerator g, int index, int module, long address, Symbolized r, SymbolicateRequest req) {
    SymbolicateRequest.Options o = req.options();
    switch (r) {
      case null -> head(g, index, "malformed_module", module, address).writeEndObject();
      case Symbolized.ModuleNotFound n -> head(g, index, "missing_module", module, address).writeEndObject();
      case Symbolized.ModuleUnreadable u -> head(g, index, "malformed_module", module, address).writeEndObject();
      case Symbolized.AddressNotCovered a -> head(g, index, "unknown_address", module, address).writeEndObject();
      case Symbolized.Found f -> {
        // function_start in the address space of the request's addresses
        long shift = o.relative() ? f.base() : 0;
        if (o.inlines()) {
          for (Frame fr : f.frames()) {
            found(g, index, module, address, name(fr.rawName(), o), fr.startAddress() - shift, fr.location(), fr.inlined());
            if (!fr.inlined() && f.merged().isPresent()) merged(g, f.merged().get(), o);
            g.writeEndObject();
          }
        } else {
          // llvm-symbolizer --no-inlines: the containing function, with the address's own line
          Frame outer = f.function();
          found(g, index, module, address, name(outer.rawName(), o), outer.startAddress() - shift,
              f.frames().getFirst().location(), false);
          if (f.merged().isPresent()) merged(g, f.merged().get(), o);
          g.writeEndObject();
        }
      }
    }
  }

  private static JsonGenerator head(JsonGenerator g, int index, String status, int module, long address) {
    g.writeStartObject();
    g.writeNumberProperty("index", index);
    g.writeStringProperty("status", status);
    g.writeNumberProperty("module", module);
    g.writeName("address");
    writeHex(g, address);
    return g;
  }

  private void found(JsonGenerator g, int index, int module, long address, SerializedString function, long start,
      SourceLine loc, boolean inlined) {
    head(g, index, "ok", module, address);
    g.writeName("function");
    g.writeString(function);
    g.writeName("function_start");
    writeHex(g, start);
    if (loc.hasFile()) {
      g.writeName("file");
      g.writeString(path(loc));
    }
    if (loc.line() != 0) g.writeNumberProperty("line", loc.line());
    g.writeBooleanProperty("inlined", inlined);
  }

  /**
   * On the frame of the function that contains the address: the functions identical code folding
   * merged there and how the one named was chosen.
   */
  private void merged(JsonGenerator g, Merged m, SymbolicateRequest.Options o) {
    g.writeName("merged");
    g.writeStartObject();
    g.writeStringProperty("resolution", m.resolution().name().toLowerCase(java.util.Locale.ROOT));
    g.writeName("candidates");
    g.writeStartArray();
    for (String c : m.candidates()) g.writeString(name(c, o));
    g.writeEndArray();
    g.writeName("chosen");
    g.writeStartArray();
    for (String c : m.chosen()) g.writeString(name(c, o));
    g.writeEndArray();
    if (m.callerFrame() >= 0) g.writeNumberProperty("caller_frame", m.callerFrame());
    g.writeEndObject();
  }

  /** The name as the answer shows it: demangled if the options say so. */
  private SerializedString name(String name, SymbolicateRequest.Options o) {
    ConcurrentHashMap<String, SerializedString> cache = o.demangle() ? demangled : raw;
    SerializedString d = cache.get(name);
    if (d == null) {
      d = new SerializedString(o.demangle() ? demangler.demangle(name) : name);
      if (cache.size() >= MAX_NAMES) cache.clear();
      cache.put(name, d);
    }
    return d;
  }

  private SerializedString path(SourceLine loc) {
    PathKey k = new PathKey(loc.directory(), loc.fileName());
    SerializedString p = paths.get(k);
    if (p == null) {
      p = new SerializedString(loc.path());
      if (paths.size() >= MAX_NAMES) paths.clear();
      paths.put(k, p);
    }
    return p;
  }

  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  /** {@code "0x..."} in lower case, as {@link #hex} gives it, without making a String. */
  private static void writeHex(JsonGenerator g, long v) {
    char[] c = new char[18];
    int i = c.length;
    do {
      c[--i] = DIGITS[(int) (v & 0xf)];
      v >>>= 4;
    } while (v != 0);
    c[--i] = 'x';
    c[--i] = '0';
    g.writeString(c, i, c.length - i);
  }

  static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }
}
