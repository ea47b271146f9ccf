package dev.gsym.cli.gsymutil;

import java.io.StringWriter;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * The text of llvm-gsymutil's {@code --json-summary-file}: {@code
 * {"error-categories":{"CAT":{"count":N},...},"error-count":N}}, compact, no final newline, written
 * with Jackson's streaming generator set up to escape as llvm's {@code json::OStream} does.
 */
final class JsonSummary {
  private JsonSummary() {}

  /**
   * llvm's string escapes: {@code \"}, {@code \\}, {@code \t}, {@code \n}, {@code \r}, every other
   * control character as {@code \}{@code u00xx} in lower case (Jackson would write {@code \b} and
   * {@code \f} and upper-case hex), nothing else (no {@code \/}).
   */
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
      .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
      .characterEscapes(new CharacterEscapes() {
        private final int[] escapes = escapes();

        private static int[] escapes() {
          int[] e = standardAsciiEscapesForJSON();
          e['\b'] = ESCAPE_STANDARD;
          e['\f'] = ESCAPE_STANDARD;
          return e;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
          return escapes;
        }

        @Override
        public tools.jackson.core.SerializableString getEscapeSequence(int ch) {
          return null; // no custom escapes
        }
      })
      .build();

  /** The summary of {@code categories} (category → count, in the order to write). */
  static String of(Map<String, Long> categories) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(ObjectWriteContext.empty(), text)) {
      g.writeStartObject();
      g.writeName("error-categories");
      g.writeStartObject();
      long total = 0;
      for (Map.Entry<String, Long> e : categories.entrySet()) {
        g.writeName(e.getKey());
        g.writeStartObject();
        g.writeNumberProperty("count", e.getValue());
        g.writeEndObject();
        total += e.getValue();
      }
      g.writeEndObject();
      g.writeNumberProperty("error-count", total);
      g.writeEndObject();
    }
    return text.toString();
  }
}
