package dev.gsym.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The jars a JDK AOT cache was made from, recorded next to it ({@code CACHE.jars}) as the POSIX
 * {@code cksum} of each: the launcher compares them with {@code cksum gsymutil.jar lib/*.jar} run in
 * gsym-cli/target (names sorted bytewise, as bash sorts them under {@code LC_ALL=C}). The JVM itself
 * does not notice that a jar changed (JDK-8377932), and a build with unchanged sources (the Spark
 * build's, which packages gsym-cli without the caches) rewrites {@code gsymutil.jar} with the same
 * bytes and a new time: the record tells the two apart without running the JVM.
 */
final class AotJars {
  private AotJars() {}

  /** The record's text for gsym-cli/target {@code target}: one {@code cksum} line per jar. */
  static String record(Path target) throws IOException {
    List<String> names = new ArrayList<>();
    names.add("gsymutil.jar");
    if (Files.isDirectory(target.resolve("lib"))) {
      try (DirectoryStream<Path> libs = Files.newDirectoryStream(target.resolve("lib"), "*.jar")) {
        List<String> lib = new ArrayList<>();
        for (Path p : libs) lib.add("lib/" + p.getFileName());
        lib.sort(null); // bytewise for the ASCII names of jars
        names.addAll(lib);
      }
    }
    StringBuilder b = new StringBuilder();
    for (String name : names) {
      Path p = target.resolve(name);
      b.append(Integer.toUnsignedString(cksum(p))).append(' ').append(Files.size(p)).append(' ').append(name)
          .append('\n');
    }
    return b.toString();
  }

  /** Writes {@code CACHE.jars} for each cache; returns 0, or 1 (printed) if one cannot be written. */
  static int write(Path target, List<Path> caches) {
    try {
      String text = record(target);
      for (Path cache : caches) {
        Files.writeString(cache.resolveSibling(cache.getFileName() + ".jars"), text, StandardCharsets.US_ASCII);
      }
      return 0;
    } catch (IOException e) {
      System.err.println("AotTraining: recording the jars of the AOT caches: " + e);
      return 1;
    }
  }

  private static final int[] TABLE = new int[256];

  static {
    for (int i = 0; i < 256; i++) {
      int c = i << 24;
      for (int k = 0; k < 8; k++) c = (c & 0x80000000) != 0 ? (c << 1) ^ 0x04C11DB7 : c << 1;
      TABLE[i] = c;
    }
  }

  /** POSIX {@code cksum}: CRC-32 (polynomial 0x04C11DB7, most significant bit first) of the bytes and the length. */
  static int cksum(Path file) throws IOException {
    int crc = 0;
    long length = 0;
    byte[] buf = new byte[64 * 1024];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        for (int i = 0; i < n; i++) crc = (crc << 8) ^ TABLE[((crc >>> 24) ^ buf[i]) & 0xFF];
        length += n;
      }
    }
    for (long n = length; n != 0; n >>>= 8) crc = (crc << 8) ^ TABLE[((crc >>> 24) ^ (int) n) & 0xFF];
    return ~crc;
  }
}
