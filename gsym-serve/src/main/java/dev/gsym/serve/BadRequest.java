package dev.gsym.serve;

/**
 * A request the service refuses: the HTTP status, a stable machine-readable kind (the {@code
 * error.kind} of the JSON body and the label of the {@code gsym_serve_errors_total} metric) and a
 * message for people. Never carries a stack trace to the client.
 */
final class BadRequest extends Exception {
  final int status;
  final String kind;

  BadRequest(int status, String kind, String message) {
    super(message, null, false, false);
    this.status = status;
    this.kind = kind;
  }

  static BadRequest invalid(String kind, String message) {
    return new BadRequest(400, kind, message);
  }
}
