package dev.gsym.symbolize;

import java.nio.file.Path;

/**
 * A second process for {@link StoreConcurrencyTest}: symbolizes one address of one module through
 * a store and prints what it found and did.
 *
 * <pre>java -cp TEST_CLASSPATH dev.gsym.symbolize.StoreWorker STORE MODULE_PATH ADDRESS</pre>
 */
public final class StoreWorker {
  private StoreWorker() {}

  public static void main(String[] args) {
    try (Symbolizer s = Symbolizer.builder().store(Path.of(args[0])).build()) {
      Symbolized r = s.symbolize(ModuleRef.parse(args[1]), Long.decode(args[2]));
      String what = r instanceof Symbolized.Found f ? f.function().function() : r.toString();
      System.out.println("result=" + what);
      System.out.println("conversions=" + s.stats().conversions() + " storeHits=" + s.stats().storeHits());
    }
  }
}
