package dev.gsym.spark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * One row of the conversion manifest: an input file and what became of it.
 *
 * @param input the input's path (URI) as listed
 * @param format {@code elf}, {@code breakpad}, or null if not recognised
 * @param buildId the ELF build-id (lower-case hex), or null
 * @param debugFile the Breakpad debug file name (MODULE record; dump_syms' for ELF), or null
 * @param debugId the Breakpad debug id, or null
 * @param storePath the module's GSYM relative to the store root, or null
 * @param status {@code converted}, {@code exists} (the store had it: not converted again), {@code
 *     skipped} (the symbolizer would not publish it either: no build-id, or a symbol table only),
 *     {@code failed}
 * @param error why it was skipped or failed (naming the file and, for malformed input, the
 *     offset), else null
 * @param inputBytes the input's size, -1 if unknown
 * @param outputBytes the GSYM's size (also for {@code exists}), -1 if none
 * @param functions the GSYM's function count, -1 if not converted
 * @param millis time spent on the input (copy, conversion, validation, publication)
 */
record ManifestRow(String input, String format, String buildId, String debugFile, String debugId, String storePath,
    String status, String error, long inputBytes, long outputBytes, int functions, long millis) {
  static final String CONVERTED = "converted";
  static final String EXISTS = "exists";
  static final String SKIPPED = "skipped";
  static final String FAILED = "failed";

  static final StructType SCHEMA = new StructType()
      .add("input", DataTypes.StringType, false)
      .add("format", DataTypes.StringType, true)
      .add("build_id", DataTypes.StringType, true)
      .add("debug_file", DataTypes.StringType, true)
      .add("debug_id", DataTypes.StringType, true)
      .add("store_path", DataTypes.StringType, true)
      .add("status", DataTypes.StringType, false)
      .add("error", DataTypes.StringType, true)
      .add("input_bytes", DataTypes.LongType, false)
      .add("output_bytes", DataTypes.LongType, false)
      .add("functions", DataTypes.IntegerType, false)
      .add("millis", DataTypes.LongType, false);

  Row toRow() {
    return RowFactory.create(input, format, buildId, debugFile, debugId, storePath, status, error, inputBytes,
        outputBytes, functions, millis);
  }
}
