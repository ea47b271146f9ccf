package dev.gsym.serve;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gsym.testing.FuzzLimits;
import dev.gsym.testing.Slow;
import dev.gsym.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzz target for {@code POST /minidump} (docs/reliability.md): the input's first
 * byte chooses how the rest is sent (raw, or a multipart form with one of two boundaries; gzip or
 * not), which is then read as the endpoint reads it (the upload limit of 1 MiB, gzip decoding, the
 * {@code upload_file_minidump} part), walked without symbols and printed as the JSON report. Only
 * the endpoint's refusals may escape (400 {@code bad_minidump}, {@code bad_multipart}, {@code
 * bad_encoding}, 413 {@code body_too_large}); an answer must be one line of JSON text that parses.
 * Anything else, and an input slower than {@link #LIMIT}, is a finding. Seeds: every corpus dump
 * sent raw, and as a form (plain and gzip-encoded) for three of them.
 */
@Slow
class MinidumpUploadFuzzTest {
  static final Duration LIMIT = Duration.ofSeconds(5);
  private static final MinidumpEndpoint ENDPOINT = new MinidumpEndpoint(null, 1 << 20);
  private static final String[] TYPES = {null, "multipart/form-data; boundary=b",
      "Multipart/Form-Data; charset=utf-8; boundary=\"--gsym boundary--\"", "application/octet-stream"};
  private static final Set<String> REFUSALS = Set.of("400 bad_minidump", "400 bad_multipart", "400 bad_encoding",
      "413 body_too_large");

  static Stream<Arguments> uploadSeeds() throws IOException {
    List<Arguments> out = new ArrayList<>();
    Path corpus = TestData.repoRoot().resolve("src-test-data/minidump");
    List<Path> dumps = new ArrayList<>();
    for (String sub : List.of("dumps", "external")) {
      try (Stream<Path> s = Files.list(corpus.resolve(sub))) {
        s.filter(p -> p.toString().endsWith(".dmp")).sorted().forEach(dumps::add);
      }
    }
    for (Path d : dumps) out.add(Arguments.argumentSet(d.getFileName() + " raw", (Object) input(0, Files.readAllBytes(d))));
    for (String name : List.of("x86_64-fp-lib", "i386-nofp-thread", "arm-core2md")) {
      byte[] dump = Files.readAllBytes(corpus.resolve("dumps").resolve(name + ".dmp"));
      out.add(Arguments.argumentSet(name + " form", (Object) input(1, form("b", dump))));
      out.add(Arguments.argumentSet(name + " gzip form", (Object) input(2 | 4, gzip(form("--gsym boundary--", dump)))));
    }
    return out.stream();
  }

  private static byte[] input(int how, byte[] body) {
    byte[] in = new byte[body.length + 1];
    in[0] = (byte) how;
    System.arraycopy(body, 0, in, 1, body.length);
    return in;
  }

  private static byte[] form(String boundary, byte[] dump) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"prod\"\r\n\r\nfuzz\r\n--" + boundary
        + "\r\nContent-Disposition: form-data; name=\"upload_file_minidump\"; filename=\"f.dmp\"\r\n\r\n")
        .getBytes(StandardCharsets.UTF_8));
    out.writeBytes(dump);
    out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private static byte[] gzip(byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  @MethodSource("uploadSeeds")
  @FuzzTest // last: Jazzer requires it after the seeds' source
  void upload(byte[] input) {
    if (input.length == 0) return;
    FuzzLimits.within(LIMIT, "minidump-upload", "an upload of " + input.length + " bytes", () -> {
      int how = input[0] & 0xff;
      String type = TYPES[how & 3];
      String encoding = (how & 4) != 0 ? "gzip" : null;
      try {
        byte[] dump = ENDPOINT.read(new LimitedInputStream(new ByteArrayInputStream(input, 1, input.length - 1),
            ENDPOINT.maxBytes(), 0), encoding, type);
        MinidumpEndpoint.Walked walked = ENDPOINT.walk(dump);
        String json = new String(walked.json(), StandardCharsets.UTF_8);
        if (!json.endsWith("\n") || json.indexOf('\n') != json.length() - 1) throw new AssertionError("not one line");
        TestServer.JSON.readTree(json);
      } catch (BadRequest e) {
        if (!REFUSALS.contains(e.status + " " + e.kind)) throw new AssertionError("refused with " + e.status + " " + e.kind, e);
        if (e.getMessage() == null || e.getMessage().isEmpty()) throw new AssertionError("a refusal without a message");
      } catch (IOException e) {
        throw new UncheckedIOException(e); // reading from memory does not fail
      }
    });
  }
}
