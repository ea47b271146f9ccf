package dev.gsym.cli.gsymutil;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonSummary}: llvm-gsymutil-22's bytes (its json::OStream: compact, keys in the given
 * order, no final newline, llvm's string escapes). Whole runs are compared in DwarfConvertCliTest.
 */
class JsonSummaryTest {
  @Test
  void layoutAsLlvm() {
    assertThat(JsonSummary.of(Map.of())).isEqualTo("{\"error-categories\":{},\"error-count\":0}");
    Map<String, Long> m = new TreeMap<>(Map.of("Overlapping function ranges", 2L, "Function with no name", 1L));
    assertThat(JsonSummary.of(m)).isEqualTo("{\"error-categories\":{\"Function with no name\":{\"count\":1},"
        + "\"Overlapping function ranges\":{\"count\":2}},\"error-count\":3}");
  }

  @Test
  void stringsAreEscapedAsLlvmsJsonQuote() {
    // llvm::json quote(): '"' and '\\' get a backslash, \t \n \r short escapes, other bytes below
    // 0x20 as \\u00xx in lower-case hex, everything else (also '/' and non-ASCII) as is
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("q\"b\\s/t\tn\nr\r\b\f\u0001\u001f\u007f\u00e9", 1L);
    assertThat(JsonSummary.of(m)).isEqualTo("{\"error-categories\":{\"q\\\"b\\\\s/t\\tn\\nr\\r\\u0008\\u000c\\u0001"
        + "\\u001f\u007f\u00e9\":{\"count\":1}},\"error-count\":1}");
  }
}
