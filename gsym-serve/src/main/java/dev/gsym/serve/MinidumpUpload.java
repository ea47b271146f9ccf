package dev.gsym.serve;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * The minidump of a {@code POST /minidump} body: the body itself, or, for {@code
 * multipart/form-data} (RFC 7578, as Breakpad's and Crashpad's uploaders send it), the part named
 * {@value #PART}. The body is in memory already (bounded by the endpoint's limit); the boundary is
 * searched in linear time, so no body makes the search quadratic.
 */
final class MinidumpUpload {
  /** The form field Breakpad's and Crashpad's uploaders put the dump in. */
  static final String PART = "upload_file_minidump";
  /** RFC 2046: a boundary has 1 to 70 characters. */
  private static final int MAX_BOUNDARY = 70;
  /** The headers of one part; more is no upload of a dump. */
  private static final int MAX_PART_HEADERS = 16 * 1024;

  private MinidumpUpload() {}

  /** The dump in {@code body}, sent with {@code contentType} (null when the request has none). */
  static byte[] dump(String contentType, byte[] body) throws BadRequest {
    if (contentType == null) return body;
    String type = contentType.strip();
    int semi = type.indexOf(';');
    String mime = (semi < 0 ? type : type.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    if (!mime.equals("multipart/form-data")) return body;
    String boundary = parameter(type.substring(semi < 0 ? type.length() : semi), "boundary");
    if (boundary == null || boundary.isEmpty() || boundary.length() > MAX_BOUNDARY) {
      throw bad("multipart/form-data without a valid boundary parameter (1 to " + MAX_BOUNDARY + " characters)");
    }
    return part(body, ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1));
  }

  /** The value of parameter {@code name} in {@code ; a=b; name="v"}, or null. */
  private static String parameter(String params, String name) {
    for (String p : params.split(";")) {
      int eq = p.indexOf('=');
      if (eq < 0 || !p.substring(0, eq).strip().equalsIgnoreCase(name)) continue;
      String v = p.substring(eq + 1).strip();
      if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) v = v.substring(1, v.length() - 1);
      return v;
    }
    return null;
  }

  private static byte[] part(byte[] body, byte[] delimiter) throws BadRequest {
    int[] failure = failureFunction(delimiter);
    // the first delimiter: at the start of the body or of a line (after a preamble)
    int at = indexOf(body, delimiter, failure, 0);
    while (at > 0 && !(body[at - 1] == '\n' && at >= 2 && body[at - 2] == '\r')) {
      at = indexOf(body, delimiter, failure, at + 1);
    }
    if (at < 0) throw bad("the multipart body has no boundary line");
    while (true) {
      int p = at + delimiter.length;
      if (p + 1 < body.length && body[p] == '-' && body[p + 1] == '-') break; // the close delimiter
      // transport padding (spaces, tabs), then CRLF
      while (p < body.length && (body[p] == ' ' || body[p] == '\t')) p++;
      if (p + 1 >= body.length || body[p] != '\r' || body[p + 1] != '\n') {
        throw bad("no line end after the boundary at offset 0x" + Integer.toHexString(at));
      }
      int headersStart = p + 2;
      int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), null, headersStart);
      if (headersEnd < 0 || headersEnd - headersStart > MAX_PART_HEADERS) {
        throw bad("a part's headers do not end (offset 0x" + Integer.toHexString(headersStart) + ")");
      }
      String name = partName(new String(body, headersStart, headersEnd - headersStart, StandardCharsets.UTF_8));
      int contentStart = headersEnd + 4;
      // the part ends at CRLF + delimiter
      int next = indexOf(body, delimiter, failure, contentStart);
      while (next >= 0 && !(next - contentStart >= 2 && body[next - 2] == '\r' && body[next - 1] == '\n')) {
        next = indexOf(body, delimiter, failure, next + 1);
      }
      if (next < 0) throw bad("the part at offset 0x" + Integer.toHexString(at) + " has no closing boundary");
      if (PART.equals(name)) return Arrays.copyOfRange(body, contentStart, next - 2);
      at = next;
    }
    throw bad("the multipart body has no part named \"" + PART + "\"");
  }

  /** The {@code name} of a part's {@code Content-Disposition: form-data; name="..."}, or null. */
  private static String partName(String headers) {
    for (String line : headers.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon < 0 || !line.substring(0, colon).strip().equalsIgnoreCase("Content-Disposition")) continue;
      String v = line.substring(colon + 1);
      int semi = v.indexOf(';');
      return semi < 0 ? null : parameter(v.substring(semi), "name");
    }
    return null;
  }

  /** Knuth-Morris-Pratt's table for {@code pattern}. */
  private static int[] failureFunction(byte[] pattern) {
    int[] f = new int[pattern.length];
    for (int i = 1, k = 0; i < pattern.length; i++) {
      while (k > 0 && pattern[i] != pattern[k]) k = f[k - 1];
      if (pattern[i] == pattern[k]) k++;
      f[i] = k;
    }
    return f;
  }

  /** The first occurrence of {@code pattern} in {@code text} at or after {@code from}, or -1 (linear time). */
  private static int indexOf(byte[] text, byte[] pattern, int[] failure, int from) {
    if (failure == null) failure = failureFunction(pattern);
    for (int i = Math.max(from, 0), k = 0; i < text.length; i++) {
      while (k > 0 && text[i] != pattern[k]) k = failure[k - 1];
      if (text[i] == pattern[k]) k++;
      if (k == pattern.length) return i - pattern.length + 1;
    }
    return -1;
  }

  private static BadRequest bad(String message) {
    return BadRequest.invalid("bad_multipart", message);
  }
}
