package dev.gsym.spark;

import dev.gsym.ByteStrings;
import dev.gsym.symbolize.Frame;
import dev.gsym.read.SourceLine;
import dev.gsym.symbolize.Symbolized;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.ArraySeq;

/**
 * The columns the symbolication job appends to each row (docs/spark.md, "Output"):
 *
 * <pre>
 * status    string not null  ok | module_not_found | address_not_covered | module_unreadable
 *                             | bad_build_id | bad_address
 * function  string           the function containing the address (the outermost frame), else null
 * file      string           the source file of the address (the deepest inlined frame), null if unknown
 * line      bigint           its line (0 if GSYM has none), else null
 * frames    array&lt;struct&lt;function string, file string, line bigint&gt;&gt;
 *                            every frame, the deepest inlined one first, the containing function
 *                            last (llvm-symbolizer's order), else null
 * </pre>
 *
 * So {@code function}, {@code file} and {@code line} are what {@code llvm-symbolizer --no-inlines}
 * answers, and {@code frames} what it answers with {@code --inlines}. Names and paths are text as
 * gsymutil's (llvm's) JSON output writes them: bytes that are not UTF-8 are U+FFFD, one per
 * ill-formed subsequence ({@code ByteStrings.wellFormed}), as Parquet and CSV strings are UTF-8.
 */
final class SymbolizedColumns {
  private SymbolizedColumns() {}

  static final String OK = "ok";
  static final String MODULE_NOT_FOUND = "module_not_found";
  static final String ADDRESS_NOT_COVERED = "address_not_covered";
  static final String MODULE_UNREADABLE = "module_unreadable";
  static final String BAD_BUILD_ID = "bad_build_id";
  static final String BAD_ADDRESS = "bad_address";

  static final StructType FRAME = new StructType()
      .add("function", DataTypes.StringType, true)
      .add("file", DataTypes.StringType, true)
      .add("line", DataTypes.LongType, true);

  static final List<StructField> FIELDS = List.of(
      DataTypes.createStructField("status", DataTypes.StringType, false),
      DataTypes.createStructField("function", DataTypes.StringType, true),
      DataTypes.createStructField("file", DataTypes.StringType, true),
      DataTypes.createStructField("line", DataTypes.LongType, true),
      DataTypes.createStructField("frames", DataTypes.createArrayType(FRAME, false), true));

  static final int COUNT = FIELDS.size();

  /** The output schema: {@code input}'s columns, then ours. */
  static StructType outputSchema(StructType input) {
    Set<String> taken = new java.util.HashSet<>();
    for (String n : input.fieldNames()) taken.add(n.toLowerCase(java.util.Locale.ROOT));
    StructType out = input;
    for (StructField f : FIELDS) {
      if (taken.contains(f.name())) {
        throw new IllegalArgumentException("the input already has a column named '" + f.name()
            + "': rename it (the output adds status, function, file, line and frames)");
      }
      out = out.add(f);
    }
    return out;
  }

  /** Writes the appended values of {@code answer} into {@code v} from index {@code at}. */
  static void fill(Object[] v, int at, Symbolized answer) {
    switch (answer) {
      case Symbolized.Found f -> {
        List<Frame> frames = f.frames();
        Frame deepest = frames.get(0);
        Row[] rows = new Row[frames.size()];
        for (int i = 0; i < rows.length; i++) {
          Frame fr = frames.get(i);
          rows[i] = RowFactory.create(ByteStrings.wellFormed(fr.rawName()), file(fr.location()), fr.location().line());
        }
        v[at] = OK;
        v[at + 1] = ByteStrings.wellFormed(f.function().rawName());
        v[at + 2] = file(deepest.location());
        v[at + 3] = deepest.location().line();
        v[at + 4] = ArraySeq.unsafeWrapArray(rows); // the row encoder takes Scala sequences
      }
      case Symbolized.ModuleNotFound m -> v[at] = MODULE_NOT_FOUND;
      case Symbolized.AddressNotCovered a -> v[at] = ADDRESS_NOT_COVERED;
      case Symbolized.ModuleUnreadable u -> v[at] = MODULE_UNREADABLE;
    }
  }

  private static String file(SourceLine l) {
    return l.hasFile() ? ByteStrings.wellFormed(l.path()) : null;
  }
}
