package dev.gsym.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What one request may cost (docs/reliability.md, "Resource bounds"): the largest request the
 * default limits accept (100,000 frames) is parsed into a few flat arrays, its heap measured; one
 * frame more is refused with 413 before anything is built for it.
 */
class RequestFootprintTest {
  private static long usedAfterGc() {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, rt.totalMemory() - rt.freeMemory());
    }
    return used;
  }

  private static byte[] body(int frames) {
    StringBuilder sb = new StringBuilder("{\"modules\":[{\"build_id\":\"1d296d52c49352d44988045e45e7a2c66d5f77ea\"}],\"stacks\":[");
    for (int s = 0; s < frames / 100; s++) {
      sb.append(s == 0 ? "" : ",").append("{\"frames\":[");
      for (int f = 0; f < 100; f++) sb.append(f == 0 ? "" : ",").append("{\"module\":0,\"address\":\"0x").append(Integer.toHexString(0x1000 + f)).append("\"}");
      sb.append("]}");
    }
    return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theLargestRequestHeldInFlatArrays() throws Exception {
    RequestParser parser = new RequestParser(SymbolicationServer.DEFAULT_MAX_FRAMES, SymbolicationServer.DEFAULT_MAX_MODULES);
    byte[] max = body(SymbolicationServer.DEFAULT_MAX_FRAMES);
    long before = usedAfterGc();
    long t0 = System.nanoTime();
    SymbolicateRequest r = parser.parse(new LimitedInputStream(new ByteArrayInputStream(max), SymbolicationServer.DEFAULT_MAX_REQUEST_BYTES, 0));
    long ms = (System.nanoTime() - t0) / 1_000_000;
    long held = usedAfterGc() - before;
    assertThat(r.frames()).isEqualTo(SymbolicationServer.DEFAULT_MAX_FRAMES);
    System.out.printf("request of %d frames, %d bytes: parsed in %d ms, %d bytes of heap held%n", r.frames(), max.length, ms, held);
    assertThat(held).as("heap held by the parsed request").isLessThan(8L << 20);

    byte[] over = body(SymbolicationServer.DEFAULT_MAX_FRAMES + 100);
    BadRequest e = assertThrows(BadRequest.class,
        () -> parser.parse(new LimitedInputStream(new ByteArrayInputStream(over), SymbolicationServer.DEFAULT_MAX_REQUEST_BYTES, 0)));
    assertThat(e.status).isEqualTo(413);
    assertThat(e.kind).isEqualTo("too_many_frames");
    System.out.println("one more: " + e.status + " " + e.kind + ": " + e.getMessage());
  }

  private static BadRequest refused(RequestParser parser, String body, long maxBytes) {
    return assertThrows(BadRequest.class, () -> parser.parse(
        new LimitedInputStream(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), maxBytes, 0)));
  }

  /** Every limit of a request answers with its status, kind and a message saying which limit (printed for docs/reliability.md). */
  @Test
  void eachLimitSaysWhichItIs() {
    RequestParser small = new RequestParser(4, 2);
    String deep = "{\"modules\":[],\"stacks\":[],\"x\":" + "[".repeat(40) + "]".repeat(40) + "}";
    String longString = "{\"modules\":[{\"path\":\"/" + "a".repeat(20_000) + "\"}],\"stacks\":[]}";
    String longName = "{\"" + "n".repeat(300) + "\":1,\"modules\":[],\"stacks\":[]}";
    String longNumber = "{\"modules\":[],\"stacks\":[{\"frames\":[{\"module\":0,\"address\":" + "9".repeat(80) + "}]}]}";
    String modules = "{\"modules\":[{\"build_id\":\"ab\"},{\"build_id\":\"ab\"},{\"build_id\":\"ab\"}],\"stacks\":[]}";
    String frames = "{\"modules\":[{\"build_id\":\"ab\"}],\"stacks\":[{\"frames\":[" + "{\"module\":0,\"address\":1},".repeat(4)
        + "{\"module\":0,\"address\":1}]}]}";
    record Case(String name, String body, long maxBytes, int status, String kind) {}
    for (Case c : java.util.List.of(new Case("body", " ".repeat(100) + "{\"modules\":[],\"stacks\":[]}", 64, 413, "body_too_large"),
        new Case("modules", modules, 1 << 20, 413, "too_many_modules"), new Case("frames", frames, 1 << 20, 413, "too_many_frames"),
        new Case("nesting", deep, 1 << 20, 400, "limit_exceeded"), new Case("string", longString, 1 << 20, 400, "limit_exceeded"),
        new Case("name", longName, 1 << 20, 400, "limit_exceeded"), new Case("number", longNumber, 1 << 20, 400, "limit_exceeded"))) {
      BadRequest e = refused(small, c.body(), c.maxBytes());
      System.out.println("limit " + c.name() + ": " + e.status + " " + e.kind + ": " + e.getMessage());
      assertThat(e.status).as(c.name()).isEqualTo(c.status());
      assertThat(e.kind).as(c.name()).isEqualTo(c.kind());
      assertThat(e.getMessage().length()).as(c.name()).isLessThan(300);
    }
  }

  /**
   * Bodies Jackson cannot read as text (fuzzing findings: a UTF-32 body with a non-character, a
   * UCS-4 byte order Jackson does not support) are malformed JSON, 400; they came out of the parser
   * as I/O errors, which the service answers as a broken connection (500). A failure of the body
   * stream itself still is an I/O error.
   */
  @Test
  void unreadableEncodingsAreMalformedJson() throws Exception {
    RequestParser parser = new RequestParser(100, 100);
    for (byte[] b : java.util.List.of(new byte[] {'{', 0, 0, 0, 0, 'w', '5', (byte) 0x94, 0, '\n'},
        new byte[] {0, 'C', 0, 0, 0, 'e', 's', 0, 0, 0, '{', (byte) 0xb0}, new byte[] {(byte) 0xfe, (byte) 0xff, 0, 0, 0, 0, 0, '{'})) {
      BadRequest e = assertThrows(BadRequest.class, () -> parser.parse(new ByteArrayInputStream(b)));
      assertThat(e.status).isEqualTo(400);
      assertThat(e.kind).isEqualTo("malformed_json");
      System.out.println("unreadable body: " + e.getMessage());
    }
    java.io.IOException broken = new java.io.IOException("connection reset");
    java.io.InputStream failing = new java.io.InputStream() {
      @Override
      public int read() throws java.io.IOException {
        throw broken;
      }
    };
    assertThat(assertThrows(java.io.IOException.class, () -> parser.parse(failing))).isSameAs(broken);
  }
}
