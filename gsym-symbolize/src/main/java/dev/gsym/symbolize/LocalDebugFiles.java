package dev.gsym.symbolize;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Finds separate debug files on this machine as gdb and llvm-symbolizer do (llvm's {@code
 * BuildIDFetcher::fetch} and {@code LLVMSymbolizer::findDebugBinary}):
 *
 * <ol>
 *   <li>by build-id (at least 2 bytes): {@code DIR/.build-id/<id[0]>/<id[1:]>.debug} for each
 *       debug directory, in order;
 *   <li>for a binary given by path, by its {@code .gnu_debuglink} name, accepted only if the
 *       file's CRC-32 equals the one in the link: beside the binary, in {@code .debug/} beside it,
 *       then {@code DIR/<the binary's absolute directory>/<name>} for each debug directory (llvm
 *       tries only the first; gdb all of them).
 * </ol>
 */
final class LocalDebugFiles implements Fetcher {
  private final Source.DebugDirectories config;

  LocalDebugFiles(Source.DebugDirectories config) {
    this.config = config;
  }

  @Override
  public Source source() {
    return config;
  }

  @Override
  public Origin origin() {
    return Origin.DEBUG_DIRECTORIES;
  }

  @Override
  public boolean applies(Target.Search t) {
    return t.buildId() != null || t.facts() != null && t.facts().debuglink() != null;
  }

  @Override
  public Fetched fetch(Target.Search t, TempFiles temp) {
    List<String> tried = new ArrayList<>();
    if (t.buildId() != null && t.buildId().length() >= 4) {
      String rel = ".build-id/" + t.buildId().substring(0, 2) + "/" + t.buildId().substring(2) + ".debug";
      for (Path dir : config.directories()) {
        Path p = dir.resolve(rel);
        if (Files.isRegularFile(p)) return new Fetched.Found(p, false, p.toString());
      }
      tried.add("no " + rel + " in " + config.directories());
    }
    if (t.facts() != null && t.facts().debuglink() != null) {
      String name = t.facts().debuglink();
      if (name.indexOf('/') >= 0 || name.equals("..") || name.equals(".")) {
        tried.add("ignored .gnu_debuglink " + Texts.quote(name) + " (not a file name)");
      } else {
        for (Path p : debuglinkCandidates(t.local().file(), name)) {
          if (!Files.isRegularFile(p)) continue;
          try {
            long crc = crc32(p);
            if (crc == t.facts().debuglinkCrc()) return new Fetched.Found(p, false, p.toString());
            tried.add(p + ": CRC-32 " + String.format("%08x", crc) + " is not the debuglink's "
                + String.format("%08x", t.facts().debuglinkCrc()));
          } catch (IOException e) {
            tried.add(p + ": " + Texts.message(e));
          }
        }
        tried.add("no file " + Texts.quote(name) + " with the debuglink's CRC beside " + t.local().file()
            + ", in its .debug/ or under " + config.directories());
      }
    }
    if (tried.isEmpty()) return new Fetched.Missed(Miss.NOT_FOUND, "nothing to look for (no build-id or debuglink)");
    return new Fetched.Missed(Miss.NOT_FOUND, String.join("; ", tried));
  }

  private List<Path> debuglinkCandidates(Path binary, String name) {
    Path dir = binary.toAbsolutePath().normalize().getParent();
    List<Path> c = new ArrayList<>();
    c.add(dir.resolve(name));
    c.add(dir.resolve(".debug").resolve(name));
    Path rel = dir.getRoot() == null ? dir : dir.getRoot().relativize(dir);
    for (Path d : config.directories()) c.add(d.resolve(rel).resolve(name));
    return c;
  }

  /** The CRC-32 of a whole file (the .gnu_debuglink checksum; zlib's polynomial). */
  static long crc32(Path p) throws IOException {
    CRC32 crc = new CRC32();
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 16);
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      while (ch.read(buf) >= 0) {
        buf.flip();
        crc.update(buf);
        buf.clear();
      }
    }
    return crc.getValue();
  }
}
