package dev.gsym.serve;

import dev.gsym.GsymFormatException;
import dev.gsym.minidump.Minidump;
import dev.gsym.stackwalk.CallStack;
import dev.gsym.stackwalk.MinidumpProcess;
import dev.gsym.stackwalk.ProcessState;
import dev.gsym.stackwalk.StackwalkJson;
import dev.gsym.stackwalk.Stackwalker;
import dev.gsym.stackwalk.SymbolSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * {@code POST /minidump}: a minidump (the body, or the {@code upload_file_minidump} part of a
 * multipart form; gzip content encoding accepted, as Crashpad sends it) walked by the {@link
 * Stackwalker} with the server's symbols, answered with rust-minidump's JSON report ({@link
 * StackwalkJson}). A dump's walk is bounded by {@link #framesPerThread}.
 */
final class MinidumpEndpoint {
  /** What one walk produced. */
  record Walked(byte[] json, int frames) {}

  private final long maxBytes;

  /** Frames per thread (inlined ones included) of a dump with few threads. */
  static final int MAX_FRAMES_PER_THREAD = 1024;
  /** Frames of one dump, all threads together, before the per-thread bound shrinks (to 64 at least). */
  static final int FRAME_BUDGET = 1 << 17;
  private static final int MIN_FRAMES_PER_THREAD = 64;

  private final SymbolSource symbols;

  MinidumpEndpoint(SymbolSource symbols, long maxBytes) {
    this.symbols = symbols;
    this.maxBytes = maxBytes;
  }

  /**
   * The frames each thread of a dump of {@code threads} threads may have: a hostile dump of
   * thousands of threads sharing one stack of return addresses would otherwise walk millions of
   * frames (and answer gigabytes).
   */
  static int framesPerThread(int threads) {
    return Math.max(MIN_FRAMES_PER_THREAD, Math.min(MAX_FRAMES_PER_THREAD, FRAME_BUDGET / Math.max(1, threads)));
  }

  long maxBytes() {
    return maxBytes;
  }

  /**
   * The dump's bytes from the request body {@code in} (already limited to {@link #maxBytes} and the
   * minimum data rate), decoded by {@code contentEncoding} and taken out of a multipart form.
   */
  byte[] read(InputStream in, String contentEncoding, String contentType) throws IOException, BadRequest {
    byte[] body;
    try {
      if (contentEncoding == null || contentEncoding.isBlank() || contentEncoding.strip().equalsIgnoreCase("identity")) {
        body = in.readAllBytes();
      } else if (contentEncoding.strip().equalsIgnoreCase("gzip")) {
        // the limit holds for the decoded body too: a small bomb does not inflate past it
        try (InputStream gz = new LimitedInputStream(new GZIPInputStream(in), maxBytes, 0)) {
          body = gz.readAllBytes();
        } catch (ZipException | java.io.EOFException e) {
          throw BadRequest.invalid("bad_encoding", "the gzip-encoded body cannot be decoded: " + e.getMessage());
        }
      } else {
        throw new BadRequest(415, "unsupported_encoding", "content encoding '" + contentEncoding + "' (identity or gzip)");
      }
    } catch (LimitedInputStream.TooLarge e) {
      throw e.badRequest();
    }
    byte[] dump = MinidumpUpload.dump(contentType, body);
    if (dump.length == 0) throw BadRequest.invalid("bad_minidump", "the minidump is empty");
    return dump;
  }

  /** Walks {@code dump}; a dump that cannot be read is a 400 naming the offset. */
  Walked walk(byte[] dump) throws BadRequest {
    try (Minidump d = Minidump.of(dump, "minidump")) {
      MinidumpProcess process = MinidumpProcess.of(d);
      Stackwalker.Builder b = Stackwalker.builder().maxFrames(framesPerThread(process.threads().size()));
      if (symbols != null) b.symbols(symbols);
      ProcessState state = b.build().walk(process);
      int frames = 0;
      for (CallStack t : state.threads()) frames += t.frames().size();
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(4096, frames * 400));
      StackwalkJson.write(state, StackwalkJson.DumpDetails.of(d), out, false);
      out.write('\n');
      return new Walked(out.toByteArray(), frames);
    } catch (GsymFormatException e) {
      throw BadRequest.invalid("bad_minidump", e.getMessage());
    }
  }
}
