package dev.gsym.spark;

import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.Symbolized;
import dev.gsym.symbolize.Symbolizer;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.util.LongAccumulator;

/**
 * The executor side of the symbolication job: rows in, the same rows plus {@link SymbolizedColumns}
 * out, in chunks handed to the executor's {@link Symbolizer} as batches (on the task's thread).
 * Nothing about one row (a bad build-id or address, a module the store lacks or cannot read) fails
 * the task: it is that row's status.
 */
final class SymbolizePartition implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 1L;
  /** Rows per batch: the symbolizer resolves each batch's modules once, then looks the addresses up. */
  private static final int CHUNK = 4096;

  private final Broadcast<byte[]> hadoopConf;
  private final ExecutorModules.Key key;
  private final int buildIdIndex;
  private final int addressIndex;
  private final int width;
  private final LongAccumulator found;
  private final LongAccumulator notFound;

  SymbolizePartition(Broadcast<byte[]> hadoopConf, ExecutorModules.Key key, int buildIdIndex, int addressIndex, int width,
      LongAccumulator found, LongAccumulator notFound) {
    this.hadoopConf = hadoopConf;
    this.key = key;
    this.buildIdIndex = buildIdIndex;
    this.addressIndex = addressIndex;
    this.width = width;
    this.found = found;
    this.notFound = notFound;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> rows) {
    ExecutorModules modules = ExecutorModules.get(key, hadoopConf.value());
    return new Iterator<>() {
      private final List<Row> out = new ArrayList<>(CHUNK);
      private int next;
      private String lastHex;
      private ModuleRef.BuildId lastRef;
      private boolean lastPresent;

      @Override
      public boolean hasNext() {
        if (next < out.size()) return true;
        if (!rows.hasNext()) return false;
        fillChunk();
        return next < out.size();
      }

      @Override
      public Row next() {
        if (!hasNext()) throw new NoSuchElementException();
        return out.get(next++);
      }

      private void fillChunk() {
        out.clear();
        next = 0;
        List<Object[]> values = new ArrayList<>(CHUNK);
        List<Symbolizer.Request> requests = new ArrayList<>(CHUNK);
        List<Integer> asked = new ArrayList<>(CHUNK);
        while (values.size() < CHUNK && rows.hasNext()) {
          Row r = rows.next();
          Object[] v = new Object[width + SymbolizedColumns.COUNT];
          for (int i = 0; i < width; i++) v[i] = r.get(i);
          values.add(v);
          ModuleRef.BuildId ref = ref(r.isNullAt(buildIdIndex) ? null : r.get(buildIdIndex).toString());
          if (ref == null) {
            v[width] = SymbolizedColumns.BAD_BUILD_ID;
            continue;
          }
          long address;
          try {
            address = address(r.get(addressIndex));
          } catch (IllegalArgumentException e) {
            v[width] = SymbolizedColumns.BAD_ADDRESS;
            continue;
          }
          if (!lastPresent) {
            v[width] = SymbolizedColumns.MODULE_NOT_FOUND;
            continue;
          }
          requests.add(new Symbolizer.Request(ref, address));
          asked.add(values.size() - 1);
        }
        List<Symbolized> answers = requests.isEmpty() ? List.of() : modules.symbolizer().symbolize(requests);
        for (int i = 0; i < answers.size(); i++) SymbolizedColumns.fill(values.get(asked.get(i)), width, answers.get(i));
        long ok = 0;
        for (Object[] v : values) {
          if (SymbolizedColumns.OK.equals(v[width])) ok++;
          out.add(RowFactory.create(v));
        }
        found.add(ok);
        notFound.add(values.size() - ok);
      }

      /** The build-id of a row, parsed once per run of equal values (rows come sorted by build-id). */
      private ModuleRef.BuildId ref(String hex) {
        if (hex == null) return null;
        if (hex.equals(lastHex)) return lastRef;
        lastHex = hex;
        try {
          lastRef = ModuleRef.buildId(hex);
          lastPresent = modules.fetch(lastRef);
        } catch (IllegalArgumentException e) {
          lastRef = null;
          lastPresent = false;
        }
        return lastRef;
      }
    };
  }

  private static final BigDecimal TWO_64 = new BigDecimal(java.math.BigInteger.ONE.shiftLeft(64));

  /**
   * An address cell: a string ({@code 0x}/{@code 0X} hex, else decimal; surrounding blanks ignored)
   * or an integer (a negative {@code long} is an unsigned 64-bit value).
   *
   * @throws IllegalArgumentException for null, another type, or a value outside [0, 2^64)
   */
  static long address(Object cell) {
    return switch (cell) {
      case null -> throw new IllegalArgumentException("null address");
      case Long l -> l;
      case Integer i -> {
        if (i < 0) throw new IllegalArgumentException("negative address");
        yield i;
      }
      case Short s -> {
        if (s < 0) throw new IllegalArgumentException("negative address");
        yield s;
      }
      case BigDecimal d -> {
        if (d.signum() < 0 || d.compareTo(TWO_64) >= 0 || d.stripTrailingZeros().scale() > 0) {
          throw new IllegalArgumentException("address out of range");
        }
        yield d.toBigIntegerExact().longValue();
      }
      case String s -> {
        String t = s.strip();
        if (t.startsWith("0x") || t.startsWith("0X")) {
          t = t.substring(2);
          if (t.isEmpty() || t.length() > 16 || t.charAt(0) == '+' || t.charAt(0) == '-') {
            throw new IllegalArgumentException("bad hex address");
          }
          yield Long.parseUnsignedLong(t, 16);
        }
        if (t.isEmpty() || t.charAt(0) == '+' || t.charAt(0) == '-') throw new IllegalArgumentException("bad address");
        yield Long.parseUnsignedLong(t);
      }
      default -> throw new IllegalArgumentException("unsupported address type " + cell.getClass().getSimpleName());
    };
  }
}
