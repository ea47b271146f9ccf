package dev.gsym.serve;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;

/** The access log's lines while open, at INFO; closing restores the logger. */
final class AccessLogCapture implements AutoCloseable {
  private final Logger log = (Logger) org.slf4j.LoggerFactory.getLogger("dev.gsym.serve.access");
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private final Level level = log.getLevel();

  AccessLogCapture() {
    lines.start();
    log.setLevel(Level.INFO);
    log.addAppender(lines);
  }

  /** The messages logged so far (a copy: the appender adds under its own lock, on the server's threads). */
  List<String> lines() {
    synchronized (lines) {
      return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
  }

  @Override
  public void close() {
    log.detachAppender(lines);
    log.setLevel(level);
  }
}
