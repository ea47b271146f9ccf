package dev.gsym.serve;

import dev.gsym.GsymFormatException;
import dev.gsym.minidump.Minidump;
import dev.gsym.stackwalk.CallStack;
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
 * StackwalkJson}).
 */
final class MinidumpEndpoint {
  /** What one walk produced. */
  record Walked(byte[] json, int frames) {}

  private final Stackwalker walker;
  private final long maxBytes;

  /**
   * Frames per thread (inlined ones included): a hostile dump of thousands of threads sharing one
   * stack of return addresses would otherwise walk millions of frames.
   */
  static final int MAX_FRAMES_PER_THREAD = 1024;

  MinidumpEndpoint(SymbolSource symbols, long maxBytes) {
    Stackwalker.Builder b = Stackwalker.builder().maxFrames(MAX_FRAMES_PER_THREAD);
    if (symbols != null) b.symbols(symbols);
    this.walker = b.build();
    this.maxBytes = maxBytes;
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
      ProcessState state = walker.walk(d);
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
