package dev.gsym.golden;

import dev.gsym.read.GsymReader;
import dev.gsym.write.Diagnostics;
import dev.gsym.write.GsymCreator;
import java.io.IOException;
import java.nio.file.Path;

/** Rebuilds a GSYM file through {@link GsymCreator#from(GsymReader)} and re-encodes it. */
final class Rebuild {
  private Rebuild() {}

  static byte[] rebuild(Path gsym) throws IOException {
    try (GsymReader r = GsymReader.open(gsym)) {
      return creatorFor(r).encode(r.byteOrder());
    }
  }

  /** A finalized creator holding {@code r}'s content. */
  static GsymCreator creatorFor(GsymReader r) {
    GsymCreator c = GsymCreator.from(r);
    c.finish(Diagnostics.silent());
    return c;
  }
}
