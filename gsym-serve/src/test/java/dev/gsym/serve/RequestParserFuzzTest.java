package dev.gsym.serve;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.testing.Slow;
import org.junit.jupiter.api.Test;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for the service's request parser (docs/reliability.md): the input is a
 * {@code POST /symbolicate} body, read through the body limit as the handler reads it, with the
 * default limits and with small ones (so the limit errors are reached). Only BadRequest may escape
 * (the handler answers it with its status and kind, and a message in our words: none of the JSON
 * library's class or feature names); a request accepted must be consistent (every
 * frame names a module of the request, stacks in order, one address per frame). Anything else, and
 * a body taking longer than {@link #LIMIT}, is a finding. Seeds: the JSON examples of
 * docs/serve.md, requests and answers.
 */
@Slow
class RequestParserFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(2);
  private static final RequestParser DEFAULTS =
      new RequestParser(SymbolicationServer.DEFAULT_MAX_FRAMES, SymbolicationServer.DEFAULT_MAX_MODULES);
  private static final RequestParser SMALL = new RequestParser(8, 2);

  static Stream<Arguments> seeds() throws IOException {
    String doc = Files.readString(TestData.repoRoot().resolve("docs/serve.md"));
    List<Arguments> out = new ArrayList<>();
    int at = 0;
    for (int start; (start = doc.indexOf("```json\n", at)) >= 0; ) {
      int end = doc.indexOf("```", start + 8);
      out.add(Arguments.argumentSet("docs/serve.md json block " + out.size(),
          (Object) doc.substring(start + 8, end).getBytes(StandardCharsets.UTF_8)));
      at = end + 3;
    }
    if (out.size() < 2) throw new IllegalStateException("docs/serve.md has no JSON examples");
    return out.stream();
  }

  @MethodSource("seeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void requestBody(byte[] input) {
    FuzzLimits.within(LIMIT, "request", "parsing a body of " + input.length + " bytes", () -> {
      parse(DEFAULTS, input, SymbolicationServer.DEFAULT_MAX_REQUEST_BYTES);
      parse(SMALL, input, 256);
    });
  }

  /**
   * The seeds that are requests (a "modules" and a "stacks" member, no "status": the rest are
   * answers and frames) parse, with frames: the replay alone would pass a parser that refused
   * every body.
   */
  @org.junit.jupiter.api.Test
  void requestSeedsAreAccepted() throws IOException, BadRequest {
    int requests = 0;
    for (Arguments a : seeds().toList()) {
      String text = new String((byte[]) a.get()[0], StandardCharsets.UTF_8);
      if (!text.contains("\"modules\"") || !text.contains("\"stacks\"") || text.contains("\"status\"")) continue;
      requests++;
      SymbolicateRequest r = DEFAULTS.parse(new LimitedInputStream(new ByteArrayInputStream((byte[]) a.get()[0]),
          SymbolicationServer.DEFAULT_MAX_REQUEST_BYTES, 0));
      if (r.frames() == 0) throw new AssertionError(((Arguments.ArgumentSet) a).getName() + ": no frames");
    }
    if (requests == 0) throw new AssertionError("docs/serve.md has no request example");
  }

  private static void parse(RequestParser parser, byte[] input, long maxBytes) {
    SymbolicateRequest r;
    try {
      r = parser.parse(new LimitedInputStream(new ByteArrayInputStream(input), maxBytes, 0));
    } catch (BadRequest expected) {
      if (expected.status != 400 && expected.status != 413) throw new AssertionError("status " + expected.status, expected);
      ownWords(expected.getMessage(), input);
      return;
    } catch (IOException e) {
      throw new UncheckedIOException("a body in memory cannot fail to be read", e);
    }
    int frames = r.frames();
    if (r.frameAddress().length != frames || r.stackStart()[r.stacks()] != frames || r.stackStart()[0] != 0) {
      throw new AssertionError("inconsistent frame arrays");
    }
    for (int s = 0; s < r.stacks(); s++) {
      if (r.stackStart()[s] > r.stackStart()[s + 1]) throw new AssertionError("stack " + s + " starts after the next");
    }
    for (int m : r.frameModule()) {
      if (m < 0 || m >= r.modules().size()) throw new AssertionError("frame names module " + m + " of " + r.modules().size());
    }
    for (SymbolicateRequest.Module m : r.modules()) {
      if ((m.ref() == null) == (m.error() == null)) throw new AssertionError("module with both or neither of ref and error: " + m);
    }
  }

  /** Words of the JSON library's messages (class and feature names, its location syntax). */
  private static final List<String> INTERNALS = List.of("Source:", "REDACTED", "StreamRead", "JsonReadFeature",
      "Constraints", "#UNKNOWN", "(code ");

  /**
   * A refusal's message is in our words: none of {@link #INTERNALS}, unless the body itself has
   * them, raw or behind an escape (messages quote the body's text and property names).
   */
  private static void ownWords(String message, byte[] input) {
    String body = new String(input, StandardCharsets.ISO_8859_1);
    if (message.isEmpty()) throw new AssertionError("a refusal without a message");
    for (String internal : INTERNALS) {
      if (message.contains(internal) && !body.contains(internal) && body.indexOf('\\') < 0) {
        throw new AssertionError("the JSON library's words in a refusal: " + message);
      }
    }
  }

  /** No quadratic blow-up: a 1 MB body of frames parses in proportion to a 10 KB one. */
  @Test
  void scalesLinearly() {
    FuzzLimits.assertScalesLinearly("request parse", size -> {
      StringBuilder sb = new StringBuilder("{\"modules\":[{\"build_id\":\"1d296d52c49352d44988045e45e7a2c66d5f77ea\"},{\"path\":\"/a\"}],\"stacks\":[");
      for (int s = 0; sb.length() < size; s++) {
        sb.append(s == 0 ? "" : ",").append("{\"frames\":[");
        for (int f = 0; f < 50; f++) sb.append(f == 0 ? "" : ",").append("{\"module\":").append(f & 1).append(",\"address\":\"0x").append(Integer.toHexString(0x1000 + f)).append("\",\"x\":[1,{\"y\":null}]}");
        sb.append("]}");
      }
      return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }, input -> parse(DEFAULTS, input, SymbolicationServer.DEFAULT_MAX_REQUEST_BYTES));
  }
}
