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
}
